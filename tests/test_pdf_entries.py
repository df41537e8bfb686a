"""A PDF's entries are its Markdown's: a bold label that names a date inside an entry, and a
preamble paragraph a PDF wraps over lines, start no entry of their own.

Printed, a comment's label ("**comment (ana.k, 2025-01-16):** 🙏") can stand alone in bold
when the font drops the emoji after it, and a one-line preamble wraps to three; read as
lines, the first looked like a dated heading and the second like an undated entry.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from fpdf import FPDF
from pdfbuild import write_entry

from logbook_miner.models import Document, Line
from logbook_miner.read import PDF_BACKENDS, read
from logbook_miner.segment.entries import segment

PREAMBLE = ("Wiki > ML Platform > loomtrain > Known issues. Page owner: the loomtrain "
            "maintainers. Add new entries at the bottom, newest last, and use the template "
            "with what happened, its impact, root cause, workaround and status.")
BODY = ["The job hit the 48 h limit at step 120k and was killed before it could save.",
        "Lost about 40 minutes of work since the last checkpoint.",
        "Filed as a ticket; the comments below follow what was done."]
ENTRIES = [("2025-01-16 TRAIN-1229 job killed at the time limit",
            [("comment (chen.w, 2025-01-16):", "requeued by hand as 89011."),
             ("comment (ana.k, 2025-01-16):", "")]),
           ("2025-01-17 TRAIN-1230 MBS 2 attempt: OOM on PP stage 0",
            [("comment (ana.k, 2025-01-17):", "back to MBS 1, relaunched.")])]


def _wiki(path: Path, with_preamble: bool) -> Path:
    """Dated headings in a larger bold font; under them, comments whose label is bold."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    if with_preamble:
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 6, PREAMBLE, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(4)
    for heading, comments in ENTRIES:
        write_entry(pdf, heading, BODY)
        pdf.ln(6)
        for label, said in comments:
            pdf.set_font("Helvetica", "B", 11)
            pdf.cell(pdf.get_string_width(label + " "), 6, label + " ")
            pdf.set_font("Helvetica", size=11)
            pdf.cell(0, 6, said, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(6)  # a paragraph's gap
    pdf.output(str(path))
    return path


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_a_bold_label_dated_inside_stays_in_its_entry(tmp_path, backend):
    entries = segment(read(_wiki(tmp_path / "wiki.pdf", with_preamble=False), backend))
    assert [(e.heading, str(e.date)) for e in entries] == [
        (heading, heading[:10]) for heading, _ in ENTRIES]
    assert entries[0].text.endswith("**comment (ana.k, 2025-01-16):**")


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_a_preamble_paragraph_wrapped_over_lines_is_no_entry(tmp_path, backend):
    pdf = _wiki(tmp_path / "wiki.pdf", with_preamble=True)
    lines = [line for line in read(pdf, backend).lines if line.text.strip()]
    assert sum("Page owner" in line.text or "status." in line.text for line in lines) == 2
    assert [e.heading for e in segment(read(pdf, backend))] == [h for h, _ in ENTRIES]


@pytest.mark.parametrize("before", [
    "Notes on the 13B run.\n\nWe launched on Monday and it went fine.",
    "Notes on the 13B run.\nWe launched on Monday and it went fine.",  # a written line break
])
def test_more_than_a_preamble_before_the_first_heading_is_still_an_entry(tmp_path, before):
    """Text of two paragraphs before the headings, or of two lines its writer broke (in
    Markdown, not wrapped by a renderer), is kept as an undated entry."""
    path = tmp_path / "log.md"
    path.write_text(f"{before}\n\n## 2025-01-16\n\nNode 7 died.\n", encoding="utf-8")
    entries = segment(read(path))
    assert [(e.heading, e.date) for e in entries] == [("Notes on the 13B run.", None),
                                                      ("2025-01-16", date(2025, 1, 16))]
    assert entries[0].text == "We launched on Monday and it went fine."


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_bold_titles_dated_inside_under_a_dated_heading_stay_entries(tmp_path, backend):
    """A bold title of its own ("Standup, 2024-03-05") under a heading that spans its days
    is an entry; only a label (ending with ':') folds into the entry above."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, "Sprint 12 (2024-03-04 to 2024-03-15)", new_x="LMARGIN", new_y="NEXT")
    for day in ("2024-03-05", "2024-03-06"):
        pdf.ln(6)
        pdf.set_font("Helvetica", "B", 11)
        pdf.cell(0, 6, f"Standup, {day}", new_x="LMARGIN", new_y="NEXT")
        pdf.ln(6)
        pdf.set_font("Helvetica", size=11)
        for line in BODY:
            pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(tmp_path / "sprint.pdf"))
    entries = segment(read(tmp_path / "sprint.pdf", backend))
    assert [e.heading for e in entries] == ["Sprint 12 (2024-03-04 to 2024-03-15)",
                                            "Standup, 2024-03-05", "Standup, 2024-03-06"]


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_a_bold_day_printed_without_a_gap_opens_its_entry(tmp_path, backend):
    """A Markdown "#### 26.02." printed as bold body-sized text with no gap below it (as
    Chromium prints a small heading) is still a heading: a short bold line that opens with its
    date needs no blank line around it."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    pdf.cell(0, 10, "Training log, run delta-7b, 2024", new_x="LMARGIN", new_y="NEXT")
    for day in ("26.02.", "27.02.", "01.03."):
        pdf.set_font("Helvetica", "B", 11)
        pdf.cell(0, 6, day, new_x="LMARGIN", new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        for line in BODY[:2]:
            pdf.cell(0, 6, line, new_x="LMARGIN", new_y="NEXT")
    path = tmp_path / "log.pdf"
    pdf.output(str(path))
    assert [(e.heading, str(e.date)) for e in segment(read(path, backend))][-3:] == [
        ("26.02.", "2024-02-26"), ("27.02.", "2024-02-27"), ("01.03.", "2024-03-01")]


def test_a_bold_date_right_under_a_preamble_line_heads_its_entry():
    """Chromium sets no gap between a preamble line and a bold date under it: the date is a
    heading of its own, not the date line of an activity feed's event."""
    lines = [Line("Pretraining log — atlas-7B (2024)", size=22.0, bold=True), Line(""),
             Line("Owner: infra rotation. Cluster: 8 nodes.", size=11.0),
             Line("Monday, March 4", size=11.0, bold=True),
             Line("Launched r3 from the step-18000 checkpoint.", size=11.0),
             Line("Tuesday, March 5", size=11.0, bold=True),
             Line("Node gpu-a113 dropped out at 02:40.", size=11.0), Line("")]
    entries = segment(Document(path=Path("log.pdf"), format="pdf", lines=lines))
    assert [(e.heading, e.date) for e in entries if e.date] == [
        ("Monday, March 4", date(2024, 3, 4)), ("Tuesday, March 5", date(2024, 3, 5))]


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_paragraphs_a_line_long_set_a_blank_line_apart_are_apart(tmp_path, backend):
    """As WeasyPrint prints a chat export: each message a paragraph, most of them one line, a
    blank line's height between them; the step from one paragraph to the next is then the
    commonest, and read as the line's pitch it ran the messages into one block."""
    messages = [["Jane Doe (Mar 14, 2024 9:12 AM): job died again at 03:14, NCCL watchdog timeout",
                 "on rank 211, auto-restart picked it up from 44500"],
                ["Marco Rossi (Mar 14, 2024 9:20 AM): same rank as last time? node-27 I think"],
                ["Jane Doe (Mar 14, 2024 9:24 AM): yes node-27, draining it after the checkpoint"],
                ["Akira Sato (Mar 15, 2024 10:41 AM): nccl-tests clean overnight, node-27 back"],
                ["Marco Rossi (Mar 16, 2024 11:58 PM): restart #14, OOM on rank 0 in eval hook"]]
    pdf = FPDF(format="letter", unit="pt")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 22)
    pdf.cell(0, 26, "Zulip copy: #pretrain-13b", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    for message in messages:
        pdf.ln(11)  # a blank line's height (1em) between paragraphs
        for line in message:
            pdf.cell(0, 12.8, line, new_x="LMARGIN", new_y="NEXT")
    path = tmp_path / "chat.pdf"
    pdf.output(str(path))
    assert [(e.heading, e.date, e.time) for e in segment(read(path, backend))] == [
        ("Jane Doe (Mar 14, 2024 9:12 AM):", date(2024, 3, 14), "9:12 AM"),
        ("Marco Rossi (Mar 14, 2024 9:20 AM):", date(2024, 3, 14), "9:20 AM"),
        ("Jane Doe (Mar 14, 2024 9:24 AM):", date(2024, 3, 14), "9:24 AM"),
        ("Akira Sato (Mar 15, 2024 10:41 AM):", date(2024, 3, 15), "10:41 AM"),
        ("Marco Rossi (Mar 16, 2024 11:58 PM):", date(2024, 3, 16), "11:58 PM")]


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_closed_sections_printed_as_their_summaries_are_dated_items(tmp_path, backend):
    """Chromium prints an HTML `<details>` closed: its `<summary>` alone, after a disclosure
    triangle it draws (a summary is a list item whose marker is the triangle), so a log of
    one section a day prints as a list of its days."""
    days = ["2024-03-12 - launch", "2024-03-13 - loss plateau at 3.1",
            "2024-03-14 - restarted after ECC"]
    pdf = FPDF(format="letter", unit="pt")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 22)
    pdf.cell(0, 26, "mist-13b training log", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    pdf.ln(11)
    pdf.cell(0, 12.8, "Click a day to expand.", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(11)
    for day in days:
        y = pdf.get_y()
        pdf.polygon([(42, y + 2.8), (48.2, y + 6.4), (42, y + 10.1)], style="F")  # ▸, 7.3 tall
        pdf.set_x(53.6)
        pdf.cell(0, 12.8, day, new_x="LMARGIN", new_y="NEXT")
    path = tmp_path / "log.pdf"
    pdf.output(str(path))
    assert [(e.heading, str(e.date)) for e in segment(read(path, backend))][-3:] == [
        (day, day[:10]) for day in days]
