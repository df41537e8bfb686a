"""`Store`: one logbook database, with a method per `logbook` command.

In the spirit of sqlite-utils' `Database`: open it once on a path, then call
what the CLI calls, with the same names (`ingest`, `classify`, `query`, `sql`,
`mtbf`, `simulate`, `export`, `review`, `dashboard`, `eval`, `logbooks`, `show`,
`search`, `forget`). The CLI is this
class plus flag handling and wording.

Each call opens the connection it needs and closes it: DuckDB lets one process
write or many read, and `sql` runs on a read-only connection with external
access off, which cannot share a file with a writable one in the same process.
A Store kept open therefore never locks out another reader or the one writer.
The stages' modules load inside the methods, so `import logbook_miner` stays fast.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .analytics.browse import SEARCH_LIMIT
from .errors import ArgumentError
from .store import default_db

if TYPE_CHECKING:
    import pandas as pd

    from .analytics.browse import EntryView
    from .analytics.cost import CostEstimate
    from .ingest import IngestResult, Progress
    from .label.review import Applied
    from .rows import Rows


class Store:
    """A logbook database (default: `$LOGBOOK_DB` or `./logbook.duckdb`)."""

    def __init__(self, path: str | Path | None = None) -> None:
        self.path = Path(path if path is not None else default_db())

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    def ingest(self, paths: Iterable[str | Path], *, name: str | None = None,
               timezone: str | None = None, as_one: str | None = None, force: bool = False,
               label: bool = True, workers: int | None = None, pdf_backend: str | None = None,
               follow_links: bool = False, dayfirst: bool | None = None,
               progress: Progress | None = None) -> list[IngestResult]:
        """Read files into the store, one transaction per logbook; `label=False` skips spaCy.

        `dayfirst` says whether 04/03/2024 is 4 March (default: as each logbook's own dates
        say). `progress` hears of each page of a PDF read in this process and, as each file
        is done, of its final result (`Progress.file_done(result)`, in logbook_miner.ingest).
        """
        from .ingest import ingest, no_labels
        from .read import DEFAULT_PDF_BACKEND

        return ingest(paths, db=self.path, name=name, timezone=timezone, as_one=as_one,
                      classify=None if label else no_labels, force=force, progress=progress,
                      workers=workers, pdf_backend=pdf_backend or DEFAULT_PDF_BACKEND,
                      follow_links=follow_links, dayfirst=dayfirst)

    def classify(self, logbooks: Sequence[str] | None = None) -> dict[str, int]:
        """Relabel stored entries with the current rules; entries relabelled per logbook."""
        from .label.relabel import relabel

        return relabel(self.path, logbooks)

    def query(self, name: str, params: Mapping[str, Any] | None = None, *,
              as_rows: bool = False) -> pd.DataFrame | Rows:
        """Run the named query `queries/NAME.sql`; unset parameters take their defaults.

        `as_rows` (here and in `sql`, `mtbf`, `logbooks`, `show`, `search`) gives plain
        `Rows` instead of DataFrames: no pandas, for a fast CLI.
        """
        from .analytics.analyse import query_rows, run_query

        return (query_rows if as_rows else run_query)(name, params, db=self.path)

    def sql(self, statement: str, limit: int | None = None, timeout: float | None = None,
            memory_limit: str | None = None, *, as_rows: bool = False) -> pd.DataFrame | Rows:
        """One read-only SELECT over the tables and views, bounded in time and memory.

        `as_rows` gives plain `Rows` instead of a DataFrame: no pandas, for a fast CLI.
        """
        from .analytics.analyse import sql, sql_rows

        bounds = {"timeout": timeout, "memory_limit": memory_limit}
        return (sql_rows if as_rows else sql)(
            statement, db=self.path, limit=limit,
            **{k: v for k, v in bounds.items() if v is not None})

    def mtbf(self, logbook: str | None = None, by: str | None = None,
             confidence: float = 0.95, *, as_rows: bool = False) -> pd.DataFrame | Rows:
        """Mean time between failures per logbook (or per fault family), with its interval."""
        from .analytics.mtbf import mtbf_rows, mtbf_table

        return (mtbf_rows if as_rows else mtbf_table)(self.path, logbook=logbook, by=by,
                                                       confidence=confidence)

    def simulate(self, usd_per_gpu_hour: float | None = None,
                 checkpoint_minutes: float | None = None, *, gpus: int | None = None,
                 mtbf_hours: float | None = None,
                 mttr_hours: float | None = None, checkpoint_cost_seconds: float | None = None,
                 days: float | None = None, runs: int = 0, seed: int = 0,
                 from_logbook: str | None = None) -> CostEstimate:
        """What failures cost; unset inputs come from `from_logbook` or stated assumptions."""
        from .analytics.simulate import simulate

        return simulate(usd_per_gpu_hour=usd_per_gpu_hour, checkpoint_minutes=checkpoint_minutes,
                        gpus=gpus, mtbf_hours=mtbf_hours, mttr_hours=mttr_hours,
                        checkpoint_cost_seconds=checkpoint_cost_seconds, days=days, runs=runs,
                        seed=seed, from_logbook=from_logbook, db=self.path)

    def export(self, out: str | Path, fmt: str = "jsonl", logbooks: Sequence[str] | None = None,
               partition_by: str | None = None,
               on_remove: Callable[[Path], None] | None = None) -> dict[str, Path]:
        """Write the dataset (one file per table, datapackage.json, card); paths by table.
        An earlier export's files in OUT that this one does not rewrite are removed, each
        told to `on_remove`."""
        from .dataset.export import export

        return export(out, db=self.path, fmt=fmt, logbooks=logbooks, partition_by=partition_by,
                      on_remove=on_remove)

    def review(self, out: str | Path | None = None, *, apply: str | Path | None = None,
               below: float | None = None, logbook: str | None = None) -> int | Applied:
        """Write what a person should check to `out` (rows written), or `apply` an edited CSV.

        `out` gets the candidates `query("needs_review")` shows per entry, a row per label.
        """
        from .label.review import apply_review, write_review

        if (out is None) == (apply is None):
            raise ArgumentError("review: give exactly one of `out` or `apply`")
        if apply is not None:
            return apply_review(apply, db=self.path)
        return write_review(out, db=self.path, logbook=logbook, below=below)

    def dashboard(self, out: str | Path = "dashboard", logbooks: Sequence[str] | None = None,
                  images: bool = True) -> Path:
        """Write the offline dashboard page (and each chart as PNG and SVG); its path."""
        from .present.dashboard import build

        return build(self.path, out, logbooks, images=images)

    def eval(self, gold: str | Path, logbooks: Sequence[str] | None = None) -> dict:
        """Score the stored entries and labels against gold (the figures of eval/score.py)."""
        from .evaluate import score_store

        return score_store(gold, self.path, logbooks)

    def logbooks(self, *, as_rows: bool = False) -> pd.DataFrame | Rows:
        """What is stored: one row per logbook with its file, hash, entries and date span."""
        from .analytics.browse import logbooks

        return logbooks(self.path, as_rows)

    def show(self, logbook: str, seq: int, *, as_rows: bool = False) -> EntryView:
        """One entry with its labels (and their evidence), metrics, pages and date flags."""
        from .analytics.browse import show

        return show(self.path, logbook, seq, as_rows)

    def search(self, text: str, *, code: str | None = None, logbook: str | None = None,
               since: str | None = None, until: str | None = None,
               limit: int = SEARCH_LIMIT, as_rows: bool = False) -> pd.DataFrame | Rows:
        """Entries ranked for `text`, with snippets; filtered by code, logbook and dates."""
        from .analytics.browse import search

        return search(self.path, text, code=code, logbook=logbook, since=since, until=until,
                      limit=limit, as_rows=as_rows)

    def forget(self, logbook: str, *, with_corrections: bool = False) -> None:
        """Remove a logbook in one transaction; review decisions stay unless asked."""
        from .store import connect, forget_logbook, not_stored

        with connect(self.path, create=False) as con:
            if not forget_logbook(con, logbook, with_corrections):
                raise ValueError(not_stored([logbook]))
