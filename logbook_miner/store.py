"""The DuckDB store: schema, transactional load, idempotency.

This is the only module that speaks SQL DDL. One logbook is written in one
transaction, so a crash or an error leaves either the old rows or the new ones.
"""

from __future__ import annotations

import os
import re
import weakref
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from graphlib import TopologicalSorter
from pathlib import Path

import duckdb

from .label import corrections
from .models import Entry, LabelledEntry
from .resources import QUERIES

DEFAULT_DB = "logbook.duckdb"

SCHEMA = """
CREATE TABLE IF NOT EXISTS logbooks (
    id            VARCHAR PRIMARY KEY,   -- file stem unless --name
    path          VARCHAR NOT NULL,      -- path as given at ingest
    sha256        VARCHAR NOT NULL,      -- of the file bytes; unchanged file = no-op
    format        VARCHAR NOT NULL,      -- pdf | markdown | text
    pages         INTEGER,               -- PDF pages, else NULL
    title         VARCHAR,
    nodes         INTEGER,               -- cluster size when known
    gpus_per_node INTEGER,
    ingested_at   TIMESTAMP NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    logbook            VARCHAR NOT NULL,
    seq                INTEGER NOT NULL,  -- 1-based, document order
    heading            VARCHAR NOT NULL,
    date               DATE,
    time               VARCHAR,           -- as written
    timezone           VARCHAR,           -- as written
    ts_utc             TIMESTAMP,         -- when date, time and zone are known
    author             VARCHAR,
    run_id             VARCHAR,
    page_start         INTEGER,
    page_end           INTEGER,
    date_inferred      BOOLEAN NOT NULL,
    chronology_anomaly BOOLEAN NOT NULL,
    text               VARCHAR NOT NULL,
    PRIMARY KEY (logbook, seq)
);
CREATE TABLE IF NOT EXISTS labels (
    logbook    VARCHAR NOT NULL,
    seq        INTEGER NOT NULL,
    kind       VARCHAR NOT NULL,          -- fault | intervention
    code       VARCHAR NOT NULL,          -- TAXONOMY.md code
    evidence   VARCHAR NOT NULL,
    field      VARCHAR NOT NULL,          -- heading | text
    start      INTEGER NOT NULL,          -- offsets into entries.<field>
    "end"      INTEGER NOT NULL,
    source     VARCHAR NOT NULL,          -- rule or component
    confidence DOUBLE NOT NULL
);
CREATE TABLE IF NOT EXISTS metrics (
    logbook  VARCHAR NOT NULL,
    seq      INTEGER NOT NULL,
    name     VARCHAR NOT NULL,
    value    DOUBLE NOT NULL,
    unit     VARCHAR,
    evidence VARCHAR NOT NULL,
    field    VARCHAR NOT NULL,
    start    INTEGER NOT NULL,
    "end"    INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS rates (       -- counts and rates stated in prose (TAXONOMY rule 14)
    logbook      VARCHAR NOT NULL,
    seq          INTEGER NOT NULL,
    code         VARCHAR NOT NULL,        -- what was counted: a fault code, or restart
    events       DOUBLE NOT NULL,
    bound        VARCHAR NOT NULL,        -- '>=' (at least), '~' (about) or '='
    hours        DOUBLE NOT NULL,         -- the period the events happened in
    period_start DATE,                    -- for a count over a stated period
    period_end   DATE,
    evidence     VARCHAR NOT NULL,        -- the sentence
    field        VARCHAR NOT NULL,
    start        INTEGER NOT NULL,
    "end"        INTEGER NOT NULL
);
-- A person's review decisions (`logbook review --apply`), applied whenever labels are written.
-- Keyed by (logbook, heading, date, kind, code): what survives a re-ingest, unlike seq.
-- No PRIMARY KEY because date may be NULL; save_corrections keeps the key unique.
CREATE TABLE IF NOT EXISTS corrections (
    logbook     VARCHAR NOT NULL,
    heading     VARCHAR NOT NULL,
    date        DATE,
    kind        VARCHAR NOT NULL,
    code        VARCHAR NOT NULL,         -- the label decided on (or to add)
    decision    VARCHAR NOT NULL,         -- accept | reject | replace
    replacement VARCHAR,                  -- the code replacing `code` (decision = replace)
    evidence    VARCHAR NOT NULL,         -- words to anchor an added label ('' if none)
    decided_at  TIMESTAMP NOT NULL
);
"""

LOGBOOK_TABLES = ("rates", "metrics", "labels", "entries", "logbooks")
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


def default_db() -> str:
    return os.environ.get("LOGBOOK_DB", DEFAULT_DB)


@contextmanager
def connect(db: str | Path, read_only: bool = False) -> Iterator[duckdb.DuckDBPyConnection]:
    """Open the database (creating the schema when writable); name the holder on a lock."""
    db = str(db)
    if read_only and not Path(db).exists():
        raise FileNotFoundError(f"{db}: no such database (run `logbook ingest` first)")
    try:
        con = duckdb.connect(db, read_only=read_only)
    except duckdb.Error as exc:
        raise _open_error(db, str(exc)) from None
    try:
        if not read_only:
            con.execute(SCHEMA)
        create_views(con)
        yield con
    finally:
        con.close()


def create_views(con: duckdb.DuckDBPyConnection) -> None:
    """Create the analysis views as TEMP objects, so read-only connections have them too."""
    for path in view_files():
        con.execute(path.read_text(encoding="utf-8"))


@cache
def view_files() -> tuple[Path, ...]:
    """The view files, each after the views it reads: the order comes from the files.

    Like dbt's `ref()`: every file's `-- reads:` header names the tables and views it
    reads; the names that are other view files decide the order (tables already exist).
    """
    files = {path.stem: path for path in sorted(VIEWS.glob("*.sql"))}
    graph = {name: [r for r in reads(path) if r in files] for name, path in files.items()}
    return tuple(files[name] for name in TopologicalSorter(graph).static_order())


def reads(path: Path) -> list[str]:
    """The names a SQL file's `-- reads: a, b` header declares; a file without one is an error."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("-- reads:"):
            return [name.strip() for name in line.removeprefix("-- reads:").split(",")
                    if name.strip()]
    raise ValueError(f"{path.name}: no `-- reads:` header saying what it reads")


def _open_error(db: str, error: str) -> StoreError:
    """DuckDB's open error -> one line naming the database (and the holder of a lock).

    duckdb 2.0 says `Could not set lock on file "X": Conflicting lock is held
    in /usr/bin/python3.11 (PID 123)`; every other open failure is not a lock.
    """
    if not re.search(r"could not set lock|conflicting lock", error, re.IGNORECASE):
        reason = re.sub(r"^[\w ]*Error: ", "", error.splitlines()[0])
        return StoreError(f"{db}: cannot open database: {reason}")
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
    con.execute("BEGIN TRANSACTION")
    _IN_TRANSACTION.add(con)
    try:
        yield
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise
    finally:
        _IN_TRANSACTION.discard(con)


_IN_TRANSACTION: weakref.WeakSet[duckdb.DuckDBPyConnection] = weakref.WeakSet()


def stored_sha256(con: duckdb.DuckDBPyConnection, logbook: str) -> str | None:
    row = con.execute("SELECT sha256 FROM logbooks WHERE id = ?", [logbook]).fetchone()
    return row[0] if row else None


def save_logbook(
    con: duckdb.DuckDBPyConnection, record: LogbookRecord, entries: Iterable[LabelledEntry]
) -> None:
    """Replace one logbook's rows atomically."""
    entries = list(entries)
    with transaction(con):
        _delete_logbook(con, record.id)
        con.execute(
            "INSERT INTO logbooks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [record.id, record.path, record.sha256, record.format, record.pages, record.title,
             record.nodes, record.gpus_per_node, datetime.now(UTC).replace(tzinfo=None)],
        )
        _insert_entries(con, record.id, entries)
        _insert_annotations(con, record.id, entries)


def replace_annotations(
    con: duckdb.DuckDBPyConnection, logbook: str, entries: Iterable[LabelledEntry]
) -> None:
    """Swap one logbook's labels and metrics (relabelling) in one transaction."""
    entries = list(entries)
    with transaction(con):
        for table in ("labels", "metrics", "rates"):
            con.execute(f"DELETE FROM {table} WHERE logbook = ?", [logbook])
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
            con.execute("DELETE FROM corrections WHERE logbook = ?", [logbook])
    return True


def _delete_logbook(con: duckdb.DuckDBPyConnection, logbook: str) -> None:
    for table in LOGBOOK_TABLES:
        key = "id" if table == "logbooks" else "logbook"
        con.execute(f"DELETE FROM {table} WHERE {key} = ?", [logbook])


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
    con.register("_batch", batch)
    try:
        con.execute(f"INSERT INTO {table} SELECT * FROM _batch")
    finally:
        con.unregister("_batch")


def choose_logbooks(con: duckdb.DuckDBPyConnection, wanted: Sequence[str] | None = None,
                    into: str | None = None) -> list[str]:
    """The stored logbooks asked for (all when none are named), in id order.

    An unknown id is a ValueError naming it. With `into`, the ids also go to a
    TEMP table of that name (one column, `id`) for queries to filter on.
    """
    known = [row[0] for row in con.execute("SELECT id FROM logbooks ORDER BY id").fetchall()]
    missing = sorted(set(wanted or ()) - set(known))
    if missing:
        raise ValueError(f"no such logbook: {', '.join(missing)}")
    chosen = [lb for lb in known if not wanted or lb in set(wanted)]
    if into:
        con.execute(f"CREATE OR REPLACE TEMP TABLE {into} AS "
                    "SELECT unnest(?::VARCHAR[]) AS id", [chosen])
    return chosen


def load_entries(con: duckdb.DuckDBPyConnection, logbook: str) -> list[Entry]:
    """A logbook's stored entries, in document order, to relabel without re-reading the file."""
    cursor = con.execute("SELECT * EXCLUDE (logbook) FROM entries WHERE logbook = ? ORDER BY seq",
                         [logbook])
    names = [d[0] for d in cursor.description]
    return [Entry(**dict(zip(names, row, strict=True))) for row in cursor.fetchall()]


def load_corrections(con: duckdb.DuckDBPyConnection, logbook: str) -> list[corrections.Correction]:
    cursor = con.execute(
        "SELECT logbook, heading, date, kind, code, decision, replacement, evidence"
        " FROM corrections WHERE logbook = ? ORDER BY heading, date, kind, code", [logbook])
    return [corrections.Correction(*row) for row in cursor.fetchall()]


def save_corrections(
    con: duckdb.DuckDBPyConnection, decided: Iterable[corrections.Correction]
) -> None:
    """Store decisions in one transaction; a new decision on the same key replaces the old."""
    now = datetime.now(UTC).replace(tzinfo=None)
    with transaction(con):
        for c in decided:
            con.execute(
                "DELETE FROM corrections WHERE logbook = ? AND heading = ?"
                " AND date IS NOT DISTINCT FROM ? AND kind = ? AND code = ?",
                [c.logbook, c.heading, c.date, c.kind, c.code])
            con.execute("INSERT INTO corrections VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [c.logbook, c.heading, c.date, c.kind, c.code, c.decision,
                         c.replacement, c.evidence, now])
