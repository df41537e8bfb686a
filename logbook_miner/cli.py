"""The `logbook` command: parse options, call `Store(db).command(...)`, print.

Every command that works on a database is the `Store` method of the same name
(`logbook_miner.api`), so anything the CLI does a script can do too. Failures print one line
(`error: ...`) and exit non-zero: 1 for bad input, 2 for a busy database.
"""

from __future__ import annotations

import functools
import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

import click

from . import __version__
from .analytics.analyse import DEFAULT_MEMORY_LIMIT, DEFAULT_TIMEOUT
from .analytics.browse import SEARCH_LIMIT
from .api import Store
from .errors import ArgumentError
from .present.cli_output import FORMATS, counted, listed
from .store import StoreError, StoreLocked

if TYPE_CHECKING:
    from .analytics.analyse import Query
    from .ingest import IngestResult

EXIT_BAD_INPUT = 1
EXIT_LOCKED = 2
EXIT_INTERRUPTED = 130  # as a shell reports Ctrl-C

def _database(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not value.strip():
        raise click.BadParameter("is empty; give a file, or leave --db out for the default")
    return value


def _one_logbook(ctx: click.Context, param: click.Parameter, given: tuple[str, ...]) -> str | None:
    """A repeated --logbook on a command that reads one: refused, not the last kept quietly."""
    if len(given) > 1:
        raise click.BadParameter(f"takes one logbook here, not {len(given)} "
                                 f"({', '.join(given)})")
    return given[0] if given else None


one_logbook_option = click.option("--logbook", multiple=True, callback=_one_logbook,
                                  help="Only this logbook.")
db_option = click.option(
    "--db", type=click.Path(dir_okay=False), default=None, callback=_database,
    help="DuckDB file (default: $LOGBOOK_DB or ./logbook.duckdb).",
)


def examples(*commands: str) -> str:
    """A command's --help epilog: real invocations, kept as written (click's \\b)."""
    return "\b\nExamples:\n" + "\n".join(f"  $ {c}" for c in commands)


class _Group(click.Group):
    """click's group, with a usage error exiting 1 like any bad input.

    click exits 2 on a usage error, which this CLI gives to "database in use, try
    again": a script that retries on 2 would loop forever on a typo.
    """

    def main(self, *args: object, **kwargs: object) -> object:
        try:
            return super().main(*args, standalone_mode=False, **kwargs)
        except click.exceptions.Abort:
            click.echo("Aborted!", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except click.ClickException as exc:
            exc.show()
            sys.exit(EXIT_BAD_INPUT)


def _flag(argument: re.Match) -> str:
    return "--" + argument[1].replace("_", "-")


def fail_cleanly(command: Callable) -> Callable:
    """Turn expected failures into one line on stderr and an exit status, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except StoreLocked as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_LOCKED)
        except ArgumentError as exc:  # the API names `arguments`; here they are --flags
            click.echo("error: " + re.sub(r"`(\w+)`", _flag, str(exc)), err=True)
            sys.exit(EXIT_BAD_INPUT)
        except (StoreError, ValueError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except BrokenPipeError:  # `logbook ... | head` stopped reading: not an error
            _stop_writing(sys.stdout)
            sys.exit(0)
        except OSError as exc:  # the environment said no (a read-only folder): not a bug
            where = f"{exc.filename}: " if exc.filename else ""
            click.echo(f"error: {where}{exc.strerror or exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
        except KeyboardInterrupt:
            click.echo("error: interrupted (logbooks already stored are kept)", err=True)
            sys.exit(EXIT_INTERRUPTED)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise
        except Exception as exc:  # a bug: still one line, naming it; LOGBOOK_DEBUG=1 re-raises
            if os.environ.get("LOGBOOK_DEBUG"):
                raise
            message = " ".join(str(exc).split())[:200]
            click.echo(f"error: unexpected {type(exc).__name__}: {message} "
                       "(a bug: LOGBOOK_DEBUG=1 shows the traceback)", err=True)
            sys.exit(EXIT_BAD_INPUT)
    return wrapper


def _stop_writing(stream: TextIO) -> None:
    """A pipe closed by its reader (`| head`): what is still to be written goes nowhere,
    so that neither a later write nor Python's exit flush raises BrokenPipeError."""
    os.dup2(os.open(os.devnull, os.O_WRONLY), stream.fileno())


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="logbook")
def main() -> None:
    """Mine training logbooks into an incident dataset and reliability analytics."""


@main.command(epilog=examples(
    "logbook ingest notes.pdf --timezone ET",
    "logbook ingest daily-notes/ --as-one run-42 --db ops.duckdb"))
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@db_option
@click.option("--name", help="Logbook id (default: the file stem).")
@click.option("--timezone", help="Zone for times written without one, e.g. ET or Europe/Paris.")
@click.option("--dates", "date_order", type=click.Choice(["day-first", "month-first"]),
              help="How to read 04/03/2024 (default: as the logbook's other dates say, "
                   "13/03 day first; month first if none says).")
@click.option("--as-one", "as_one", metavar="NAME",
              help="Merge all files (e.g. a folder of daily notes) into one logbook NAME.")
@click.option("--force", is_flag=True,
              help="Re-ingest even if the file is unchanged, and ingest a folder's file even "
                   "if its text repeats another logbook of the batch (x.md and x.docx).")
@click.option("--no-label", "no_label", is_flag=True,
              help="Store entries without labels or metrics (no spaCy; fast). "
                   "Label them later with `logbook classify`.")
@click.option("--workers", type=click.IntRange(min=1), default=None,
              help="Processes parsing files in parallel (default: one per core).")
@click.option("--pdf-backend", "pdf_backend", type=click.Choice(["pdfium", "pdfplumber"]),
              default="pdfium", show_default=True,
              help="PDF text layer: pdfium (fast) or pdfplumber (the reference).")
@click.option("--follow-links", is_flag=True,
              help="Read links in a folder that point outside it (skipped by default).")
@click.option("--quiet", "-q", is_flag=True,
              help="No progress bars (they appear only when stderr is a terminal).")
@fail_cleanly
def ingest(paths, db, name, timezone, date_order, as_one, force, no_label, workers, pdf_backend,
           follow_links, quiet) -> None:
    """Read logbook files (PDF, Markdown, text, Org, DOCX, HTML) into the database."""
    with _Bars(quiet) as bars:
        results = Store(db).ingest(paths, name=name, timezone=timezone, as_one=as_one,
                                   force=force, label=not no_label, workers=workers,
                                   pdf_backend=pdf_backend, follow_links=follow_links,
                                   dayfirst=_DAY_FIRST.get(date_order), progress=bars)
    # (each result's line was printed as it was done: _Bars.file_done)
    read = [r for r in results if r.status != "skipped"]
    if not read:
        from .read import SUPPORTED_SUFFIXES

        click.echo(f"error: {', '.join(paths)}: no supported files "
                   f"({', '.join(SUPPORTED_SUFFIXES)})", err=True)
    if not read or any(r.status == "error" for r in read):
        sys.exit(EXIT_BAD_INPUT)


_DAY_FIRST = {"day-first": True, "month-first": False}  # --dates; unset: as the logbook says


class _Bars:
    """Ingest progress on stderr: files of the batch, and pages of the PDF being read.

    tqdm draws only when stderr is a terminal (disable=None), so pipes and logs stay clean.
    """

    def __init__(self, quiet: bool) -> None:
        from tqdm import tqdm

        self._tqdm = functools.partial(tqdm, file=sys.stderr, disable=True if quiet else None,
                             leave=False, dynamic_ncols=True)
        self._write = tqdm.write
        self._files: Any = None
        self._pages: Any = None

    def __enter__(self) -> _Bars:
        return self

    def __exit__(self, *exc: object) -> None:
        for bar in (self._pages, self._files):
            if bar is not None:
                bar.close()

    def start(self, files: int) -> None:
        self._files = self._tqdm(total=files, unit="file", desc="logbooks", position=0)

    def page(self, read: int, total: int) -> None:
        if read == 1 or self._pages is None:
            if self._pages is not None:
                self._pages.close()
            self._pages = self._tqdm(total=total, unit="page", desc="reading", position=1)
        self._pages.update(read - self._pages.n)
        if read == total:
            self._pages.set_description("processing")  # segment, label, store

    def file_done(self, result: IngestResult) -> None:
        """Say how a file went as soon as it is stored (a long batch stopped halfway shows
        what it kept), above the bars; problems go to stderr."""
        if self._pages is not None:
            self._pages.close()
            self._pages = None
        if result.status != "skipped":
            self._files.update()
        stream = sys.stderr if result.status in ("error", "duplicate") else sys.stdout
        try:
            self._write(result.summary(), file=stream)
            stream.flush()  # a pipe or a CI log sees each line when it is true, not at the end
        except BrokenPipeError:  # `| head` stopped reading: the batch goes on, unheard
            _stop_writing(stream)


@main.command(epilog=examples(
    "logbook export --out dataset --format parquet --partition-by logbook"))
@db_option
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv", "parquet"]), default="jsonl",
              show_default=True)
@click.option("--logbook", "logbooks", multiple=True, help="Only this logbook (repeatable).")
@click.option("--partition-by", type=click.Choice(["logbook"]),
              help="One folder per table, split hive-style (TABLE/logbook=ID/...).")
@fail_cleanly
def export(db, out, fmt, logbooks, partition_by) -> None:
    """Write the dataset: one file per table, datapackage.json and a README.md card."""
    removed: list[Path] = []
    written = Store(db).export(out, fmt=fmt, logbooks=logbooks or None,
                               partition_by=partition_by, on_remove=removed.append)
    for table, path in written.items():
        click.echo(f"{table}: {path}")
    if removed:
        names = [path.relative_to(out).as_posix() for path in removed]
        click.echo(f"removed the earlier export's {counted(len(names), 'file')}: "
                   f"{listed(names)}")


format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="table",
    show_default=True, help="table to read; csv or json (list of objects) for tools.",
)


def _key_values(pairs: tuple[str, ...]) -> dict[str, str]:
    """`--param k=v` pairs as a dict."""
    out = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"--param {pair!r}: write it as NAME=VALUE")
        if key.strip() in out:
            raise ValueError(f"--param {key.strip()} is given twice; a parameter takes one value")
        out[key.strip()] = value
    return out


def _declared(query: Query) -> str:
    """A query's parameters as `logbook query --list` shows them: "logbook, by=all|family"."""
    return ", ".join(f"{k}={'|'.join(map(str, query.choices[k]))}" if k in query.choices
                     else k if v is None else f"{k}={v}" for k, v in query.params.items())


@main.command(epilog=examples(
    "logbook query --list",
    "logbook query incidents -p logbook=bloom-tr11-176b --format csv"))
@click.argument("name", required=False)
@click.option("--param", "-p", "params", multiple=True, metavar="K=V",
              help="A query parameter (repeatable); see --list for each query's.")
@click.option("--list", "list_only", is_flag=True, help="List the named queries and exit.")
@db_option
@format_option
@fail_cleanly
def query(name, params, list_only, db, fmt) -> None:
    """Run a named query from queries/NAME.sql (the analyses behind the dashboards)."""
    from .analytics.analyse import list_queries, load_query
    from .present.cli_output import emit
    from .rows import Rows

    if list_only or not name:
        rows = [(n, d, _declared(load_query(n))) for n, d in list_queries()]
        emit(Rows(["name", "description", "params"], rows, len(rows)), fmt)
        return
    emit(Store(db).query(name, _key_values(params), as_rows=True), fmt)


@main.command("sql", epilog=examples(
    'logbook sql "SELECT logbook, count(*) FROM entries GROUP BY ALL"'))
@click.argument("statement")
@db_option
@format_option
@click.option("--limit", type=click.IntRange(min=0), default=None,
              help="Print at most N rows (default: 1000 in a table, all in csv/json); "
                   "the rest are counted.")
@click.option("--timeout", type=click.FloatRange(min=0, min_open=True), default=DEFAULT_TIMEOUT,
              show_default=True, help="Stop the query after this many seconds.")
@click.option("--memory-limit", default=DEFAULT_MEMORY_LIMIT, show_default=True,
              help="DuckDB's memory limit for the query.")
@fail_cleanly
def sql_command(statement, db, fmt, limit, timeout, memory_limit) -> None:
    """Run one read-only SELECT on the store and its views; writes, files and SET are refused.

    Rows stream from DuckDB, so a huge result costs time, not memory; Ctrl-C stops
    the query at once.
    """
    from .present.cli_output import emit

    if limit is None and fmt == "table":
        limit = 1000
    result = Store(db).sql(statement, limit=limit, timeout=timeout, memory_limit=memory_limit,
                           as_rows=True)
    hidden = result.total - len(result.rows)
    if fmt == "table" and hidden and not result.rows:  # --limit 0: a count, not "(no rows)"
        click.echo(f"({counted(hidden, 'row')}, none shown; --limit N shows them)", err=True)
        return
    emit(result, fmt)
    if hidden:
        click.echo(f"({hidden:,} more rows not shown; --limit N shows more)", err=True)


@main.command(epilog=examples("logbook mtbf --logbook bloom-tr11-176b --by family"))
@db_option
@one_logbook_option
@click.option("--by", type=click.Choice(["family"]), help="One row per fault family.")
@click.option("--confidence", type=float, default=0.95, show_default=True,
              help="Two-sided level of the interval, between 0 and 1.")
@format_option
@fail_cleanly
def mtbf(db, logbook, by, confidence, fmt) -> None:
    """Mean time between failures per logbook, with its chi-square interval.

    Beside the estimate from dated entries, `reported_*` is the rate the notes state
    ("40+ restarts since Nov 17"); a table ends with a note where the two disagree.

    \b
    Example:
      logbook mtbf --by family --format csv
    """
    import textwrap

    from .present.cli_output import emit, terminal_columns

    table = Store(db).mtbf(logbook=logbook, by=by, confidence=confidence, as_rows=True)
    emit(table, fmt)
    for row in table.dicts() if fmt == "table" else ():
        if row["note"] is not None:
            note = row["logbook"] + (f" ({row['family']})" if by else "") + f": {row['note']}"
            click.echo(textwrap.fill(note, terminal_columns(), subsequent_indent="  "))


@main.command(epilog=examples(
    "logbook simulate --from-logbook bloom-tr11-176b --usd-per-gpu-hour 2 "
    "--checkpoint-minutes 180"))
@click.option("--gpus", type=int,
              help="GPUs in the job (default: the logbook's, else assumed as "
                   "data/cost_assumptions.yaml says).")
@click.option("--usd-per-gpu-hour", type=float,
              help="Price of a GPU-hour (with --from-logbook: assumed when not given, as "
                   "data/cost_assumptions.yaml says).")
@click.option("--mtbf-hours", type=float, help="Job MTBF (default: the logbook's).")
@click.option("--mttr-hours", type=float, help="Mean time to repair (default: the logbook's).")
@click.option("--checkpoint-minutes", type=float,
              help="Compute time between checkpoints (with --from-logbook: assumed as "
                   "data/cost_assumptions.yaml says).")
@click.option("--checkpoint-cost-seconds", type=float,
              help="Time to write one checkpoint (default: the logbook's).")
@click.option("--days", type=float,
              help="Campaign length (default: data/cost_assumptions.yaml's, 30).")
@click.option("--runs", type=int, default=0, show_default=True, help="Monte Carlo runs.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the Monte Carlo runs (the same seed gives the same figures).")
@click.option("--from-logbook", metavar="ID", help="Take unset inputs from this logbook.")
@db_option
@format_option
@fail_cleanly
def simulate(gpus, usd_per_gpu_hour, mtbf_hours, mttr_hours, checkpoint_minutes,
             checkpoint_cost_seconds, days, runs, seed, from_logbook, db, fmt) -> None:
    """What failures and checkpoints cost: downtime, goodput, dollars (Young/Daly interval).

    With --from-logbook, every input not given is what that logbook measured (the MTBF
    the notes report, when the entries undercount), else an assumption; a table marks
    each input's source.

    \b
    Example:
      logbook simulate --from-logbook bloom-tr11-176b
    """
    from dataclasses import asdict

    import pandas as pd

    from .present.cli_output import emit

    estimate = Store(db).simulate(
        usd_per_gpu_hour, checkpoint_minutes, gpus=gpus, mtbf_hours=mtbf_hours,
        mttr_hours=mttr_hours, checkpoint_cost_seconds=checkpoint_cost_seconds, days=days,
        runs=runs, seed=seed, from_logbook=from_logbook)
    fields = asdict(estimate)
    if fmt == "table":  # each input says where it came from; Monte Carlo rows only if run
        sources = fields.pop("sources") or {}
        fields = {(f"{k} ({sources[k]})" if k in sources else k): v for k, v in fields.items()
                  if not (k.startswith("mc_") and v is None)}
    emit(pd.DataFrame([fields]), fmt)


@main.command("eval", epilog=examples("logbook eval --gold ../shared/gold"))
@db_option
@click.option("--gold", required=True, type=click.Path(exists=True),
              help="Gold .jsonl file or a folder of them (TAXONOMY.md format).")
@click.option("--logbook", "logbooks", multiple=True, help="Only this logbook (repeatable).")
@click.option("--format", "fmt", type=click.Choice(["table", "json"]), default="table",
              show_default=True, help="table to read; json (one object) for tools.")
@click.option("--json", "as_json", is_flag=True,
              help="Same as --format json (the flag of ../shared/eval/score.py).")
@fail_cleanly
def evaluate(db, gold, logbooks, fmt, as_json) -> None:
    """Score stored entries and labels against gold (the figures of eval/score.py)."""
    import json

    from .evaluate import format_report

    report = Store(db).eval(gold, logbooks or None)
    as_json = as_json or fmt == "json"
    click.echo(json.dumps(report, indent=1) if as_json else format_report(report))


@main.command(epilog=examples("logbook generate --out synth --style markdown --seed 3 --days 60"))
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the simulated run: the same seed writes the same logbook.")
@click.option("--style", type=click.Choice(["opt", "markdown", "daily"]), default="opt",
              show_default=True, help="OPT-like PDF, Markdown chronicle, or daily reports.")
@click.option("--days", type=int, default=30, show_default=True,
              help="Days of training the logbook covers.")
@click.option("--nodes", type=int, default=128, show_default=True,
              help="Nodes of the simulated cluster.")
@click.option("--mtbf-hours", type=float, default=24.0, show_default=True,
              help="True cluster MTBF of the simulated run.")
@click.option("--pages", type=int, help="Grow the document to about this many pages.")
@fail_cleanly
def generate(out, seed, style, days, nodes, mtbf_hours, pages) -> None:
    """Simulate a training run and write its logbook with truth.jsonl beside it."""
    from .generate import generate as run_generate

    made = run_generate(Path(out), seed=seed, style=style, days=days, nodes=nodes,
                        mtbf_hours=mtbf_hours, pages=pages)
    hint = f" --as-one {made.logbook}" if style == "daily" else f" --name {made.logbook}"
    click.echo(f"{made.logbook}: {counted(len(made.rows), 'entry', 'entries')}, "
               f"{counted(made.pages, 'page')}, {counted(made.days, 'day')}")
    click.echo(f"document: {made.document}\ntruth: {made.truth}")
    click.echo(f"next: logbook ingest {made.document}{hint}")


@main.command(epilog=examples("logbook classify --logbook bloom-tr11-176b"))
@db_option
@click.option("--logbook", "logbooks", multiple=True, help="Only this logbook (repeatable).")
@fail_cleanly
def classify(db, logbooks) -> None:
    """Relabel stored entries with the current taxonomy (review decisions still apply)."""
    for logbook, entries in Store(db).classify(logbooks or None).items():
        click.echo(f"{logbook}: {counted(entries, 'entry', 'entries')} relabelled")


@main.command(epilog=examples(
    "logbook review --out review.csv",
    "logbook review --apply review.csv"))
@db_option
@click.option("--out", type=click.Path(dir_okay=False), help="Write the review CSV here.")
@click.option("--apply", "apply_path", type=click.Path(exists=True, dir_okay=False),
              help="Store the decisions of an edited review CSV.")
@click.option("--below-confidence", "below", type=float,
              help="List labels below this confidence (default: the review_below_confidence "
                   "setting).")
@one_logbook_option
@fail_cleanly
def review(db, out, apply_path, below, logbook) -> None:
    """List what a person should check (--out), or apply a person's decisions (--apply).

    --out writes the candidates that `logbook query needs_review` shows per entry, one row
    per label (or unlabelled entry), leaving out what a person already decided.
    """
    if bool(out) == bool(apply_path):
        raise click.UsageError("give one of --out FILE or --apply FILE")
    if apply_path:
        click.echo(Store(db).review(apply=apply_path).summary())
    else:
        rows = Store(db).review(out, below=below, logbook=logbook)
        click.echo(f"{counted(rows, 'row')} -> {out}")


@main.command(epilog=examples("logbook dashboard --out dashboard && xdg-open dashboard/index.html"))
@db_option
@click.option("--out", default="dashboard", show_default=True, type=click.Path(file_okay=False),
              help="Folder for index.html and charts/*.png|svg.")
@click.option("--logbook", "logbooks", multiple=True, help="Only this logbook (repeatable).")
@click.option("--no-images", is_flag=True, help="Skip the PNG/SVG files (about half the time).")
@fail_cleanly
def dashboard(db, out, logbooks, no_images) -> None:
    """Write one offline HTML dashboard, plus every chart as PNG and SVG."""
    click.echo(Store(db).dashboard(out, logbooks or None, images=not no_images))


@main.command(epilog=examples("logbook demo --out /tmp/logbook-demo"))
@click.option("--out", type=click.Path(file_okay=False), default="logbook-demo",
              show_default=True, help="Folder for the demo database and dashboard.")
@fail_cleanly
def demo(out) -> None:
    """Run the whole pipeline on generated sample logbooks and summarise what it found."""
    from .demo import run_demo

    result = run_demo(out)
    for ingested in result.ingested:
        click.echo(ingested.summary(), err=ingested.status == "error")
    click.echo("\n".join(result.summary))
    click.echo(f"database: {result.db}\ndashboard: {result.dashboard}")


@main.command(epilog=examples("logbook logbooks --db logbook.duckdb"))
@db_option
@format_option
@fail_cleanly
def logbooks(db, fmt) -> None:
    """List the stored logbooks: source file, hash, entries, labels and date span."""
    from .present.cli_output import emit

    emit(Store(db).logbooks(as_rows=True), fmt)


@main.command(epilog=examples("logbook show bloom-tr11-176b 5"))
@click.argument("logbook")
@click.argument("seq", type=int)
@db_option
@click.option("--format", "fmt", type=click.Choice(["text", "json"]), default="text",
              show_default=True, help="text to read, json for tools.")
@fail_cleanly
def show(logbook, seq, db, fmt) -> None:
    """Show entry SEQ of LOGBOOK: the note, its labels with evidence, metrics, pages, flags."""
    from .present.cli_output import render, show_entry

    view = Store(db).show(logbook, seq, as_rows=True)
    if fmt == "json":
        click.echo(show_entry(view, as_json=True))
    else:
        click.echo(show_entry(view))
        for title, table in (("labels", view.labels), ("metrics", view.metrics)):
            if table.rows:  # an empty section is not printed
                click.echo(f"\n{title}:\n{render(table, 'table')}")


@main.command(epilog=examples(
    "logbook search 'ECC error' --code hardware.memory --since 2021-11-01"))
@click.argument("text")
@db_option
@click.option("--code", help="Only entries labelled with this taxonomy code.")
@one_logbook_option
@click.option("--since", help="Only entries dated on or after this day (YYYY-MM-DD).")
@click.option("--until", help="Only entries dated on or before this day (YYYY-MM-DD).")
@click.option("--limit", type=click.IntRange(min=1), default=SEARCH_LIMIT, show_default=True,
              help="Most entries to show, best first.")
@format_option
@fail_cleanly
def search(text, db, code, logbook, since, until, limit, fmt) -> None:
    """Find entries by their words, best first (BM25), with a snippet around the match."""
    from .present.cli_output import emit

    emit(Store(db).search(text, code=code, logbook=logbook, since=since, until=until,
                          limit=limit, as_rows=True), fmt)


@main.command(epilog=examples("logbook forget opt-175b-10_percent_update"))
@click.argument("logbook")
@db_option
@click.option("--with-corrections", is_flag=True,
              help="Also drop the review decisions made on it (kept by default).")
@fail_cleanly
def forget(logbook, db, with_corrections) -> None:
    """Remove LOGBOOK and everything mined from it, in one transaction."""
    Store(db).forget(logbook, with_corrections=with_corrections)
    kept = "" if with_corrections else "; its review decisions are kept"
    click.echo(f"forgot {logbook}{kept}")


if __name__ == "__main__":
    main(prog_name="logbook")
