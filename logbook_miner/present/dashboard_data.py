"""What the dashboard shows, aggregated in DuckDB and summarised by `reliability`.

Built on the analysis views (`events`, `incidents`, `runs`,
`intervention_outcomes`) and the named query `mtbf_inputs`, so the page and
`logbook mtbf` / `logbook simulate` count failures the same way. Every frame is
small by construction (capped or bucketed in SQL) because it ends up inside
the page as JSON. The SQL lives in `queries/dashboard/`, one question a file, each
taking the chosen logbooks as `$logbooks`; the files that create tables (the
chosen logbooks' views, entries, windows, markers) run first, in the order their
`-- reads:` headers give.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import duckdb
import numpy as np
import pandas as pd

from .. import sqlfiles
from ..analytics import reliability
from ..analytics.analyse import load_query
from ..resources import QUERIES
from ..store import choose_logbooks, connect, default_db

DASHBOARD_QUERIES = QUERIES / "dashboard"
# the mined metrics the training panel draws, with their panel titles
METRIC_PANELS = {
    "lm_loss": "LM loss", "grad_norm": "Gradient norm", "tflops": "TFLOPS per GPU",
    "samples_per_second": "Samples per second", "words_per_second": "Words per second",
}
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
    families: pd.DataFrame  # per logbook and family: no frame below sums logbooks
    outcomes: pd.DataFrame  # per logbook, intervention code and verdict
    outcome_hours: float
    fault_mix: pd.DataFrame  # per logbook, week and family
    pareto: pd.DataFrame  # per logbook and fault code
    metrics: pd.DataFrame
    ledger: pd.DataFrame


def load(db: str | Path | None = None, logbooks: Sequence[str] | None = None,
         limits: Limits | None = None) -> DashboardData:
    """Query the store once, read-only, and summarise it for the dashboard."""
    limits = limits or Limits()
    with connect(db or default_db(), read_only=True) as con:
        chosen = choose_logbooks(con, logbooks)
        params = {"logbooks": chosen, "markers": limits.markers, "rows": limits.ledger,
                  "note_chars": limits.note_chars, "metric_names": list(METRIC_PANELS)}
        sqlfiles.build(con, DASHBOARD_QUERIES, params)
        extent = _one(con, "extent", params)
        series = max(1, len(chosen))  # one line per logbook (and per metric or kind)
        params["bucket_seconds"] = _bucket_seconds(extent.pop("longest_window_hours"),
                                                   limits.points // series)
        stops = _mtbf_inputs(con, chosen, "all")
        mtbf = _mtbf_per_logbook(stops)
        by_family = _mtbf_inputs(con, chosen, "family")
        reported = _reported(con)
        repairs = _run(con, "repairs", params)
        data = DashboardData(
            logbooks=chosen,
            totals=extent,
            per_logbook=_per_logbook(con, params),
            markers=_run(con, "markers", params),
            runs=_run(con, "runs", params),
            cumulative=_run(con, "cumulative", params),
            mtbf_by_logbook=_mtbf_by_logbook(stops, mtbf),
            families=_family_stats(by_family, repairs),
            outcomes=_run(con, "outcomes", params),
            outcome_hours=dict(sqlfiles.run(con, "session/settings").fetchall())[
                "outcome_window_hours"],
            fault_mix=_run(con, "fault_mix", params),
            pareto=_run(con, "fault_pareto", params),
            metrics=_run(con, "metrics", params),
            ledger=_run(con, "ledger", params),
        )
    for logbook, figures in data.per_logbook.items():
        figures.update(_reliability(mtbf.get(logbook), repairs[repairs["logbook"] == logbook]))
        figures["reported"] = reported.get(logbook)
    return data


def _reported(con: duckdb.DuckDBPyConnection) -> dict[str, dict[str, Any]]:
    """Per logbook, the failure rate its notes state (`reported_rates`), where they state one."""
    query = load_query("reported_rates")
    cursor = con.execute(query.sql, {"logbook": None, "by": "all"})
    names = [d[0] for d in cursor.description]
    return {row["logbook"]: row for row in (dict(zip(names, r, strict=True))
                                            for r in cursor.fetchall())}


def _run(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any]) -> pd.DataFrame:
    """The rows of `queries/dashboard/NAME.sql` as a frame."""
    return sqlfiles.run(con, DASHBOARD_QUERIES / f"{name}.sql", params).df()


def _one(con: duckdb.DuckDBPyConnection, name: str, params: dict[str, Any]) -> dict[str, Any]:
    """The one row of `queries/dashboard/NAME.sql` as plain values (None, not NaN or NaT)."""
    cursor = sqlfiles.run(con, DASHBOARD_QUERIES / f"{name}.sql", params)
    return dict(zip((d[0] for d in cursor.description), cursor.fetchone(), strict=True))


def _bucket_seconds(span_hours: float, points: int) -> float:
    """The narrowest round bucket (1 s ... 1 week) that keeps a series under `points` points."""
    needed = span_hours * 3600 / points
    return next((float(b) for b in _BUCKETS if b >= needed), needed)


def _per_logbook(con: duckdb.DuckDBPyConnection,
                 params: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Header counts, top faults, cluster size and checkpoint cost of each chosen logbook.

    Per logbook because unrelated logbooks (other jobs, other clusters) have no common rate:
    pooling them gives an MTBF of no job and a simulator mixing one job's rate with another's GPUs.
    """
    df = _run(con, "per_logbook", params)
    df = df.astype(object).where(df.notna(), None)  # a NULL size or median is None, not NaN
    rows = {r.pop("logbook"): r for r in df.to_dict(orient="records")}
    return {lb: rows[lb] for lb in params["logbooks"]}


def _mtbf_inputs(con: duckdb.DuckDBPyConnection, chosen: list[str], by: str) -> pd.DataFrame:
    """The `mtbf_inputs` named query (windows and stop times) for the chosen logbooks."""
    df = con.execute(load_query("mtbf_inputs").sql, {"logbook": None, "by": by}).df()
    return df[df["logbook"].isin(chosen)].reset_index(drop=True)


def _mtbf_per_logbook(stops: pd.DataFrame) -> dict[str, dict[str, Any]]:
    """The MTBF of each logbook with a dated window (one row of `stops` each), as a plain
    dict: the header shows it, and the cumulative chart draws its expected-failures line."""
    return {r.logbook: asdict(reliability.mtbf(list(r.failure_hours), r.observed_hours))
            for r in stops.itertuples() if r.observed_hours > 0}


def _mtbf_by_logbook(stops: pd.DataFrame, mtbf: dict[str, dict[str, Any]]) -> pd.DataFrame:
    """One row per logbook with an MTBF; `start` places its expected-failures line."""
    return pd.DataFrame([{"logbook": r.logbook, "start": r.window_start, **mtbf[r.logbook]}
                         for r in stops.itertuples() if r.logbook in mtbf])


def _reliability(mtbf: dict[str, Any] | None, repairs: pd.DataFrame) -> dict[str, Any]:
    """One logbook's MTBF (None without a dated window) and MTTR, as plain dicts."""
    return {"mtbf": mtbf, "mttr": asdict(_mttr(repairs["hours"])),
            "stated_repairs": int((repairs["source"] == "stated").sum())}


def _mttr(hours: pd.Series) -> reliability.MTTREstimate:
    if len(hours) > MAX_REPAIRS_FOR_CI:
        hours = hours.sample(MAX_REPAIRS_FOR_CI, random_state=0)
    return reliability.mttr(hours.to_numpy(dtype=float))


def _family_stats(by_family: pd.DataFrame, repairs: pd.DataFrame) -> pd.DataFrame:
    """Per logbook and fault family: MTBF over the logbook's window, MTTR, Weibull shape of
    the gaps. Never pooled across logbooks: unrelated jobs share no failure rate."""
    rows = []
    for r in by_family.itertuples():
        if r.observed_hours <= 0 or not r.failures:
            continue
        est = reliability.mtbf(list(r.failure_hours), r.observed_hours)
        fit = _weibull(r.failure_hours, r.observed_hours)
        rep = _mttr(repairs.loc[(repairs["logbook"] == r.logbook)
                                & (repairs["family"] == r.family), "hours"])
        rows.append({
            "logbook": r.logbook, "family": r.family, "failures": r.failures,
            "mtbf": est.mtbf_hours, "mtbf_low": est.mtbf_ci_low_hours,
            "mtbf_high": est.mtbf_ci_high_hours,
            "mttr": rep.mean_hours, "mttr_low": rep.mean_ci_low_hours,
            "mttr_high": rep.mean_ci_high_hours, "repairs": rep.repairs,
            "shape": fit.shape, "shape_low": fit.shape_ci_low, "shape_high": fit.shape_ci_high,
            "gaps": fit.events,
        })
    if not rows:
        return pd.DataFrame()
    return pd.DataFrame(rows).sort_values(["logbook", "failures"], ascending=[True, False],
                                          kind="stable", ignore_index=True)


def _weibull(failure_hours: list[float], observed_hours: float) -> reliability.WeibullFit:
    """Gaps between one family's stops in one logbook; the last gap, to the window's end, is
    censored. Stops at the same time are merged (a zero gap is one event)."""
    times = np.unique(np.asarray(failure_hours, dtype=float))
    events = [g for g in np.diff(times, prepend=0.0) if g > 0]
    censored = [observed_hours - times[-1]] if observed_hours > times[-1] else []
    return reliability.weibull(events, censored)
