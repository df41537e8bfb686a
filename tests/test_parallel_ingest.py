"""Parsing in worker processes stores exactly what one process stores."""

from __future__ import annotations

from helpers import snapshot

from logbook_miner.generate import generate
from logbook_miner.ingest import _POOL_MIN_SECONDS, Source, estimated_seconds, ingest, no_labels


def test_workers_store_the_same_rows_in_input_order(tmp_path):
    files = [generate(tmp_path / f"g{seed}", seed=seed, style="markdown", pages=250).document
             for seed in (1, 2, 3)]
    sources = [Source(f.stem, [f]) for f in files]
    assert estimated_seconds(sources) >= _POOL_MIN_SECONDS  # the pool is really used
    serial = ingest(files, db=tmp_path / "one.duckdb", classify=no_labels, workers=1)
    parallel = ingest(files, db=tmp_path / "two.duckdb", classify=no_labels, workers=2)
    assert [r.logbook for r in parallel] == [f.stem for f in files]
    assert [r.entries for r in parallel] == [r.entries for r in serial]
    one, two = snapshot(tmp_path / "one.duckdb"), snapshot(tmp_path / "two.duckdb")
    for rows in (one, two):
        rows["logbooks"] = [row[:-1] for row in rows["logbooks"]]  # all but ingested_at
    assert two == one
