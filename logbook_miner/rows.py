"""`Rows`: a query result as plain tuples, so the read commands never import pandas.

pandas costs a quarter of a second to import; `logbook sql "SELECT 1"` is
meant to answer about as fast as DuckDB itself, so the CLI formats these rows
directly, and only the Python API turns them into DataFrames.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import pandas as pd


@dataclass(frozen=True, slots=True)
class Rows:
    """Column names, the rows kept, and how many rows the result had in all."""

    columns: list[str]
    rows: list[tuple[Any, ...]]
    total: int

    def dicts(self) -> list[dict[str, Any]]:
        """The rows as dicts keyed by column name."""
        return [dict(zip(self.columns, row, strict=True)) for row in self.rows]

    def frame(self) -> pd.DataFrame:
        """The rows as a DataFrame; `frame.attrs["rows"]` is the total."""
        import pandas as pd

        frame = pd.DataFrame.from_records(self.rows, columns=self.columns)
        frame.attrs["rows"] = self.total
        return frame
