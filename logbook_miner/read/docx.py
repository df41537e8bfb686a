"""Word logbooks (.docx): Word itself, Google Docs, Notion, Confluence or pandoc exports.

Read with python-docx, the maintained reader of the format: it resolves
styles, their base styles and run properties, so structure decides, not
looks: a Word heading style (`Heading 1`-`6`, `Title`, or an outline level)
is a heading, a paragraph in a list numbering is a list item, a code style
or a monospace font is code, a table row is a line. A paragraph that is bold
throughout is a bold line, which is how Google Docs writes many headings.
"""

from __future__ import annotations

import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import docx
from docx.enum.style import WD_STYLE_TYPE
from docx.opc.exceptions import PackageNotFoundError
from docx.oxml.ns import qn
from docx.styles.style import BaseStyle
from docx.table import Table
from docx.text.paragraph import Paragraph
from docx.text.run import Run
from lxml import etree

from ..models import Document, Line
from .blocks import MONOSPACE, Blocks, Span, paragraph_lines, table_lines
from .errors import ReadError

_HEADING_STYLE = re.compile(r"heading\s*(\d)", re.IGNORECASE)
_TITLE_STYLE = re.compile(r"title", re.IGNORECASE)
# Paragraph and character styles of code: pandoc's Source Code / Verbatim Char, Word's
# HTML Preformatted / HTML Code / Plain Text / Macro Text, and plain "Code" styles.
_CODE_STYLE = re.compile(r"\bcode\b|verbatim|preformatted|plain text|macro text", re.IGNORECASE)
_BODY_OUTLINE = 9  # w:outlineLvl 0-8 are heading levels, 9 is body text
_NUM_ID = "w:pPr/w:numPr/w:numId/@w:val"


def read_docx(path: Path) -> Document:
    """Headings carry their level, code paragraphs are code lines, tables are text."""
    try:
        document = docx.Document(str(path))
    except (PackageNotFoundError, zipfile.BadZipFile, KeyError, ValueError,
            etree.XMLSyntaxError) as exc:
        raise ReadError(f"damaged Word document ({_first_line(exc)})") from None
    reader = _Reader(document)
    for block in _blocks(document.element.body, document):
        reader.add(block)
    title = (document.core_properties.title or "").strip() or None
    return reader.blocks.document(path, "docx", title)


def _first_line(exc: Exception) -> str:
    return (str(exc).strip().splitlines() or [type(exc).__name__])[0]


def _blocks(parent: etree._Element, owner) -> Iterator[Paragraph | Table]:
    """Paragraphs and tables in document order, including those inside content controls."""
    for child in parent:
        if child.tag == qn("w:p"):
            yield Paragraph(child, owner)
        elif child.tag == qn("w:tbl"):
            yield Table(child, owner)
        elif child.tag == qn("w:sdt"):
            for content in child.iterchildren(qn("w:sdtContent")):
                yield from _blocks(content, owner)


@dataclass(frozen=True, slots=True)
class _Look:
    """What a style, with the styles it is based on, says about its text (None: nothing)."""

    level: int | None  # 1-6 for a heading or title style
    bold: bool | None
    font: str | None
    code: bool  # a code style by name
    num_id: str | None  # a list style's numbering


class _Reader:
    """Lays paragraphs and tables out as Lines, numbering list items as Word would."""

    def __init__(self, document) -> None:
        self.blocks = Blocks()
        self._part = document.part
        self._looks: dict[tuple[str | None, WD_STYLE_TYPE], _Look] = {}
        self._numbering = _numbering_formats(document)
        self._counters: dict[tuple[str, int], int] = {}

    def add(self, block: Paragraph | Table) -> None:
        if isinstance(block, Table):
            self.blocks.add(table_lines(_table_rows(block)))
            return
        look = self._look(block._p.style, WD_STYLE_TYPE.PARAGRAPH)
        level = _outline_level(block._p) or look.level
        if level is not None:
            text = " ".join(block.text.split())
            self.blocks.add([Line(text, level=level)] if text else [])
            return
        spans = [self._span(run, look) for run in _runs(block)]
        numbered = _list_position(block._p, look.num_id)
        marker = self._marker(*numbered) if numbered else ""
        depth = numbered[1] + 1 if numbered else 0
        lines = paragraph_lines(spans, depth, marker, keep_spaces=True)
        code = bool(lines) and all(line.code for line in lines)
        self.blocks.add(lines, "list" if numbered else "code" if code else None)

    def _look(self, style_id: str | None, kind: WD_STYLE_TYPE) -> _Look:
        """A style's look, worked out once per document: resolving styles is slow in python-docx."""
        key = (style_id, kind)
        if key not in self._looks:
            chain = list(_chain(self._part.get_style(style_id, kind)))
            self._looks[key] = _Look(
                level=next((lv for lv in map(_style_level, chain) if lv is not None), None),
                bold=next((s.font.bold for s in chain if s.font.bold is not None), None),
                font=next((s.font.name for s in chain if s.font.name), None),
                code=any(_CODE_STYLE.search(s.name or "") for s in chain),
                num_id=next((n for s in chain for n in s.element.xpath(_NUM_ID)), None))
        return self._looks[key]

    def _span(self, run: Run, paragraph: _Look) -> Span:
        """The run's text with its weight and face: set on the run, else by its style, else
        by the paragraph's."""
        style = self._look(run._r.style, WD_STYLE_TYPE.CHARACTER)
        bold = next((b for b in (run.bold, style.bold, paragraph.bold) if b is not None), False)
        font = run.font.name or style.font or paragraph.font or ""
        return Span(run.text, bold, bool(MONOSPACE.search(font)) or style.code or paragraph.code)

    def _marker(self, num_id: str, ilvl: int) -> str:
        """`- ` for a bullet, `3. ` for the third item of a numbered list."""
        fmt = self._numbering.get((num_id, ilvl), "bullet")
        for key in [k for k in self._counters if k[0] == num_id and k[1] > ilvl]:
            del self._counters[key]  # a shallower item restarts the deeper numbering
        if fmt in ("bullet", "none"):
            return "- " if fmt == "bullet" else ""
        self._counters[num_id, ilvl] = self._counters.get((num_id, ilvl), 0) + 1
        return f"{self._counters[num_id, ilvl]}. "


def _chain(style: BaseStyle | None) -> Iterator[BaseStyle]:
    """A style and the styles it is based on, nearest first."""
    seen = set()
    while style is not None and style.style_id not in seen:
        seen.add(style.style_id)
        yield style
        style = style.base_style


def _outline_level(element: etree._Element) -> int | None:
    """1-6 from Word's outline level (0-8 are headings, 9 is body text)."""
    value = element.xpath("w:pPr/w:outlineLvl/@w:val")
    if value and value[0].isdigit() and int(value[0]) < _BODY_OUTLINE:
        return min(int(value[0]) + 1, 6)
    return None


def _style_level(style: BaseStyle) -> int | None:
    """1-6 for a heading style (`Heading 2`), 1 for `Title`, else its outline level."""
    name = style.name or ""
    heading = _HEADING_STYLE.fullmatch(name)
    if heading:
        return min(max(int(heading[1]), 1), 6)
    return 1 if _TITLE_STYLE.fullmatch(name) else _outline_level(style.element)


def _runs(paragraph: Paragraph) -> Iterator[Run]:
    """The paragraph's runs, in links and fields too, but not those of a nested text box."""
    for r in paragraph._p.iter(qn("w:r")):
        if next(r.iterancestors(qn("w:p")), None) is paragraph._p:
            yield Run(r, paragraph)


def _list_position(p: etree._Element, style_num_id: str | None) -> tuple[str, int] | None:
    """(numbering id, level) of a list item, from the paragraph or its style; None if not one."""
    num_id = next(iter(p.xpath(_NUM_ID)), style_num_id)
    if num_id is None or num_id == "0":  # numId 0: numbering explicitly removed
        return None
    ilvl = p.xpath("w:pPr/w:numPr/w:ilvl/@w:val") or ["0"]
    return num_id, int(ilvl[0]) if ilvl[0].isdigit() else 0


def _numbering_formats(document) -> dict[tuple[str, int], str]:
    """(numbering id, level) -> Word's number format (`bullet`, `decimal`, ...)."""
    numbering = document.part.numbering_part.element
    abstract = {a.get(qn("w:abstractNumId")): a
                for a in numbering.iterchildren(qn("w:abstractNum"))}
    formats = {}
    for num in numbering.iterchildren(qn("w:num")):
        definition = abstract.get(_val(num, "w:abstractNumId"))
        for lvl in definition.iterchildren(qn("w:lvl")) if definition is not None else ():
            ilvl = lvl.get(qn("w:ilvl"), "0")
            formats[num.get(qn("w:numId")), int(ilvl) if ilvl.isdigit() else 0] = (
                _val(lvl, "w:numFmt") or "decimal")
    return formats


def _val(element: etree._Element, child: str) -> str | None:
    """The w:val of the named child element, if it is there."""
    found = element.find(qn(child))
    return None if found is None else found.get(qn("w:val"))


def _table_rows(table: Table) -> Iterator[list[str]]:
    """Cell texts a row at a time; a merged cell counts once."""
    for row in table.rows:
        cells, previous = [], None
        for cell in row.cells:
            if cell._tc is not previous:
                cells.append(cell.text)
            previous = cell._tc
        yield cells
