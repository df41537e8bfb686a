"""Export the store as files: one per table, rows in a stable order.

Each table is a SELECT in `queries/export/NAME.sql` reading the stored
tables and analytics views, for the chosen logbooks (its `$logbooks` parameter);
DuckDB's COPY writes it (`queries/export/write.sql`). `logbook_miner.dataset.card`
then describes what was written (datapackage.json, README.md).
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
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
    then `OUT/datapackage.json` and `OUT/README.md`; return the tables' paths.

    The files of an earlier export into OUT (as its datapackage.json lists them) that this
    one does not rewrite, another format's or layout's, are removed, so that OUT holds one
    dataset, the one its card describes.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if partition_by not in (None, *PARTITION_KEYS):
        raise ValueError(f"cannot partition by {partition_by!r}; "
                         f"choose {', '.join(PARTITION_KEYS)}")
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    earlier = set(_exported_files(out))
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
        _remove(earlier - set(_table_files(out, [path for path, _ in written.values()])), out)
        card.write(out, fmt, written, partition_by)
    return {table: path for table, (path, _) in written.items()}


def _exported_files(out: Path) -> Iterator[Path]:
    """The table files OUT's datapackage.json lists, if an earlier export wrote one: only
    files inside OUT under a table's name, whatever else the JSON may say."""
    try:
        package = json.loads((out / "datapackage.json").read_text(encoding="utf-8"))
        listed = [resource["path"] for resource in package["resources"]]
    except (OSError, ValueError, KeyError, TypeError):
        return
    for paths in listed:
        for path in [paths] if isinstance(paths, str) else paths:
            file = (out / str(path)).resolve()
            first = Path(str(path)).parts[:1]
            if (file.is_relative_to(out.resolve()) and first
                    and first[0].split(".")[0] in TABLES and file.is_file()):
                yield file


def _table_files(out: Path, targets: list[Path]) -> Iterator[Path]:
    for target in targets:
        yield from (p.resolve() for p in target.rglob("*")) if target.is_dir() else [
            target.resolve()]


def _remove(files: set[Path], out: Path) -> None:
    """Remove an earlier export's files, and the folders they leave empty inside OUT."""
    for file in files:
        file.unlink(missing_ok=True)
        folder = file.parent
        while folder != out.resolve() and folder.is_relative_to(out.resolve()) \
                and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
