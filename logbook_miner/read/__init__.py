"""Readers: the only code that knows about file formats. Each returns a Document of Lines.

The format is decided by the file's bytes first (a PDF named `.md` is still a
PDF) and its extension second.
"""

from __future__ import annotations

import importlib
import re
import stat
import zipfile
from collections.abc import Callable
from pathlib import Path

from ..models import Document
from .errors import ReadError
from .markdown import read_markdown
from .org import read_org
from .text import decode, read_text

SUPPORTED_SUFFIXES = (".pdf", ".md", ".markdown", ".txt", ".text", ".log", ".org", ".docx",
                      ".html", ".htm")
# Both give the same entries on every fixture (tests/test_pdf_backends.py); PDFium is
# ~10x faster, pdfplumber stays as the reference and a fallback. Each backend's module
# is imported when first used, so a run that reads no PDF never loads a PDF library.
PDF_BACKENDS = ("pdfium", "pdfplumber")
_BACKEND_MODULES = {"pdfium": ".pdfium", "pdfplumber": ".pdf"}
DEFAULT_PDF_BACKEND = "pdfium"
OnPage = Callable[[int, int], None]  # (pages read, pages in all): progress through a PDF
_MARKDOWN_SUFFIXES = (".md", ".markdown")
_NOT_NOTES = frozenset({".json", ".jsonl", ".ndjson", ".csv", ".tsv", ".parquet", ".yaml", ".yml",
                        ".toml", ".py", ".ipynb"})
_HTML_SUFFIXES = (".html", ".htm")
# A page, whatever its name: a doctype or an <html> element first.
_HTML_PAGE = re.compile(rb"(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<(?:!doctype\s+html|html)\b",
                        re.IGNORECASE | re.DOTALL)
# An HTML fragment (an export without <html>): first tag a block element. Markdown may
# open with such a tag too, so a fragment counts only where the name is not Markdown's.
_HTML_FRAGMENT = re.compile(
    rb"<(?:head|body|meta|title|style|h[1-6]|div|p|table|ul|ol|pre|section|article)\b",
    re.IGNORECASE)
_DOCX_PART = "word/document.xml"

__all__ = ["DEFAULT_PDF_BACKEND", "PDF_BACKENDS", "SUPPORTED_SUFFIXES", "ReadError", "pdf_pages",
           "read", "read_pdf", "regular_file", "sniff_format"]


def sniff_format(path: Path, head: bytes) -> str:
    """'pdf', 'docx', 'html', 'markdown', 'org' or 'text', from the bytes then the extension."""
    if head.lstrip(b"\x00\t\r\n ").startswith(b"%PDF-"):
        return "pdf"
    suffix = path.suffix.lower()
    if head.startswith(b"PK\x03\x04"):
        return _zip_format(path)
    if suffix == ".pdf":
        raise ReadError("not a PDF (no %PDF- header)")
    if suffix == ".docx":
        raise ReadError("not a Word document (not a zip archive)")
    if suffix in _NOT_NOTES:  # a slip of the path (gold labels, a script) read as text
        raise ReadError(f"a {suffix} file holds data or code, not notes (a logbook is PDF, "
                        "Markdown, text, Org, DOCX or HTML)")
    start = head.removeprefix(b"\xef\xbb\xbf").lstrip()
    fragment = suffix not in _MARKDOWN_SUFFIXES and _HTML_FRAGMENT.match(start)
    if _HTML_PAGE.match(start) or fragment or suffix in _HTML_SUFFIXES:
        return "html"
    if suffix in _MARKDOWN_SUFFIXES:
        return "markdown"
    return "org" if suffix == ".org" else "text"


def _zip_format(path: Path) -> str:
    """A zip is a Word document if it holds word/document.xml; no other zip is a logbook."""
    try:
        with zipfile.ZipFile(path) as archive:
            names = set(archive.namelist())
    except (zipfile.BadZipFile, OSError) as exc:
        raise ReadError(f"broken zip archive ({exc})") from None
    if _DOCX_PART not in names:
        raise ReadError(f"a zip archive without {_DOCX_PART}, not a Word document")
    return "docx"


def pdf_pages(path: Path) -> int | None:
    """A PDF's page count without reading its text (0 if unreadable); None if not a PDF."""
    import pypdfium2

    try:
        with path.open("rb") as fh:
            if not fh.read(1024).lstrip(b"\x00\t\r\n ").startswith(b"%PDF-"):
                return None
        document = pypdfium2.PdfDocument(str(path))
    except (OSError, pypdfium2.PdfiumError):
        return 0
    try:
        return len(document)
    finally:
        document.close()


def read_pdf(path: str | Path, backend: str = DEFAULT_PDF_BACKEND,
             on_page: OnPage | None = None) -> Document:
    """Read a PDF with the named backend ('pdfium' or 'pdfplumber').

    `on_page(read, total)` is called after each page: a long PDF takes seconds.
    """
    if backend not in PDF_BACKENDS:
        raise ValueError(f"unknown PDF backend {backend!r}; expected one of {sorted(PDF_BACKENDS)}")
    module = importlib.import_module(_BACKEND_MODULES[backend], __package__)
    return module.read_pdf(Path(path), on_page)


def regular_file(path: Path) -> int:
    """The size of `path` if it is a regular file (links followed); ReadError otherwise.

    Checked before a file is opened: opening a FIFO blocks until a writer comes,
    and a device such as /dev/zero never ends.
    """
    try:
        info = path.stat()
    except OSError as exc:
        raise ReadError(exc.strerror or str(exc)) from None
    if stat.S_ISDIR(info.st_mode):
        raise ReadError("is a directory")
    if not stat.S_ISREG(info.st_mode):
        kind = ("a FIFO" if stat.S_ISFIFO(info.st_mode) else "a socket"
                if stat.S_ISSOCK(info.st_mode) else "a device")
        raise ReadError(f"not a regular file ({kind}); not read")
    return info.st_size


def read(path: str | Path, pdf_backend: str = DEFAULT_PDF_BACKEND,
         on_page: OnPage | None = None) -> Document:
    """Read one logbook file into Lines; raise ReadError with a one-line reason."""
    path = Path(path)
    size = regular_file(path)
    try:
        with path.open("rb") as fh:
            head = fh.read(1024)
    except OSError as exc:
        raise ReadError(exc.strerror or str(exc)) from None
    if size == 0:
        raise ReadError("empty file")
    fmt = sniff_format(path, head)
    if fmt == "pdf":
        return read_pdf(path, pdf_backend, on_page)
    if fmt in ("docx", "html"):  # imported when used, like the PDF backends
        return getattr(importlib.import_module(f".{fmt}", __package__), f"read_{fmt}")(path)
    text = decode(path.read_bytes())
    return {"markdown": read_markdown, "org": read_org}.get(fmt, read_text)(path, text)
