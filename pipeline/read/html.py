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
_BLOCKS = {"address", "article", "aside", "body", "caption", "center", "dd", "details", "dialog",
           "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "header",
           "hgroup", "hr", "html", "main", "p", "section", "summary"}
_BOLD_TAGS = {"b", "strong"}
_MONO_TAGS = {"code", "tt", "kbd", "samp"}
_CHARSET = re.compile(rb"<meta[^>]+charset\s*=\s*[\"']?\s*([\w.:-]+)", re.IGNORECASE)
_XML_DECLARATION = re.compile(r"\A\s*<\?xml[^>]*>")
_CSS_CLASS_RULE = re.compile(r"\.(?P<name>[\w-]+)\s*\{(?P<body>[^}]*)\}")
_WEIGHT = re.compile(r"font-weight\s*:\s*(?P<value>[\w-]+)", re.IGNORECASE)
_FAMILY = re.compile(r"font-family\s*:\s*(?P<value>[^;}]+)", re.IGNORECASE)


def read_html(path: Path) -> Document:
    """Headings carry their level, `pre` lines are code, list items are indented and marked."""
    try:
        root = lxml.html.document_fromstring(_XML_DECLARATION.sub("", _decode(path.read_bytes())))
    except (etree.ParserError, ValueError) as exc:
        raise ReadError(f"no text in this HTML file ({exc})") from None
    css = _class_styles(root)
    walker = _Walker(css)
    walker.walk(root, bold=False, mono=False)
    walker.flush()
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

    def walk(self, el: etree._Element, bold: bool, mono: bool) -> None:
        tag = el.tag.lower() if isinstance(el.tag, str) else None  # None: a comment
        if tag is not None and tag not in _SKIP:
            self._element(el, tag, *self._face(el, tag, bold, mono))
        if el.tail:
            self.spans.append(Span(_inline(el.tail), bold, mono))

    def _element(self, el: etree._Element, tag: str, bold: bool, mono: bool) -> None:
        if tag in _HEADINGS:
            self.flush()
            text = collapse(el.text_content())
            self.blocks.add([Line(text, level=_HEADINGS[tag])] if text else [])
        elif tag == "pre":
            self.flush()
            self.blocks.add(code_lines(el.text_content()))
        elif tag == "table":
            self.flush()
            self.blocks.add(table_lines(_rows(el)))
        elif tag == "br":
            self.spans.append(Span("\n", bold, mono))
        elif tag in ("ul", "ol", "li", "blockquote") or tag in _BLOCKS:
            self.flush()
            self._open(el, tag)
            self._children(el, bold, mono)
            self.flush()
            self._close(tag)
        else:
            self._children(el, bold, mono)

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

    def _children(self, el: etree._Element, bold: bool, mono: bool) -> None:
        if el.text:
            self.spans.append(Span(_inline(el.text), bold, mono))
        for child in el:
            self.walk(child, bold, mono)

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
