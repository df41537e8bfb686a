"""What the dashboard shows, aggregated in DuckDB and summarised by `reliability`.

Built on the analysis views (`events`, `incidents`, `runs`,
`intervention_outcomes`) and the named query `mtbf_inputs`, so the page and
`logbook mtbf` / `logbook simulate` count failures the same way. Every frame is
small by construction (capped or bucketed in SQL) because it ends up inside
the page as JSON. The SQL lives in `queries/dashboard/`, one question a file;
`entries.sql` first fills the temp tables the others read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd

from ..analytics import reliability
from ..analytics.analyse import load_query
from ..resources import QUERIES
from ..store import choose_logbooks, connect, default_db

DASHBOARD_QUERIES = QUERIES / "dashboard"
METRIC_NAMES = ("lm_loss", "grad_norm", "tflops", "samples_per_second", "words_per_second")
MATERIALISED = ("entry_times", "events", "incidents", "runs", "intervention_outcomes",
                "cluster_sizes")  # in dependency order
_BUCKETS = (1, 60, 300, 900, 3600, 6 * 3600, 86400, 7 * 86400)  # seconds
MAX_REPAIRS_FOR_CI = 2000  # the BCa bootstrap is O(n * 9999); a sample bounds its cost


@dataclass(frozen=True, slots=True)
class Limits:
    """How much of a big store goes into the page."""

    markers: int = 2000
    ledger: int = 1500
    points: int = 1500  # per chart and series kind, by time bucketing
    note_chars: int = 12000


@dataclass(slots=True)
class DashboardData:
    """Everything the charts and the page need, as small frames and plain numbers."""

    logbooks: list[str]
    totals: dict[str, Any]
    per_logbook: dict[str, dict[str, Any]]  # header figures and simulator inputs, one logbook each
    markers: pd.DataFrame
    runs: pd.DataFrame
    cumulative: pd.DataFrame
    mtbf_by_logbook: pd.DataFrame
    families: pd.DataFrame
    outcomes: pd.DataFrame
    outcome_hours: float
    fault_mix: pd.DataFrame
    pareto: pd.DataFrame
    metrics: pd.DataFrame
    ledger: pd.DataFrame


def load(db: str | Path | None = None, logbooks: Sequence[str] | None = None,
         limits: Limits | None = None) -> DashboardData:
    """Query the store once, read-only, and summarise it for the dashboard."""
    limits = limits or Limits()
    with connect(db or default_db(), read_only=True) as con:
        chosen = choose_logbooks(con, logbooks, into="dash_logbooks")
        _materialise_views(con)
        _run(con, "entries")
        _run(con, "markers", {"markers": limits.markers})
        series = max(1, len(chosen))  # one line per logbook (and per metric or kind)
        bucket = _bucket_seconds(con, limits.points // series)
        stops = _mtbf_inputs(con, chosen, "all")
        by_family = _mtbf_inputs(con, chosen, "family")
        repairs = _run(con, "repairs")
        data = DashboardData(
            logbooks=chosen,
            totals=_totals(con),
            per_logbook=_per_logbook(con, chosen),
            markers=_run(con, "SELECT * FROM dash_markers ORDER BY ts"),
            runs=_run(con, "runs", {"markers": limits.markers}),
            cumulative=_run(con, "cumulative", {"bucket_seconds": bucket}),
            mtbf_by_logbook=_mtbf_by_logbook(stops),
            families=_family_stats(by_family, repairs, stops),
            outcomes=_run(con, "outcomes"),
            outcome_hours=con.execute("SELECT setting('outcome_window_hours')").fetchone()[0],
            fault_mix=_run(con, "fault_mix"),
            pareto=_run(con, "fault_pareto"),
            metrics=_run(con, "metrics", {"bucket_seconds": bucket,
                                          "metric_names": list(METRIC_NAMES)}),
            ledger=_run(con, "ledger", {"rows": limits.ledger, "note_chars": limits.note_chars}),
        )
    for logbook, figures in data.per_logbook.items():
        figures.update(_reliability(stops[stops["logbook"] == logbook],
                                    repairs[repairs["logbook"] == logbook]))
    return data


def _run(con: duckdb.DuckDBPyConnection, name_or_sql: str,
         params: dict[str, Any] | None = None) -> pd.DataFrame:
    """Run `queries/dashboard/NAME.sql` (or literal SQL); the last statement's rows as a frame."""
    sql = name_or_sql
    if " " not in name_or_sql:
        sql = (DASHBOARD_QUERIES / f"{name_or_sql}.sql").read_text(encoding="utf-8")
    result = con.execute(sql, params or {})
    return result.df() if result.description else pd.DataFrame()


def _materialise_views(con: duckdb.DuckDBPyConnection) -> None:
    """Compute each analysis view once, for the chosen logbooks only, in this connection.

    The views build on one another and the dashboard reads `incidents` five times;
    as views DuckDB would recompute the chain each time. Every view is per logbook,
    so filtering first changes no row of a chosen logbook. The store is untouched.
    """
    for view in MATERIALISED:
        con.execute(f"CREATE OR REPLACE TEMP TABLE dash_{view} AS SELECT * FROM {view} "
                    "WHERE logbook IN (SELECT id FROM dash_logbooks)")
        con.execute(f"CREATE OR REPLACE TEMP VIEW {view} AS SELECT * FROM dash_{view}")


def _bucket_seconds(con: duckdb.DuckDBPyConnection, points: int) -> float:
    """The narrowest round bucket (1 s ... 1 week) that keeps a series under `points` points."""
    span = con.execute("SELECT max(hours) FROM dash_windows").fetchone()[0] or 0.0
    needed = span * 3600 / points
    return next((float(b) for b in _BUCKETS if b >= needed), needed)


def _totals(con: duckdb.DuckDBPyConnection) -> dict[str, Any]:
    """Entry counts and date span over the chosen logbooks (for the page's scope line)."""
    row = con.execute("SELECT count(*), count(ts), min(ts), max(ts) FROM dash_entries").fetchone()
    return dict(zip(("entries", "dated", "first", "last"), row, strict=True))


def _per_logbook(con: duckdb.DuckDBPyConnection, chosen: list[str]) -> dict[str, dict[str, Any]]:
    """Header counts, top faults, cluster size and checkpoint cost of each chosen logbook.

    Per logbook because unrelated logbooks (other jobs, other clusters) have no common rate:
    pooling them gives an MTBF of no job and a simulator mixing one job's rate with another's GPUs.
    """
    df = _run(con, "per_logbook")
    df = df.astype(object).where(df.notna(), None)  # a NULL size or median is None, not NaN
    rows = {r.pop("logbook"): r for r in df.to_dict(orient="records")}
    return {lb: rows[lb] for lb in chosen}
def _mtbf_inputs(con: duckdb.DuckDBPyConnection, chosen: list[str], by: str) -> pd.DataFrame:
    """The `mtbf_inputs` named query (windows and stop times) for the chosen logbooks."""
    df = con.execute(load_query("mtbf_inputs").sql, {"logbook": None, "by": by}).df()
    return df[df["logbook"].isin(chosen)].reset_index(drop=True)


def _pooled_times(rows: pd.DataFrame, windows: pd.Series) -> tuple[np.ndarray, float]:
    """Failure times of several logbooks laid end to end in one window (the pooled MTBF).

    Logbooks without a window (fewer than two dated times) cannot place a failure in
    time and are left out, as `analyse.mtbf_table` leaves them out.
    """
    windows = windows[windows > 0]
    offsets = windows.cumsum() - windows
    times = [np.asarray(r.failure_hours, dtype=float) + offsets[r.logbook]
             for r in rows.itertuples() if r.logbook in offsets.index]
    return (np.concatenate(times) if times else np.array([])), float(windows.sum())


def _mtbf_by_logbook(stops: pd.DataFrame) -> pd.DataFrame:
    """One MTBF per logbook with a window; `start` places its expected-failures line."""
    rows = [{"logbook": r.logbook, "start": r.window_start,
             **asdict(reliability.mtbf(list(r.failure_hours), r.observed_hours))}
            for r in stops.itertuples() if r.observed_hours > 0]
    return pd.DataFrame(rows)


def _reliability(stops: pd.DataFrame, repairs: pd.DataFrame) -> dict[str, Any]:
    """One logbook's MTBF (None without a dated window) and MTTR, as plain dicts."""
    out: dict[str, Any] = {"mtbf": None, "mttr": asdict(_mttr(repairs["hours"]))}
    window = stops["observed_hours"].sum()
    if window > 0:
        out["mtbf"] = asdict(reliability.mtbf(list(stops["failure_hours"].iloc[0]), window))
    return out


def _mttr(hours: pd.Series) -> reliability.MTTREstimate:
    if len(hours) > MAX_REPAIRS_FOR_CI:
        hours = hours.sample(MAX_REPAIRS_FOR_CI, random_state=0)
    return reliability.mttr(hours.to_numpy(dtype=float))


def _family_stats(by_family: pd.DataFrame, repairs: pd.DataFrame,
                  stops: pd.DataFrame) -> pd.DataFrame:
    """Per fault family: MTBF over all logbooks' windows, MTTR, Weibull shape of the gaps."""
    windows = stops.set_index("logbook")["observed_hours"]
    rows = []
    for family, group in by_family.groupby("family"):
        times, total = _pooled_times(group, windows)
        if total <= 0 or not len(times):
            continue
        est = reliability.mtbf(times, total)
        fit = _weibull(group)
        rep = _mttr(repairs.loc[repairs["family"] == family, "hours"])
        rows.append({
            "family": family, "failures": len(times),
            "mtbf": est.mtbf_hours, "mtbf_low": est.mtbf_ci_low_hours,
            "mtbf_high": est.mtbf_ci_high_hours,
            "mttr": rep.mean_hours, "mttr_low": rep.mean_ci_low_hours,
            "mttr_high": rep.mean_ci_high_hours, "repairs": rep.repairs,
            "shape": fit.shape, "shape_low": fit.shape_ci_low, "shape_high": fit.shape_ci_high,
            "gaps": fit.events,
        })
    if not rows:
        return pd.DataFrame()
    return pd.DataFrame(rows).sort_values("failures", ascending=False, ignore_index=True)


def _weibull(group: pd.DataFrame) -> reliability.WeibullFit:
    """Gaps between one family's stops per logbook; the last gap to the window end is censored.

    Stops at the same time are merged (a zero gap is one event).
    """
    events, censored = [], []
    for r in group.itertuples():
        times = np.unique(np.asarray(r.failure_hours, dtype=float))
        if r.observed_hours <= 0 or not times.size:
            continue
        events += [g for g in np.diff(times, prepend=0.0) if g > 0]
        if r.observed_hours > times[-1]:
            censored.append(r.observed_hours - times[-1])
    return reliability.weibull(events, censored)
