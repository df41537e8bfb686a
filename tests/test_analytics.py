"""Restart timeline, incidents, MTBF and outcomes from logbooks ingested the real way.

The OPT-style fixture (tests/analytics_fixtures.py) is written newest first;
in time order it reads: run 12.16 starts; ECC error + restart as 12.17; a loss
spike; two NCCL entries 2 h apart (one stop); restart as 12.18 4.5 h after
that stop began; LR lowered and relaunched as 12.19; 12.20 appears with no
note of why; ECC error again, last entry.
"""

from __future__ import annotations

import math
from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from analytics_fixtures import DATE_ONLY, OPT_STYLE, ingest_texts, keyword_classify, real_classify

from logbook_miner.analytics.analyse import QueryError, run_query, sql
from logbook_miner.analytics.mtbf import mtbf_table
from logbook_miner.analytics.reliability import mtbf
from logbook_miner.analytics.simulate import simulate

OPT = "opt-style"


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("analytics")
    return ingest_texts(folder, {OPT: OPT_STYLE, "date-only.md": DATE_ONLY})


def test_restarts_come_from_labels_and_run_id_changes_in_time_order(db):
    events = sql("SELECT seq, reason FROM events WHERE kind = 'restart' AND logbook = 'opt-style' "
                 "ORDER BY ts", db)
    assert events.to_dict("list") == {
        "seq": [8, 4, 3, 2],
        "reason": ["label+run_change", "label+run_change", "label+run_change", "run_change"],
    }


def test_restart_timeline_of_a_newest_first_logbook(db):
    runs = run_query("restart_timeline", {"logbook": OPT}, db)
    assert runs["run_id"].str.removeprefix("Run ").tolist() == [f"12.{n}" for n in range(16, 21)]
    assert runs["ended_by"].tolist() == ["hardware", "network", "planned", "unknown", "open"]
    assert runs["duration_hours"].tolist() == [5.0, 38.5, 29.5, 24.0, 50.0]
    assert runs["start_ts"].iloc[0] == pd.Timestamp("2021-11-24 13:00")  # 8:00am ET
    assert runs["end_ts"].iloc[-1] == pd.Timestamp("2021-11-30 16:00")
    assert runs["start_ts"].iloc[1:].tolist() == runs["end_ts"].iloc[:-1].tolist()


def test_entries_about_one_stop_form_one_incident(db):
    stops = run_query("incidents", {"logbook": OPT}, db).query("stream == 'stop'")
    assert [list(s) for s in stops["seqs"]] == [[8], [5, 6], [1]]
    assert stops["family"].tolist() == ["hardware", "network", "hardware"]
    assert stops["repair_hours"].iloc[1] == 4.5  # 11:00pm NCCL timeout -> 3:30am restart
    assert stops["repair_hours"].iloc[[0, 2]].isna().all()  # restart in the same entry: unknown


def test_incident_window_is_a_setting(db):
    query = "SELECT count(*) AS n FROM incidents WHERE stream = 'stop' AND logbook = 'opt-style'"
    assert sql(query, db)["n"].item() == 3
    assert run_query("incidents", {"logbook": OPT}, db,
                     settings={"incident_window_hours": 1}).query("stream == 'stop'").shape[0] == 4
    with pytest.raises(QueryError, match="unknown setting"):
        run_query("incidents", {}, db, settings={"window": 1})


def test_date_only_entries_are_placed_at_noon_and_undated_ones_at_their_neighbour(db):
    times = sql("SELECT seq, ts, time_estimated, date_estimated FROM entry_times "
                "WHERE logbook = 'date-only' ORDER BY seq", db)
    assert times["ts"].tolist() == [pd.Timestamp(d) for d in (
        "2022-03-11 12:00", "2022-03-14 12:00", "2022-03-14 12:00", "2022-03-18 12:00")]
    assert times["time_estimated"].all()
    assert times["date_estimated"].tolist() == [False, False, True, False]


def test_mtbf_counts_stops_over_the_logbook_window(db):
    row = mtbf_table(db, logbook=OPT).iloc[0]
    expected = mtbf([5.0, 39.0, 147.0], 147.0)
    assert (row["failures"], row["observed_hours"], row["mtbf_hours"]) == (3, 147.0, 49.0)
    assert row["mtbf_ci_low_hours"] == pytest.approx(expected.mtbf_ci_low_hours)
    assert row["mtbf_ci_high_hours"] == pytest.approx(expected.mtbf_ci_high_hours)
    assert row["nodes"] == 124  # mined from "on 124 nodes"
    assert row["node_mtbf_hours"] == pytest.approx(124 * 49.0)
    assert row["gpu_mtbf_hours"] is None


def test_mtbf_by_family_keeps_numerics_apart(db):
    table = mtbf_table(db, logbook=OPT, by="family").set_index("family")
    assert table.loc["hardware", "failures"] == 2
    assert table.loc["network", "failures"] == 1
    assert table.loc["numerics", "failures"] == 1  # the loss spike: its own family...
    assert mtbf_table(db, logbook=OPT)["failures"].item() == 3  # ...and not a stop
    with pytest.raises(QueryError, match="no such logbook"):
        mtbf_table(db, logbook="nope")


def test_intervention_outcomes_follow_each_intervention(db):
    out = sql("SELECT * FROM intervention_outcomes WHERE logbook = 'opt-style'", db)
    lr = out.query("code == 'lr_change'").iloc[0]  # no fault of its own: any family counts
    assert lr["hours_to_recurrence"] == 74.0
    assert (lr["recurred_24h"], lr["recurred_72h"], lr["recurred_7d"]) == (False, False, True)
    assert (lr["restarts_72h"], lr["verdict"]) == (1, "held")
    spare = out.query("code == 'node_replacement'").iloc[0]  # its own fault: network
    assert list(spare["own_families"]) == ["network"]
    assert math.isnan(spare["hours_to_same_family"])
    assert spare["recurred_7d"] is pd.NA or pd.isna(spare["recurred_7d"])  # logbook ended first
    assert spare["verdict"] == "held"


def test_simulate_takes_unset_inputs_from_the_logbook(db):
    est = simulate(usd_per_gpu_hour=2.0, checkpoint_minutes=60, gpus=992, from_logbook=OPT, db=db)
    assert (est.mtbf_hours, est.mttr_hours, est.checkpoint_cost_seconds) == (49.0, 4.5, 95.0)
    assert est.sources == {"gpus": "given", "usd_per_gpu_hour": "given",
                           "checkpoint_minutes": "given", "mtbf_hours": "measured",
                           "mttr_hours": "measured", "checkpoint_cost_seconds": "measured"}
    # what the logbook does not measure is assumed, and says so (issue 15)
    alone = simulate(from_logbook=OPT, db=db)
    assert (alone.gpus, alone.sources["gpus"]) == (992, "assumed")  # its 124 nodes, 8 GPUs each
    assert (alone.usd_per_gpu_hour, alone.sources["usd_per_gpu_hour"]) == (2.0, "assumed")
    assert alone.sources["mtbf_hours"] == "measured"
    dated_only = simulate(gpus=8, from_logbook="date-only", db=db)
    assert dated_only.sources["mttr_hours"] == "assumed"  # its repair time is a noon guess


def _replication(rng: np.random.Generator, nodes: int, node_mtbf: float, hours: float) -> str:
    """A text logbook: a start note, one dated entry per failure, a last status note."""
    start, t = datetime(2022, 1, 3), 0.0
    notes = [f"2022-01-03 00:00 UTC\nStarted on {nodes} nodes."]
    while (t := t + rng.exponential(node_mtbf / nodes)) < hours:
        when = start + timedelta(hours=t)
        notes.append(f"{when:%Y-%m-%d %H:%M} UTC\nnode-{rng.integers(nodes)} lost a GPU, "
                     "job crashed; restarted from the last checkpoint.")
    notes.append(f"{start + timedelta(hours=hours):%Y-%m-%d %H:%M} UTC\nStill training.")
    return "\n\n".join(notes) + "\n"


def test_mtbf_interval_covers_the_true_node_mtbf_95_percent_of_the_time(tmp_path):
    # 400 logbooks of 16 nodes with node MTBF 384 h over 600 h: ~25 failures each, for
    # which the exact coverage of the chi-square interval is ~95.5%. Entries are minutes
    # apart at worst, so the incident window is 0: each failure entry is its own stop.
    rng, nodes, node_mtbf, hours = np.random.default_rng(7), 16, 384.0, 600.0
    texts = {f"rep{i:03d}": _replication(rng, nodes, node_mtbf, hours) for i in range(400)}
    db = ingest_texts(tmp_path, texts, classify=keyword_classify)
    table = mtbf_table(db, settings={"incident_window_hours": 0})
    assert len(table) == 400 and (table["observed_hours"] == hours).all()
    assert (table["nodes"] == nodes).all()
    covered = (table["node_mtbf_ci_low_hours"] <= node_mtbf) & (
        node_mtbf <= table["node_mtbf_ci_high_hours"])
    assert 0.92 <= covered.mean() <= 0.98


def _weibull_logbook(rng: np.random.Generator, shape: float, scale: float, failures: int) -> str:
    """Weibull times between failures, then a censored stretch, as minute-stamped notes."""
    start, t = datetime(2022, 1, 3), 0.0
    notes = [f"{start:%Y-%m-%d %H:%M} UTC\nStarted."]
    for _ in range(failures):
        t += max(1 / 60, round(scale * rng.weibull(shape) * 60) / 60)  # the notes keep minutes
        notes.append(f"{start + timedelta(hours=t):%Y-%m-%d %H:%M} UTC\n"
                     "node-3 lost a GPU, job crashed; restarted from the last checkpoint.")
    t += scale * rng.weibull(shape)
    notes.append(f"{start + timedelta(hours=t):%Y-%m-%d %H:%M} UTC\nStill training.")
    return "\n\n".join(notes) + "\n"


@pytest.mark.parametrize("shape", [0.7, 1.5])
def test_weibull_shape_is_recovered_from_ingested_logbooks(tmp_path, shape):
    # 100 logbooks of 40 failures each, through the real ingest path; the time from the
    # last failure to the last note is censored. The profile-likelihood 95% interval
    # should hold the true shape in most of them.
    from logbook_miner.analytics.reliability import weibull

    rng = np.random.default_rng(11)
    texts = {f"w{i:03d}": _weibull_logbook(rng, shape, 48.0, 40) for i in range(100)}
    db = ingest_texts(tmp_path, texts, classify=keyword_classify)
    inputs = run_query("mtbf_inputs", db=db, settings={"incident_window_hours": 0})
    covered = []
    for row in inputs.itertuples():
        times = np.asarray(row.failure_hours)
        assert len(times) == 40
        fit = weibull(np.diff(times, prepend=0.0), [row.observed_hours - times[-1]])
        covered.append(fit.shape_ci_low <= shape <= fit.shape_ci_high)
    assert np.mean(covered) >= 0.85


def test_stops_end_at_restarts_so_close_failures_are_not_merged(tmp_path):
    # The same 400 logbooks with the default 6 h incident window: the job's MTBF is 24 h, so
    # many failures come within 6 h of the one before; each entry logs its restart, so each
    # is a stop of its own and the job-level interval still covers the truth.
    rng, nodes, node_mtbf, hours = np.random.default_rng(7), 16, 384.0, 600.0
    texts = {f"rep{i:03d}": _replication(rng, nodes, node_mtbf, hours) for i in range(400)}
    db = ingest_texts(tmp_path, texts, classify=keyword_classify)
    table = mtbf_table(db)
    job_mtbf = node_mtbf / nodes
    covered = (table["mtbf_ci_low_hours"] <= job_mtbf) & (job_mtbf <= table["mtbf_ci_high_hours"])
    assert 0.92 <= covered.mean() <= 0.98
    assert abs(np.median(table["mtbf_hours"] / job_mtbf - 1)) < 0.10


def test_times_without_a_zone_keep_their_wall_clock(tmp_path):
    text = ("2022-05-07 20:14 Node failure\n\nnode-3 lost a GPU, job crashed.\n\n"
            "2022-05-08 02:40 Back\n\nRestarted from the last checkpoint.\n")
    db = ingest_texts(tmp_path, {"no-zone": text}, classify=keyword_classify)
    times = _rows(db, "SELECT seq, ts, time_estimated, zone_unknown FROM entry_times "
                              "ORDER BY seq")
    assert times == [(1, datetime(2022, 5, 7, 20, 14), False, True),
                     (2, datetime(2022, 5, 8, 2, 40), False, True)]
    [(repair,)] = _rows(db, "SELECT repair_hours FROM incidents")
    assert repair == pytest.approx(6 + 26 / 60)


def _rows(db, statement):
    """The rows of a read-only query, as tuples."""
    return [tuple(row) for row in sql(statement, db).itertuples(index=False)]


@pytest.mark.parametrize(("sentence", "hours"), [
    ("It took 5 hours to get a replacement and we restarted.", 5.0),  # the words
    ("Lost 6h of work until this got resolves. Restarted.", 6.0),  # BLOOM tr11-176B
    ("The training was interrupted for about 12 hours and resumed at 12:00 today.", 12.0),  # CPM
])
def test_a_stated_repair_time_is_the_stop_s_repair(tmp_path, sentence, hours):
    text = f"2022-05-07 20:14 UTC Node failure\n\nnode-3 lost a GPU, job crashed. {sentence}\n"
    db = ingest_texts(tmp_path, {"stated": text}, classify=real_classify())
    assert _rows(db, "SELECT repair_hours, repair_source, repair_estimated FROM incidents") == [
        (pytest.approx(hours), "stated", False)]


def test_a_dated_restart_wins_over_a_stated_duration(tmp_path):
    text = ("2022-05-07 20:14 UTC Node failure\n\nnode-3 lost a GPU, job crashed. We lost ~11h "
            "on this event.\n\n2022-05-08 02:14 UTC Back\n\nRestarted from the last checkpoint.\n")
    db = ingest_texts(tmp_path, {"both": text}, classify=real_classify())
    assert _rows(db, "SELECT repair_hours, repair_source FROM incidents") == [(6.0, "dated")]


def test_simulate_from_a_logbook_that_says_nothing_assumes_all_and_says_so(tmp_path):
    text = "2022-05-07 Launch\n\nStarted the run.\n\n2022-05-09 Status\n\nAll fine.\n"
    db = ingest_texts(tmp_path, {"quiet": text}, classify=keyword_classify)
    est = simulate(from_logbook="quiet", db=db)
    assert set(est.sources.values()) == {"assumed"}
    assert (est.gpus, est.mtbf_hours, est.days) == (512, 24.0, 30.0)  # cost_assumptions.yaml
