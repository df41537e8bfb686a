"""Ask the store: named SQL queries, and sandboxed ad-hoc SQL.

The questions live in `queries/NAME.sql` (first line: what it answers; lines
`-- $param = default: meaning` declare its parameters, `-- $param = a | b: meaning` one
that takes one of a few values, the first its default, `-- $param (number): meaning` a
number without one) and read the TEMP views
that `store.connect` creates from `queries/views/`. This module only opens a
locked-down read-only connection and binds parameters; `mtbf` and `simulate` build
on it, and `reliability` and `cost` own the statistics.
"""

from __future__ import annotations

import json
import re
import signal
import threading
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from .. import sqlfiles
from ..resources import QUERIES
from ..rows import Rows
from ..store import connect, default_db, not_stored, stored_sha256

if TYPE_CHECKING:  # pandas loads on first use: `sql` and `query` need neither
    import pandas as pd

_PARAM_LINE = re.compile(r"^--\s*\$(?P<name>\w+)(?P<number>\s*\(number\))?"
                         r"(?:\s*=\s*(?P<default>[^:]+?))?\s*:\s*(?P<help>.*)$")
_LARGEST = 2**63 - 1  # DuckDB's BIGINT: a count or a limit beyond it is a slip
_ALLOWED = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}


class QueryError(ValueError):
    """A query was refused or failed; the message is one line, fit for `error: ...`."""


@dataclass(frozen=True, slots=True)
class Query:
    """A named query: its SQL, the question it answers, its parameters and their defaults."""

    name: str
    description: str
    params: dict[str, Any]
    help: dict[str, str]
    sql: str
    choices: dict[str, tuple[Any, ...]]
    numbers: frozenset[str]  # parameters taking a number: a default's type, or `(number)`


def _coerce(text: str | None) -> Any:
    """A default as written in the SQL header: a number when it reads as one, else a string."""
    if text is None:
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


@cache
def read_query(path: Path) -> Query:
    """A SQL file with its header read: what it answers, its parameters and their defaults."""
    text = sqlfiles.text(path)
    lines = text.splitlines()
    description = lines[0].removeprefix("--").strip() if lines else ""
    params, helps, choices, numbers = {}, {}, {}, set()
    for line in lines[1:]:
        m = _PARAM_LINE.match(line)
        if m:
            values = tuple(_coerce(v.strip()) for v in (m["default"] or "").split("|"))
            params[m["name"]] = values[0] if m["default"] else None
            helps[m["name"]] = m["help"]
            if len(values) > 1:
                choices[m["name"]] = values
            if m["number"] or isinstance(params[m["name"]], int | float):
                numbers.add(m["name"])
    return Query(path.stem, description, params, helps, text, choices, frozenset(numbers))


def list_queries() -> list[tuple[str, str]]:
    """(name, what it answers) for every named query, sorted by name."""
    return [(p.stem, read_query(p).description) for p in sorted(QUERIES.glob("*.sql"))]


def load_query(name: str) -> Query:
    path = QUERIES / f"{name}.sql"
    if not re.fullmatch(r"\w+", name) or not path.is_file():
        names = ", ".join(n for n, _ in list_queries())
        raise QueryError(f"no query named {name!r}; choose one of: {names}")
    return read_query(path)


def bind(query: Query, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """The query's parameters: defaults, overridden by `params` cast to the default's type."""
    unknown = sorted(set(params or {}) - set(query.params))
    if unknown:
        known = ", ".join(query.params) or "none"
        raise QueryError(f"{query.name}: unknown parameter {', '.join(unknown)} (takes: {known})")
    bound = dict(query.params)
    for key, value in (params or {}).items():
        if key in query.choices and str(value) not in map(str, query.choices[key]):
            allowed = " or ".join(map(str, query.choices[key]))
            raise QueryError(f"{query.name}: {key} must be {allowed}, not {value!r}")
        if key in query.numbers and value is not None:  # None: unset, as by default
            value = _number(query, key, value)
        bound[key] = value
    return bound


def _number(query: Query, key: str, value: Any) -> int | float:
    """A number parameter's value, cast to its default's type (a float if it has none); all
    of them count or bound something, so none is negative."""
    whole = isinstance(query.params[key], int)
    try:
        number = float(value)
    except (TypeError, ValueError):
        raise QueryError(f"{query.name}: {key} must be a number, not {value!r}") from None
    if whole and not number.is_integer():
        raise QueryError(f"{query.name}: {key} must be a whole number, not {value!r}")
    if not 0 <= number <= _LARGEST:
        raise QueryError(f"{query.name}: {key} must be 0 or more"
                         f"{f' and at most {_LARGEST}' if number > 0 else ''}, not {value}")
    return int(number) if whole else number


def require_logbook(con: duckdb.DuckDBPyConnection, logbook: str | None) -> None:
    """Refuse a logbook that is not stored: what is asked of it would only come back empty."""
    if logbook is not None and stored_sha256(con, logbook) is None:
        raise QueryError(not_stored([logbook]))


@contextmanager
def session(db: str | Path | None = None, settings: Mapping[str, float] | None = None,
            memory_limit: str | None = None) -> Iterator[duckdb.DuckDBPyConnection]:
    """A read-only connection with the views, `settings` applied, then files and config locked."""
    with connect(db or default_db(), read_only=True) as con:
        if memory_limit is not None:
            try:
                sqlfiles.run(con, "session/memory_limit", {"limit": _memory(memory_limit)})
            except duckdb.Error as exc:
                raise QueryError(f"memory limit {memory_limit!r}: {_first_line(exc)}") from None
        if settings:
            known = dict(sqlfiles.run(con, "session/settings").fetchall())
            for key, value in settings.items():
                if key not in known:
                    raise QueryError(f"unknown setting {key!r} (known: {', '.join(known)})")
                sqlfiles.run(con, "session/set_setting", {"key": key, "value": float(value)})
        sqlfiles.run(con, "session/lock")
        yield con


def _memory(value: str) -> str:
    """A memory size as DuckDB writes it ('2GB', '512 MiB'), checked before it reaches SQL."""
    if not re.fullmatch(r"\s*\d+(\.\d+)?\s*[KMGT]?i?B\s*", value, re.IGNORECASE):
        raise QueryError(f"memory limit {value!r}: give a size such as 2GB or 512MB")
    return value.strip()


def _first_line(exc: Exception) -> str:
    return str(exc).strip().splitlines()[0]


def _query_error(exc: duckdb.Error) -> QueryError:
    return QueryError(_first_line(exc))


def read_frame(con: duckdb.DuckDBPyConnection, statement: str,
               params: Mapping[str, Any] | None = None) -> pd.DataFrame:
    """Run a statement; DATE columns come back as dates, not midnight timestamps."""
    try:
        result = con.execute(statement, params or None)
        frame = result.df()
    except duckdb.Error as exc:
        raise _query_error(exc) from None
    for name, kind, *_ in result.description:
        if str(kind) == "DATE":
            frame[name] = frame[name].dt.date.astype(object).where(frame[name].notna(), None)
    return frame


def run_query(name: str, params: Mapping[str, Any] | None = None, db: str | Path | None = None,
              settings: Mapping[str, float] | None = None) -> pd.DataFrame:
    """Run `queries/NAME.sql` with its `$parameters` bound; unset ones take their defaults."""
    return run(load_query(name), params, db, settings)


def run(query: Query | Path, params: Mapping[str, Any] | None = None,
        db: str | Path | None = None, settings: Mapping[str, float] | None = None) -> pd.DataFrame:
    """Run a query (or the SQL file at a path) in the read-only session, as a DataFrame."""
    query = read_query(query) if isinstance(query, Path) else query
    bound = bind(query, params)
    with session(db, settings) as con:
        require_logbook(con, bound.get("logbook"))
        return read_frame(con, query.sql, bound)


def query_rows(name: str, params: Mapping[str, Any] | None = None,
               db: str | Path | None = None) -> Rows:
    """`run_query` as plain rows, for printing without pandas."""
    query = load_query(name)
    bound = bind(query, params)
    with session(db) as con:
        require_logbook(con, bound.get("logbook"))
        return first_rows(con, query.sql, None, bound)


DEFAULT_TIMEOUT = 60.0  # seconds an ad-hoc query may run
DEFAULT_MEMORY_LIMIT = "2GB"  # DuckDB's own limit for an ad-hoc query (its default is 80% of RAM)


def sql(statement: str, db: str | Path | None = None, limit: int | None = None,
        timeout: float = DEFAULT_TIMEOUT,
        memory_limit: str = DEFAULT_MEMORY_LIMIT) -> pd.DataFrame:
    """Run one ad-hoc SELECT in the sandbox: no writes, no files, no extensions, no SET.

    The query stops after `timeout` seconds or on Ctrl-C, and DuckDB keeps within
    `memory_limit`. With `limit`, only the first rows are kept and the rest are
    streamed past and counted, so a huge result costs time, not memory; the count
    of all rows is `frame.attrs["rows"]`.
    """
    with _sandbox(statement, db, limit, timeout, memory_limit) as con:
        if limit is None:
            frame = read_frame(con, statement)
            frame.attrs["rows"] = len(frame)
            return frame
        return first_rows(con, statement, limit).frame()


def sql_rows(statement: str, db: str | Path | None = None, limit: int | None = None,
             timeout: float = DEFAULT_TIMEOUT, memory_limit: str = DEFAULT_MEMORY_LIMIT) -> Rows:
    """`sql` as plain rows, for printing without pandas."""
    with _sandbox(statement, db, limit, timeout, memory_limit) as con:
        return first_rows(con, statement, limit)


@contextmanager
def _sandbox(statement: str, db: str | Path | None, limit: int | None, timeout: float,
             memory_limit: str) -> Iterator[duckdb.DuckDBPyConnection]:
    """A locked-down connection on which `statement` has been checked, bounded in time."""
    if limit is not None and limit < 0:
        raise QueryError(f"limit must be 0 or more, not {limit}")
    if timeout <= 0:
        raise QueryError(f"timeout must be more than 0 seconds, not {timeout}")
    with session(db, memory_limit=memory_limit) as con:
        try:
            statements = con.extract_statements(statement)
        except duckdb.Error as exc:
            raise _query_error(exc) from None
        if len(statements) != 1:
            raise QueryError(f"give exactly one statement, not {len(statements)}")
        kind = statements[0].type
        if kind not in _ALLOWED:
            raise QueryError(
                f"refused: {kind.name} is not allowed; only read-only SELECT queries run")
        _refuse_hidden_writes(con, statement, kind)
        with _bounded(con, timeout):
            yield con


def first_rows(con: duckdb.DuckDBPyConnection, statement: str, limit: int | None,
                params: Mapping[str, Any] | None = None) -> Rows:
    """The first `limit` rows (all if None); the others are fetched in chunks and counted."""
    try:
        result = con.execute(statement, params or None)
        columns = [d[0] for d in result.description]
        if limit is None:
            rows = result.fetchall()
            return Rows(columns, rows, len(rows))
        rows = result.fetchmany(limit) if limit else []
        total = len(rows)
        while chunk := result.fetchmany(_CHUNK_ROWS):
            total += len(chunk)
    except duckdb.Error as exc:
        raise _query_error(exc) from None
    return Rows(columns, rows, total)


_CHUNK_ROWS = 100_000


@contextmanager
def _bounded(con: duckdb.DuckDBPyConnection, timeout: float) -> Iterator[None]:
    """Interrupt the query after `timeout` seconds, or at once on Ctrl-C.

    DuckDB runs a query in C and looks at Python's signals only between
    calls, so a long query would ignore Ctrl-C: the handler interrupts the
    connection itself, then the KeyboardInterrupt follows as usual.
    """
    pressed = threading.Event()
    timer = threading.Timer(timeout, con.interrupt)
    timer.daemon = True
    previous = None
    if threading.current_thread() is threading.main_thread():
        def on_ctrl_c(signum: int, frame: Any) -> None:
            pressed.set()
            con.interrupt()
        previous = signal.signal(signal.SIGINT, on_ctrl_c)
    timer.start()
    try:
        yield
    except QueryError:
        if pressed.is_set():
            raise KeyboardInterrupt from None
        if not timer.is_alive():
            raise QueryError(f"stopped: the query ran longer than its timeout of {timeout:g}s")\
                from None
        raise
    finally:
        timer.cancel()
        if previous is not None:
            signal.signal(signal.SIGINT, previous)


_EXPLAIN_ANALYZE = re.compile(r"^\s*EXPLAIN\s+ANALY[SZ]E\b", re.IGNORECASE)
_READ_NODES = {"SELECT_NODE", "SET_OPERATION_NODE", "RECURSIVE_CTE_NODE", "CTE_NODE"}


def _refuse_hidden_writes(con: duckdb.DuckDBPyConnection, statement: str,
                          kind: duckdb.StatementType) -> None:
    """Refuse a statement whose tree, as DuckDB parses it, holds anything but reads.

    The first keyword is not enough: `WITH d AS (UPDATE ...) SELECT` is a SELECT,
    and EXPLAIN ANALYZE runs the statement it explains.
    """
    if kind == duckdb.StatementType.EXPLAIN:
        if _EXPLAIN_ANALYZE.match(statement):
            raise QueryError("refused: EXPLAIN ANALYZE runs its statement; use EXPLAIN")
        return  # a plain EXPLAIN only plans
    tree = json.loads(sqlfiles.run(con, "session/parse", {"statement": statement}).fetchone()[0])
    if tree.get("error"):
        raise QueryError(f"refused: {tree.get('error_message', 'not a plain SELECT')}")
    writes = sorted({node for node in _node_types(tree) if node not in _READ_NODES})
    if writes:
        found = ", ".join(w.removesuffix("_QUERY_NODE").removesuffix("_NODE") for w in writes)
        raise QueryError(f"refused: the query holds {found}; only read-only SELECT queries run")


def _node_types(tree: Any) -> Iterator[str]:
    """Every query node type in a json_serialize_sql tree (SELECT_NODE, UPDATE_QUERY_NODE...)."""
    stack = [tree]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            kind = item.get("type")
            if isinstance(kind, str) and kind.endswith("_NODE"):
                yield kind
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
