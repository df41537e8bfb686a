"""Hostile note text is data: stored verbatim and exported verbatim in every format.

HTML and script, SQL-looking text, bidi overrides and zero-width characters,
and 10,000-character words go in through the real `logbook ingest` (with the
classifier) and come out of `logbook export` as jsonl, csv and parquet unchanged.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import duckdb
import pytest
from helpers import logbook_cli, logbook_in_process

HOSTILE = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    "Node 4 said '; DROP TABLE entries; -- and \"quotes\", commas, ; semicolons",
    "RTL: \u202egnp.exe\u202c Hebrew שלום\u200f and Arabic مرحبا\u200e marks",
    "zero\u200bwidth\u200cnon\u200djoiner\u2060word\ufeffjoiner",
    "W" * 10_000 + " then a " + "é" * 10_000,
    "={1+1} @SUM(A1) +cmd|' /C calc'!A0 -- spreadsheet-looking",
]
HEADINGS = {
    "hostile": "2022-03-01 <b>bold</b> '; DROP TABLE logbooks; -- \u202eevil\u202c",
    "hostile-text": "2022-03-01 <script>alert('heading')</script> zero\u200bwidth",
}


def _files(folder: Path) -> list[Path]:
    body = "\n\n".join(HOSTILE)
    md = folder / "hostile.md"
    md.write_text(f"# {HEADINGS['hostile']}\n\n{body}\n\n# 2022-03-02 calm\n\nNothing.\n")
    txt = folder / "hostile-text.txt"
    txt.write_text(f"{HEADINGS['hostile-text']}\n\n{body}\n\n2022-03-02 calm\n\nNothing.\n")
    return [md, txt]


@pytest.fixture(scope="module")
def stored(tmp_path_factory) -> tuple[Path, dict[tuple[str, int], tuple[str, str]]]:
    """Ingest both files; return the DB and its (heading, text) per (logbook, seq)."""
    folder = tmp_path_factory.mktemp("hostile")
    db = folder / "store.duckdb"
    run = logbook_cli("ingest", "--db", db, *_files(folder))
    assert (run.returncode, run.stderr) == (0, ""), run
    with duckdb.connect(str(db), read_only=True) as con:
        rows = con.execute("SELECT logbook, seq, heading, text FROM entries").fetchall()
    return db, {(lb, seq): (heading, text) for lb, seq, heading, text in rows}


def test_stored_verbatim(stored):
    _, rows = stored
    for logbook, heading in HEADINGS.items():
        assert rows[(logbook, 1)] == (heading, "\n\n".join(HOSTILE))
        assert rows[(logbook, 2)] == ("2022-03-02 calm", "Nothing.")


def _read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def _read_parquet(path: Path) -> list[dict]:
    with duckdb.connect() as con:
        rel = con.execute("SELECT logbook, seq, heading, text FROM read_parquet(?)", [str(path)])
        return [dict(zip(["logbook", "seq", "heading", "text"], r, strict=True))
                for r in rel.fetchall()]


@pytest.mark.parametrize("fmt,load", [("jsonl", _read_jsonl), ("csv", _read_csv),
                                      ("parquet", _read_parquet)])
def test_exported_verbatim(stored, tmp_path, fmt, load):
    db, rows = stored
    run = logbook_in_process("export", "--db", db, "--out", tmp_path, "--format", fmt)
    assert (run.returncode, run.stderr) == (0, ""), run
    exported = {(r["logbook"], int(r["seq"])): (r["heading"], r["text"])
                for r in load(tmp_path / f"entries.{fmt}")}
    assert exported == rows
