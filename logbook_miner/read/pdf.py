"""PDF logbooks via pdfplumber: lines with page, font size, weight and monospace.

The reader also removes what the renderer added (page headers and footers)
and undoes what it broke (tokens split at `-` or `/`, code indentation), so
later stages see the author's lines.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import logging
import re
import unicodedata
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pdfplumber
from pdfminer.pdfdocument import PDFEncryptionError, PDFPasswordIncorrect
from pdfminer.pdfinterp import PDFPageInterpreter
from pdfminer.psexceptions import PSEOF
from pdfplumber.page import PDFPageAggregatorWithMarkedContent
from pdfplumber.utils.exceptions import MalformedPDFException, PdfminerException

from ..models import HEADING_STEP, Document, Line, body_size
from .blocks import markdown_row, markdown_rule
from .errors import ReadError
from .tables import RULE, ruled_rows

if TYPE_CHECKING:
    from . import OnPage

_BOLD = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
_MONO = re.compile(r"mono|courier|code|consol|menlo|typewriter", re.IGNORECASE)
_NO_TEXT = re.compile(r"\ufffc$|\(cid:\d+\)$")
# (U+F0B7, U+F0A7: Word's bullets in the Symbol and Wingdings fonts, as extracted)
_BULLET = re.compile(r"^[•◦▪▫■□●○‣⁃∙·\uf0b7\uf0a7]\s*|\s*[•◦▪▫■□●○‣⁃∙·\uf0b7\uf0a7]$")
# (not a middle dot: a line a browser wrapped before "· books 12" is no list's item)
_LEADING_BULLET = re.compile(r"^[•◦▪▫■□●○‣⁃\uf0b7\uf0a7]\s*(?=\S)")
# Furniture a renderer prints on a page whatever the logbook says; checked on a
# page's first and last lines only. Repeats across pages are caught generically.
FURNITURE = [
    re.compile(r"^page \d+( of \d+)?$", re.IGNORECASE),
    re.compile(r"^\d+\s*(/|of)\s*\d+$"),
    re.compile(r"^(\S+://|file:/).*\s\d+\s*/\s*\d+$"),  # browser footer: URL page/pages
    re.compile(r"^\d{1,2}/\d{1,2}/\d{2,4},? \d{1,2}:\d{2}(\s*[AP]M)?\b"),  # browser header
]
_NUMBER = re.compile(r"(?<![\d.])\d+(?![\d.])")  # a whole number (not a version's or a date's part)
_EDGE_LINES = 2  # how many lines at a page's top and bottom may be furniture
IMAGE_TEXT = "[image]"  # a figure's place in the text: a heading over a figure has a body
_MIN_FIGURE = (50.0, 30.0)  # points, width and height: smaller images are icons or bullets
_PARAGRAPH_GAP = 1.3  # lines this many usual line pitches apart start a new block
_LINE_HEIGHT = 1.2  # a line's usual pitch, in font sizes, as renderers set text by default
_WRAP_STEP = 2.2  # font sizes: a wrapped heading's next line is at most this far below
_NARROW_CHAR = 0.45  # font sizes: a character's width, on the narrow side (a word's room)
_CELL_GAP = 0.5  # font sizes: a gap this wide between two words parts two cells of a table
_WORD_GAP = 0.15  # font sizes: characters further apart are two words (a space's width is ~0.25)
_SAME_COLUMN = 2.0  # points: cells that start (or end) this close are in one column
_SAME_GAP = 0.1  # font sizes: gaps this close in width are one justified line's spaces
# a list item's marker
_ITEM_MARK = re.compile(r"[-*•◦▪‣⁃∙·\uf0b7\uf0a7]|\(?\d{1,3}[.)]|\(?[a-z][.)]")
# font sizes: the least side and the most of a bullet drawn as a shape (Chromium's disclosure
# triangle of a closed <details>, whose <summary> is a list item, is 0.66 tall)
_MARK_SIZE = (0.15, 0.7)
_CLOSING = frozenset(".!?:;)]}\"'”’|*`")  # a line ending in one may end its paragraph
_ROW_STEP = 1.5  # a step this many times a table's first between rows ends the table
_PITCH_TOLERANCE = 0.15  # points: line steps this close are one step measured twice
_MAX_LINE_HEIGHT = 1.35  # font sizes: the tallest line a renderer sets by default
# pdfplumber keeps a dict of ~2 KB per character, so a page's characters are counted as
# pdfminer places them and a page with more is refused: a 3 KB PDF can hold a line of a
# million (2.3 GB, 40 s). The densest page of the shared logbooks has 4,400.
MAX_PAGE_CHARS = 20_000
# pdfminer logs each repair it makes to a damaged file (to stderr, when the app
# configures no logging); the reader's verdict is a ReadError, so that is noise.
logging.getLogger("pdfminer").setLevel(logging.CRITICAL)


Word = tuple[float, float, str, bool]  # x0, x1, text, monospaced
Box = tuple[float, float, float, float]  # x0, top, x1, bottom, in points from the page's top


@dataclass(slots=True)
class PdfLine:
    """A line of text as placed on a page, before furniture removal."""

    text: str
    page: int
    top: float
    bottom: float
    x0: float
    size: float
    bold: bool
    code: bool
    char_width: float
    spans: tuple[tuple[float, str], ...] = ()  # (x0, text) of each char or word, for code layout
    cells: tuple[tuple[float, float, str], ...] = ()  # (x0, x1, text) of the parts wide gaps
    # leave, if 2+
    x1: float = 0.0  # the right edge of its last character
    words: tuple[tuple[float, float, str], ...] = ()  # (x0, x1, text) of each word
    # a row of a table drawn with rules, its cells' lines joined: the heights of the rules
    # above and below it
    ruled: tuple[float, float] | None = None


def read_pdf(path: Path, on_page: OnPage | None = None) -> Document:
    """A PDF's lines; a file pdfminer cannot read raises ReadError saying why."""
    try:
        with pdfplumber.open(path) as pdf:
            pages = []
            for page in pdf.pages:
                pages.append(_page_lines(page))
                if on_page:
                    on_page(len(pages), len(pdf.pages))
            images = 0 if has_text(pages) else sum(len(page.images) for page in pdf.pages)
            title = (pdf.metadata or {}).get("Title")
    except ReadError:
        raise
    except Exception as exc:  # pdfminer raises many undocumented types on damaged files
        raise ReadError(why_unreadable(exc)) from None
    if not has_text(pages) and not images:
        raise ReadError("no text (blank or damaged PDF)")
    return assemble(path, pages, title if isinstance(title, str) else None)


def read_pages(path: Path, pages: list[list[PdfLine] | None]) -> list[list[PdfLine]]:
    """Fill the pages another backend left as None with pdfplumber's lines of them."""
    try:
        with pdfplumber.open(path) as pdf:
            return [_page_lines(pdf.pages[i]) if lines is None else lines
                    for i, lines in enumerate(pages)]
    except ReadError:
        raise
    except Exception as exc:  # pdfminer raises many undocumented types on damaged files
        raise ReadError(why_unreadable(exc)) from None


def why_unreadable(exc: Exception) -> str:
    """The reason for the user; pdfplumber wraps pdfminer's exception, which says what it is."""
    if isinstance(exc, PdfminerException | MalformedPDFException) and exc.args and isinstance(
            exc.args[0], Exception):
        exc = exc.args[0]
    if isinstance(exc, PDFPasswordIncorrect):
        return "encrypted PDF (needs a password)"
    if isinstance(exc, PDFEncryptionError):
        return f"encrypted PDF (unsupported encryption: {exc})"
    if isinstance(exc, PSEOF):
        return "truncated PDF (unexpected end of file)"
    detail = " ".join(str(exc).split())[:120]
    return f"damaged PDF ({type(exc).__name__}{': ' if detail else ''}{detail})"


def assemble(path: Path, pages: list[list[PdfLine]], title: str | None = None) -> Document:
    """Placed lines of every page -> the Document's Lines (shared by every PDF backend)."""
    if not has_text(pages):
        raise ReadError("no text layer (scanned or image-only PDF)")
    pages = strip_furniture(pages)
    every = [line for placed in pages for line in placed]
    body = Counter(line.size for line in every if line.size).most_common(1)
    for line in every:
        if not line.size:  # a figure's line reads as body text
            line.size = body[0][0] if body else 10.0
            line.char_width = 0.6 * line.size
    margin, pitch = _left_margin(every), _line_pitch(pages)
    text_size = body_size((line.size, len(line.text)) for line in every if not line.code)
    headings = {size for size in pitch
                if text_size is not None and size >= text_size + HEADING_STEP}
    for size in headings:
        # headings: their lines are steps apart only when one wrapped; the usual step
        # between two of them is the space around separate headings, not a line's height
        pitch[size] = min(pitch[size], _LINE_HEIGHT * size)
    right = max((line.x1 for line in every if not line.code), default=0.0)
    lines: list[Line] = []
    last: PdfLine | None = None
    for placed in pages:
        if last and placed and _ended(last, placed[0], right):
            lines.append(Line("", page=placed[0].page))
        lines.extend(_to_lines(placed, margin, pitch, _tables(placed), headings, right))
        last = placed[-1] if placed else last
    return Document(path=path, format="pdf", lines=_join_broken_tokens(lines),
                    pages=len(pages), title=title)


class _CountingAggregator(PDFPageAggregatorWithMarkedContent):
    """pdfplumber's layout device, stopping at the page's MAX_PAGE_CHARS + 1st character."""

    chars = 0

    def render_char(self, *args, **kwargs) -> float:
        self.chars += 1
        if self.chars > MAX_PAGE_CHARS:
            raise ReadError(f"page {self.pageno} has over {MAX_PAGE_CHARS:,} characters, "
                            "more than a logbook page holds; not read")
        return super().render_char(*args, **kwargs)


def _bounded_layout(page) -> None:
    """Lay the page out as pdfplumber's `Page.layout` does, within MAX_PAGE_CHARS.

    pdfplumber offers no hook for its device, so the result goes where `Page.layout`
    caches it (tests/test_pdf_backends.py checks both backends still agree).
    """
    device = _CountingAggregator(page.pdf.rsrcmgr, pageno=page.page_number,
                                 laparams=page.pdf.laparams)
    PDFPageInterpreter(page.pdf.rsrcmgr, device).process_page(page.page_obj)
    page._layout = device.get_result()


def _page_lines(page) -> list[PdfLine]:
    lines = []
    _bounded_layout(page)
    # U+FFFC marks where an image sat (Google Docs exports), "(cid:N)" a glyph with no
    # character (a colour emoji in Chromium's PDFs): no text, and PDFium drops them too.
    page = page.filter(lambda obj: not _NO_TEXT.match(obj.get("text") or ""))
    for raw in page.extract_text_lines(return_chars=True, strip=True):
        chars = [c for c in raw["chars"] if c["text"].strip()]
        if not chars:
            continue
        sizes = Counter(round(c["size"], 1) for c in chars)
        text = marked_item(raw["text"])
        if not text:
            continue
        code = all(_MONO.search(c["fontname"]) for c in chars)
        size = sizes.most_common(1)[0][0]
        words = _words_of(raw["chars"], size)
        lines.append(PdfLine(
            text=text, page=page.page_number, top=raw["top"], bottom=raw["bottom"],
            x0=raw["x0"], size=size,
            bold=all(_BOLD.search(c["fontname"]) for c in chars), code=code,
            char_width=chars[0]["width"] or chars[0]["size"] * 0.6,
            spans=tuple((c["x0"], c["text"]) for c in chars) if code else (),
            cells=() if code else cells(words, size),
            x1=raw["x1"], words=tuple((x0, x1, text) for x0, x1, text, _ in words),
        ))
    images, shapes = ([(o["x0"], o["top"], o["x1"], o["bottom"]) for o in objects]
                      for objects in (page.images, page.curves + page.rects + page.lines))
    return with_drawn(lines, images, shapes, page.page_number)


def with_drawn(lines: list[PdfLine], images: list[Box], shapes: list[Box],
               page: int) -> list[PdfLine]:
    """A page's lines read with what it draws (both backends): bullets drawn as shapes, tables
    by their rules, figures where its images sit."""
    return with_figures(with_ruled_tables(with_bullets(lines, shapes), shapes), images, page)


def _words_of(chars: list[dict], size: float) -> list[Word]:
    """(x0, x1, text, monospaced) of each word of a line's characters, spaces among them: a
    space or a gap wider than a thin space parts two (a ligature pdfminer hands over twice is
    taken once)."""
    words: list[Word] = []
    previous, spaced = None, False
    for c in chars:
        if not c["text"].strip():
            spaced = True
            continue
        if previous and (previous["text"], previous["x0"]) == (c["text"], c["x0"]):
            continue
        mono = bool(_MONO.search(c["fontname"]))
        if words and not spaced and c["x0"] - words[-1][1] <= _WORD_GAP * size:
            x0, _, text, all_mono = words[-1]
            words[-1] = (x0, c["x1"], text + c["text"], all_mono and mono)
        else:
            words.append((c["x0"], c["x1"], c["text"], mono))
        previous, spaced = c, False
    return words


def cells(words: list[Word], size: float) -> tuple[tuple[float, float, str], ...]:
    """A line's parts between gaps wider than a space ((x0, x1, text) each), if it has 2+:
    the cells of a table's row, if a line next to it parts at the same place (`_tables`).

    Not a gap: one beside inline code (a monospace space is 0.6 of a size), one after a list's
    marker (a hanging indent); and a line whose gaps are all one width has none (a justified
    line's spaces, or a wide font's).
    """
    gaps = [b[0] - a[1] for a, b in itertools.pairwise(words)]
    if len(gaps) > 1 and max(gaps) - min(gaps) < _SAME_GAP * size:
        return ()
    parts: list[tuple[float, float, str]] = []
    for n, (x0, x1, text, mono) in enumerate(words):
        wide = bool(n) and gaps[n - 1] > _CELL_GAP * size and not (mono or words[n - 1][3])
        if parts and not (wide and not _ITEM_MARK.fullmatch(parts[-1][2])):
            parts[-1] = (parts[-1][0], x1, f"{parts[-1][2]} {text}")
        else:
            parts.append((x0, x1, text))
    if len(parts) < 2:
        return ()
    return tuple((x0, x1, _unbulleted(text)) for x0, x1, text in parts)


def marked_item(text: str) -> str:
    """A line's text with its list bullet written as Markdown writes it (`- `), as the
    DOCX and HTML readers do: a list's items are not a paragraph (a section titled as a plan
    runs over its items); a bullet alone, or at the line's end, is dropped."""
    return _unbulleted(_LEADING_BULLET.sub("- ", text.strip()))


def _unbulleted(text: str) -> str:
    """`text` without a bullet glyph at either end, NFKC-normalised."""
    return unicodedata.normalize("NFKC", _BULLET.sub("", text)).strip()


def with_bullets(lines: list[PdfLine], shapes: list[Box]) -> list[PdfLine]:
    """Lines with a list's bullet that the renderer drew as a shape (Chromium draws discs,
    circles, squares and a closed section's disclosure triangle, no glyph) marked as
    `marked_item` marks a glyph's: a small shape, about square, just left of a line's first
    word and level with it. (Marks are looked up by height: a vector plot draws thousands of
    small squares.)"""
    sizes = [line.size for line in lines if line.size]
    if not sizes:
        return lines
    least, most = _MARK_SIZE[0] * min(sizes), _MARK_SIZE[1] * max(sizes)
    marks = sorted(((top + bottom) / 2, x0, x1, min(x1 - x0, bottom - top),
                    max(x1 - x0, bottom - top)) for x0, top, x1, bottom in shapes
                   if least <= min(x1 - x0, bottom - top) and max(x1 - x0, bottom - top) <= most
                   and x1 - x0 <= 2 * (bottom - top) <= 4 * (x1 - x0))
    middles = [mark[0] for mark in marks]
    for line in lines if marks else ():
        if line.code or line.text.startswith("- "):
            continue
        level = marks[bisect.bisect_left(middles, line.top):bisect.bisect_right(middles,
                                                                                line.bottom)]
        if any(_MARK_SIZE[0] * line.size <= short and long <= _MARK_SIZE[1] * line.size
               and 0 <= line.x0 - x1 <= 2 * line.size for _, x0, x1, short, long in level):
            line.text = f"- {line.text}"
    return lines


def with_ruled_tables(lines: list[PdfLine], shapes: list[Box]) -> list[PdfLine]:
    """Lines with each row of a table drawn with rules (`tables.ruled_rows`) made one line,
    `| cell | cell |`, each cell's lines joined: a header that wraps "tok/s (6h)" over two
    lines centres its other cells between them, so read line by line its cells mix with the
    next column's."""
    joined: dict[int, PdfLine | None] = {}
    for (ceiling, floor, edges), members in ruled_rows(lines, shapes):
        row = [lines[i] for i in members]
        right = max(line.x1 for line in row)
        if right > edges[-1] + RULE:  # a table wider than the page
            edges = (*edges, right)  # keeps what shows of its cut cells
        texts = [_cell_text(row, left, right) for left, right in itertools.pairwise(edges)]
        joined[members[0]] = dataclasses.replace(
            row[0], text=markdown_row(texts),
            top=min(line.top for line in row), bottom=max(line.bottom for line in row),
            x0=edges[0], x1=edges[-1], bold=all(line.bold for line in row),
            ruled=(ceiling, floor), cells=tuple(
                (left, right, t) for (left, right), t
                in zip(itertools.pairwise(edges), texts, strict=True)))
        joined.update((i, None) for i in members[1:])
    kept = (joined.get(i, line) for i, line in enumerate(lines))
    return [line for line in kept if line is not None]


def _cell_text(row: list[PdfLine], left: float, right: float) -> str:
    """A cell's words, line by line, a token the renderer broke at a line's end ("ok/" over
    "fail") joined again."""
    text, last_top = "", None
    for top, _, _, word in sorted((line.top, x0, x1, word) for line in row
                                  for x0, x1, word in line.words if left <= (x0 + x1) / 2 < right):
        joint = "" if not text or (top != last_top and _broken_token(text, word)) else " "
        text, last_top = text + joint + word, top
    return _unbulleted(text)


def has_text(pages: list[list[PdfLine] | None]) -> bool:
    """Whether any page has a line of text (a figure's line is none)."""
    return any(line.text != IMAGE_TEXT for placed in pages if placed for line in placed)


def with_figures(lines: list[PdfLine], images: list[Box], page: int) -> list[PdfLine]:
    """A page's lines with a line IMAGE_TEXT where each figure (an image's box) sits, in
    reading order. In Markdown a figure is its link text ("![loss](images/loss.png)"); a PDF
    has only the picture.
    """
    figures = [(x0, top, x1, bottom) for x0, top, x1, bottom in images
               if x1 - x0 >= _MIN_FIGURE[0] and bottom - top >= _MIN_FIGURE[1]]
    if not figures:
        return lines
    placed = lines + [PdfLine(text=IMAGE_TEXT, page=page, top=top, bottom=bottom, x0=x0,
                              size=0.0, bold=False, code=False, char_width=0.0)
                      for x0, top, _, bottom in figures]  # body size: set by `assemble`
    return sorted(placed, key=lambda line: line.top)


def strip_furniture(pages: list[list[PdfLine]]) -> list[list[PdfLine]]:
    """Drop header/footer lines: known renderer patterns, or text repeated on most pages.

    A repeat counts only at the same height on the page, outside code, and word for word
    but for the page's number and the page count ("Page 3 of 9"): a log excerpt that runs
    over pages puts same-shaped lines at every page's top, and a logbook whose entries
    open pages puts its headings and their dates there ("Week 4" over "Posted on:
    2023-10-02", "Week 8" over "Posted on: 2023-10-30").
    """
    def key(line: PdfLine) -> tuple[str, int]:
        numbers = {str(line.page), str(len(pages))}
        text = _NUMBER.sub(lambda m: "#" if m[0] in numbers else m[0], line.text.lower())
        return text, round(line.top / 3)

    edges = Counter()
    for placed in pages:
        edges.update({key(line) for line in placed[:_EDGE_LINES] + placed[-_EDGE_LINES:]
                      if not line.code})
    repeated = {k for k, n in edges.items() if n >= max(2, 0.6 * len(pages))}

    def is_furniture(line: PdfLine, at_edge: bool) -> bool:
        if not at_edge:
            return False
        return ((not line.code and key(line) in repeated)
                or any(p.search(line.text) for p in FURNITURE))

    cleaned = []
    for placed in pages:
        n = len(placed)
        cleaned.append([
            line for i, line in enumerate(placed)
            if not is_furniture(line, i < _EDGE_LINES or i >= n - _EDGE_LINES)
        ])
    return cleaned


def _tables(placed: list[PdfLine]) -> dict[int, int]:
    """A page's tables laid out as Markdown writes them (a row a line: `| cell | cell |`);
    each row's index, mapped to its table's number.

    A line that parts at wide gaps is a row when a line next to it parts at the same place
    (a column's cells start, end or centre at one x), and so is the line right above a
    table's first row with as many cells (a header, centred); a step down much wider than
    the table's first ends it. Prose, even justified, widens its gaps anywhere.
    """
    def aligned(i: int, j: int) -> bool:
        """Cells of lines i and j that start at one x, or, inside the line (a line's last cell
        ends where the line does, a justified one's at the margin), end or centre at one x."""
        a, b = placed[i].cells, placed[j].cells
        return any(abs(a0 - b0) <= _SAME_COLUMN for a0, _, _ in a[1:] for b0, _, _ in b[1:]) or any(
            abs(a1 - b1) <= _SAME_COLUMN or abs(a0 + a1 - b0 - b1) <= 2 * _SAME_COLUMN
            for a0, a1, _ in a[1:-1] for b0, b1, _ in b[1:-1])

    rows: dict[int, int] = {}
    for i, line in enumerate(placed):  # a ruled table's rows, read whole (with_ruled_tables)
        if line.ruled:  # (a row's bottom rule is the next row's top; an empty row parts two)
            above = placed[i - 1] if i else None
            below = (above is not None and above.ruled is not None
                     and [c[0] for c in above.cells] == [c[0] for c in line.cells]
                     and (above.ruled == line.ruled
                          or abs(above.ruled[1] - line.ruled[0]) <= RULE))
            rows[i] = rows[i - 1] if below else i
    for run in _runs(placed):
        found = [k for n, k in enumerate(run) if (n and aligned(run[n - 1], k))
                 or (n + 1 < len(run) and aligned(k, run[n + 1]))]
        for _, numbered in itertools.groupby(enumerate(found), lambda nk: nk[1] - nk[0]):
            table = [k for _, k in numbered]
            above = table[0] - 1
            if above in run and len(placed[above].cells) == len(placed[table[0]].cells):
                table.insert(0, above)
            for k in table:
                rows[k] = table[0]
                placed[k].text = markdown_row(text for _, _, text in placed[k].cells)
    return rows


def _runs(placed: list[PdfLine]) -> list[list[int]]:
    """Runs of lines one under another that part at wide gaps, each ended by a step down much
    wider than its first."""
    runs: list[list[int]] = []
    for i, line in enumerate(placed):
        run = runs[-1] if runs else []
        if line.ruled:
            continue
        if line.cells and run and run[-1] == i - 1 and (
                len(run) < 2 or line.top - placed[i - 1].top
                <= _ROW_STEP * (placed[run[1]].top - placed[run[0]].top)):
            run.append(i)
        elif line.cells:
            runs.append([i])
    return runs


def _to_lines(placed: list[PdfLine], margin: float, pitch: dict[float, float],
              rows: dict[int, int], headings: set[float], right: float) -> list[Line]:
    """Blank lines at paragraph gaps (none between the `rows` of one table); a heading's
    lines (a size in `headings`) that the renderer wrapped at the text's `right` edge, one
    line again ("Scheduled maintenance 30 Jan –" over "1 Feb 2024"); code lines laid out
    on their monospace columns."""
    out: list[Line] = []
    previous: PdfLine | None = None
    origin = 0.0
    for i, line in enumerate(placed):
        if previous is not None and line.size in headings and _wrapped(previous, line, right):
            joint = "" if _broken_token(out[-1].text, line.text) else " "
            out[-1] = dataclasses.replace(out[-1], text=out[-1].text + joint + line.text)
            previous = line
            continue
        usual = pitch.get(line.size, 1.2 * line.size)
        if (previous is not None and line.top - previous.top > _PARAGRAPH_GAP * usual
                and not (i - 1 in rows and rows.get(i) == rows[i - 1])):
            out.append(Line("", page=line.page))
        if line.code and not (previous and previous.code):
            block = itertools.takewhile(lambda x: x.code, placed[i:])
            origin = min(x.x0 for x in block)
        text = _monospaced(line, origin) if line.code else line.text
        out.append(Line(text, page=line.page, size=line.size, bold=line.bold, code=line.code,
                        indent=round(max(0.0, line.x0 - margin), 1)))
        if line.ruled and rows.get(i) == i:  # its first row is its header, as in Markdown
            out.append(Line(markdown_rule(len(line.cells)), page=line.page, size=line.size,
                            indent=out[-1].indent))
        previous = line
    return out


def _wrapped(previous: PdfLine, line: PdfLine, right: float) -> bool:
    """Whether `line` goes on with `previous`, a line of the same style at most two sizes above
    it that ended where the first word of `line` had no room left before the `right` edge (a
    short heading over another is two), or that `line` goes on in lower case (no heading opens
    so; WeasyPrint wraps a heading before a word that would have fitted)."""
    word = len(line.text.split(maxsplit=1)[0])
    return ((previous.size, previous.bold, previous.code) == (line.size, line.bold, line.code)
            and not line.code and 0 < line.top - previous.top <= _WRAP_STEP * line.size
            and (previous.x1 + (word + 1) * _NARROW_CHAR * line.size > right
                 or line.text[:1].islower()))


def _ended(last: PdfLine, first: PdfLine, right: float) -> bool:
    """Whether a page's `last` line ended its block, so the next page's `first` line starts
    one: it stopped short of the `right` edge by more than the next one's first word takes,
    in the last line's own characters' width (a wrapped line runs to the edge), its text does
    not run on (no closing mark, then a word in lower case), and not inside a code block."""
    if (last.code and first.code) or not last.text or (
            last.text[-1] not in _CLOSING and first.text[:1].islower()):
        return False
    word = len(first.text.split(maxsplit=1)[0])
    return last.x1 + (word + 1) * (last.x1 - last.x0) / len(last.text) <= right


def _monospaced(line: PdfLine, origin: float) -> str:
    """A code line with its indentation and inner runs of spaces, from character columns."""
    if not line.spans:
        return " " * max(0, round((line.x0 - origin) / line.char_width)) + line.text
    text = ""
    for x0, piece in line.spans:
        column = max(round((x0 - origin) / line.char_width), len(text))
        text = text.ljust(column) + piece
    return unicodedata.normalize("NFKC", text).rstrip()


def _line_pitch(pages: list[list[PdfLine]]) -> dict[float, float]:
    """The usual distance between consecutive lines of a paragraph, per font size."""
    steps: dict[float, Counter] = {}
    for placed in pages:
        for a, b in itertools.pairwise(placed):
            if a.size == b.size and b.top > a.top:
                steps.setdefault(a.size, Counter())[round(b.top - a.top, 1)] += 1
    return {size: _usual_step(counter, size) for size, counter in steps.items()}


def _usual_step(counter: Counter, size: float) -> float:
    """The commonest step between lines of one size, unless a step of one line's height is seen
    too and the commonest is a blank line's height (a font size) or more longer: a browser sets
    paragraphs a blank line apart, and where most of them are a line long (a chat's messages, a
    ticket's comments, a day's heading over its one line) the step from one paragraph to the
    next is the commonest; as the pitch, it would join the paragraphs into one block."""
    usual = _most_common_within(counter, _PITCH_TOLERANCE)
    lines = Counter({step: n for step, n in counter.items()
                     if size <= step <= _MAX_LINE_HEIGHT * size and usual - step >= 0.9 * size})
    return _most_common_within(lines, _PITCH_TOLERANCE) if lines else usual


def _most_common_within(counter: Counter, tolerance: float) -> float:
    """The value with the most observations within `tolerance` of it.

    Backends measure the same step as 20.6 or 20.7; counting neighbours together
    keeps one rounding wobble from deciding which step is usual.
    """
    return max(counter, key=lambda v: (sum(n for w, n in counter.items()
                                           if abs(w - v) <= tolerance), counter[v], -v))


def _left_margin(placed: list[PdfLine]) -> float:
    """The body's left edge: the leftmost x where a fair share (5%) of lines start."""
    starts = Counter(round(line.x0) for line in placed if not line.code)
    common = [x for x, n in starts.items() if n >= 0.05 * len(placed)]
    return float(min(common or starts or [0]))


def _join_broken_tokens(lines: list[Line]) -> list[Line]:
    """Rejoin a token a renderer broke at a line end after `-` or `/` (`2022-04-` `29`).

    The hyphen is kept: a break after a real hyphen (`open-` `sourced`) is the
    same visual break, and keeping it is right in both cases.
    """
    out: list[Line] = []
    for line in lines:
        prev = out[-1] if out else None
        if (prev is not None and _broken_token(prev.text, line.text)
                and (prev.size, prev.bold, prev.code) == (line.size, line.bold, line.code)):
            out[-1] = dataclasses.replace(prev, text=prev.text + line.text)
        else:
            out.append(line)
    return out


def _broken_token(text: str, following: str) -> bool:
    """Whether a line ending in `text` broke a token that `following` goes on with."""
    return (bool(following) and text.endswith(("-", "/")) and not text.endswith(("--", " -"))
            and not following[0].isspace())
