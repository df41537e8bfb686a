"""Export the store as files: one per table, rows in a stable order.

Each table is a SELECT in `queries/export/NAME.sql` reading the stored
tables and analytics views, for the chosen logbooks (its `$logbooks` parameter);
DuckDB's COPY writes it (`queries/export/write.sql`). `logbook_miner.dataset.card`
then describes what was written (datapackage.json, README.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb

from .. import sqlfiles
from ..resources import QUERIES
from ..store import choose_logbooks, connect, default_db
from . import card

FORMATS = {"jsonl": "json", "csv": "csv", "parquet": "parquet"}  # file suffix: DuckDB's format
PARTITION_KEYS = ("logbook",)  # every table has the column
EXPORT_QUERIES = QUERIES / "export"
TABLES = ("logbooks", "entries", "labels", "metrics", "incidents", "runs", "interventions")


def export(out: str | Path, db: str | Path | None = None, fmt: str = "jsonl",
           logbooks: Sequence[str] | None = None,
           partition_by: str | None = None) -> dict[str, Path]:
    """Write `OUT/TABLE.<fmt>` (or a hive-partitioned folder `OUT/TABLE/`) per table,
    then `OUT/datapackage.json` and `OUT/README.md`; return the tables' paths."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if partition_by not in (None, *PARTITION_KEYS):
        raise ValueError(f"cannot partition by {partition_by!r}; "
                         f"choose {', '.join(PARTITION_KEYS)}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    write = sqlfiles.text(EXPORT_QUERIES / ("write_partitioned.sql" if partition_by
                                            else "write.sql"))
    written: dict[str, tuple[Path, duckdb.DuckDBPyRelation]] = {}
    with connect(db or default_db(), read_only=True) as con:
        scope = {"logbooks": choose_logbooks(con, logbooks)}
        for table in TABLES:
            rows = sqlfiles.text(EXPORT_QUERIES / f"{table}.sql")
            target = out / (table if partition_by else f"{table}.{fmt}")
            copy = {"path": str(target), "format": FORMATS[fmt]} | (
                {"partition_by": partition_by} if partition_by else {})
            try:
                con.execute(write.replace("{rows}", rows), scope | copy)
            except duckdb.CatalogException as exc:
                raise ValueError(f"cannot export {table}: {str(exc).splitlines()[0]} (a database "
                                 "from an older version: run `logbook classify` once)") from None
            written[table] = (target, con.sql(rows, params=scope))
        card.write(out, fmt, written, partition_by)
    return {table: path for table, (path, _) in written.items()}
