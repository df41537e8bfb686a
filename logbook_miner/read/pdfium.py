"""PDF logbooks via pypdfium2: the same PdfLines as the pdfplumber reader, ~20x faster.

pdfplumber builds a Python dict per character; here the page text comes out
of PDFium in one call and PDFium is asked about positions and fonts once per
word (and fonts once per text object), so per-character work stays in C.
Lines are formed as pdfplumber forms them: words are clustered by their top
within 3 pt, sorted left to right and joined by one space.
"""

from __future__ import annotations

import ctypes
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import pypdfium2 as pdfium
import pypdfium2.raw as raw
import pypdfium2_raw.bindings as pdfium_raw_bindings

from ..models import Document
from . import pdf as plumber
from .pdf import _BOLD, _MONO, PdfLine, assemble, marked_item

if TYPE_CHECKING:
    from . import OnPage

_Y_TOLERANCE = 3.0  # pdfplumber's default: tops this close are one line
# A word: non-space chars, ending after PDFium's line-end hyphen mark (U+FFFE, or U+0002
# where a browser broke a line after a hyphen), since PDFium joins a hyphenated line to
# the next one where pdfplumber keeps two lines.
_WORD = re.compile(r"[^\s\ufffe\x02]+[\ufffe\x02]?|[\ufffe\x02]")
_HYPHENS = "\ufffe\x02"
_SURROGATE = re.compile("[\ud800-\udfff]")
_CONTROL = re.compile("[\x00-\x1f\x7f]")
# CJK radicals, symbols, kana, ideographs (BMP and beyond), compatibility forms
_CJK = re.compile("[\u2e80-\u9fff\uf900-\ufaff\ufe30-\ufe4f\ud840-\ud87f]")
# pdfminer takes a non-embedded standard font's descent from its AFM metrics; PDFium
# measures the font it substitutes. Using the AFM figure keeps line tops identical.
_STANDARD_DESCENT = {"courier": -0.194, "helvetica": -0.207, "arial": -0.207, "times": -0.217}


@dataclass(slots=True)
class _Font:
    """What a text object says about its characters (cached per object)."""

    size: float  # effective size in points: Tf size times the text matrix scale
    descent: float  # points below the baseline, negative
    bold: bool
    code: bool


@dataclass(slots=True)
class _Word:
    text: str
    top: float
    x0: float
    first: int  # char index of the first character, for a width when needed
    x1: float  # the last character's right edge
    sizes: Counter
    bold: bool
    code: bool


def read_pdf(path: Path, on_page: OnPage | None = None) -> Document:
    """Read a PDF with PDFium; ReadError with a one-line reason when it cannot be read.

    A file PDFium cannot open or finds no text in goes to the pdfplumber reader,
    the reference: it says why in the same words whichever backend was asked,
    and reads what PDFium may not. Only failing files pay for it; so do single
    pages whose text PDFium reads differently (see `_PageReader._needs_reference`).
    """
    try:
        pdf = pdfium.PdfDocument(path)
    except pdfium.PdfiumError:
        return plumber.read_pdf(path, on_page)
    try:
        pages = []
        for i in range(len(pdf)):
            pages.append(_PageReader(pdf[i], i + 1).lines())
            if on_page:
                on_page(i + 1, len(pdf))
        title = pdf.get_metadata_value("Title") or None
    except pdfium.PdfiumError:
        pages, title = [], None
    finally:
        pdf.close()
    if not plumber.has_text(pages):
        return plumber.read_pdf(path)
    if None in pages:
        pages = plumber.read_pages(path, pages)
    return assemble(path, pages, title)


def _c(name: str, restype, *argtypes):
    """A PDFium function taking and returning plain addresses: no pointer objects per call."""
    fn = type(raw.FPDFText_GetTextObject)((name, _LIB))
    fn.restype, fn.argtypes = restype, argtypes
    return fn


_LIB = pdfium_raw_bindings._libs["pdfium"]
_VP, _INT, _DP = ctypes.c_void_p, ctypes.c_int, ctypes.POINTER(ctypes.c_double)
_text_object = _c("FPDFText_GetTextObject", _VP, _VP, _INT)
_origin = _c("FPDFText_GetCharOrigin", _INT, _VP, _INT, _DP, _DP)
_tf_size = _c("FPDFText_GetFontSize", ctypes.c_double, _VP, _INT)
_object_font = _c("FPDFTextObj_GetFont", _VP, _VP)
_is_embedded = _c("FPDFFont_GetIsEmbedded", _INT, _VP)
_count_objects = _c("FPDFPage_CountObjects", _INT, _VP)
_object = _c("FPDFPage_GetObject", _VP, _VP, _INT)
_object_type = _c("FPDFPageObj_GetType", _INT, _VP)
_object_text = _c("FPDFTextObj_GetText", ctypes.c_ulong, _VP, _VP, _VP, ctypes.c_ulong)
_descent = _c("FPDFFont_GetDescent", _INT, _VP, ctypes.c_float, ctypes.POINTER(ctypes.c_float))
_FP = ctypes.POINTER(ctypes.c_float)
_object_bounds = _c("FPDFPageObj_GetBounds", _INT, _VP, _FP, _FP, _FP, _FP)
_count_form_objects = _c("FPDFFormObj_CountObjects", _INT, _VP)
_form_object = _c("FPDFFormObj_GetObject", _VP, _VP, ctypes.c_ulong)


class _PageReader:
    """One page's text, words and fonts; holds the ctypes out-parameters it reuses."""

    def __init__(self, page: pdfium.PdfPage, number: int):
        self.page, self.number = page, number
        self.height = page.get_height()
        self.textpage = page.get_textpage()
        self.tp = ctypes.cast(self.textpage.raw, _VP).value
        self.objects: dict[int, _Font] = {}  # text object -> its font
        self.styles: dict[tuple, _Font] = {}  # (font, Tf size, scale) -> font
        self._x, self._y = ctypes.c_double(), ctypes.c_double()
        self._px, self._py = ctypes.byref(self._x), ctypes.byref(self._y)
        self._matrix = raw.FS_MATRIX()
        self._box = raw.FS_RECTF()
        self._name = ctypes.create_string_buffer(256)
        self._flags = ctypes.c_int()

    def _needs_reference(self) -> bool:
        """Whether PDFium reads this page's text differently from pdfminer, the reference.

        PDFium gives no text for any glyph of a font it cannot map (a colour emoji font's
        Type3 glyphs) and maps some CJK glyphs by the font rather than its ToUnicode
        table (U+98CE where the table says U+2EDB); such pages go to pdfplumber.
        """
        if _CJK.search(self._text()):
            return True
        has_text: dict[int, bool] = {}  # font -> whether any of its objects gave text
        for i in range(_count_objects(self.page.raw)):
            obj = _object(self.page.raw, i)
            if _object_type(obj) == raw.FPDF_PAGEOBJ_TEXT:
                font = _object_font(obj)
                if not has_text.get(font):  # a length in bytes, with the terminating NUL
                    has_text[font] = _object_text(obj, self.tp, None, 0) > 2
        return not all(has_text.values())

    def lines(self) -> list[PdfLine] | None:
        """The page's lines; None if only the reference backend reads it right."""
        try:
            if self._needs_reference():
                return None
            words = [w for m in _WORD.finditer(self._text()) if (w := self._word(m))]
            lines = [line for group in _cluster(words) if (line := self._line(group))]
            return plumber.with_drawn(lines, *self._drawn(), self.number)
        finally:
            self.textpage.close()
            self.page.close()

    def _drawn(self) -> tuple[list[plumber.Box], list[plumber.Box]]:
        """(x0, top, x1, bottom) of each image and each path drawn on the page, in points from
        its top, a form's too (by PDFium's plain functions: its object wrappers cost a third
        of the reader's time)."""
        images: list[plumber.Box] = []
        paths: list[plumber.Box] = []
        edges = [ctypes.c_float() for _ in range(4)]
        left, bottom, right, top = (ctypes.byref(edge) for edge in edges)
        found = {raw.FPDF_PAGEOBJ_IMAGE: images, raw.FPDF_PAGEOBJ_PATH: paths}
        objects = [_object(self.page.raw, i) for i in range(_count_objects(self.page.raw))]
        for depth in range(2):  # a form's objects, as pypdfium2's get_objects(max_depth=2)
            forms = []
            for obj in objects:
                kind = _object_type(obj)
                if kind in found and _object_bounds(obj, left, bottom, right, top):
                    x0, y0, x1, y1 = (edge.value for edge in edges)
                    found[kind].append((x0, self.height - y1, x1, self.height - y0))
                elif kind == raw.FPDF_PAGEOBJ_FORM and depth == 0:
                    forms.append(obj)
            objects = [_form_object(form, i) for form in forms
                       for i in range(_count_form_objects(form))]
        return images, paths

    def _text(self) -> str:
        """All chars of the page, index for index (generated spaces and line ends included)."""
        tp = self.textpage.raw
        n = raw.FPDFText_CountChars(tp)
        if n <= 0:
            return ""
        buffer = (ctypes.c_ushort * (n + 1))()
        written = raw.FPDFText_GetText(tp, 0, n, buffer)
        text = bytes(memoryview(buffer)[: max(written - 1, 0)]).decode("utf-16-le", "replace")
        if len(text) != n:  # surrogate pairs or excluded chars: ask char by char
            text = "".join(chr(raw.FPDFText_GetUnicode(tp, i) or 32) for i in range(n))
        return text

    def _word(self, m: re.Match) -> _Word | None:
        first, last = m.start(), m.end() - 1
        runs = self._runs(first, last)
        if not runs:
            return None
        _origin(self.tp, first, self._px, self._py)
        sizes = Counter()
        for count, font in runs:
            sizes[round(font.size, 1)] += count
        text = m.group()
        if text.endswith(tuple(_HYPHENS)):
            text = text[:-1] + "-"
        text = _CONTROL.sub("", text)  # a glyph the font maps to no character
        if not text:
            return None
        top = self.height - self._y.value - max(f.size + f.descent for _, f in runs)
        x0 = self._x.value
        raw.FPDFText_GetLooseCharBox(self.textpage.raw, last, self._box)
        return _Word(text, top=top, x0=x0, first=first, x1=self._box.right, sizes=sizes,
                     bold=all(f.bold for _, f in runs), code=all(f.code for _, f in runs))

    def _runs(self, first: int, last: int) -> list[tuple[int, _Font]]:
        """(char count, font) runs of a word: its two ends, unless they differ in font."""
        head = self._font(first)
        tail = self._font(last) if last > first else head
        if head is not None and head is tail:
            return [(last - first + 1, head)]
        runs: list[tuple[int, _Font]] = []
        for i in range(first, last + 1):
            font = self._font(i)
            if runs and font is runs[-1][1]:
                runs[-1] = (runs[-1][0] + 1, font)
            elif font is not None:
                runs.append((1, font))
        return runs

    def _font(self, index: int) -> _Font | None:
        """The font of char `index`; None for a char PDFium generated (no text object)."""
        obj = _text_object(self.tp, index)
        if obj is None:
            return None
        font = self.objects.get(obj)
        if font is None:
            raw.FPDFText_GetMatrix(self.textpage.raw, index, self._matrix)
            scale = abs(self._matrix.d) or abs(self._matrix.b)
            handle = _object_font(obj)
            key = (handle, _tf_size(self.tp, index), scale)
            font = self.styles.get(key)
            if font is None:
                font = self.styles[key] = self._style(handle, index, key[1] * scale)
            self.objects[obj] = font
        return font

    def _style(self, handle: int, index: int, size: float) -> _Font:
        raw.FPDFText_GetFontInfo(self.textpage.raw, index, self._name, 256, self._flags)
        name = self._name.value.decode("utf-8", "replace")
        return _Font(size, self._descent(handle, name, size), bool(_BOLD.search(name)),
                     bool(_MONO.search(name)))

    @staticmethod
    def _descent(handle: int, name: str, size: float) -> float:
        if not _is_embedded(handle):
            family = re.split(r"[-,]", name.split("+")[-1])[0].lower()
            if family in _STANDARD_DESCENT:
                return _STANDARD_DESCENT[family] * size
        descent = ctypes.c_float()
        _descent(handle, size, ctypes.byref(descent))
        return descent.value

    def _line(self, words: list[_Word]) -> PdfLine | None:
        """The pdfplumber line of a word cluster (see pdf._page_lines)."""
        texts = [_combine_surrogates(w.text) for w in words]  # (a pair never spans a space)
        text = marked_item(" ".join(texts))
        if not text:
            return None
        sizes = sum((w.sizes for w in words), Counter())
        size = sizes.most_common(1)[0][0]
        first = words[0]
        code = all(w.code for w in words)
        return PdfLine(
            text=text, page=self.number, top=min(w.top for w in words),
            bottom=max(w.top for w in words) + size, x0=first.x0, size=size,
            bold=all(w.bold for w in words), code=code,
            char_width=self._char_width(first, first.code) or size * 0.6,
            spans=tuple((w.x0, t) for w, t in zip(words, texts, strict=True)) if code else (),
            cells=() if code else plumber.cells(
                [(w.x0, w.x1, t, w.code) for w, t in zip(words, texts, strict=True)], size),
            x1=max(w.x1 for w in words),
            words=tuple((w.x0, w.x1, t) for w, t in zip(words, texts, strict=True)),
        )

    def _char_width(self, word: _Word, mono: bool) -> float:
        """A line's first character's advance (what code indentation is counted in).

        In a monospace word the next character's origin gives it exactly; elsewhere
        kerning moves that origin, and the loose box (origin to advance) is used.
        """
        if mono and len(word.text) > 1:
            _origin(self.tp, word.first + 1, self._px, self._py)
            return self._x.value - word.x0
        box = raw.FS_RECTF()
        raw.FPDFText_GetLooseCharBox(self.textpage.raw, word.first, box)
        return box.right - box.left


def _combine_surrogates(text: str) -> str:
    """PDFium counts a character outside the BMP as two UTF-16 halves: join each pair
    (CJK extensions, emoji) and replace a lone half, so the text is valid Unicode."""
    if not _SURROGATE.search(text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")


def _cluster(words: list[_Word]) -> list[list[_Word]]:
    """Group words into lines as pdfplumber's cluster_objects does: chained tops within 3 pt."""
    if not words:
        return []
    tops = sorted({w.top for w in words})
    line_of: dict[float, int] = {}
    index, last = 0, tops[0]
    for top in tops:
        if top - last > _Y_TOLERANCE:
            index += 1
        line_of[top] = index
        last = top
    groups: list[list[_Word]] = [[] for _ in range(index + 1)]
    for word in words:
        groups[line_of[word.top]].append(word)
    return [sorted(group, key=lambda w: w.x0) for group in groups]
