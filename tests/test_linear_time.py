"""Pathological text ingests in time linear in its size (issue 16).

Each input is sized so that the quadratic behaviour it once had would take
many minutes (50,000 spaces took 35 s in the segmenter, 20,000 ')' took 60 s
in the tokenizer); the guard of `logbook_cli` kills the run long before that.
The growth itself is measured by benchmarks/linearity.py.
"""

from __future__ import annotations

import duckdb
import pytest
from helpers import entry_counts, logbook_cli
from pdfbuild import unicode_pdf

from logbook_miner.read.pdf import MAX_PAGE_CHARS

SIZE = 200_000
CASES = {
    "spaces": "2022-03-01 node 7 went down\n\n" + " " * SIZE + "\nrestarted\n",
    "spaces-then-number": "2022-03-01 title" + " " * SIZE + "x 12\n\nbody\n",
    "parentheses": "2022-03-01 GPU fell off the bus\n\n" + ")" * SIZE + " NCCL timeout\n",
    "hashes": "2022-03-01 crash\n\n" + "#" * SIZE + "\n",
    "stars": "2022-03-01 crash\n\n" + "*" * SIZE + "\n",  # a tool's name, marked or not
}


@pytest.mark.parametrize("name", CASES)
def test_pathological_text_ingests_with_labels(tmp_path, name):
    path, db = tmp_path / f"{name}.txt", tmp_path / "x.duckdb"
    path.write_text(CASES[name])
    run = logbook_cli("ingest", path, "--db", db, timeout=120)
    assert run.returncode == 0, run.stderr
    with duckdb.connect(str(db), read_only=True) as con:
        [(entries,)] = con.execute("SELECT count(*) FROM entries").fetchall()
        codes = {c for (c,) in con.execute("SELECT code FROM labels").fetchall()}
    assert entries >= 1
    if name == "parentheses":
        assert {"hardware.gpu", "network.interconnect"} <= codes


@pytest.mark.parametrize("backend", ["pdfium", "pdfplumber"])
def test_a_pdf_line_of_millions_of_characters_is_refused_in_bounded_work(tmp_path, backend):
    """A 25 KB PDF with one line of 4,000,000 CJK glyphs: pdfplumber (PDFium sends CJK pages
    to it) once built a dict per character, which at this size is minutes and ~9 GB. It
    now stops counting at MAX_PAGE_CHARS, and the rest of the batch is stored."""
    bomb, good, db = tmp_path / "bomb.pdf", tmp_path / "good.md", tmp_path / "x.duckdb"
    bomb.write_bytes(unicode_pdf([("故障 on node 3", 10), ("故" * 4_000_000, 10)],
                                 compress=True))
    good.write_text("## 2022-03-01\n\nnode 7 went down, restarted\n")
    run = logbook_cli("ingest", bomb, good, "--db", db, "--pdf-backend", backend,
                      "--no-label", timeout=120)
    assert run.returncode == 1
    assert run.errors == [f"error: {bomb}: page 1 has over {MAX_PAGE_CHARS:,} characters, "
                          "more than a logbook page holds; not read"]
    assert entry_counts(db) == {"good": 1}
