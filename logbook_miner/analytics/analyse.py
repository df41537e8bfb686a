"""Analyse the store: named SQL queries, sandboxed ad-hoc SQL, MTBF tables, cost simulation.

The questions live in `queries/NAME.sql` (first line: what it answers; lines
`-- $param = default: meaning` declare its parameters) and read the TEMP views
that `store.connect` creates from `queries/views/`. This module only opens a
locked-down read-only connection, binds parameters and hands the numbers to
`logbook_miner.analytics.reliability` and `logbook_miner.analytics.cost`, which own the statistics.
"""

from __future__ import annotations

import json
import re
import signal
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

import duckdb

from .. import sqlfiles
from ..errors import ArgumentError
from ..resources import DATA, QUERIES
from ..rows import Rows
from ..store import connect, default_db, stored_sha256

if TYPE_CHECKING:  # pandas and scipy load on first use: `sql` and `query` need neither
    import pandas as pd

    from .cost import CostEstimate
    from .reliability import MTBFEstimate

_PARAM_LINE = re.compile(
    r"^--\s*\$(?P<name>\w+)(?:\s*=\s*(?P<default>[^:]+?))?\s*:\s*(?P<help>.*)$")
_ALLOWED = {duckdb.StatementType.SELECT, duckdb.StatementType.EXPLAIN}
_MTBF_FIELDS = ("mtbf_hours", "mtbf_ci_low_hours", "mtbf_ci_high_hours")


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
    params, helps = {}, {}
    for line in lines[1:]:
        m = _PARAM_LINE.match(line)
        if m:
            params[m["name"]] = _coerce(m["default"])
            helps[m["name"]] = m["help"]
    return Query(path.stem, description, params, helps, text)


def list_queries() -> list[tuple[str, str]]:
    """(name, what it answers) for every named query, sorted by name."""
    return [(p.stem, read_query(p).description) for p in sorted(QUERIES.glob("*.sql"))]


def load_query(name: str) -> Query:
    path = QUERIES / f"{name}.sql"
    if not re.fullmatch(r"\w+", name) or not path.is_file():
        names = ", ".join(n for n, _ in list_queries())
        raise QueryError(f"no query named {name!r}; choose one of: {names}")
    return read_query(path)


def _bind(query: Query, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """The query's parameters: defaults, overridden by `params` cast to the default's type."""
    unknown = sorted(set(params or {}) - set(query.params))
    if unknown:
        known = ", ".join(query.params) or "none"
        raise QueryError(f"{query.name}: unknown parameter {', '.join(unknown)} (takes: {known})")
    bound = dict(query.params)
    for key, value in (params or {}).items():
        default = query.params[key]
        if isinstance(value, str) and isinstance(default, int | float):
            try:
                value = type(default)(value)
            except ValueError:
                raise QueryError(f"{query.name}: {key} must be a number, not {value!r}") from None
        bound[key] = value
    return bound


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


def _frame(con: duckdb.DuckDBPyConnection, statement: str,
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
    bound = _bind(query, params)
    with session(db, settings) as con:
        return _frame(con, query.sql, bound)


def query_rows(name: str, params: Mapping[str, Any] | None = None,
               db: str | Path | None = None) -> Rows:
    """`run_query` as plain rows, for printing without pandas."""
    query = load_query(name)
    bound = _bind(query, params)
    with session(db) as con:
        return _first_rows(con, query.sql, None, bound)


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
            frame = _frame(con, statement)
            frame.attrs["rows"] = len(frame)
            return frame
        return _first_rows(con, statement, limit).frame()


def sql_rows(statement: str, db: str | Path | None = None, limit: int | None = None,
             timeout: float = DEFAULT_TIMEOUT, memory_limit: str = DEFAULT_MEMORY_LIMIT) -> Rows:
    """`sql` as plain rows, for printing without pandas."""
    with _sandbox(statement, db, limit, timeout, memory_limit) as con:
        return _first_rows(con, statement, limit)


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


def _first_rows(con: duckdb.DuckDBPyConnection, statement: str, limit: int | None,
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


def _check_logbook(con: duckdb.DuckDBPyConnection, logbook: str | None) -> None:
    if logbook is not None and stored_sha256(con, logbook) is None:
        raise QueryError(f"no such logbook: {logbook}")


def _scaled(estimate: MTBFEstimate, per: str, units: Any) -> dict[str, Any]:
    """MTBF of one node or GPU (None when the cluster size is unknown)."""
    scale = estimate.per_node if per == "node" else estimate.per_gpu
    scaled = None if _missing(units) else scale(int(units))
    return {f"{per}_{field}": getattr(scaled, field, None) for field in _MTBF_FIELDS}


def mtbf_table(db: str | Path | None = None, logbook: str | None = None, by: str | None = None,
               confidence: float = 0.95,
               settings: Mapping[str, float] | None = None) -> pd.DataFrame:
    """MTBF with its chi-square interval per logbook (and per family with by="family").

    The window runs from the logbook's first to its last dated entry and ends at no
    failure (time-terminated); failures are incidents, so entries about one stop count
    once. Per-node and per-GPU figures appear when the cluster size is known.
    """
    import pandas as pd

    table = pd.DataFrame(_mtbf_records(db, logbook, by, confidence, settings))
    # counts as integers; the cluster's size is there only when the logbook states it
    table = table.astype({column: "Int64" for column in ("failures", "nodes", "gpus")
                          if column in table.columns})
    return table[_mtbf_columns(table.columns)]


def mtbf_rows(db: str | Path | None = None, logbook: str | None = None, by: str | None = None,
              confidence: float = 0.95) -> Rows:
    """`mtbf_table` as plain rows, for printing without pandas."""
    records = _mtbf_records(db, logbook, by, confidence)
    columns = _mtbf_columns(dict.fromkeys(key for record in records for key in record))
    return Rows(columns, [tuple(r.get(c) for c in columns) for r in records], len(records))


def _mtbf_columns(columns: Iterable[str]) -> list[str]:
    """What a reader compares on the left, then the rest in the order they came."""
    first = [c for c in _FIRST if c in columns]
    return first + [c for c in columns if c not in first]


def _mtbf_records(db: str | Path | None, logbook: str | None, by: str | None,
                  confidence: float, settings: Mapping[str, float] | None = None) -> list[dict]:
    """One dict per row of the MTBF table (a key absent where a figure does not apply)."""
    from . import reliability

    if by not in (None, "family"):
        raise QueryError(f"by must be 'family' or nothing, not {by!r}")
    query, rates_query = load_query("mtbf_inputs"), load_query("reported_rates")
    params = {"logbook": logbook, "by": by or "all"}
    with session(db, settings) as con:
        _check_logbook(con, logbook)
        inputs = _first_rows(con, query.sql, None, _bind(query, params)).dicts()
        reported = {(r["logbook"], r["family"]): r for r in _first_rows(
            con, rates_query.sql, None, _bind(rates_query, params)).dicts()}
    rows = []
    for row in inputs:
        head = {"logbook": row["logbook"], "family": row["family"]}
        stated = _reported(reported.pop((row["logbook"], row["family"]), None))
        if row["observed_hours"] <= 0:
            rows.append(head | {"failures": row["failures"],
                                "observed_hours": row["observed_hours"]}
                        | stated | {"note": _disagreement(row["failures"], None, stated)
                                    or "fewer than two dated times: no observation window"})
            continue
        est = reliability.mtbf(row["failure_hours"], row["observed_hours"], confidence)
        fields = {k: v for k, v in asdict(est).items() if k not in ("per", "units")}
        rows.append(head | fields | stated
                    | {"nodes": _int(row["nodes"])} | _scaled(est, "node", row["nodes"])
                    | {"gpus": _int(row["gpus"])} | _scaled(est, "gpu", row["gpus"])
                    | {"window_start": row["window_start"], "window_end": row["window_end"],
                       "note": _disagreement(row["failures"], est.mtbf_hours, stated)})
    for (name, family), only_stated in sorted(reported.items()):  # no dated stop at all
        stated = _reported(only_stated)
        rows.append({"logbook": name, "family": family, "failures": 0} | stated
                    | {"note": _disagreement(0, None, stated)})
    return rows


_FIRST = ("logbook", "family", "failures", "observed_hours", "mtbf_hours", "mtbf_ci_low_hours",
          "mtbf_ci_high_hours", "reported_mtbf_hours", "note")
_REPORTED = ("reported_events", "reported_bound", "reported_hours", "reported_mtbf_hours",
             "reported_code", "reported_evidence", "reported_from", "reported_to")


def _reported(row: dict | None) -> dict[str, Any]:
    """The failure rate the notes state (queries/reported_rates.sql), or nulls."""
    return {key: (row or {}).get(key) for key in _REPORTED}


UNDERCOUNT_FACTOR = 2.0  # entries showing stops this much rarer than the notes say: recaps


def trusted_mtbf(entry_based: float | None, reported: float | None) -> tuple[float | None, str]:
    """The MTBF to reason with, and its source: `measured` from entries, or `reported`.

    Recap notes ("40+ restarts since Nov 17") count what no entry reports one by one; when
    the entries show stops UNDERCOUNT_FACTOR times rarer than the notes report them, the
    entry-based MTBF is only an upper bound and the notes' own rate is the better figure.
    """
    if reported is not None and (entry_based is None
                                 or entry_based > UNDERCOUNT_FACTOR * reported):
        return reported, "reported"
    return entry_based, "measured"


def reported_events(stated: dict) -> str:
    """'40+ restarts', '~2 hardware.node failures': what the notes count, as they bound it."""
    bound = {">=": "", "~": "~", "=": ""}[stated["reported_bound"]]
    plus = "+" if stated["reported_bound"] == ">=" else ""
    what = "restarts" if stated["reported_code"] == "restart" else (
        f"{stated['reported_code']} failures")
    return f"{bound}{stated['reported_events']:g}{plus} {what}"


def _disagreement(failures: int, mtbf_hours: float | None, stated: dict) -> str | None:
    """A sentence when the notes report failures much more often than the entries show them."""
    if trusted_mtbf(mtbf_hours, stated["reported_mtbf_hours"])[1] != "reported":
        return None
    events = reported_events(stated)
    when = (f"from {stated['reported_from']} to {stated['reported_to']}"
            if stated["reported_from"] else f"in {stated['reported_hours']:g} h")
    return (f"entries show {failures} stops; the notes report {events} {when} "
            f"(\"{stated['reported_evidence'][:80]}\"): the entry-based MTBF is an upper bound")


def _int(value: Any) -> int | None:
    return None if _missing(value) else int(value)


def _missing(value: Any) -> bool:
    """None, NaN, NaT or pandas' NA, without importing pandas: each is unequal to itself
    (NA's comparison gives NA, whose truth value raises)."""
    if value is None:
        return True
    try:
        return bool(value != value)
    except TypeError:
        return True


def logbook_defaults(logbook: str,
                     db: str | Path | None = None) -> dict[str, tuple[float | None, str]]:
    """What a logbook measured for `simulate`, with where each came from (value, source).

    A logbook that names its nodes but not its GPUs has gpus_per_node GPUs in each (assumed);
    one that names neither runs on the GPUs data/cost_assumptions.yaml assumes.
    """
    import numpy as np

    from . import reliability

    cluster = mtbf_table(db, logbook).iloc[0]
    inputs = run_query("simulate_inputs", {"logbook": logbook}, db).iloc[0]
    repairs = inputs["repair_hours"]
    repairs = [] if not isinstance(repairs, list | tuple | np.ndarray) else list(repairs)
    mtbf, source = trusted_mtbf(_none_if_nan(cluster.get("mtbf_hours")),
                                _none_if_nan(cluster.get("reported_mtbf_hours")))
    gpus, nodes = _int(inputs["gpus"]), _int(inputs["nodes"])
    return {
        "gpus": (gpus, "measured") if gpus is not None else (
            nodes * _int(inputs["gpus_per_node"]) if nodes else cost_assumptions()["gpus"],
            "assumed"),
        "mtbf_hours": (mtbf, source),
        "mttr_hours": (reliability.mttr(repairs).mean_hours, "measured"),
        "checkpoint_cost_seconds": (_none_if_nan(inputs["checkpoint_cost_seconds"]), "measured"),
    }


def simulate(usd_per_gpu_hour: float | None = None, checkpoint_minutes: float | None = None,
             gpus: int | None = None, mtbf_hours: float | None = None,
             mttr_hours: float | None = None, checkpoint_cost_seconds: float | None = None,
             days: float | None = None, runs: int = 0, seed: int = 0,
             from_logbook: str | None = None,
             db: str | Path | None = None) -> CostEstimate:
    """Cost of failures. With `from_logbook`, an unset input is what the logbook measured, else
    a stated assumption (data/cost_assumptions.yaml); `sources` says which for each input.

    The job MTBF is the one from dated entries, unless the notes report failures more than
    twice as often (then the entries' figure is an upper bound and the reported one is used).
    """
    from .cost import simulate_cost

    given = {"gpus": gpus, "usd_per_gpu_hour": usd_per_gpu_hour, "mtbf_hours": mtbf_hours,
             "mttr_hours": mttr_hours, "checkpoint_minutes": checkpoint_minutes,
             "checkpoint_cost_seconds": checkpoint_cost_seconds}
    values = {k: v for k, v in given.items() if v is not None}
    sources = dict.fromkeys(values, "given")
    if from_logbook:
        for key, (value, source) in logbook_defaults(from_logbook, db).items():
            if key not in values and value is not None:
                values[key], sources[key] = value, source
        for key, value in cost_assumptions().items():
            if key in given and key not in values:
                values[key], sources[key] = value, "assumed"
    missing = [k for k in given if k not in values]
    if missing:
        raise ArgumentError(f"give {', '.join(f'`{k}`' for k in missing)} "
                            f"({'no `from_logbook`' if not from_logbook else 'not measured'})")
    estimate = simulate_cost(gpus=int(values["gpus"]), usd_per_gpu_hour=values["usd_per_gpu_hour"],
                             mtbf_hours=values["mtbf_hours"], mttr_hours=values["mttr_hours"],
                             checkpoint_minutes=values["checkpoint_minutes"],
                             checkpoint_cost_seconds=values["checkpoint_cost_seconds"],
                             days=cost_assumptions()["days"] if days is None else days,
                             runs=runs, seed=seed)
    return replace(estimate, sources=sources)


@cache
def cost_assumptions() -> dict[str, float]:
    """What a cost simulation assumes where neither its caller nor the logbook says."""
    import yaml

    return yaml.safe_load((DATA / "cost_assumptions.yaml").read_text(encoding="utf-8"))


def _none_if_nan(value: Any) -> Any:
    return None if _missing(value) else value
