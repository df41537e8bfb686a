"""`logbook demo`: the whole pipeline in one command, on logbooks the generator wrote.

The samples in `data/samples/` are synthetic (`python -m logbook_miner.generate.samples`
regenerates them), so a fresh install shows every stage without finding a
logbook first: ingest, classify, analyse, dashboard.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from .analytics import analyse, mtbf
from .ingest import IngestResult, ingest
from .present.dashboard import build as build_dashboard
from .resources import DATA, QUERIES

SAMPLES = DATA / "samples"
SAMPLE_DOCUMENTS = ("*.pdf", "*.md")
DEMO_QUERIES = QUERIES / "demo"


@dataclass(slots=True)
class DemoResult:
    db: Path
    dashboard: Path
    ingested: list[IngestResult]
    summary: list[str]


def sample_documents() -> list[Path]:
    """The generated sample logbooks shipped in data/samples/ (one per style folder)."""
    return sorted(p for folder in sorted(SAMPLES.iterdir()) if folder.is_dir()
                  for pattern in SAMPLE_DOCUMENTS for p in folder.glob(pattern))


def run_demo(out: str | Path) -> DemoResult:
    """Ingest the samples into a fresh `OUT/demo.duckdb`, build `OUT/dashboard/` (the page,
    without the PNG and SVG copies of its charts: half the build), summarise."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    db = out / "demo.duckdb"
    for stale in (db, db.with_suffix(".duckdb.wal")):
        stale.unlink(missing_ok=True)
    ingested = ingest(sample_documents(), db=db, timezone="ET")
    page = build_dashboard(db, out / "dashboard", images=False)  # the page shows every chart
    return DemoResult(db, page, ingested, summarise(db))


def summarise(db: Path) -> list[str]:
    """Five lines: entries, restarts and failures, MTBF with CI, top faults, top interventions."""
    counts = analyse.run(DEMO_QUERIES / "counts.sql", db=db).iloc[0]
    faults = analyse.run(DEMO_QUERIES / "top_faults.sql", db=db)
    outcomes = analyse.run_query("intervention_outcomes", db=db).head(3)
    return [
        f"entries: {counts.entries} in {counts.logbooks} logbooks ({counts.dated} dated)",
        f"restarts: {counts.restarts}; failures: {counts.stops} stops",
        "MTBF: " + "; ".join(_mtbf_line(row) for row in
                             mtbf.mtbf_table(db).itertuples(index=False)),
        "top faults: " + ", ".join(f"{r.code} ({r.n})" for r in faults.itertuples()),
        "top interventions: " + ", ".join(
            f"{r.code} ({r.interventions}: held {r.held}, recurred {r.recurred}, "
            f"censored {r.censored})" for r in outcomes.itertuples()),
    ]


def _mtbf_line(row) -> str:
    if pd.isna(getattr(row, "mtbf_hours", None)):
        return f"{row.logbook} no failures in {row.observed_hours:.0f} h"
    return (f"{row.logbook} {row.mtbf_hours:.1f} h (95% CI {row.mtbf_ci_low_hours:.1f}–"
            f"{row.mtbf_ci_high_hours:.1f} h, {row.failures} failures)")
