"""The DuckDB store: schema, transactional load, idempotency.

This is the only module that speaks SQL DDL. One logbook is written in one
transaction, so a crash or an error leaves either the old rows or the new ones.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import duckdb

from .models import LabelledEntry

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
"""

LOGBOOK_TABLES = ("metrics", "labels", "entries", "logbooks")


class StoreLocked(RuntimeError):
    """Another process holds the database."""


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
    except duckdb.IOException as exc:
        raise StoreLocked(_lock_message(db, str(exc))) from None
    try:
        if not read_only:
            con.execute(SCHEMA)
        yield con
    finally:
        con.close()


def _lock_message(db: str, error: str) -> str:
    holder = re.search(r"PID (\d+)", error)
    who = f"process {holder.group(1)}" if holder else "another process"
    if "lock" not in error.lower():
        return f"{db}: cannot open database: {error.splitlines()[0]}"
    return f"{db}: database is in use by {who}; wait for it to finish"


def stored_sha256(con: duckdb.DuckDBPyConnection, logbook: str) -> str | None:
    row = con.execute("SELECT sha256 FROM logbooks WHERE id = ?", [logbook]).fetchone()
    return row[0] if row else None


def save_logbook(
    con: duckdb.DuckDBPyConnection, record: LogbookRecord, entries: Iterable[LabelledEntry]
) -> None:
    """Replace one logbook's rows atomically."""
    entries = list(entries)
    con.execute("BEGIN TRANSACTION")
    try:
        _delete_logbook(con, record.id)
        con.execute(
            "INSERT INTO logbooks VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [record.id, record.path, record.sha256, record.format, record.pages, record.title,
             record.nodes, record.gpus_per_node, datetime.now(UTC).replace(tzinfo=None)],
        )
        _insert_entries(con, record.id, entries)
        _insert_annotations(con, record.id, entries)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def replace_annotations(
    con: duckdb.DuckDBPyConnection, logbook: str, entries: Iterable[LabelledEntry]
) -> None:
    """Swap one logbook's labels and metrics (relabelling) in one transaction."""
    entries = list(entries)
    con.execute("BEGIN TRANSACTION")
    try:
        for table in ("labels", "metrics"):
            con.execute(f"DELETE FROM {table} WHERE logbook = ?", [logbook])
        _insert_annotations(con, logbook, entries)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


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
    if rows:
        con.executemany("INSERT INTO entries VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)


def _insert_annotations(con, logbook: str, entries: list[LabelledEntry]) -> None:
    labels = [
        (logbook, le.entry.seq, lb.kind, lb.code, lb.evidence, lb.field, lb.start, lb.end,
         lb.source, lb.confidence)
        for le in entries for lb in le.labels
    ]
    metrics = [
        (logbook, le.entry.seq, m.name, m.value, m.unit, m.evidence, m.field, m.start, m.end)
        for le in entries for m in le.metrics
    ]
    if labels:
        con.executemany("INSERT INTO labels VALUES (?,?,?,?,?,?,?,?,?,?)", labels)
    if metrics:
        con.executemany("INSERT INTO metrics VALUES (?,?,?,?,?,?,?,?,?)", metrics)
