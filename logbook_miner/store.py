"""The DuckDB store: schema, transactional load, idempotency.

This is the only module that writes to the database; its statements are the files
in `queries/store/` (the schema is `schema.sql`). One logbook is written in one
transaction, so a crash or an error leaves either the old rows or the new ones.
"""

from __future__ import annotations

import os
import re
import time
import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import ExitStack, contextmanager, suppress
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from . import sqlfiles
from .label import corrections, families
from .models import Entry, LabelledEntry
from .resources import QUERIES

# DuckDB would fetch its sqlite extension to open a SQLite file: told by its first bytes instead
# (nothing downloads at run time; a config to forbid it would clash with a user's own connection)
_SQLITE_HEADER = b"SQLite format 3\x00"
DEFAULT_DB = "logbook.duckdb"
VIEWS = QUERIES / "views"  # NAME.sql creates NAME; `-- reads: a, b` names what it reads


class StoreError(RuntimeError):
    """The database cannot be opened (not a DuckDB file, no such folder, ...)."""


class StoreLocked(StoreError):
    """Another process holds the database: try again later (the CLI exits 2, not 1)."""


@dataclass(slots=True)
class LogbookRecord:
    id: str
    path: str
    sha256: str
    format: str
    pages: int | None = None
    title: str | None = None
    nodes: int | None = None
    gpus_per_node: int | None = None
    reading: str | None = None  # how its dates were read, when not by default (DateReading)


def default_db() -> str:
    return os.environ.get("LOGBOOK_DB") or DEFAULT_DB  # (set but empty: the default too)


@contextmanager
def connect(db: str | Path, read_only: bool = False,
            create: bool = True) -> Iterator[duckdb.DuckDBPyConnection]:
    """Open the database (creating the schema when writable); name the holder on a lock.
    Only a writer that may `create` it opens a database that does not exist yet."""
    db = str(db)
    if (read_only or not create) and not Path(db).exists():
        raise FileNotFoundError(f"{db}: no such database (run `logbook ingest` first)")
    if _starts_with(db, _SQLITE_HEADER):
        raise StoreError(f"{db}: a SQLite database, not DuckDB; give --db a *.duckdb file")
    try:
        con = duckdb.connect(db, read_only=read_only)
    except duckdb.Error as exc:
        raise _open_error(db, str(exc)) from None
    try:
        # DuckDB opens a path it reads as a data file ("review.csv") as a database in memory:
        # what a command stored there would be gone when it ends
        if con.execute("PRAGMA database_list").fetchone()[2] is None:
            raise StoreError(f"{db}: not a database file (DuckDB would keep it in memory); "
                             "name the store *.duckdb")
        _check_is_store(con, db, read_only)
        if not read_only:
            sqlfiles.run(con, "store/schema")
        # TEMP objects, so read-only connections have them too
        sqlfiles.build(con, VIEWS, families.view_params())
        yield con
    finally:
        con.close()


class Writer:
    """An ingest's one writing connection, let go while files are parsed.

    Parsing takes seconds (a large PDF, minutes); meanwhile other processes may
    query the store. The first open fails at once on a lock, as `connect` does;
    taken again, the lock is waited for while a reader finishes (up to
    `patience` seconds), then named as busy the same way.
    """

    def __init__(self, db: str | Path, patience: float) -> None:
        self.db, self.patience = db, patience
        self._held: ExitStack | None = None
        self._con: duckdb.DuckDBPyConnection | None = None
        self._opened = False

    def __enter__(self) -> Writer:
        self._take()  # now: a busy or bad database stops the ingest before any parsing
        return self

    def __exit__(self, *_) -> None:
        self.release()

    @property
    def con(self) -> duckdb.DuckDBPyConnection:
        return self._take() if self._con is None else self._con

    def _take(self) -> duckdb.DuckDBPyConnection:
        deadline = time.monotonic() + (self.patience if self._opened else 0.0)
        while True:
            held = ExitStack()
            try:
                self._con = held.enter_context(connect(self.db))
                self._held, self._opened = held, True
                return self._con
            except StoreLocked:
                if time.monotonic() >= deadline:
                    raise
                time.sleep(0.1)

    def release(self) -> None:
        """Close the connection (what was committed stays); `con` opens it again."""
        if self._held is not None:
            self._held.close()
            self._held = self._con = None


def _starts_with(path: str, header: bytes) -> bool:
    try:
        with open(path, "rb") as fh:
            return fh.read(len(header)) == header
    except OSError:  # not there yet, or a folder: DuckDB says what is wrong
        return False


def _check_is_store(con: duckdb.DuckDBPyConnection, db: str, read_only: bool) -> None:
    """Refuse a DuckDB file that holds other tables than ours (before adding any to it),
    and say what to do with one that holds none yet."""
    tables = {row[0] for row in sqlfiles.run(con, "store/tables").fetchall()}
    if "logbooks" in tables:
        return
    if tables:
        named = ", ".join(sorted(tables)[:3]) + (", ..." if len(tables) > 3 else "")
        raise StoreError(f"{db}: not a logbook database (its tables: {named}); give --db a "
                         "new file")
    if read_only:
        raise StoreError(f"{db}: no logbooks stored yet (run `logbook ingest` first)")


def _open_error(db: str, error: str) -> StoreError:
    """DuckDB's open error -> one line naming the database (and the holder of a lock).

    duckdb 2.0 says `Could not set lock on file "X": Conflicting lock is held
    in /usr/bin/python3.11 (PID 123)`; every other open failure is not a lock.
    """
    if not re.search(r"could not set lock|conflicting lock", error, re.IGNORECASE):
        return StoreError(f"{db}: cannot open database: {_reason(error)}")
    holder = re.search(r"held in (?P<program>.*?) \(PID (?P<pid>\d+)\)", error)
    who = (f"process {holder['pid']} ({Path(holder['program']).name})" if holder
           else "another process")
    return StoreLocked(f"{db}: database is in use by {who}; wait for it to finish")


@contextmanager
def transaction(con: duckdb.DuckDBPyConnection) -> Iterator[None]:
    """Commit what the block did, or roll all of it back on any exception (Ctrl-C too).

    A block inside another on the same connection joins it: what the outer block
    calls (save corrections, then relabel) commits once, or not at all.
    """
    if con in _IN_TRANSACTION:
        yield
        return
    con.begin()
    _IN_TRANSACTION.add(con)
    try:
        yield
        try:
            con.commit()
        except duckdb.Error as exc:  # the disk said no: the database's fault, not the input's
            raise StoreError(f"{_file_of(con)}: cannot write: {_reason(str(exc))}") from None
    except BaseException:
        with suppress(duckdb.Error):  # a commit that failed has ended the transaction already
            con.rollback()
        raise
    finally:
        _IN_TRANSACTION.discard(con)


def _file_of(con: duckdb.DuckDBPyConnection) -> str:
    """The file of a connection whose commit just failed (asked, it may fail too)."""
    try:
        return con.execute("PRAGMA database_list").fetchone()[2] or "database"
    except duckdb.Error:
        return "database"


def _reason(error: str) -> str:
    """DuckDB's message without its class prefix: "Failed to commit: Cannot open file ..."."""
    return re.sub(r"^[\w ]*Error: ", "", error.splitlines()[0])


_IN_TRANSACTION: weakref.WeakSet[duckdb.DuckDBPyConnection] = weakref.WeakSet()


def stored_source(con: duckdb.DuckDBPyConnection, logbook: str) -> tuple[str, str | None] | None:
    """(file SHA-256, how its dates were read) of a stored logbook; None if not stored.
    Needs a writable connection, which brings an older store's table up to date."""
    row = sqlfiles.run(con, "store/logbook_source", {"logbook": logbook}).fetchone()
    return (row[0], row[1]) if row else None


def stored_sha256(con: duckdb.DuckDBPyConnection, logbook: str) -> str | None:
    """The stored logbook's file hash (a query of its own: a read-only connection to a store
    made before `reading` was kept has no such column)."""
    row = sqlfiles.run(con, "store/logbook_sha256", {"logbook": logbook}).fetchone()
    return row[0] if row else None


def label_count(con: duckdb.DuckDBPyConnection, logbook: str) -> int:
    return sqlfiles.run(con, "store/label_count", {"logbook": logbook}).fetchone()[0]


def stored_path(con: duckdb.DuckDBPyConnection, logbook: str) -> str | None:
    """The file a stored logbook was read from, as it was given at ingest."""
    row = sqlfiles.run(con, "store/logbook_path", {"logbook": logbook}).fetchone()
    return row[0] if row else None


def save_logbook(
    con: duckdb.DuckDBPyConnection, record: LogbookRecord, entries: Iterable[LabelledEntry]
) -> None:
    """Replace one logbook's rows atomically."""
    entries = list(entries)
    with transaction(con):
        _delete_logbook(con, record.id)
        sqlfiles.run(con, "store/insert_logbook",
                     asdict(record) | {"ingested_at": datetime.now(UTC).replace(tzinfo=None)})
        _insert_entries(con, record.id, entries)
        _insert_annotations(con, record.id, entries)


def replace_annotations(
    con: duckdb.DuckDBPyConnection, logbook: str, entries: Iterable[LabelledEntry]
) -> None:
    """Swap one logbook's labels and metrics (relabelling) in one transaction."""
    entries = list(entries)
    with transaction(con):
        sqlfiles.run(con, "store/delete_annotations", {"logbook": logbook})
        _insert_annotations(con, logbook, entries)


def forget_logbook(con: duckdb.DuckDBPyConnection, logbook: str,
                   with_corrections: bool = False) -> bool:
    """Remove one logbook's rows in one transaction (and its review decisions, if asked).

    Returns False when no such logbook is stored. Corrections are kept by default:
    they are a person's work, and they apply again if the logbook is ingested again.
    """
    if stored_sha256(con, logbook) is None:
        return False
    with transaction(con):
        _delete_logbook(con, logbook)
        if with_corrections:
            sqlfiles.run(con, "store/delete_corrections", {"logbook": logbook})
    return True


def _delete_logbook(con: duckdb.DuckDBPyConnection, logbook: str) -> None:
    sqlfiles.run(con, "store/delete_annotations", {"logbook": logbook})
    sqlfiles.run(con, "store/delete_entries", {"logbook": logbook})


def _insert_entries(con, logbook: str, entries: list[LabelledEntry]) -> None:
    rows = [
        (logbook, e.seq, e.heading, e.date, e.time, e.timezone, e.ts_utc, e.author, e.run_id,
         e.page_start, e.page_end, e.date_inferred, e.chronology_anomaly, e.text)
        for e in (le.entry for le in entries)
    ]
    _insert(con, "entries", rows)


def _insert_annotations(con, logbook: str, entries: list[LabelledEntry]) -> None:
    entries = corrections.apply(entries, load_corrections(con, logbook))
    labels = [
        (logbook, le.entry.seq, lb.kind, lb.code, lb.evidence, lb.field, lb.start, lb.end,
         lb.source, lb.confidence)
        for le in entries for lb in le.labels
    ]
    metrics = [
        (logbook, le.entry.seq, m.name, m.value, m.unit, m.evidence, m.field, m.start, m.end)
        for le in entries for m in le.metrics
    ]
    rates = [
        (logbook, le.entry.seq, r.code, r.events, r.bound, r.hours, r.period_start,
         r.period_end, r.evidence, r.field, r.start, r.end)
        for le in entries for r in le.rates
    ]
    _insert(con, "labels", labels)
    _insert(con, "metrics", metrics)
    _insert(con, "rates", rates)


def _insert(con, table: str, rows: list[tuple]) -> None:
    """Append rows (in the table's column order) as one Arrow batch.

    `executemany` runs one INSERT per row, about 0.5 ms each on duckdb 2.0:
    100,000 entries took 49 s that way and 1.5 s this way.
    """
    if not rows:
        return
    import pyarrow as pa  # only writers need it; an unchanged re-ingest starts faster

    columns = zip(*rows, strict=True)
    batch = pa.table({f"c{i}": pa.array(column) for i, column in enumerate(columns)})
    con.from_arrow(batch).insert_into(table)


def not_stored(logbooks: Sequence[str]) -> str:
    """The one wording of "that logbook is not stored", for every command that names one."""
    names = ", ".join(name or "''" for name in logbooks)  # an empty id is shown as one
    return f"no such logbook: {names} (see `logbooks` for what is stored)"


def choose_logbooks(con: duckdb.DuckDBPyConnection,
                    wanted: Sequence[str] | None = None) -> list[str]:
    """The stored logbooks asked for (all when none are named), in id order.

    An unknown id is a ValueError naming it. Queries take the list as `$logbooks`.
    """
    known = [row[0] for row in sqlfiles.run(con, "store/logbook_ids").fetchall()]
    missing = sorted(set(wanted or ()) - set(known))
    if missing:
        raise ValueError(not_stored(missing))
    return [lb for lb in known if not wanted or lb in set(wanted)]


def load_entries(con: duckdb.DuckDBPyConnection, logbook: str) -> list[Entry]:
    """A logbook's stored entries, in document order, to relabel without re-reading the file."""
    cursor = sqlfiles.run(con, "store/entries", {"logbook": logbook})
    names = [d[0] for d in cursor.description]
    return [Entry(**dict(zip(names, row, strict=True))) for row in cursor.fetchall()]


def load_corrections(con: duckdb.DuckDBPyConnection, logbook: str) -> list[corrections.Correction]:
    cursor = sqlfiles.run(con, "store/corrections", {"logbook": logbook})
    return [corrections.Correction(*row) for row in cursor.fetchall()]


def save_corrections(
    con: duckdb.DuckDBPyConnection, decided: Iterable[corrections.Correction]
) -> None:
    """Store decisions in one transaction; a new decision on the same key replaces the old."""
    now = datetime.now(UTC).replace(tzinfo=None)
    with transaction(con):
        for c in decided:
            sqlfiles.run(con, "store/save_correction", asdict(c) | {"decided_at": now})
