"""Export the store as files: one per table, rows in a stable order.

Each table is a SELECT in `queries/export/NAME.sql` reading the stored
tables and analytics views, for the chosen logbooks (its `$logbooks` parameter);
DuckDB's COPY writes it (`queries/export/write.sql`). `logbook_miner.dataset.card`
then describes what was written (datapackage.json, README.md).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path, PurePosixPath

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
           partition_by: str | None = None,
           on_remove: Callable[[Path], None] | None = None) -> dict[str, Path]:
    """Write `OUT/TABLE.<fmt>` (or a hive-partitioned folder `OUT/TABLE/`) per table,
    then `OUT/datapackage.json` and `OUT/README.md`; return the tables' paths.

    The files of an earlier export into OUT (as its datapackage.json lists them) that this
    one does not rewrite, another format's or layout's, are removed (each told to
    `on_remove`), so that OUT holds one dataset, the one its card describes.
    """
    if fmt not in FORMATS:
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if partition_by not in (None, *PARTITION_KEYS):
        raise ValueError(f"cannot partition by {partition_by!r}; "
                         f"choose {', '.join(PARTITION_KEYS)}")
    out = Path(out)
    write = sqlfiles.text(EXPORT_QUERIES / ("write_partitioned.sql" if partition_by
                                            else "write.sql"))
    written: dict[str, tuple[Path, duckdb.DuckDBPyRelation]] = {}
    with connect(db or default_db(), read_only=True) as con:
        scope = {"logbooks": choose_logbooks(con, logbooks)}
        targets = {table: out / (table if partition_by else f"{table}.{fmt}") for table in TABLES}
        earlier = set(_exported_files(out))
        _refuse_others(out, [*targets.values(), *(out / name for name in card.FILES)], earlier)
        out.mkdir(parents=True, exist_ok=True)  # only once there is something to export
        card.write_placeholder(out, targets)
        for table, target in targets.items():
            rows = sqlfiles.text(EXPORT_QUERIES / f"{table}.sql")
            copy = {"path": str(target), "format": FORMATS[fmt]} | (
                {"partition_by": partition_by} if partition_by else {})
            try:
                con.execute(write.replace("{rows}", rows), scope | copy)
            except duckdb.CatalogException as exc:
                raise ValueError(f"cannot export {table}: {str(exc).splitlines()[0]} (a database "
                                 "from an older version: run `logbook classify` once)") from None
            written[table] = (target, con.sql(rows, params=scope))
        stale = earlier - set(_table_files([path for path, _ in written.values()]))
        _remove(sorted(stale), out, on_remove)
        card.write(out, fmt, written, partition_by)
    return {table: path for table, (path, _) in written.items()}


def _refuse_others(out: Path, targets: list[Path], earlier: set[Path]) -> None:
    """Refuse to write over a file of OUT that no earlier export wrote (a project's own
    README.md or datapackage.json, a table of the same name): `--out .` must not eat them."""
    ours = earlier | ({out / name for name in card.FILES} if earlier or _our_package(out)
                      else set())
    theirs = [path for path in _table_files(targets)  # ours: listed, or in a listed folder
              if path.exists() and not ours.intersection((path, *path.parents))]
    if theirs:
        named = ", ".join(str(p.relative_to(out)) for p in theirs[:3])
        raise ValueError(f"{out}: holds {named}{', ...' if len(theirs) > 3 else ''}, which no "
                         "export wrote: export into a new folder, or move them")


def _our_package(out: Path) -> dict | None:
    """OUT/datapackage.json, if an export wrote it (it carries our package name)."""
    try:
        package = json.loads((out / card.PACKAGE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return package if isinstance(package, dict) and package.get(
        "name") == card.package_name() else None


def _exported_files(out: Path) -> Iterator[Path]:
    """The table files an earlier export wrote into OUT, as its datapackage.json lists them:
    only if the package is ours, only a table's files, only relative paths that stay in OUT
    (another tool's datapackage.json, or one edited by hand, removes nothing)."""
    package = _our_package(out)
    if package is None:
        return
    for resource in package.get("resources") or []:
        table = resource.get("name") if isinstance(resource, dict) else None
        if table not in TABLES:
            continue
        paths = resource.get("path")
        for path in [paths] if isinstance(paths, str) else paths if isinstance(paths, list) else []:
            where = PurePosixPath(path) if isinstance(path, str) else None
            if (where and where.parts and not where.is_absolute() and ".." not in where.parts
                    and where.parts[0].split(".")[0] == table):
                yield out / where


def _table_files(targets: list[Path]) -> Iterator[Path]:
    """The files of each target: itself, or those in its folder (a partitioned table's)."""
    for target in targets:
        if target.is_dir():
            yield from (p for p in target.rglob("*") if not p.is_dir())
        else:
            yield target


def _remove(files: list[Path], out: Path, on_remove: Callable[[Path], None] | None) -> None:
    """Remove an earlier export's files (a link itself, not what it points to), and the
    folders they leave empty inside OUT."""
    for file in files:
        if file.is_symlink() or file.is_file():
            file.unlink()
            if on_remove:
                on_remove(file)
        folder = file.parent
        while folder != out and folder.is_dir() and not any(folder.iterdir()):
            folder.rmdir()
            folder = folder.parent
