"""Print a result table as text, CSV or JSON: one place, so every command formats alike.

JSON is a list of objects whose keys are the column names (stable snake_case);
timestamps are ISO 8601, lists stay lists, and missing values are null, never
NaN, which JSON cannot carry. A table is a DataFrame or plain `Rows`; the read
commands pass `Rows`, so printing never needs pandas (a quarter second to import).
"""

from __future__ import annotations

import csv
import io
import json
import math
import os
import re
import shutil
import textwrap
from collections.abc import Callable, Sequence
from decimal import Decimal
from typing import TYPE_CHECKING, Any

import click

from ..rows import Rows

if TYPE_CHECKING:
    import pandas as pd

FORMATS = ("table", "csv", "json")
_TABLE_WIDTH = 60  # characters of a cell shown in a table
_WIDE = 8  # columns beyond which a one-row table prints as field/value lines
_DEFAULT_COLUMNS = 120  # the width of a table when the output is not a terminal
_MISSING = "n/a"
# a file's SHA-256: a table shows its first 12 digits, as git shows a commit's
_DIGEST = re.compile(r"[0-9a-f]{64}")
_SHORT_DIGEST = 12


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """"1 entry", "2 entries": a count with its noun in the number it takes."""
    return f"{n:,} {noun if n == 1 else plural or noun + 's'}"


def listed(names: Sequence[str], most: int = 3) -> str:
    """"a, b, c and 2 more": the first few names of a list, and how many it leaves out."""
    shown = ", ".join(names[:most])
    return f"{shown} and {len(names) - most} more" if len(names) > most else shown


def plain(value: Any) -> Any:
    """A cell as a JSON-able Python value."""
    if type(value).__module__.startswith(("numpy", "pandas")):
        return _plain_pandas(value)
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    if isinstance(value, Decimal):  # DuckDB's DECIMAL; pandas read it as a float too
        value = float(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def _plain_pandas(value: Any) -> Any:
    """A numpy or pandas cell (only a DataFrame holds one, so both are loaded)."""
    import numpy as np
    import pandas as pd

    if isinstance(value, np.ndarray):
        return [plain(v) for v in value]
    if value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, pd.Timestamp | np.datetime64):
        return None if pd.isna(value) else pd.Timestamp(value).isoformat()
    if isinstance(value, np.generic):
        return plain(value.item())
    return value.isoformat() if hasattr(value, "isoformat") else value


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(k): plain(v) for k, v in row.items()} for row in df.to_dict("records")]


def _plain_rows(table: pd.DataFrame | Rows) -> tuple[list[str], list[list[Any]]]:
    """Column names and rows of JSON-able values, from a DataFrame or `Rows`."""
    if isinstance(table, Rows):
        return list(table.columns), [[plain(v) for v in row] for row in table.rows]
    return [str(c) for c in table.columns], [list(r.values()) for r in records(table)]


def _objects(columns: list[str], rows: list[list[Any]]) -> list[dict[str, Any]]:
    """JSON's list of objects, keyed by column name."""
    return [dict(zip(columns, row, strict=True)) for row in rows]


def _cells(rows: list[list[Any]], cell: Callable[[Any], Any]) -> list[list[Any]]:
    return [[cell(v) for v in row] for row in rows]


def _csv_cell(value: Any) -> Any:
    return json.dumps(value) if isinstance(value, list) else value


def _table_cell(value: Any) -> str:
    """A cell for reading: 3 significant figures, thousands separated, `n/a` if missing.

    Only tables round; CSV and JSON keep every digit.
    """
    if value is None:
        return _MISSING
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, float):
        return f"{value:,.0f}" if abs(value) >= 1000 else f"{float(f'{value:.3g}'):g}"
    text = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
    text = " ".join(text.split())
    if _DIGEST.fullmatch(text):
        return text[:_SHORT_DIGEST]
    return text if len(text) <= _TABLE_WIDTH else text[: _TABLE_WIDTH - 1] + "…"


def render(table: pd.DataFrame | Rows, fmt: str = "table") -> str:
    """The table as text in `fmt` (table, csv or json)."""
    columns, rows = _plain_rows(table)
    if fmt == "json":
        return json.dumps(_objects(columns, rows), indent=2, ensure_ascii=False)
    if fmt == "csv":
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(columns)
        writer.writerows(_cells(rows, _csv_cell))
        return out.getvalue().rstrip("\n")
    if fmt != "table":
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if not rows or not columns:
        return "(no rows)"
    cells = _cells(rows, _table_cell)
    if len(cells) == 1 and len(columns) > _WIDE:  # one wide record reads better downwards
        columns, cells = ["field", "value"], [list(pair) for pair in zip(columns, cells[0],
                                                                          strict=True)]
    return _fit(columns, cells, terminal_columns())


def terminal_columns() -> int:
    """The terminal's width; $COLUMNS or 120 when the output goes to a file or a pipe."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    return shutil.get_terminal_size((_DEFAULT_COLUMNS, 24)).columns


def _fit(columns: list[str], cells: list[list[str]], width: int) -> str:
    """The table with its last columns left out until it fits `width`, and a note saying so."""
    widths = [max(len(c), *(len(row[i]) for row in cells)) for i, c in enumerate(columns)]
    kept = len(columns)
    while kept > 1 and sum(widths[:kept]) + kept - 1 > width:
        kept -= 1
    dropped = columns[kept:]
    text = "\n".join(_line(line[:kept], widths) for line in [columns, *cells])
    if dropped:
        note = (f"({len(dropped)} more column{'s' * (len(dropped) > 1)}: "
                f"{', '.join(dropped)}; --format csv or json shows every column)")
        text += "\n" + textwrap.fill(note, width)
    return text


def _line(cells: Sequence[str], widths: list[int]) -> str:
    """One line of the table, each cell right-aligned in its column (as pandas prints)."""
    return " ".join(cell.rjust(w) for cell, w in zip(cells, widths, strict=False))


def emit(table: pd.DataFrame | Rows, fmt: str = "table") -> None:
    click.echo(render(table, fmt))


_SHOWN = ("date", "time", "timezone", "author", "run_id", "page_start", "page_end",
          "date_inferred", "chronology_anomaly")


def show_entry(view: Any, as_json: bool = False) -> str:
    """One entry as `logbook show` prints it: heading, the facts about it, then its text."""
    entry = {key: plain(value) for key, value in view.entry.items()}
    if as_json:
        return json.dumps(entry | {"labels": _objects(*_plain_rows(view.labels)),
                                   "metrics": _objects(*_plain_rows(view.metrics))},
                          indent=2, ensure_ascii=False)
    facts = [f"{key}: {entry[key]}" for key in _SHOWN if entry.get(key) not in (None, False)]
    flags = {"date_inferred": "year inferred from neighbours",
             "chronology_anomaly": "date breaks the logbook's order (likely a typo)"}
    facts = [flags.get(f.split(":")[0], f) for f in facts]
    header = f"{entry['logbook']} #{entry['seq']}: {entry['heading']}"
    return "\n".join([header, *(f"  {fact}" for fact in facts), "", entry["text"]])
