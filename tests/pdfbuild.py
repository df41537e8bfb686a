"""Build small logbook PDFs in tests, shaped like real exports (fpdf2, core fonts)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from fpdf import FPDF


@dataclass
class Note:
    heading: str
    paragraphs: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)


class LogbookPDF(FPDF):
    """A Google-Docs-like print: browser header and footer on every page."""

    def __init__(self, title: str, footer_style: str = "browser"):
        super().__init__(format="letter")
        self.logbook_title = title
        self.footer_style = footer_style
        self.set_auto_page_break(auto=True, margin=20)

    def header(self):
        if self.footer_style == "browser":
            self.set_font("Helvetica", size=8)
            header = f"11/29/26, 9:36 AM {self.logbook_title}"  # a render date, not a logbook date
            self.cell(0, 6, header, new_x="LMARGIN", new_y="NEXT")
            self.ln(4)

    def footer(self):
        self.set_y(-15)
        self.set_font("Helvetica", size=8)
        if self.footer_style == "browser":
            text = f"file:///tmp/x/{self.logbook_title}.html {self.page_no()}/{{nb}}"
        else:
            text = f"Page {self.page_no()} of {{nb}}"
        self.cell(0, 6, text)


def write_logbook(path: Path, title: str, notes: list[Note], toc: bool = True,
                  footer_style: str = "browser", toc_indent: float = 0.0,
                  intro: str | None = None) -> Path:
    pdf = LogbookPDF(title, footer_style)
    pdf.alias_nb_pages()
    pdf.add_page()
    pdf.set_font("Helvetica", "B", 20)
    pdf.multi_cell(0, 10, title, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(4)
    if intro:
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 5.5, intro, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(3)
    if toc:
        pdf.set_font("Helvetica", size=11)
        for note in notes:
            pdf.set_x(pdf.l_margin + toc_indent)
            pdf.multi_cell(0, 6, note.heading, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(6)
    for note in notes:
        pdf.set_font("Helvetica", "B", 14)
        pdf.multi_cell(0, 7, note.heading, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(2)
        pdf.set_font("Helvetica", size=11)
        for paragraph in note.paragraphs:
            pdf.multi_cell(0, 5.5, paragraph, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
        if note.code:
            pdf.set_font("Courier", size=9)
            for line in note.code:
                pdf.cell(0, 4.5, line, new_x="LMARGIN", new_y="NEXT")
            pdf.ln(3)
    pdf.output(str(path))
    return path
