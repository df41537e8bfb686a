"""The SQL files under `queries/`: their headers, the order they run in, and running one.

Every file starts with a comment line saying what it does or answers, declares what it
reads (`-- reads: a, b`, like dbt's `ref()`) and may declare parameters (`-- $name =
default: meaning`, read by `analytics.analyse`). Parameters are written `$name`, the one
style. A file may hold several statements; each is bound to the parameters it names.

The files of a folder that create objects (views, macros, tables) run in the order their
headers imply: a file runs after the files that create what it reads, found by the
names each creates or by the file's own name. No order is listed in Python.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache
from graphlib import TopologicalSorter
from pathlib import Path
from typing import Any

import duckdb

from .resources import QUERIES

_CREATES = re.compile(r"^CREATE OR REPLACE TEMP (?:TABLE|VIEW|MACRO) (\w+)", re.MULTILINE)


def path(name: str | Path) -> Path:
    """`queries/NAME.sql` for a name such as "store/schema"; a Path is taken as it is."""
    return name if isinstance(name, Path) else QUERIES / f"{name}.sql"


@cache
def text(name: str | Path) -> str:
    return path(name).read_text(encoding="utf-8")


def reads(name: str | Path) -> list[str]:
    """The names a file's `-- reads: a, b` header declares; a file without one is an error."""
    for line in text(name).splitlines():
        if line.startswith("-- reads:"):
            return [n.strip() for n in line.removeprefix("-- reads:").split(",") if n.strip()]
    raise ValueError(f"{path(name).name}: no `-- reads:` header saying what it reads")


def creates(name: str | Path) -> list[str]:
    """The TEMP tables, views and macros a file creates, in its order."""
    return _CREATES.findall(text(name))


@cache
def ordered(folder: Path) -> tuple[Path, ...]:
    """The folder's files that create something, each after those creating what it reads."""
    files = [p for p in sorted(folder.glob("*.sql")) if creates(p)]
    made_by = {name: p for p in files for name in (p.stem, *creates(p))}
    graph = {p: [made_by[r] for r in reads(p) if made_by.get(r, p) != p] for p in files}
    return tuple(TopologicalSorter(graph).static_order())


def run(con: duckdb.DuckDBPyConnection, name: str | Path,
        params: Mapping[str, Any] | None = None) -> duckdb.DuckDBPyConnection:
    """Run a file's statements in turn, each with the parameters it names; the last's result."""
    if not params:
        return con.execute(text(name))
    result = con
    for statement in con.extract_statements(text(name)):
        missing = statement.named_parameters - set(params)
        if missing:
            raise ValueError(f"{path(name).name}: no value for ${', $'.join(sorted(missing))}")
        result = con.execute(statement, {k: params[k] for k in statement.named_parameters})
    return result


def build(con: duckdb.DuckDBPyConnection, folder: Path,
          params: Mapping[str, Any] | None = None) -> None:
    """Run the folder's files that create something, in the order their headers imply."""
    for file in ordered(folder):
        run(con, file, params)
