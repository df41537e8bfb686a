"""What the DOCX and HTML readers share: blocks of styled text -> Lines laid out as Markdown's are.

Both formats are trees of blocks (paragraphs, headings, list items, tables,
code) holding runs of text with a weight and a face. The segmenter reads
Lines, so these helpers lay the blocks out the way the Markdown reader does:
a blank line between blocks, none between the items of one list or the rows
of one table; a list item indented and marked (`- `, `2. `); a paragraph whose
every run is bold is a bold line (a heading if it stands alone); a line whose
every run is monospace is code.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..models import Document, Line
from .errors import ReadError

# Font families of code, as Word, Google Docs, Notion and Confluence exports name them.
MONOSPACE = re.compile(
    r"mono|courier|consolas|menlo|monaco|lucida console|source code|inconsolata|fira code"
    r"|typewriter|fixed", re.IGNORECASE)
LIST_INDENT = 2.0  # a list item's indent per level: at least the segmenter's _INDENTED
COLLAPSIBLE = re.compile(r"[ \t\r\n\f]+")  # HTML's white space: not the no-break space


@dataclass(frozen=True, slots=True)
class Span:
    """A run of inline text as written, with its weight and face; "\n" is a hard line break."""

    text: str
    bold: bool = False
    mono: bool = False


def collapse(text: str) -> str:
    """Runs of whitespace (the source's line wrapping, tabs, no-break spaces) -> one space."""
    return " ".join(text.split())


def paragraph_lines(spans: Iterable[Span], depth: int = 0, marker: str = "",
                    keep_spaces: bool = False) -> list[Line]:
    """One Line per hard line break; bold or code when every visible run of the line is.

    `depth` > 0 indents the lines (list items, quotes) so that a date leading
    them starts no entry; `marker` goes before the first line. A code line keeps
    its spaces when `keep_spaces` (Word keeps them); else, as HTML does, it keeps
    only no-break spaces (Google Docs indents code with them).
    """
    rows: list[list[Span]] = [[]]
    for span in spans:
        first, *rest = span.text.split("\n")
        rows[-1].append(Span(first, span.bold, span.mono))
        rows += [[Span(part, span.bold, span.mono)] for part in rest]
    indent = LIST_INDENT * depth
    pad = " " * int(indent)
    lines: list[Line] = []
    for row in rows:
        visible = [s for s in row if s.text.strip()]
        if not visible:
            continue
        raw = "".join(s.text for s in row)
        code = all(s.mono for s in visible)
        if code:
            text = raw if keep_spaces else COLLAPSIBLE.sub(" ", raw).strip(" ")
            text = text.replace("\xa0", " ").rstrip().expandtabs(4)
        else:
            text = collapse(raw)
        lead = pad[:-len(marker)] + marker if marker and not lines else pad
        lines.append(Line(lead + text, bold=all(s.bold for s in visible) and not code,
                          code=code, indent=indent))
    return lines


def code_lines(text: str) -> list[Line]:
    """A preformatted block, line by line as written; blank lines at either end dropped."""
    rows = [row.rstrip().expandtabs(4) for row in text.split("\n")]
    while rows and not rows[-1]:
        rows.pop()
    while rows and not rows[0]:
        rows.pop(0)
    return [Line(row, code=True) for row in rows]


def markdown_row(cells: Iterable[str]) -> str:
    """A table's row as Markdown writes it, `| cell | cell |`, a bar inside a cell escaped."""
    return "| " + " | ".join(cell.replace("|", "\\|") for cell in cells) + " |"


def markdown_rule(columns: int) -> str:
    """The rule line Markdown writes under a table's header row: `|---|---|`."""
    return "|" + "---|" * columns


def table_lines(rows: Iterable[Sequence[str]]) -> list[Line]:
    """A table as Markdown writes it: a row a line, `| cell | cell |`, and the rule line under
    its first row, its header (what the counters read columns by); empty rows dropped. A
    table of one column is a box around text: its lines, as they are."""
    rows = [[collapse(cell) for cell in row] for row in rows]
    if all(len(row) <= 1 for row in rows):
        return [Line(row[0]) for row in rows if row and row[0]]
    lines = []
    for row in rows:
        if any(row):
            lines.append(Line(markdown_row(row)))
            if len(lines) == 1:
                lines.append(Line(markdown_rule(len(row))))
    return lines


class Blocks:
    """Lines with a blank line between blocks, and none inside one group (a list, a code run)."""

    def __init__(self) -> None:
        self.lines: list[Line] = []
        self._group: str | None = None

    def add(self, lines: list[Line], group: str | None = None) -> None:
        if not lines:
            return
        if self.lines and (group is None or group != self._group):
            self.lines.append(Line(""))
        self.lines.extend(lines)
        self._group = group

    def document(self, path: Path, fmt: str, title: str | None) -> Document:
        """The Document, or ReadError when the file holds no text at all."""
        if not any(line.text.strip() for line in self.lines):
            raise ReadError(f"no text in this {fmt.upper()} file")
        title = title or next((line.text for line in self.lines if line.level == 1), None)
        return Document(path=path, format=fmt, lines=[*self.lines, Line("")], title=title)
