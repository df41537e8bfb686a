"""Chronology anomalies: the typo is flagged, not its correct neighbour; runs keep their order."""

from __future__ import annotations

from datetime import date

import duckdb
import pytest

from logbook_miner.analytics.analyse import session
from logbook_miner.generate import generate
from logbook_miner.ingest import ingest, no_labels
from logbook_miner.segment.chronology import chronology_anomalies


def test_run_ids_decide_which_of_two_entries_is_the_typo():
    d = date.fromisoformat
    # Newest first. Dropping either the 12-01 (run 37) or the 12-02 after it leaves a chain
    # of five; run 37's other entries were all written on 12-02, so the 12-01 is the typo.
    days = [d("2021-12-02"), d("2021-12-02"), d("2021-12-01"), d("2021-12-02"), d("2021-12-01"),
            d("2021-12-01")]
    runs = ["12.37", "12.37", "12.37", "12.37", "12.36", "12.36"]
    assert chronology_anomalies(days, runs) == [False, False, True, False, False, False]
    assert sum(chronology_anomalies(days)) == 1  # without run ids either one is as likely


def _flags(db) -> list[bool]:
    with duckdb.connect(str(db), read_only=True) as con:
        return [f for (f,) in con.execute(
            "SELECT chronology_anomaly FROM entries WHERE seq > 1 ORDER BY seq").fetchall()]


def test_planted_typos_and_only_they_are_flagged(tmp_path):
    """40 generated OPT-style logbooks (newest first, ET/PT/no zone, day-off and month slips)."""
    planted = wrong = 0
    for seed in range(40):
        made = generate(tmp_path / str(seed), seed=seed, style="opt", days=60)
        db = tmp_path / f"{seed}.duckdb"
        ingest([made.document], db=db, name=made.logbook, timezone="ET", classify=no_labels)
        truth = [row["chronology_anomaly"] for row in made.rows[1:]]
        planted += sum(truth)
        wrong += sum(t != f for t, f in zip(truth, _flags(db), strict=True))
    assert planted >= 40  # the generator's truth: typos a reader could tell are typos
    assert wrong == 0


@pytest.mark.parametrize("seed", [2, 10, 15])  # logbooks with typos in restart notes
def test_a_typo_neither_moves_its_entry_nor_its_run(tmp_path, seed):
    made = generate(tmp_path, seed=seed, style="opt", days=60)
    db = tmp_path / "x.duckdb"
    ingest([made.document], db=db, name=made.logbook, timezone="ET")
    typos = {seq for seq, row in enumerate(made.rows, 1) if row.get("chronology_anomaly")}
    restarted = {seq for seq in typos if "restart" in made.rows[seq - 1]["interventions"]}
    assert len(restarted) >= 3
    with session(db) as con:
        times = dict(con.execute("SELECT seq, ts FROM entry_times").fetchall())
        runs = con.execute("SELECT start_seq, run_id FROM runs ORDER BY run").fetchall()
    for seq in typos:  # newest first: the newer neighbour has the lower seq
        assert times[seq + 1] <= times[seq] <= times[seq - 1]
    run_ids = [run_id for _, run_id in runs]
    starts = [start for start, _ in runs]
    assert restarted <= set(starts)
    for k, (start, run_id) in enumerate(runs[1:-1], 1):
        if start in typos:  # its run sits among the runs of its neighbours
            assert run_ids[k - 1] <= run_id <= run_ids[k + 1]
