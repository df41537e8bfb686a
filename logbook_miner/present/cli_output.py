"""Print a result table as text, CSV or JSON: one place, so every command formats alike.

JSON is a list of objects whose keys are the column names (stable snake_case);
timestamps are ISO 8601, lists stay lists, and missing values are null, never
NaN, which JSON cannot carry.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import textwrap
from collections.abc import Callable
from typing import Any

import click
import numpy as np
import pandas as pd

FORMATS = ("table", "csv", "json")
_TABLE_WIDTH = 60  # characters of a cell shown in a table
_WIDE = 8  # columns beyond which a one-row table prints as field/value lines
_DEFAULT_COLUMNS = 120  # the width of a table when the output is not a terminal
_MISSING = "n/a"

format_option = click.option(
    "--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
    help="table for reading, csv or json for tools.",
)


def plain(value: Any) -> Any:
    """A cell as a JSON-able Python value."""
    if isinstance(value, np.ndarray | list | tuple):
        return [plain(v) for v in value]
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, pd.Timestamp | np.datetime64):
        return None if pd.isna(value) else pd.Timestamp(value).isoformat()
    if isinstance(value, np.generic):
        value = value.item()
    if hasattr(value, "isoformat"):
        return value.isoformat()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    return value


def records(df: pd.DataFrame) -> list[dict[str, Any]]:
    return [{str(k): plain(v) for k, v in row.items()} for row in df.to_dict("records")]


def _cells(df: pd.DataFrame, cell: Callable[[Any], Any]) -> pd.DataFrame:
    rows = [[cell(v) for v in row.values()] for row in records(df)]
    return pd.DataFrame(rows, columns=df.columns, dtype=object)  # no re-inferred int -> float


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
    return text if len(text) <= _TABLE_WIDTH else text[: _TABLE_WIDTH - 1] + "…"


def render(df: pd.DataFrame, fmt: str = "table") -> str:
    """The frame as text in `fmt` (table, csv or json)."""
    if fmt == "json":
        return json.dumps(records(df), indent=2, ensure_ascii=False)
    if fmt == "csv":
        return _cells(df, _csv_cell).to_csv(index=False).rstrip("\n")
    if fmt != "table":
        raise ValueError(f"unknown format {fmt!r}; choose one of {', '.join(FORMATS)}")
    if df.empty:
        return "(no rows)"
    cells = _cells(df, _table_cell)
    if len(cells) == 1 and len(cells.columns) > _WIDE:  # one wide record reads better downwards
        cells = pd.DataFrame({"field": cells.columns, "value": cells.iloc[0].to_numpy()})
    return _fit(cells, terminal_columns())


def terminal_columns() -> int:
    """The terminal's width; $COLUMNS or 120 when the output goes to a file or a pipe."""
    if os.environ.get("COLUMNS", "").isdigit():
        return int(os.environ["COLUMNS"])
    return shutil.get_terminal_size((_DEFAULT_COLUMNS, 24)).columns


def _fit(cells: pd.DataFrame, width: int) -> str:
    """The table with its last columns left out until it fits `width`, and a note saying so."""
    text = cells.to_string(index=False)
    dropped: list[str] = []
    while len(cells.columns) > 1 and max(map(len, text.splitlines())) > width:
        dropped.insert(0, str(cells.columns[-1]))
        cells = cells.iloc[:, :-1]
        text = cells.to_string(index=False)
    if dropped:
        note = (f"({len(dropped)} more column{'s' * (len(dropped) > 1)}: "
                f"{', '.join(dropped)}; --format csv or json shows every column)")
        text += "\n" + textwrap.fill(note, width)
    return text


def emit(df: pd.DataFrame, fmt: str = "table") -> None:
    click.echo(render(df, fmt))


_SHOWN = ("date", "time", "timezone", "author", "run_id", "page_start", "page_end",
          "date_inferred", "chronology_anomaly")


def show_entry(view: Any, as_json: bool = False) -> str:
    """One entry as `logbook show` prints it: heading, the facts about it, then its text."""
    entry = {key: plain(value) for key, value in view.entry.items()}
    if as_json:
        return json.dumps(entry | {"labels": records(view.labels),
                                   "metrics": records(view.metrics)},
                          indent=2, ensure_ascii=False)
    facts = [f"{key}: {entry[key]}" for key in _SHOWN if entry.get(key) not in (None, False)]
    flags = {"date_inferred": "year inferred from neighbours",
             "chronology_anomaly": "date breaks the logbook's order (likely a typo)"}
    facts = [flags.get(f.split(":")[0], f) for f in facts]
    header = f"{entry['logbook']} #{entry['seq']}: {entry['heading']}"
    return "\n".join([header, *(f"  {fact}" for fact in facts), "", entry["text"]])
