"""Plain-text logbooks, and the byte decoding that Markdown shares."""

from __future__ import annotations

import codecs
import re
from pathlib import Path

from ..models import Document, Line
from .errors import ReadError

_BOMS = [
    (codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"),
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16"),
]
# C0 controls other than tab and newline, and DEL; zero-width and RTL marks are kept.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")


def decode(data: bytes) -> str:
    """Bytes -> text: a BOM decides, else UTF-8, else Windows-1252/Latin-1.

    Stray NUL and control characters are dropped; a file that is mostly NULs
    is binary, not a logbook.
    """
    for bom, encoding in _BOMS:
        if data.startswith(bom):
            try:
                return clean(data.decode(encoding))
            except UnicodeDecodeError as exc:
                raise ReadError(f"invalid {encoding} text at byte {exc.start}") from None
    if data.count(0) > max(16, len(data) // 100):
        raise ReadError("binary file (NUL bytes), not text")
    for encoding in ("utf-8", "cp1252", "latin-1"):
        try:
            return clean(data.decode(encoding))
        except UnicodeDecodeError:
            continue
    raise AssertionError("latin-1 decodes every byte")


def clean(text: str) -> str:
    return _CONTROL.sub("", text.replace("\r\n", "\n").replace("\r", "\n"))


_UNDERLINE = {"=": 1, "-": 2}  # a line underlined with ===/--- is a heading of that level
# a row of another symbol under a line, as long as it (give or take two), is a plain-text
# writer's underline too ("Thursday 14 March 2024" / "****", "~~~~", "++++", as reStructuredText
# adorns a section): a heading of the level "---" gives, whichever symbol the writer picked
_ADORNMENT = "*+~^_:"
ADORNMENT_SLACK = 2  # characters: an underline is that much shorter or longer than its line at most
# a LaTeX sectioning command is a heading of its depth, titled by its braces' text: a notebook
# kept as LaTeX source ("\section*{14 March 2024}", "\subsection[Run 12]{Run 12}\label{r12}")
_LATEX_LEVEL = {"chapter": 1, "section": 2, "subsection": 3, "subsubsection": 4, "paragraph": 5}
_LATEX_SECTION = re.compile(
    rf"\s*\\(?P<command>{'|'.join(_LATEX_LEVEL)})\*?(?:\[[^\]]*\])?"
    r"\{(?P<title>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}\s*(?:\\label\{[^{}]*\}\s*)?(?:%.*)?")
_LATEX_MARKUP = re.compile(r"\\[A-Za-z]+\*?\{([^{}]*)\}")  # "\texttt{lr=3e-4}" typesets "lr=3e-4"


def read_text(path: Path, text: str) -> Document:
    """Body lines, and underlined or LaTeX-sectioned headings; the segmenter finds date-led
    headings too."""
    lines: list[Line] = []
    for raw in text.split("\n"):
        line = raw.rstrip().expandtabs(4)
        opens = len(lines) < 2 or not lines[-2].text.strip()  # the line above opens its block
        level = underline_level(line, lines[-1].text, opens) if lines else None
        if level and lines[-1].text.strip() and lines[-1].level is None:
            lines[-1] = Line(lines[-1].text.strip(), level=level)
            continue
        lines.append(latex_heading(line)
                     or Line(line, indent=float(len(line) - len(line.lstrip()))))
    return Document(path=path, format="text", lines=lines)


def latex_heading(line: str) -> Line | None:
    """A line that is a LaTeX sectioning command, as the heading it typesets; else None."""
    command = _LATEX_SECTION.fullmatch(line)
    title = " ".join(_LATEX_MARKUP.sub(r"\1", command["title"]).split()) if command else ""
    return Line(title, level=_LATEX_LEVEL[command["command"]]) if title else None


def underline_level(row: str, above: str, above_opens: bool) -> int | None:
    """The heading level a row of one symbol under the line `above` gives that line: "===" 1,
    "---" 2, any length; another symbol's row (`_ADORNMENT`) 2, where it is as long as the line
    above and that line opens its block (`above_opens`): a short rule under a paragraph's last
    line is a separator, not an underline. None for another line."""
    stripped = row.strip()
    if len(stripped) < 3 or len(set(stripped)) != 1:
        return None
    if stripped[0] in _UNDERLINE:
        return _UNDERLINE[stripped[0]]
    title = above.strip()
    if stripped == "~~~":  # Markdown's usual fence ("Log:" over a fenced trace), no underline
        return None
    if (stripped[0] in _ADORNMENT and above_opens and any(c.isalnum() for c in title)
            and abs(len(stripped) - len(title)) <= ADORNMENT_SLACK):
        return _UNDERLINE["-"]
    return None
