"""HTML logbooks: saved pages and Notion, Confluence, Google Docs or pandoc exports.

Parsed by lxml's HTML parser (libxml2): it reads the tag soup real exports
are made of, and lxml is already a dependency of python-docx. Structure, not
looks, decides: `h1`-`h6` are headings, `pre` is code, `li` a list item,
`tr` a table row. Weight and face come from tags (`strong`, `code`) and from
CSS, inline or by class, since Google Docs writes bold as `.c3{font-weight:700}`.
"""

from __future__ import annotations

import re
from pathlib import Path

import lxml.html
from lxml import etree

from ..models import Document, Line
from .blocks import (
    COLLAPSIBLE,
    MONOSPACE,
    Blocks,
    Span,
    code_lines,
    collapse,
    paragraph_lines,
    table_lines,
)
from .errors import ReadError
from .text import clean, decode

_HEADINGS = {f"h{n}": n for n in range(1, 7)}
# Not text of the logbook: metadata, scripts, navigation (a site's menu, a generated TOC).
_SKIP = {"head", "script", "style", "template", "noscript", "nav", "svg", "button", "select",
         "iframe", "object"}
# Elements that end a line of text before and after them; lists and quotes indent theirs.
_BLOCKS = {"address", "article", "aside", "blockquote", "body", "caption", "center", "dd",
           "details", "dialog", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer",
           "form", "header", "hgroup", "hr", "html", "li", "main", "ol", "p", "section",
           "summary", "ul"}
_BOLD_TAGS = {"b", "strong"}
_MONO_TAGS = {"code", "tt", "kbd", "samp"}
_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([\w.:-]+)", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*>")
_CSS_CLASS_RULE = re.compile(r"\.(?P<name>[\w-]+)\s*\{(?P<body>[^}]*)\}")
_WEIGHT = re.compile(r"font-weight\s*:\s*(?P<value>[\w-]+)", re.IGNORECASE)
_FAMILY = re.compile(r"font-family\s*:\s*(?P<value>[^;}]+)", re.IGNORECASE)


def read_html(path: Path) -> Document:
    """Headings carry their level, `pre` lines are code, list items are indented and marked."""
    text = _XML_DECLARATION.sub("", _decode(path.read_bytes()))
    # huge_tree: nesting to 2048 levels, not 256; comments and processing instructions are
    # dropped with the text around them kept.
    parser = lxml.html.HTMLParser(huge_tree=True, remove_comments=True, remove_pis=True)
    try:
        root = lxml.html.document_fromstring(text, parser=parser)
    except (etree.ParserError, ValueError) as exc:
        raise ReadError(f"no text in this HTML file ({exc})") from None
    walker = _Walker(_class_styles(root))
    walker.read(root)
    fatal = parser.error_log.filter_from_fatals()
    if fatal and not any(line.text.strip() for line in walker.blocks.lines):
        raise ReadError(f"unreadable HTML ({fatal[0].message.split(',')[0]})")  # not the hint
    title = collapse(root.findtext(".//title") or "")
    return walker.blocks.document(path, "html", title or None)


def _decode(data: bytes) -> str:
    """The charset a `<meta>` declares, else what plain text falls back to (BOM, UTF-8, 1252)."""
    declared = _CHARSET.search(data[:4096])
    if declared and not data.startswith((b"\xef\xbb\xbf", b"\xff\xfe", b"\xfe\xff")):
        try:
            return clean(data.decode(declared.group(1).decode("ascii"), errors="replace"))
        except LookupError:
            pass
    return decode(data)


def _class_styles(root: etree._Element) -> dict[str, str]:
    """CSS declarations per class name, from the page's `<style>` elements."""
    styles: dict[str, str] = {}
    for style in root.iter("style"):
        for rule in _CSS_CLASS_RULE.finditer(style.text or ""):
            styles[rule["name"]] = styles.get(rule["name"], "") + ";" + rule["body"]
    return styles


class _Walker:
    """Walks the tree in document order, gathering inline runs until a block ends them."""

    def __init__(self, css: dict[str, str]) -> None:
        self.css = css
        self.blocks = Blocks()
        self.spans: list[Span] = []
        self.lists: list[list[int]] = []  # per open list: [next number] (ol) or [] (ul)
        self.quotes = 0
        self.marker = ""

    def read(self, root: etree._Element) -> None:
        """Every element in document order, without recursion: pages nest deeply."""
        faces = [(False, False)]  # bold, monospace: of the element open at each depth
        events = etree.iterwalk(root, events=("start", "end"))
        for event, el in events:
            tag = el.tag.lower() if isinstance(el.tag, str) else ""
            if event == "start":
                faces.append(self._face(el, tag, *faces[-1]))
                if tag in _SKIP or not self._start(el, tag, *faces[-1]):
                    events.skip_subtree()
                continue
            faces.pop()
            if tag in _BLOCKS:
                self.flush()
                self._close(tag)
            if el.tail:
                self.spans.append(Span(_inline(el.tail), *faces[-1]))
        self.flush()

    def _start(self, el: etree._Element, tag: str, bold: bool, mono: bool) -> bool:
        """Take in an element's own text; False when that was all of it (no descent)."""
        if tag in _HEADINGS:
            self.flush()
            text = collapse(el.text_content())
            self.blocks.add([Line(text, level=_HEADINGS[tag])] if text else [])
            return False
        if tag == "pre":
            self.flush()
            self.blocks.add(code_lines(el.text_content()))
            return False
        if tag == "table":
            self.flush()
            self.blocks.add(table_lines(_rows(el)))
            return False
        if tag == "br":
            self.spans.append(Span("\n", bold, mono))
        elif tag in _BLOCKS:
            self.flush()
            self._open(el, tag)
        if el.text:
            self.spans.append(Span(_inline(el.text), bold, mono))
        return True

    def _open(self, el: etree._Element, tag: str) -> None:
        if tag == "ol":
            start = el.get("start", "1")
            self.lists.append([int(start) if start.isdigit() else 1])
        elif tag == "ul":
            self.lists.append([])
        elif tag == "li" and self.lists:
            numbering = self.lists[-1]
            self.marker = f"{numbering[0]}. " if numbering else "- "
            if numbering:
                numbering[0] += 1
        elif tag == "blockquote":
            self.quotes += 1

    def _close(self, tag: str) -> None:
        if tag in ("ul", "ol") and self.lists:
            self.lists.pop()
        elif tag == "blockquote":
            self.quotes -= 1

    def _face(self, el: etree._Element, tag: str, bold: bool, mono: bool) -> tuple[bool, bool]:
        """Bold and monospace as this element sets them, else as inherited."""
        bold, mono = bold or tag in _BOLD_TAGS, mono or tag in _MONO_TAGS
        declarations = [self.css.get(name, "") for name in el.get("class", "").split()]
        for declaration in [*declarations, el.get("style", "")]:
            weight = _WEIGHT.search(declaration)
            if weight:
                value = weight["value"].lower()
                bold = value in ("bold", "bolder") or (value.isdigit() and int(value) >= 600)
            family = _FAMILY.search(declaration)
            if family:
                mono = bool(MONOSPACE.search(family["value"]))
        return bold, mono

    def flush(self) -> None:
        """The inline runs gathered so far become a block's lines."""
        depth = len(self.lists) + self.quotes
        lines = paragraph_lines(self.spans, depth, self.marker)
        self.spans = []
        if lines:
            self.marker = ""
        code = bool(lines) and all(line.code for line in lines)
        self.blocks.add(lines, "list" if self.lists else "code" if code else None)


def _inline(text: str) -> str:
    """Source line breaks and indentation are not breaks in HTML: only `<br>` is."""
    return COLLAPSIBLE.sub(" ", text)


def _rows(table: etree._Element) -> list[list[str]]:
    """The table's own rows (not a nested table's), each a list of cell texts."""
    return [[cell.text_content() for cell in row if cell.tag in ("td", "th")]
            for row in table.iter("tr")
            if next(row.iterancestors("table"), None) is table]
