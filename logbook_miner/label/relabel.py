"""Relabel stored entries (`logbook classify`): a new taxonomy or classifier without re-reading
the files. Corrections are applied again as the labels are written (store.replace_annotations)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import duckdb

from ..models import Classify
from ..store import choose_logbooks, connect, default_db, load_entries, replace_annotations
from . import default_classify


def relabel(db: str | Path | None = None, logbooks: Sequence[str] | None = None,
            classify: Classify | None = None) -> dict[str, int]:
    """Re-run the classifier on stored entries; return the entries relabelled per logbook."""
    with connect(db or default_db(), create=False) as con:
        return relabel_stored(con, logbooks, classify)


def relabel_stored(con: duckdb.DuckDBPyConnection, logbooks: Sequence[str] | None = None,
                   classify: Classify | None = None) -> dict[str, int]:
    chosen = choose_logbooks(con, logbooks)
    classify = classify or default_classify()
    stored = {}
    for logbook in chosen:
        labelled = classify(load_entries(con, logbook))
        replace_annotations(con, logbook, labelled)
        stored[logbook] = len(labelled)
    return stored
