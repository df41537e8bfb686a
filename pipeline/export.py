"""Export the store as files: one per table, rows in a stable order.

Each table is a SELECT in `queries/export/NAME.sql` reading the stored
tables, filtered to the chosen logbooks through the temp table
`export_logbooks`; DuckDB's COPY writes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from .paths import QUERIES
from .store import connect, default_db

FORMATS = {"jsonl": "(FORMAT JSON)", "csv": "(FORMAT CSV, HEADER)", "parquet": "(FORMAT PARQUET)"}
EXPORT_QUERIES = QUERIES / "export"
TABLES = ("logbooks", "entries")


def export(out: str | Path, db: str | Path | None = None, fmt: str = "jsonl",
           logbooks: Sequence[str] | None = None) -> dict[str, Path]:
    """Write `OUT/TABLE.<fmt>` for each exported table; return the paths written."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    written = {}
    with connect(db or default_db(), read_only=True) as con:
        _choose_logbooks(con, logbooks)
        for table in TABLES:
            sql = (EXPORT_QUERIES / f"{table}.sql").read_text()
            target = out / f"{table}.{fmt}"
            con.execute(f"COPY ({sql}) TO '{_quote(target)}' {FORMATS[fmt]}")
            written[table] = target
    return written


def _choose_logbooks(con, logbooks: Sequence[str] | None) -> None:
    con.execute("CREATE OR REPLACE TEMP TABLE export_logbooks (id VARCHAR)")
    if logbooks:
        known = {row[0] for row in con.execute("SELECT id FROM logbooks").fetchall()}
        missing = [lb for lb in logbooks if lb not in known]
        if missing:
            raise ValueError(f"no such logbook: {', '.join(missing)}")
        con.executemany("INSERT INTO export_logbooks VALUES (?)", [[lb] for lb in logbooks])
    else:
        con.execute("INSERT INTO export_logbooks SELECT id FROM logbooks")


def _quote(path: Path) -> str:
    return str(path).replace("'", "''")
