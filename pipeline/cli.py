"""The `logbook` command: parse options, call the stage functions, print.

Every command is a thin shell over a function importable from `pipeline`,
so anything the CLI does a script can do too. Failures print one line
(`error: ...`) and exit non-zero: 1 for bad input, 2 for a busy database.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable

import click
from tqdm import tqdm

from . import __version__
from .store import StoreLocked, default_db

EXIT_BAD_INPUT = 1
EXIT_LOCKED = 2

db_option = click.option(
    "--db", type=click.Path(dir_okay=False), default=None,
    help="DuckDB file (default: $LOGBOOK_DB or ./logbook.duckdb).",
)


def fail_cleanly(command: Callable) -> Callable:
    """Turn expected failures into one line on stderr and an exit status, never a traceback."""
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        try:
            return command(*args, **kwargs)
        except StoreLocked as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_LOCKED)
        except (FileNotFoundError, ValueError) as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(EXIT_BAD_INPUT)
    return wrapper


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="logbook")
def main() -> None:
    """Mine training logbooks into an incident dataset and reliability analytics."""


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path())
@db_option
@click.option("--name", help="Logbook id (default: the file stem).")
@click.option("--timezone", help="Zone for times written without one, e.g. ET or Europe/Paris.")
@click.option("--as-one", "as_one", metavar="NAME",
              help="Merge all files (e.g. a folder of daily notes) into one logbook NAME.")
@click.option("--force", is_flag=True, help="Re-ingest even if the file is unchanged.")
@fail_cleanly
def ingest(paths, db, name, timezone, as_one, force) -> None:
    """Read logbook files (PDF, Markdown, text) into the database."""
    from .ingest import ingest as run_ingest

    def progress(items):
        return tqdm(items, total=len(paths) if not as_one else 1, unit="file",
                    file=sys.stderr, disable=None, leave=False)

    results = run_ingest(paths, db=db or default_db(), name=name, timezone=timezone,
                         as_one=as_one, force=force, progress=progress)
    for result in results:
        click.echo(result.summary(), err=result.status == "error")
    if not results:
        click.echo("error: no supported files (.pdf, .md, .txt) found", err=True)
    if not results or any(r.status == "error" for r in results):
        sys.exit(EXIT_BAD_INPUT)


@main.command()
@db_option
@click.option("--out", required=True, type=click.Path(file_okay=False), help="Output folder.")
@click.option("--format", "fmt", type=click.Choice(["jsonl", "csv", "parquet"]), default="jsonl",
              show_default=True)
@click.option("--logbook", "logbooks", multiple=True, help="Only this logbook (repeatable).")
@fail_cleanly
def export(db, out, fmt, logbooks) -> None:
    """Write the entries and logbooks tables (and more) as files."""
    from .export import export as run_export

    written = run_export(out, db=db, fmt=fmt, logbooks=logbooks or None)
    for table, path in written.items():
        click.echo(f"{table}: {path}")


if __name__ == "__main__":
    main(prog_name="logbook")
