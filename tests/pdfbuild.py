"""Build small logbook PDFs in tests, shaped like real exports (fpdf2, core fonts)."""

from __future__ import annotations

import zlib
from dataclasses import dataclass, field
from pathlib import Path

from fpdf import FPDF


@dataclass
class Note:
    heading: str
    paragraphs: list[str] = field(default_factory=list)
    code: list[str] = field(default_factory=list)


def write_entry(pdf: FPDF, heading: str, lines: list[str], pitch: float = 6.0) -> None:
    """A dated heading in 16 pt bold, then `lines` of 11 pt body text, `pitch` mm apart."""
    pdf.set_font("Helvetica", "B", 16)
    pdf.cell(0, pitch + 4, heading, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", size=11)
    for line in lines:
        pdf.cell(0, pitch, line, new_x="LMARGIN", new_y="NEXT")


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


def unicode_pdf(lines: list[tuple[str, float]], compress: bool = False,
                font: str = "Helvetica", unmapped: str = "") -> bytes:
    """A one-page PDF of (text, size) lines in any Unicode: CJK, emoji, even a lone surrogate.

    Each character is a glyph of a Type0 font mapped back to Unicode by a ToUnicode CMap,
    as browsers write them; no font file is needed, since readers take the text from the map.
    A line is shown in strings of at most 1,000 glyphs (PDFium reads no further than 16,383
    in one); `compress` deflates the page, so a line of millions of characters takes kilobytes.
    `font` names the font (a monospaced one, "Courier", makes the lines a code block's);
    the glyphs of `unmapped` characters are left out of the map, as a browser leaves a
    colour emoji's.
    """
    chars = sorted({c for text, _ in lines for c in text})
    cid = {c: i + 1 for i, c in enumerate(chars)}
    def utf16(c: str) -> str:
        return c.encode("utf-16-be", "surrogatepass").hex().upper()

    cmap = ("/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n"
            "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def\n"
            "/CMapName /Adobe-Identity-UCS def /CMapType 2 def\n"
            "1 begincodespacerange <0000> <FFFF> endcodespacerange\n"
            f"{len(chars) - len(set(unmapped) & set(chars))} beginbfchar\n"
            + "".join(f"<{cid[c]:04X}> <{utf16(c)}>\n" for c in chars if c not in unmapped)
            + "endbfchar endcmap CMapName currentdict /CMap defineresource pop end end")
    y, ops = 750, []
    for text, size in lines:
        shows = " ".join("<" + "".join(f"{cid[c]:04X}" for c in text[i:i + 1000]) + "> Tj"
                         for i in range(0, len(text), 1000))
        ops.append(f"BT /F1 {size} Tf 72 {y} Td {shows} ET")
        y -= size * 2
    content = "\n".join(ops).encode()
    deflate = " /Filter /FlateDecode" if compress else ""
    content = zlib.compress(content) if compress else content
    widths = " ".join("600" for _ in chars)
    objects = [
        "<< /Type /Catalog /Pages 2 0 R >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        "/Resources << /Font << /F1 5 0 R >> >> >>",
        f"<< /Length {len(content)}{deflate} >>\nstream\n".encode() + content + b"\nendstream",
        f"<< /Type /Font /Subtype /Type0 /BaseFont /{font} /Encoding /Identity-H "
        "/DescendantFonts [6 0 R] /ToUnicode 7 0 R >>",
        f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{font} "
        "/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
        f"/FontDescriptor 8 0 R /W [1 [{widths}]] >>",
        f"<< /Length {len(cmap)} >>\nstream\n{cmap}\nendstream",
        f"<< /Type /FontDescriptor /FontName /{font} /Flags 32 /FontBBox [0 -200 1000 900] "
        "/ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 >>",
    ]
    out, offsets = b"%PDF-1.7\n", []
    for n, body in enumerate(objects, 1):
        offsets.append(len(out))
        body = body if isinstance(body, bytes) else body.encode()
        out += f"{n} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
    out += f"trailer << /Size {len(objects) + 1} /Root 1 0 R >>\n".encode()
    out += f"startxref\n{xref}\n%%EOF\n".encode()
    return out
