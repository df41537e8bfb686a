"""The PDFium reader is the default only because it yields pdfplumber's entries on every PDF here.

Fixtures: the reference logbooks in ../shared (both renderers), the fpdf2-built
logbooks of the other tests, and generated OPT-style logbooks.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import SHARED
from helpers import FIGURE_NOTE, figure_pdf, text_pdf
from pdfbuild import Note, write_logbook
from test_opt_style_pdf import NOTES

from logbook_miner.generate import generate
from logbook_miner.read import DEFAULT_PDF_BACKEND, PDF_BACKENDS, ReadError, read, read_pdf
from logbook_miner.segment.entries import segment

FIELDS = ("heading", "date", "time", "timezone", "author", "run_id", "page_start", "page_end",
          "text")
SHARED_PDFS = sorted((SHARED / "logbooks" / "pdf").glob("*.pdf"))
BAD_NOTES = {"2022-03-01 Node failure": "GPU 3 fell off the bus; restarted from checkpoint 1200."}


def entries(path: Path, backend: str) -> list[tuple]:
    return [tuple(getattr(e, f) for f in FIELDS) for e in segment(read_pdf(path, backend))]


def assert_same_entries(path: Path) -> None:
    reference, fast = entries(path, "pdfplumber"), entries(path, "pdfium")
    assert reference, f"{path.name}: no entries"
    for i, (a, b) in enumerate(zip(reference, fast, strict=True)):
        assert a == b, f"{path.name}: entry {i + 1} differs"


@pytest.mark.parametrize("path", SHARED_PDFS, ids=lambda p: p.name)
def test_reference_logbooks(path):
    assert_same_entries(path)


def test_reference_logbooks_are_there():
    if not SHARED_PDFS:
        pytest.skip(f"no reference PDFs at {SHARED}/logbooks/pdf (clone beside ../shared)")
    assert len(SHARED_PDFS) >= 2


@pytest.mark.parametrize("footer", ["browser", "page"])
def test_fpdf2_logbooks(tmp_path, footer):
    notes = [*NOTES, Note("2021-12-03 9:00 ET [Naman]: Run 12.40", ["x" * 300],
                          code=["    indented four", "def f(x):", "        return x"])]
    assert_same_entries(write_logbook(tmp_path / "opt.pdf", "OPT-style", notes,
                                      footer_style=footer))


def test_fpdf2_headers_only(tmp_path):
    headers = [Note(n.heading) for n in NOTES[:4]]
    assert_same_entries(write_logbook(tmp_path / "h.pdf", "Headers", headers, toc=False,
                                      footer_style="page"))


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_generated_logbooks(tmp_path, seed):
    assert_same_entries(generate(tmp_path, seed=seed, style="opt", pages=8).document)


BAD = {
    "encrypted.pdf": (lambda: text_pdf(BAD_NOTES, user_password="s3cret"),
                      "encrypted PDF (needs a password)"),
    "truncated.pdf": (lambda: text_pdf(BAD_NOTES)[:600], "truncated PDF"),
    "noise.pdf": (lambda: b"%PDF-1.7\n" + bytes(range(256)) * 80, "damaged PDF"),
}


@pytest.mark.parametrize("backend", sorted(PDF_BACKENDS))
@pytest.mark.parametrize("name", sorted(BAD))
def test_unreadable_pdfs_give_the_same_one_line_reason(tmp_path, backend, name):
    make, reason = BAD[name]
    path = tmp_path / name
    path.write_bytes(make())
    with pytest.raises(ReadError) as caught:
        read(path, pdf_backend=backend)
    message = str(caught.value)
    assert message.startswith(reason) and "\n" not in message


@pytest.mark.parametrize("backend", sorted(PDF_BACKENDS))
def test_a_heading_over_only_a_figure_is_an_entry(tmp_path, backend):
    """In Markdown a figure is its link text; in a PDF only the picture is left, and
    a heading with nothing under it would not be an entry (TAXONOMY rule 13)."""
    path = tmp_path / "figure.pdf"
    path.write_bytes(figure_pdf())
    found = {e.heading: e.text for e in segment(read_pdf(path, backend))}
    assert found == {"All divergences together": "[image]",
                     "Exp 12": "\n".join(FIGURE_NOTE)}


def test_default_backend_is_pdfium():
    assert DEFAULT_PDF_BACKEND == "pdfium"
    with pytest.raises(ValueError, match="unknown PDF backend"):
        read_pdf(Path("x.pdf"), "nope")
