"""A table printed with its rules (a border around each cell) reads as Markdown writes it.

A narrow column wraps its header ("tok/s" over "(6h)") and the renderer centres the row's
other cells between those lines, so read line by line the header's words mix with the
next lines'. Read by its rules, each row is one line, `| cell | cell |`, under a header
and its rule line, and the counters at zero in it count none (label/counters.py).
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest
from fpdf import FPDF

from logbook_miner.label.classifier import Classifier
from logbook_miner.models import Document, Line
from logbook_miner.read import PDF_BACKENDS, read
from logbook_miner.segment.entries import segment

HEADER = ("steps", "tok/s (6h)", "NaN/Inf steps", "preempt", "ckpt ok/fail")
ROW = ("4,250 -> 6,920", "0.521M", "0", "0", "5/0")


def _digest(path: Path) -> Path:
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, "2024-09-04 23:59 UTC - daily digest #3", new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    pdf.set_font("Helvetica", size=11)
    with pdf.table(col_widths=(30, 14, 16, 18, 16), width=120, align="LEFT",
                   text_align="CENTER") as table:  # narrow columns: headers wrap
        for cells in (HEADER, ROW):
            row = table.row()
            for text in cells:
                row.cell(text)
    pdf.ln(6)
    pdf.multi_cell(0, 6, "Quiet day, nothing to report.")
    pdf.output(str(path))
    return path


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_a_ruled_tables_rows_read_whole_under_a_header(tmp_path, backend):
    [entry] = segment(read(_digest(tmp_path / "digest.pdf"), backend))
    header, rule, row = entry.text.split("\n")[:3]
    assert header == "| " + " | ".join(HEADER) + " |"
    assert rule == "|---|---|---|---|---|"
    assert row == "| " + " | ".join(ROW) + " |"


@pytest.mark.parametrize("backend", PDF_BACKENDS)
def test_its_counters_at_zero_count_none(tmp_path, backend):
    entries = segment(read(_digest(tmp_path / "digest.pdf"), backend))
    [labelled] = Classifier(layer_path=None).classify(entries)
    assert [label.code for label in labelled.labels] == []


@pytest.mark.parametrize("frame", ["border", "quotation"])
def test_a_frame_around_a_note_is_no_table(tmp_path, frame):
    """One cell with a border is a note in a box, and a quotation's background with the bar
    over its left side (two boxes, one on the other, as WeasyPrint draws a blockquote) is
    none either: their lines stay lines."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, "2024-09-05 notes", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    if frame == "quotation":
        pdf.set_fill_color(230, 230, 230)
        pdf.rect(10, pdf.get_y(), 130, 12, style="F")
        pdf.set_fill_color(120, 120, 120)
        pdf.rect(10, pdf.get_y(), 1, 12, style="F")
        pdf.rect(10.8, pdf.get_y(), 129.2, 12, style="F")
    pdf.multi_cell(120, 6, "Node 7 was drained.\nThe job resumed from step 900.",
                   border=1 if frame == "border" else 0)
    pdf.output(str(tmp_path / "note.pdf"))
    [entry] = segment(read(tmp_path / "note.pdf"))
    assert entry.text == "Node 7 was drained.\nThe job resumed from step 900."


def _hand_ruled(path: Path, body_rules: bool, underline: bool) -> Path:
    """A table drawn with lines, as LaTeX or a word processor draws one: columns at 20, 60,
    100 and 140 mm; a rule over and under the header and under the last row, and, with
    `body_rules`, between the rows; with `underline`, a word of a cell underlined."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, 10, "2024-09-04 node report", new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    rows = [("node", "Xid", "restarts"), ("gn01", "79", "2"), ("gn02", "0", "0"),
            ("gn03", "48", "1")]
    top = pdf.get_y() + 4
    for n, row in enumerate(rows):
        y = top + 8 * n
        for x, text in zip((22, 62, 102), row, strict=True):
            pdf.text(x, y + 5.5, text)
        if underline and n == 1:
            pdf.line(22, y + 6.5, 32, y + 6.5)  # under "gn01"
        if n < 2 or body_rules:
            pdf.line(20, y, 140, y)
    pdf.line(20, top + 8 * len(rows), 140, top + 8 * len(rows))
    for x in (20, 60, 100, 140):
        pdf.line(x, top, x, top + 8 * len(rows))
    pdf.output(str(path))
    return path


@pytest.mark.parametrize("backend", PDF_BACKENDS)
@pytest.mark.parametrize("body_rules, underline", [(True, False), (False, False), (True, True)])
def test_a_hand_ruled_table_reads_a_row_a_line(tmp_path, backend, body_rules, underline):
    """Ruled between its rows or only around its header, with a word underlined or not,
    each row is one line under the header."""
    [entry] = segment(read(_hand_ruled(tmp_path / "t.pdf", body_rules, underline), backend))
    assert entry.text.split("\n") == [
        "| node | Xid | restarts |", "|---|---|---|", "| gn01 | 79 | 2 |", "| gn02 | 0 | 0 |",
        "| gn03 | 48 | 1 |"]


def test_a_printed_logs_rows_a_fraction_of_a_point_apart_are_its_entries():
    """Chromium sets a table's rows at 0.3999... and 0.4000... points: one column of rows."""
    rows = [Line("| 2024-03-04 | Run launched | — |", size=11.0, indent=0.3999999999999986),
            Line("| 2024-03-05 | node-44 ECC errors | drained |", size=11.0,
                 indent=0.4000000000000057),
            Line("| 2024-03-06 | Loss spike | none |", size=11.0, indent=0.4000000000000057)]
    doc = Document(path=Path("log.pdf"), format="pdf",
                   lines=[Line("Run log", size=22.0, bold=True), Line(""), *rows, Line("")])
    assert [e.date for e in segment(doc)] == [date(2024, 3, 4), date(2024, 3, 5),
                                             date(2024, 3, 6)]
