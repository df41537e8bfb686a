"""Looking things up: what is stored, one entry with everything found in it, a ranked search.

The SQL is in `queries/browse/`; these functions bind its parameters and shape
the answer. All of them read through the same sandboxed session as `sql`.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..resources import QUERIES
from .analyse import QueryError, run

if TYPE_CHECKING:
    import pandas as pd

BROWSE = QUERIES / "browse"


@dataclass(slots=True)
class EntryView:
    """One stored entry (`entry`: its columns) with its labels and metrics."""

    entry: dict[str, Any]
    labels: pd.DataFrame
    metrics: pd.DataFrame


def _run(db: str | Path, name: str, params: dict[str, Any] | None = None) -> pd.DataFrame:
    return run(BROWSE / f"{name}.sql", params, db)


def logbooks(db: str | Path) -> pd.DataFrame:
    """Every stored logbook: source file, hash, entries, dated entries, labels, date span."""
    return _run(db, "logbooks")


def show(db: str | Path, logbook: str, seq: int) -> EntryView:
    """Entry `seq` of `logbook`, its labels with their evidence and its metrics."""
    key = {"logbook": logbook, "seq": int(seq)}
    found = _run(db, "entry", key)
    if found.empty:
        raise QueryError(f"no entry {seq} in logbook {logbook!r} (see `logbooks` for what is "
                         "stored)")
    return EntryView(found.iloc[0].to_dict(), _run(db, "entry_labels", key),
                     _run(db, "entry_metrics", key))


def search(db: str | Path, text: str, code: str | None = None, logbook: str | None = None,
           since: date | str | None = None, until: date | str | None = None,
           limit: int = 20) -> pd.DataFrame:
    """Entries ranked for `text` (BM25), with a snippet; filtered by code, logbook, dates."""
    if not any(ch.isalnum() for ch in text):
        raise QueryError("give some words to search for")
    if limit < 1:
        raise QueryError(f"limit must be 1 or more, not {limit}")
    for name, value in (("since", since), ("until", until)):
        if isinstance(value, str):
            try:
                date.fromisoformat(value)
            except ValueError:
                raise QueryError(f"{name} {value!r} is not a date (YYYY-MM-DD)") from None
    return _run(db, "search", {"text": text, "code": code, "logbook": logbook,
                               "since": None if since is None else str(since),
                               "until": None if until is None else str(until),
                               "limit": limit})
