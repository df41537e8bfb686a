"""Bad inputs through the real `logbook ingest`: each file ingests correctly or fails alone.

A failed file gives exactly one stderr line `error: FILE: reason` (never a
traceback), leaves its logbook's rows as they were, and does not stop the
other files of the batch; the run exits 1 and stays within time and memory.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path

import pytest
from helpers import CliRun, entry_counts, image_pdf, logbook, logbook_cli, snapshot, text_pdf

from logbook_miner.ingest import ingest, no_labels

NOTES = {
    "2022-03-01 Node failure": "GPU 3 fell off the bus; restarted from checkpoint 1200.",
    "2022-03-02 Loss spike": "Loss spiked at step 1500; rolled back and lowered the LR.",
}
ACCENTED = "Café crème at 5°C: naïve señor, Ærø, façade"
WIDE = "Ünïcode ✓ 漢字 ‏עברית‏ 🚀"
MB = 1 << 20


def _rng() -> random.Random:
    return random.Random(7)


def _garbled_stream(pdf: bytes) -> bytes:
    """The page's content stream overwritten with noise; the file's structure intact."""
    start = pdf.index(b"stream\n") + len(b"stream\n")
    end = pdf.index(b"endstream", start)
    return pdf[:start] + _rng().randbytes(end - start) + pdf[end:]


def _sprinkled(text: str, junk: str) -> str:
    """`text` with a control character after every fifth one; a few NULs (1% NUL is binary)."""
    return "".join(c + junk[i % len(junk)] if i % 5 == 4 and c != "\n" else c
                   for i, c in enumerate(text))


@dataclass(frozen=True)
class Case:
    """One bad (or merely unusual) file and what ingesting it must give."""

    file: str
    make: Callable[[], bytes]
    error: str | None = None  # the reason's start, for a file that must fail
    text: str | None = None  # for a file that must ingest: text its entries hold verbatim
    format: str | None = None  # ... and the format it must be read as

    @property
    def logbook(self) -> str:
        return Path(self.file).stem


CONTROLS = "\x00\x01\x07\x08\x0b\x0c\x1b\x7f"
CASES = [
    Case("truncated.pdf", lambda: text_pdf(NOTES)[:600], "truncated PDF (unexpected end of file)"),
    Case("header-then-noise.pdf", lambda: b"%PDF-1.7\n" + _rng().randbytes(20_000),
         "damaged PDF (PDFSyntaxError: "),
    Case("garbled-stream.pdf", lambda: _garbled_stream(text_pdf(NOTES)),
         "no text (blank or damaged PDF)"),
    Case("trailing-garbage.pdf", lambda: text_pdf(NOTES) + _rng().randbytes(5000),
         text="rolled back and lowered the LR", format="pdf"),
    Case("encrypted.pdf", lambda: text_pdf(NOTES, user_password="s3cret"),
         "encrypted PDF (needs a password)"),
    Case("owner-locked.pdf", lambda: text_pdf(NOTES, owner_password="s3cret"),
         text="fell off the bus", format="pdf"),
    Case("scanned.pdf", image_pdf, "no text layer (scanned or image-only PDF)"),
    Case("empty.md", lambda: b"", "empty file"),
    Case("really-a-pdf.md", lambda: text_pdf(NOTES), text="fell off the bus", format="pdf"),
    Case("junk.pdf", lambda: b"<html>not a pdf</html>\n" * 10, "not a PDF (no %PDF- header)"),
    Case("latin1.md", lambda: f"# 2022-03-01 Notes\n\n{ACCENTED}\n".encode("latin-1"),
         text=ACCENTED, format="markdown"),
    Case("utf16.md", lambda: f"# 2022-03-01 Notes\n\n{WIDE}\n".encode("utf-16"),
         text=WIDE, format="markdown"),
    Case("controls.txt",
         lambda: _sprinkled(logbook(3, markdown=False), CONTROLS).encode(),
         text=logbook(3, markdown=False).split("\n\n")[1], format="text"),
    Case("binary.txt", lambda: _rng().randbytes(4096) + bytes(4096),
         "binary file (NUL bytes), not text"),
    Case("labels.jsonl", lambda: b'{"logbook": "notes", "n": 1, "faults": []}\n',
         "a .jsonl file holds data or code, not notes (a logbook is PDF, Markdown, text, Org, DOCX "
         "or HTML)"),
]
GOOD = {"good-notes.md": (logbook(5).encode(), 5), "good-print.pdf": (text_pdf(NOTES), 2)}


@dataclass(frozen=True)
class Batch:
    """One `logbook ingest` of every case and the good files, into a DB seeded beforehand."""

    run: CliRun
    db: Path
    folder: Path
    before: dict[str, dict[str, list[tuple]]]  # each case's logbook rows before the run


@pytest.fixture(scope="module")
def batch(tmp_path_factory) -> Batch:
    """Seed a good version of every case's logbook, then ingest the bad files over them."""
    root = tmp_path_factory.mktemp("bad-inputs")
    db, seed, folder = root / "store.duckdb", root / "seed", root / "files"
    seed.mkdir()
    folder.mkdir()
    for case in CASES:
        (seed / f"{case.logbook}.md").write_text(logbook(2))
    ingest(sorted(seed.iterdir()), db=db, classify=no_labels)
    before = {case.logbook: snapshot(db, case.logbook) for case in CASES}
    for case in CASES:
        (folder / case.file).write_bytes(case.make())
    for name, (data, _) in GOOD.items():
        (folder / name).write_bytes(data)
    files = [folder / case.file for case in CASES] + [folder / name for name in GOOD]
    # --force: each seed is another text than its file, which replaces it only when forced
    return Batch(logbook_cli("ingest", "--db", db, "--force", *files, timeout=180), db, folder,
                 before)


def test_batch_exits_1_with_one_line_per_failed_file_and_no_traceback(batch):
    failing = [c for c in CASES if c.error]
    assert batch.run.returncode == 1
    assert "Traceback" not in batch.run.stderr
    assert len(batch.run.errors) == len(failing), batch.run.stderr
    assert all(line.startswith("error: ") for line in batch.run.errors)


def test_batch_runs_in_bounded_time_and_memory(batch):
    assert batch.run.cpu_seconds < 60, batch.run
    assert batch.run.max_rss_mb < 1024, batch.run


def test_good_files_of_the_batch_still_ingest(batch):
    counts = entry_counts(batch.db)
    for name, (_, entries) in GOOD.items():
        assert counts[Path(name).stem] == entries
        assert f"{Path(name).stem}: {entries} entries, {entries} dated" in batch.run.stdout


@pytest.mark.parametrize("case", [c for c in CASES if c.error], ids=lambda c: c.file)
def test_a_bad_file_gives_one_error_line_and_leaves_the_db_as_it_was(batch, case):
    path = batch.folder / case.file
    mine = [line for line in batch.run.errors if line.startswith(f"error: {path}: ")]
    assert len(mine) == 1, batch.run.stderr
    assert mine[0].startswith(f"error: {path}: {case.error}"), mine[0]
    assert snapshot(batch.db, case.logbook) == batch.before[case.logbook]


@pytest.mark.parametrize("case", [c for c in CASES if not c.error], ids=lambda c: c.file)
def test_an_unusual_file_ingests_correctly(batch, case):
    path = batch.folder / case.file
    assert not [line for line in batch.run.errors if f" {path}: " in line]
    rows = snapshot(batch.db, case.logbook)
    assert [row[3] for row in rows["logbooks"]] == [case.format]
    texts = [text for *_, text in rows["entries"]]
    assert any(case.text in text for text in texts), texts
    assert not any(set(CONTROLS) & set(text) for text in texts)


def _ingest_alone(folder: Path, name: str, data: bytes, *options: str) -> CliRun:
    """One big file and one small good one in a batch of their own (for their own rusage)."""
    (folder / name).write_bytes(data)
    (folder / "small.md").write_text(logbook(2))
    return logbook_cli("ingest", "--db", folder / "store.duckdb", *options,
                       folder / name, folder / "small.md")


def _assert_ingested(run: CliRun, folder: Path, entries: dict[str, int]) -> None:
    assert (run.returncode, run.stderr) == (0, ""), run
    assert entry_counts(folder / "store.duckdb") == entries


def test_a_1mb_single_line_ingests(tmp_path):
    line = ("GPU node 7 failed again, restarted from the last checkpoint; " * 20_000)[:MB]
    run = _ingest_alone(tmp_path, "one-line.md", f"# 2022-03-01 Notes\n\n{line}\n".encode())
    assert run.max_rss_mb < 1024, run
    _assert_ingested(run, tmp_path, {"one-line": 1, "small": 2})
    assert snapshot(tmp_path / "store.duckdb", "one-line")["entries"][0][-1] == line


# --no-label below: the classifier labels ~130 kB/s, which would make these
# minutes long; what is under test here is reading, segmenting and storing.
def test_100000_headings_ingest_in_bounded_time_and_memory(tmp_path):
    run = _ingest_alone(tmp_path, "headings.md", logbook(100_000).encode(), "--no-label")
    _assert_ingested(run, tmp_path, {"headings": 100_000, "small": 2})
    assert run.cpu_seconds < 90 and run.max_rss_mb < 1536, run


@pytest.mark.slow
def test_a_50mb_text_file_ingests_in_bounded_time_and_memory(tmp_path):
    text = logbook(22_000, markdown=False, body_lines=40)
    assert len(text) > 50 * MB
    run = _ingest_alone(tmp_path, "big.txt", text.encode(), "--no-label")
    _assert_ingested(run, tmp_path, {"big": 22_000, "small": 2})
    assert run.cpu_seconds < 120 and run.max_rss_mb < 2048, run


def test_two_files_of_one_name_in_a_batch_keep_the_first_and_refuse_the_second(tmp_path):
    """a/notes.md and b/notes.md would both be logbook `notes`: the second would silently
    replace the first, so it is refused, by name, and the first is kept."""
    first, second = tmp_path / "a" / "notes.md", tmp_path / "b" / "notes.md"
    for path, entries in ((first, 2), (second, 3)):
        path.parent.mkdir()
        path.write_text(logbook(entries))
    db = tmp_path / "x.duckdb"
    run = logbook_cli("ingest", "--db", db, first, second)
    assert run.returncode == 1
    assert run.errors == [f"error: {second}: another file of this batch is logbook `notes` "
                          f"({first}); ingest this one on its own with --name"], run.stderr
    assert entry_counts(db) == {"notes": 2}


def test_a_file_that_shares_no_text_with_the_logbook_of_its_name_does_not_replace_it(tmp_path):
    """A slip of the path (../gold/cpm-live.jsonl for ../logbooks/md/cpm-live.md) must not
    replace a stored logbook with another text: refused, named, and --force still can."""
    first, slip = tmp_path / "a" / "notes.md", tmp_path / "b" / "notes.md"
    first.parent.mkdir()
    first.write_text(logbook(3))
    slip.parent.mkdir()
    slip.write_text("# 2024-05-01 shopping\n\nMilk, eggs and a new kettle for the office.\n")
    db = tmp_path / "x.duckdb"
    ingest([first], db=db, classify=no_labels)
    run = logbook_cli("ingest", "--db", db, "--no-label", slip)
    assert run.returncode == 1
    assert run.errors == [f"error: {slip}: logbook `notes` is stored from {first}, which shares "
                          "0% of its text with this file; not replaced: --name gives it its "
                          "own, --force replaces it"], run.stderr
    assert entry_counts(db) == {"notes": 3}
    assert logbook_cli("ingest", "--db", db, "--no-label", "--force", slip).returncode == 0
    assert entry_counts(db) == {"notes": 1}


def test_a_logbook_replaced_by_another_file_says_which(tmp_path):
    """Ingesting b/notes.md over the `notes` read from a/notes.md replaces it (a changed or
    moved file is the common case), and the summary names the file it replaced."""
    first, second = tmp_path / "a" / "notes.md", tmp_path / "b" / "notes.md"
    for path, entries in ((first, 2), (second, 3)):
        path.parent.mkdir()
        path.write_text(logbook(entries))
    db = tmp_path / "x.duckdb"
    ingest([first], db=db, classify=no_labels)
    [result] = ingest([second], db=db, classify=no_labels)
    assert f"; replaced `notes` read from {first}; it has no labels" in result.summary()
    assert entry_counts(db) == {"notes": 3}


def test_a_database_that_cannot_be_written_is_named_and_keeps_what_it_holds(tmp_path):
    """The disk says no when DuckDB commits (here its write-ahead log cannot be made in a
    read-only folder): one line naming the database, not the input file, and not DuckDB's
    'cannot rollback' that used to hide it; what was stored stays."""
    if os.geteuid() == 0 and not shutil.which("setpriv"):
        pytest.skip("root writes to read-only folders, and setpriv is not here to drop that")
    folder, notes, more = tmp_path / "store", tmp_path / "notes.md", tmp_path / "more.md"
    folder.mkdir()
    notes.write_text(logbook(3))
    more.write_text(logbook(4))
    db = folder / "x.duckdb"
    assert logbook_cli("ingest", notes, "--db", db, "--no-label").returncode == 0
    before = snapshot(db)
    folder.chmod(0o555)
    try:
        # root too must be refused: setpriv drops the capability that overrides permissions
        unprivileged = (["setpriv", "--bounding-set", "-dac_override,-dac_read_search,-fowner"]
                        if os.geteuid() == 0 else [])
        done = subprocess.run([*unprivileged, sys.executable, "-m", "logbook_miner", "ingest",
                               more, "--db", db, "--no-label"],
                              capture_output=True, text=True, timeout=120)
    finally:
        folder.chmod(0o755)
    assert done.returncode == 1
    assert done.stderr.splitlines() == [
        f"error: {db}: cannot write: Failed to commit: Cannot open file \"{db}.wal\": "
        "Permission denied"]
    assert snapshot(db) == before


def _duckdb_with_a_table(path: Path) -> None:
    import duckdb

    with duckdb.connect(str(path)) as con:
        con.execute("CREATE TABLE entries (id INTEGER)")


def _empty_duckdb(path: Path) -> None:
    import duckdb

    duckdb.connect(str(path)).close()


def _sqlite(path: Path) -> None:
    import sqlite3

    with closing(sqlite3.connect(path)) as con:
        con.execute("CREATE TABLE runs (id INTEGER)")
        con.commit()


@pytest.mark.parametrize(("make", "name", "command", "said"), [
    (_duckdb_with_a_table, "theirs.duckdb", "ingest",
     "not a logbook database (its tables: entries); give --db a new file"),
    (_empty_duckdb, "empty.duckdb", "logbooks",
     "no logbooks stored yet (run `logbook ingest` first)"),
    (_sqlite, "runs.sqlite", "ingest",
     "a SQLite database, not DuckDB; give --db a *.duckdb file"),
])
def test_a_database_that_is_not_a_logbook_store_is_refused_untouched(
        tmp_path, make, name, command, said):
    """Another tool's DuckDB file gets none of our tables; a SQLite file is named as one,
    by its header (DuckDB would fetch an extension to read it)."""
    db = tmp_path / name
    make(db)
    before = db.read_bytes()
    notes = tmp_path / "notes.md"
    notes.write_text(logbook(2))
    done = logbook_cli(command, *([notes] if command == "ingest" else []), "--db", db)
    assert (done.returncode, done.errors) == (1, [f"error: {db}: {said}"])
    assert db.read_bytes() == before


def test_an_empty_logbook_db_variable_means_the_default_database(monkeypatch):
    from logbook_miner.store import DEFAULT_DB, default_db

    monkeypatch.setenv("LOGBOOK_DB", "")  # `LOGBOOK_DB= logbook ...` was the folder "."
    assert default_db() == DEFAULT_DB


def test_a_merged_folder_names_every_bad_file_at_once(tmp_path):
    """--as-one reads the folder as one logbook, so one bad file stops it: all of them are
    named in its one error line, not the first only (fix one, rerun, meet the next)."""
    folder = tmp_path / "junk"
    folder.mkdir()
    (folder / "binary.pdf").write_text("not a pdf")
    (folder / "corrupt.docx").write_text("garbage")
    (folder / "empty.md").write_text("")
    (folder / "2022-06-08.md").write_text(logbook(2))
    run = logbook_cli("ingest", folder, "--as-one", "junk", "--db", tmp_path / "x.duckdb")
    assert run.returncode == 1
    assert run.errors == [f"error: {folder}: binary.pdf: not a PDF (no %PDF- header); "
                          "corrupt.docx: not a Word document (not a zip archive); "
                          "empty.md: empty file"]
