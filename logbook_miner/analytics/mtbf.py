"""MTBF per logbook (or fault family) from dated stops, beside what the notes report.

The dated stops and windows come from `queries/mtbf_inputs.sql`, the rates the notes state
from `queries/reported_rates.sql`; `reliability` owns the statistics.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import asdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..rows import Rows
from .analyse import QueryError, bind, first_rows, load_query, require_logbook, session

if TYPE_CHECKING:  # pandas and scipy load on first use
    import pandas as pd

    from .reliability import MTBFEstimate

_MTBF_FIELDS = ("mtbf_hours", "mtbf_ci_low_hours", "mtbf_ci_high_hours")


def _scaled(estimate: MTBFEstimate, per: str, units: Any) -> dict[str, Any]:
    """MTBF of one node or GPU (None when the cluster size is unknown)."""
    scale = estimate.per_node if per == "node" else estimate.per_gpu
    scaled = None if _missing(units) else scale(int(units))
    return {f"{per}_{field}": getattr(scaled, field, None) for field in _MTBF_FIELDS}


def mtbf_table(db: str | Path | None = None, logbook: str | None = None, by: str | None = None,
               confidence: float = 0.95,
               settings: Mapping[str, float] | None = None) -> pd.DataFrame:
    """MTBF with its chi-square interval per logbook (and per family with by="family").

    The window runs from the logbook's first to its last dated entry and ends at no
    failure (time-terminated); failures are incidents, so entries about one stop count
    once. Per-node and per-GPU figures appear when the cluster size is known.
    """
    import pandas as pd

    table = pd.DataFrame(_mtbf_records(db, logbook, by, confidence, settings))
    # counts as integers; the cluster's size is there only when the logbook states it
    table = table.astype({column: "Int64" for column in ("failures", "nodes", "gpus")
                          if column in table.columns})
    return table[_mtbf_columns(table.columns)]


def mtbf_rows(db: str | Path | None = None, logbook: str | None = None, by: str | None = None,
              confidence: float = 0.95) -> Rows:
    """`mtbf_table` as plain rows, for printing without pandas."""
    records = _mtbf_records(db, logbook, by, confidence)
    columns = _mtbf_columns(dict.fromkeys(key for record in records for key in record))
    return Rows(columns, [tuple(r.get(c) for c in columns) for r in records], len(records))


def _mtbf_columns(columns: Iterable[str]) -> list[str]:
    """What a reader compares on the left, then the rest in the order they came."""
    first = [c for c in _FIRST if c in columns]
    return first + [c for c in columns if c not in first]


def _mtbf_records(db: str | Path | None, logbook: str | None, by: str | None,
                  confidence: float, settings: Mapping[str, float] | None = None) -> list[dict]:
    """One dict per row of the MTBF table (a key absent where a figure does not apply)."""
    from . import reliability

    if by not in (None, "family"):
        raise QueryError(f"by must be 'family' or nothing, not {by!r}")
    query, rates_query = load_query("mtbf_inputs"), load_query("reported_rates")
    params = {"logbook": logbook, "by": by or "all"}
    with session(db, settings) as con:
        require_logbook(con, logbook)
        inputs = first_rows(con, query.sql, None, bind(query, params)).dicts()
        reported = {(r["logbook"], r["family"]): r for r in first_rows(
            con, rates_query.sql, None, bind(rates_query, params)).dicts()}
    rows = []
    for row in inputs:
        head = {"logbook": row["logbook"], "family": row["family"]}
        stated = _reported(reported.pop((row["logbook"], row["family"]), None))
        if row["observed_hours"] <= 0:
            rows.append(head | {"failures": row["failures"],
                                "observed_hours": row["observed_hours"]}
                        | stated | {"note": _disagreement(row["failures"], None, stated)
                                    or "fewer than two dated times: no observation window"})
            continue
        est = reliability.mtbf(row["failure_hours"], row["observed_hours"], confidence)
        fields = {k: v for k, v in asdict(est).items() if k not in ("per", "units")}
        rows.append(head | fields | stated
                    | {"nodes": _int(row["nodes"])} | _scaled(est, "node", row["nodes"])
                    | {"gpus": _int(row["gpus"])} | _scaled(est, "gpu", row["gpus"])
                    | {"window_start": row["window_start"], "window_end": row["window_end"],
                       "note": _disagreement(row["failures"], est.mtbf_hours, stated)})
    for (name, family), only_stated in sorted(reported.items()):  # no dated stop at all
        stated = _reported(only_stated)
        rows.append({"logbook": name, "family": family, "failures": 0} | stated
                    | {"note": _disagreement(0, None, stated)})
    return rows


_FIRST = ("logbook", "family", "failures", "observed_hours", "mtbf_hours", "mtbf_ci_low_hours",
          "mtbf_ci_high_hours", "reported_mtbf_hours", "note")
_REPORTED = ("reported_events", "reported_bound", "reported_hours", "reported_mtbf_hours",
             "reported_code", "reported_evidence", "reported_from", "reported_to")


def _reported(row: dict | None) -> dict[str, Any]:
    """The failure rate the notes state (queries/reported_rates.sql), or nulls."""
    return {key: (row or {}).get(key) for key in _REPORTED}


UNDERCOUNT_FACTOR = 2.0  # entries showing stops this much rarer than the notes say: recaps


def trusted_mtbf(entry_based: float | None, reported: float | None) -> tuple[float | None, str]:
    """The MTBF to reason with, and its source: `measured` from entries, or `reported`.

    Recap notes ("40+ restarts since Nov 17") count what no entry reports one by one; when
    the entries show stops UNDERCOUNT_FACTOR times rarer than the notes report them, the
    entry-based MTBF is only an upper bound and the notes' own rate is the better figure.
    """
    if reported is not None and (entry_based is None
                                 or entry_based > UNDERCOUNT_FACTOR * reported):
        return reported, "reported"
    return entry_based, "measured"


def reported_events(stated: dict) -> str:
    """'40+ restarts', '~2 hardware.node failures': what the notes count, as they bound it."""
    bound = {">=": "", "~": "~", "=": ""}[stated["reported_bound"]]
    plus = "+" if stated["reported_bound"] == ">=" else ""
    what = "restarts" if stated["reported_code"] == "restart" else (
        f"{stated['reported_code']} failures")
    return f"{bound}{stated['reported_events']:g}{plus} {what}"


def _disagreement(failures: int, mtbf_hours: float | None, stated: dict) -> str | None:
    """A sentence when the notes report failures much more often than the entries show them."""
    if trusted_mtbf(mtbf_hours, stated["reported_mtbf_hours"])[1] != "reported":
        return None
    events = reported_events(stated)
    when = (f"from {stated['reported_from']} to {stated['reported_to']}"
            if stated["reported_from"] else f"in {stated['reported_hours']:g} h")
    said = " ".join(stated["reported_evidence"].split())[:80]  # one line, as a PDF wrapped it
    return (f"entries show {failures} stops; the notes report {events} {when} "
            f"(\"{said}\"): the entry-based MTBF is an upper bound")


def _int(value: Any) -> int | None:
    return None if _missing(value) else int(value)


def _missing(value: Any) -> bool:
    """None, NaN, NaT or pandas' NA, without importing pandas: each is unequal to itself
    (NA's comparison gives NA, whose truth value raises)."""
    if value is None:
        return True
    try:
        return bool(value != value)
    except TypeError:
        return True
