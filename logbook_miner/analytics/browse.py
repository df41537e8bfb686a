"""Looking things up: what is stored, one entry with everything found in it, a ranked search.

The SQL is in `queries/browse/`; these functions bind its parameters and shape
the answer. All of them read through the same sandboxed session as `sql`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..label.taxonomy import code_kinds, unknown_code
from ..resources import QUERIES
from .analyse import QueryError, bind, first_rows, read_frame, read_query, require_logbook, session

if TYPE_CHECKING:
    import duckdb
    import pandas as pd

    from ..rows import Rows

BROWSE = QUERIES / "browse"
SEARCH_LIMIT = 20  # entries `search` returns unless told


@dataclass(slots=True)
class EntryView:
    """One stored entry (`entry`: its columns) with its labels and metrics.

    The tables are DataFrames, or plain `Rows` where `show` was asked for rows.
    """

    entry: dict[str, Any]
    labels: pd.DataFrame | Rows
    metrics: pd.DataFrame | Rows


def _run(db: str | Path, name: str, params: dict[str, Any] | None = None,
         as_rows: bool = False) -> pd.DataFrame | Rows:
    with session(db) as con:
        return _fetch(con, name, params, as_rows)


def _fetch(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any] | None = None,
           as_rows: bool = False) -> pd.DataFrame | Rows:
    """`queries/browse/NAME.sql` as a DataFrame, or as plain `Rows` (no pandas)."""
    query = read_query(BROWSE / f"{name}.sql")
    bound = bind(query, params)
    return first_rows(con, query.sql, None, bound) if as_rows else read_frame(con, query.sql, bound)


def logbooks(db: str | Path, as_rows: bool = False) -> pd.DataFrame | Rows:
    """Every stored logbook: source file, hash, entries, dated entries, labels, date span."""
    return _run(db, "logbooks", as_rows=as_rows)


def show(db: str | Path, logbook: str, seq: int, as_rows: bool = False) -> EntryView:
    """Entry `seq` of `logbook`, its labels with their evidence and its metrics."""
    key = {"logbook": logbook, "seq": int(seq)}
    with session(db) as con:
        require_logbook(con, logbook)
        found = _fetch(con, "entry", key, as_rows=True).dicts()
        if not found:
            raise QueryError(f"no entry {seq} in logbook {logbook!r} (see `logbooks` for what "
                             "is stored)")
        return EntryView(found[0], _fetch(con, "entry_labels", key, as_rows),
                         _fetch(con, "entry_metrics", key, as_rows))


def search(db: str | Path, text: str, code: str | None = None, logbook: str | None = None,
           since: date | str | None = None, until: date | str | None = None,
           limit: int = SEARCH_LIMIT, as_rows: bool = False) -> pd.DataFrame | Rows:
    """Entries ranked for `text` (BM25), with a snippet; filtered by code, logbook, dates."""
    if not any(ch.isalnum() for ch in text):
        raise QueryError("give some words to search for")
    if limit < 1:
        raise QueryError(f"limit must be 1 or more, not {limit}")
    if code is not None and code not in code_kinds():
        raise QueryError(unknown_code(code))
    for name, value in (("since", since), ("until", until)):
        if isinstance(value, str):
            try:
                date.fromisoformat(value)
            except ValueError:
                raise QueryError(f"{name} {value!r} is not a date (YYYY-MM-DD)") from None
    with session(db) as con:
        require_logbook(con, logbook)
        return _fetch(con, "search", {"text": text, "code": code, "logbook": logbook,
                                      "since": None if since is None else str(since),
                                      "until": None if until is None else str(until),
                                      "limit": limit}, as_rows)
