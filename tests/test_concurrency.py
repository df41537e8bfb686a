"""One writer at a time: a second process is told which database is busy and who holds it.

DuckDB lets one process write, or several read; the CLI turns its lock error
into one line naming the database and the holder's PID, and exits 2. The
holder is always another process; the commands under test run in-process
(click's runner) except one real `logbook ingest`, to keep this fast. An
ingest lets go of the store while it parses, so readers are turned away only
while it writes.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path

import pytest
from helpers import ROOT, CliRun, entry_counts, logbook, logbook_cli, logbook_in_process

from logbook_miner.ingest import ingest, no_labels
from logbook_miner.store import StoreLocked, Writer

# Commands that only read the store.
READERS = {
    "export": lambda db, out: ["export", "--db", db, "--out", out],
    "query": lambda db, out: ["query", "entries", "--db", db, "-p", "logbook=ops"],
    "sql": lambda db, out: ["sql", "SELECT count(*) FROM entries", "--db", db],
    "dashboard": lambda db, out: ["dashboard", "--db", db, "--out", out, "--no-images"],
}


@pytest.fixture
def db(tmp_path) -> Path:
    (tmp_path / "ops.md").write_text(logbook(3))
    (tmp_path / "more.md").write_text(logbook(2))
    path = tmp_path / "store.duckdb"
    ingest([tmp_path / "ops.md"], db=path, classify=no_labels, workers=1)
    return path


@contextmanager
def holding(db: Path, read_only: bool) -> Iterator[subprocess.Popen]:
    """Another process with the database open (as a writer or a reader) until the block ends."""
    code = ("import sys; from logbook_miner.store import connect\n"
            f"with connect({str(db)!r}, read_only={read_only}):\n"
            "    print('ready', flush=True); sys.stdin.read()\n")
    proc = subprocess.Popen([sys.executable, "-c", code], cwd=ROOT, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "ready"
        yield proc
    finally:
        proc.communicate(timeout=30)  # closing stdin lets it finish


def assert_busy(run: CliRun, db: Path, holder: subprocess.Popen) -> None:
    line = re.compile(rf"error: {re.escape(str(db))}: database is in use by process "
                      rf"{holder.pid} \(python[\d.]*\); wait for it to finish")
    assert run.returncode == 2, run
    assert len(run.errors) == 1 and line.fullmatch(run.errors[0]), run
    assert run.stdout == "", run


def test_a_second_writer_is_told_who_holds_the_database(db):
    with holding(db, read_only=False) as writer:
        run = logbook_cli("ingest", "--db", db, db.parent / "more.md")
    assert_busy(run, db, writer)


@pytest.mark.parametrize("command", READERS)
def test_readers_fail_clearly_while_a_writer_runs(db, command):
    with holding(db, read_only=False) as writer:
        run = logbook_in_process(*READERS[command](db, db.parent / "out"))
    assert_busy(run, db, writer)


def test_readers_work_beside_a_reader_and_a_writer_waits_for_them(db):
    with holding(db, read_only=True) as reader:
        for command, args in READERS.items():
            run = logbook_in_process(*args(db, db.parent / "out"))
            assert (run.returncode, run.stderr) == (0, ""), (command, run)
        busy = logbook_in_process("ingest", "--no-label", "--db", db, db.parent / "more.md")
    assert_busy(busy, db, reader)
    done = logbook_in_process("ingest", "--no-label", "--db", db, db.parent / "more.md")
    assert done.returncode == 0 and "more: 2 entries" in done.stdout, done


class ReaderDuringParse:
    """An ingest's progress that has another process open the store at the PDF's first page
    (`holding` asserts that it could) and keep it open `hold` seconds past the last page
    (or until `held` is closed)."""

    def __init__(self, db: Path, hold: float = 1.0) -> None:
        self.db, self.hold, self.held, self.opened = db, hold, ExitStack(), False

    def start(self, files: int) -> None: ...

    def page(self, read: int, total: int) -> None:
        if read == 1:
            self.held.enter_context(holding(self.db, read_only=True))
            self.opened = True
        if read == total and self.hold:
            threading.Timer(self.hold, self.held.close).start()

    def file_done(self, result) -> None: ...


CPM_LIVE = ("logbooks", "pdf", "cpm-live.pdf")  # 179 pages: seconds of parsing


def test_readers_open_the_store_while_an_ingest_parses(db, shared):
    reader = ReaderDuringParse(db)
    [result] = ingest([shared.joinpath(*CPM_LIVE)], db=db, classify=no_labels, workers=1,
                      progress=reader)
    assert reader.opened
    assert (result.status, result.error) == ("ingested", None), result
    run = logbook_in_process("sql", "SELECT count(*) AS n FROM entries WHERE logbook = "
                             "'cpm-live'", "--db", db)
    assert run.returncode == 0 and f"{result.entries}" in run.stdout, run


def test_a_reader_that_stays_past_the_writers_patience_costs_files_not_the_store(
        db, shared, monkeypatch):
    monkeypatch.setattr("logbook_miner.ingest.STORE_PATIENCE", 0.5)
    reader = ReaderDuringParse(db, hold=0)
    with reader.held:
        results = ingest([shared.joinpath(*CPM_LIVE), db.parent / "more.md"], db=db,
                         classify=no_labels, workers=1, progress=reader)
    assert [r.status for r in results] == ["error", "error"], results
    assert all(r.error.startswith(f"parsed, not stored: {db}: database is in use by process ")
               for r in results), results
    assert entry_counts(db) == {"ops": 3}  # what was stored before stays, nothing half-written


def test_a_writer_taking_the_store_back_waits_its_patience_then_names_the_holder(db):
    with Writer(db, patience=0.5) as writer:
        writer.release()
        with holding(db, read_only=True) as reader:
            started = time.monotonic()
            with pytest.raises(StoreLocked, match=f"in use by process {reader.pid} "):
                writer.con  # noqa: B018 (opening is the act under test)
            assert time.monotonic() - started >= 0.5
        assert writer.con.execute("SELECT count(*) FROM entries").fetchone() == (3,)


def test_a_file_that_is_not_a_database_is_bad_input_not_busy(tmp_path):
    (tmp_path / "notes.md").write_text(logbook(2))
    db = tmp_path / "store.duckdb"
    db.write_text("not a database\n")
    run = logbook_in_process("ingest", "--no-label", "--db", db, tmp_path / "notes.md")
    assert run.returncode == 1, run
    assert run.errors == [f'error: {db}: cannot open database: The file "{db}" exists, but it '
                          "is not a valid DuckDB database file!"], run
