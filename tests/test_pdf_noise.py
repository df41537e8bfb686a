"""What PDF renderers do to text, undone: broken tokens, page furniture in code, NFKC."""

from __future__ import annotations

from pathlib import Path

import pytest
from fpdf import FPDF
from pdfbuild import write_entry

from logbook_miner.read import PDF_BACKENDS, read_pdf
from logbook_miner.segment.entries import segment

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")


class Footed(FPDF):
    def footer(self):
        self.set_y(-15)
        self.set_font("Helvetica", size=8)
        self.cell(0, 6, f"Page {self.page_no()} of {{nb}}")


def lines_pdf(path: Path, heading: str, body: list[str], code: list[str]) -> Path:
    """One entry: a bold heading, body lines placed as given, then a long code block."""
    pdf = Footed(format="letter")
    pdf.alias_nb_pages()
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.add_page()
    write_entry(pdf, heading, body, pitch=5.5)
    pdf.ln(4)
    pdf.set_font("Courier", size=9)
    for line in code:
        pdf.cell(0, 4.5, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


CODE = [f"iteration {i:6d} | lm loss: 2.{i % 97:02d} | grad norm: 0.{i % 89:02d}"
        for i in range(1000, 1000 + 130)]  # spans a page break


@pytest.fixture(scope="module", params=PDF_BACKENDS)
def entry(request, tmp_path_factory):
    path = lines_pdf(tmp_path_factory.mktemp("noise") / "noise.pdf", "2022-04-29 crash notes",
                     ["The job died at 2022-04-", "29T20:28:38 and the code is open-",
                      "sourced at https://example.org/logs/",
                      "run12/index.html for everyone."], CODE)
    [only] = segment(read_pdf(path, backend=request.param))
    return only


def test_tokens_broken_at_a_hyphen_or_slash_are_rejoined(entry):
    assert "2022-04-29T20:28:38" in entry.text
    assert "open-sourced" in entry.text  # the real hyphen stays
    assert "https://example.org/logs/run12/index.html" in entry.text


def test_page_footer_inside_a_code_block_is_removed(entry):
    assert entry.page_start == 1 and entry.page_end == 3
    assert "Page 1 of" not in entry.text
    code = entry.text[entry.text.index("iteration"):]
    assert code.splitlines() == CODE  # unbroken across the page


@pytest.mark.skipif(not DEJAVU.exists(), reason=f"{DEJAVU} not installed (fonts-dejavu-core)")
def test_compatibility_characters_are_normalised(tmp_path):
    pdf = FPDF()
    pdf.add_font("DejaVu", fname=str(DEJAVU))
    pdf.add_page()
    pdf.set_font("DejaVu", size=16)
    pdf.cell(0, 9, "2022-05-01 ﬁxed ① checkpoint", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("DejaVu", size=11)
    pdf.cell(0, 6, "The ﬁle system is back.")
    pdf.output(str(tmp_path / "nfkc.pdf"))
    for backend in PDF_BACKENDS:
        [only] = segment(read_pdf(tmp_path / "nfkc.pdf", backend=backend))
        assert (only.heading, only.text) == ("2022-05-01 fixed 1 checkpoint",
                                             "The file system is back.")


KPI_ROWS = [("Metric", "This week", "Last week"), ("Restarts", "0", "2"),
            ("Incidents: hangs", "0", "0"), ("Incidents: NaN / overflow", "0", "1")]
JUSTIFIED = ("Quiet week. The reliability bot's counters moved nowhere; notwithstanding "
             "that, checkpointing-throughput-measurements and eval-harness-regressions were "
             "reviewed, documented, re-verified, and archived.")


def table_pdf(path: Path) -> Path:
    """A dated heading, a justified paragraph (wide gaps, no columns), then a table of counters."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 9, "2024-01-15 weekly KPIs", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    pdf.multi_cell(90, 5.5, JUSTIFIED, align="J", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(3)
    with pdf.table(col_widths=(70, 30, 30), width=130, align="LEFT") as table:
        for row in KPI_ROWS:
            cells = table.row()
            for cell in row:
                cells.cell(cell)
    pdf.output(str(path))
    return path


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_a_tables_rows_come_out_as_markdown_rows_and_prose_stays_prose(tmp_path, backend):
    [entry] = segment(read_pdf(table_pdf(tmp_path / "kpi.pdf"), backend=backend))
    lines = entry.text.splitlines()
    rows = ["| " + " | ".join(row) + " |" for row in KPI_ROWS]  # under the header, its rule line
    assert lines[-len(KPI_ROWS) - 1:] == [rows[0], "|---|---|---|", *rows[1:]]
    assert " ".join(lines[:-len(KPI_ROWS) - 1]).split() == JUSTIFIED.split()  # no cells in prose


def list_pdf(path: Path, items: list[str], code_first: bool = False) -> Path:
    """A heading over list items laid out as Word prints them: the marker, a tab, the text
    (or an item that opens with inline code, whose monospace spaces are wide)."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 9, "2024-01-04 notes", new_x="LMARGIN", new_y="NEXT")
    for n, item in enumerate(items, 1):
        pdf.set_x(20)
        if code_first:
            command, rest = item.split(" :: ")
            pdf.set_font("Courier", size=11)
            pdf.cell(pdf.get_string_width(command), 6, command)
            pdf.set_font("Helvetica", size=11)
            pdf.cell(0, 6, " " + rest, new_x="LMARGIN", new_y="NEXT")
        else:
            pdf.set_font("Helvetica", size=11)
            pdf.cell(8, 6, f"{n}.")
            pdf.cell(0, 6, item, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))
    return path


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_list_items_with_a_hanging_indent_are_no_table(tmp_path, backend):
    items = ["2024-01-05 restarted node 3 after an ECC error", "2024-01-06 quiet day",
             "2024-01-08 drained node 7"]
    path = list_pdf(tmp_path / "l.pdf", items)
    lines = [line.text for line in read_pdf(path, backend).lines if line.text]
    assert lines[1:] == [f"{n}. {item}" for n, item in enumerate(items, 1)]


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_inline_code_at_a_lines_start_is_no_table(tmp_path, backend):
    items = ["nvidia-smi -q :: showed 0 ECC errors on every node",
             "nvidia-smi -q -d ECC :: again after the reboot, still clean"]
    path = list_pdf(tmp_path / "c.pdf", items, code_first=True)
    lines = [" ".join(line.text.split()) for line in read_pdf(path, backend).lines if line.text]
    assert lines[1:] == [item.replace(" :: ", " ") for item in items]


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_headings_and_dates_that_open_pages_are_no_page_furniture(tmp_path, backend):
    """Each week's post opens a page: its heading and its 'Posted on' line sit at one height on
    every page, as a running header does, but differ in more than the page's number; the
    footer ("Page 2 of 3") goes."""
    pdf = Footed(format="letter")
    pdf.alias_nb_pages()
    for week, day in [(4, "02"), (5, "09"), (6, "16")]:
        pdf.add_page()
        pdf.set_font("Helvetica", "B", 16)
        pdf.cell(0, 9, f"Week {week}", new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.cell(0, 6, f"Posted on: 2023-10-{day}", new_x="LMARGIN", new_y="NEXT")
        pdf.cell(0, 6, f"Calm week, {week * 20}k steps, loss steady.", new_x="LMARGIN",
                 new_y="NEXT")
    pdf.output(str(tmp_path / "weekly.pdf"))
    entries = segment(read_pdf(tmp_path / "weekly.pdf", backend))
    assert [(e.heading, str(e.date)) for e in entries] == [
        ("Week 4", "2023-10-02"), ("Week 5", "2023-10-09"), ("Week 6", "2023-10-16")]
    assert not any("Page" in e.text for e in entries)
