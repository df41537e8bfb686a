"""Generated logbooks of every style come back through ingest with their true entries."""

from __future__ import annotations

import pytest

from logbook_miner.evaluate import load_gold, score, stored_predictions
from logbook_miner.generate import generate
from logbook_miner.ingest import ingest, no_labels


@pytest.mark.parametrize("style", ["opt", "markdown", "daily"])
def test_entries_dates_and_times_are_recovered(tmp_path, style):
    made = generate(tmp_path / "gen", seed=7, style=style, days=40)
    db = tmp_path / "x.duckdb"
    merged = made.logbook if style == "daily" else None
    [result] = ingest([made.document], db=db, name=None if merged else made.logbook,
                      as_one=merged, timezone="ET", classify=no_labels)
    assert result.status == "ingested", result.summary()
    report = score(load_gold(made.truth), stored_predictions(db))["logbooks"][made.logbook]
    assert report["entry_recall"] == 1.0 and report["entry_precision"] == 1.0
    assert report["date_accuracy"] == 1.0
