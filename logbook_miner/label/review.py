"""Human review: the labels worth a look go out as a CSV, a person's decisions come back.

`write_review` writes what a person should check (the `review_candidates` macro,
queries/views/review_candidates.sql, which `logbook query needs_review` shows per
entry too): low-confidence labels, the labels of entries whose date is out of
order or whose year was inferred, and entries with no label, each with its
evidence and an empty `decision` column; what a person already decided stays
out. In `decision` a person writes `accept`, `reject`,
or a replacement code; on a row without a code (or a row they add, with a
code), a code or `add` adds that code. `apply_review` validates every row
before storing any, stores the decisions (store.corrections) and relabels
the logbooks concerned in the same transaction, so the decisions take effect
at once, or (on an error or Ctrl-C) not at all.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

from .. import sqlfiles
from ..models import Classify, Entry
from ..present.cli_output import counted
from ..store import (
    choose_logbooks,
    connect,
    default_db,
    load_entries,
    save_corrections,
    transaction,
)
from . import corrections as cx
from .relabel import relabel_stored
from .taxonomy import code_kinds, unknown_code

if TYPE_CHECKING:
    import duckdb

_ADD = ("accept", "add")
_ADDED = "add"  # an accepted code the entry did not carry: one a person added
_DONE = {cx.ACCEPT: "accepted", _ADDED: "added", cx.REJECT: "rejected", cx.REPLACE: "replaced"}


@dataclass(slots=True)
class Applied:
    """What `apply_review` stored: decisions by kind (accept, add, reject, replace), and the
    logbooks relabelled."""

    decisions: dict[str, int]
    logbooks: list[str]
    already_stored: int = 0  # decisions of the file stored before, as they are

    def summary(self) -> str:
        """What was done, in words: "accepted 1, added 1, rejected 2; relabelled ops"."""
        counts = ", ".join(f"{_DONE[d]} {n}" for d, n in sorted(self.decisions.items()))
        if self.already_stored:
            counts = ", ".join(filter(None, [counts, f"{self.already_stored} already stored"]))
        return f"{counts or 'no decisions'}; relabelled {', '.join(self.logbooks) or 'nothing'}"


def write_review(out: str | Path, db: str | Path | None = None, below: float | None = None,
                 logbook: str | None = None) -> int:
    """Write the review CSV; return its number of rows.

    The rows are `logbook query needs_review`'s candidates, one per label (or unlabelled
    entry); labels under `below` count as low confidence (default: the
    review_below_confidence setting).
    """
    with connect(db or default_db(), read_only=True) as con:
        _refuse_decisions_in(con, Path(out))
        choose_logbooks(con, [logbook] if logbook else None)  # a name not stored is an error
        cursor = sqlfiles.run(con, "review/candidates", {"below": below, "logbook": logbook})
        header = [d[0] for d in cursor.description]
        rows = cursor.fetchall()
    with Path(out).open("w", newline="", encoding="utf-8") as fh:
        writer = csv.writer(fh)
        writer.writerow(header)
        writer.writerows(["" if v is None else v for v in row] for row in rows)
    return len(rows)


def _refuse_decisions_in(con: duckdb.DuckDBPyConnection, out: Path) -> None:
    """Refuse to write over a file that may hold a person's decisions not yet stored: a slip
    of the shell's history would lose them. A review whose decisions are all applied, or an
    empty file, may go."""
    if not out.is_file() or out.stat().st_size == 0:
        return
    try:
        waiting = _not_stored(con, _decisions(con, _read_decisions(out), out))
    except ValueError as exc:  # saved with ';', not UTF-8, a bad row: still someone's work
        raise ValueError(f"{out}: exists and cannot be read as an applied review "
                         f"({str(exc).removeprefix(f'{out}: ')}); write the review elsewhere "
                         "or remove the file") from None
    if waiting:
        raise ValueError(f"{out}: holds {counted(len(waiting), 'decision')} not applied; apply "
                         f"them first (`logbook review --apply {out}`) or write the review "
                         "elsewhere")


def _not_stored(con: duckdb.DuckDBPyConnection,
                chosen: list[cx.Correction]) -> list[cx.Correction]:
    """The decisions not in the store as they are (a decision stored before is left alone)."""
    stored = {cx.Correction(*row) for logbook in {c.logbook for c in chosen}
              for row in sqlfiles.run(con, "store/corrections", {"logbook": logbook}).fetchall()}
    return [c for c in chosen if c not in stored]


def apply_review(path: str | Path, db: str | Path | None = None,
                 classify: Classify | None = None) -> Applied:
    """Store the decisions of a review CSV and relabel; refuse the whole file on a bad row.

    Decisions stored before, as they are, are left alone (their date too): applying a
    file twice changes nothing the second time.
    """
    rows = _read_decisions(Path(path))
    with connect(db or default_db(), create=False) as con:
        chosen = _decisions(con, rows, path)
        new = _not_stored(con, chosen)
        logbooks = sorted({c.logbook for c in new})
        labelled = {(logbook, *row) for logbook in logbooks for row in sqlfiles.run(
            con, "review/labelled", {"logbook": logbook}).fetchall()}
        with transaction(con):  # an error or Ctrl-C in the relabel keeps the decisions out too
            save_corrections(con, new)
            if logbooks:  # an empty list would mean every logbook to relabel_stored
                relabel_stored(con, logbooks, classify)
    counts = Counter(_ADDED if c.decision == cx.ACCEPT and (
        c.logbook, c.heading, c.date, c.code) not in labelled else c.decision for c in new)
    return Applied(dict(counts), logbooks, len(chosen) - len(new))


def _decisions(con: duckdb.DuckDBPyConnection, rows: list[dict],
               path: str | Path) -> list[cx.Correction]:
    """The rows' decisions, one per label decided on; a bad row is a ValueError naming it."""
    kinds = code_kinds()
    entries: dict[str, list[Entry]] = {}
    decided: dict[tuple, tuple[int, cx.Correction]] = {}
    for number, row in enumerate(rows, start=2):  # row 1 is the header, as in a spreadsheet
        logbook = (row.get("logbook") or "").strip()
        if logbook not in entries:
            entries[logbook] = load_entries(con, logbook)
        correction = _decide(row, f"{path}: row {number}", entries[logbook], kinds)
        if correction:
            _once(decided, number, correction, path)
    return [correction for _, correction in decided.values()]


def _once(decided: dict[tuple, tuple[int, cx.Correction]], number: int,
          correction: cx.Correction, path: str | Path) -> None:
    """Keep one decision per label; two rows deciding it differently refuse the file."""
    key = (correction.logbook, correction.heading, correction.date, correction.kind,
           correction.code)
    if key in decided and (decided[key][1].decision, decided[key][1].replacement) != (
            correction.decision, correction.replacement):
        first = decided[key][0]
        raise ValueError(f"{path}: rows {first} and {number} decide {correction.code} of "
                         f"{correction.heading!r} differently; keep one")
    decided.setdefault(key, (number, correction))


_NEEDED = ("logbook", "code", "decision")
_WHERE = (("seq",), ("heading", "date"))  # either names the entry


def _read_decisions(path: Path) -> list[dict]:
    """The CSV's rows, once its encoding, delimiter and header are known to be right.

    Checked before anything is stored: a file that is empty, not UTF-8, split by ';'
    or missing a column would otherwise apply nothing and say so quietly.
    """
    try:
        text = path.read_text(encoding="utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{path}: not UTF-8 text (byte {exc.start}); save the CSV as UTF-8")\
            from None
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise ValueError(f"{path}: empty; expected the CSV that `logbook review --out` writes")
    header = next(csv.reader([lines[0]]))
    if len(header) == 1 and any(sep in lines[0] for sep in ";\t|"):
        sep = next(sep for sep in ";\t|" if sep in lines[0])
        raise ValueError(f"{path}: columns are separated by {sep!r}; write the CSV with commas")
    missing = [c for c in _NEEDED if c not in header]
    if not any(all(c in header for c in way) for way in _WHERE):
        missing.append("seq (or heading and date)")
    if missing:
        raise ValueError(f"{path}: missing column(s) {', '.join(missing)}; "
                         "expected the header that `logbook review --out` writes")
    return list(csv.DictReader(io.StringIO(text, newline="")))  # a quoted field may span lines


def _decide(row: dict, where: str, entries: list[Entry],
            kinds: dict[str, str]) -> cx.Correction | None:
    """One CSV row -> a Correction (None: no decision), or ValueError naming the row."""
    decision = (row.get("decision") or "").strip()
    if not decision:
        return None
    code = (row.get("code") or "").strip()
    entry = _entry(row, where, entries)
    verb = decision.lower()
    if verb in (*_ADD, "reject") or code:
        _known(code, where, kinds, "code")
    if verb not in (*_ADD, "reject"):
        _known(decision, where, kinds, "decision")
    if verb in _ADD or decision == code:
        verb, target = cx.ACCEPT, code
    elif verb == "reject":
        verb, target = cx.REJECT, code
    elif not code:
        verb, target = cx.ACCEPT, decision
    else:
        if kinds[decision] != kinds[code]:
            raise ValueError(f"{where}: {decision} is an {kinds[decision]} code and {code} a "
                             f"{kinds[code]} code; reject one and add the other")
        verb, target = cx.REPLACE, code
    evidence = row.get("evidence") or ""
    if verb != cx.REJECT and evidence.strip() and cx.locate(entry, evidence) is None:
        raise ValueError(f"{where}: evidence {evidence!r} is not in entry {entry.seq}'s heading "
                         "or text; copy words from it, or leave evidence empty")
    return cx.Correction(
        logbook=(row.get("logbook") or "").strip(), heading=entry.heading, date=entry.date,
        kind=kinds[target], code=target, decision=verb,
        replacement=decision if verb == cx.REPLACE else None,
        evidence=evidence)


def _known(code: str, where: str, kinds: dict[str, str], column: str) -> None:
    if not code:
        raise ValueError(f"{where}: this decision needs a code in the `code` column")
    if code not in kinds:
        raise ValueError(f"{where}: {unknown_code(code)} in `{column}` (use accept, reject "
                         "or a code)")


def _entry(row: dict, where: str, entries: list[Entry]) -> Entry:
    """The row's entry: by heading and date when given (they survive re-ingest), else by seq."""
    if not entries:
        raise ValueError(f"{where}: no logbook {row.get('logbook')!r} in the database")
    heading = (row.get("heading") or "").strip()
    if heading:
        when = _date(row.get("date"), where)
        for entry in entries:
            if entry.heading.strip() == heading and entry.date == when:
                return entry
        raise ValueError(f"{where}: no entry headed {heading!r} dated {when or 'none'}")
    seq = (row.get("seq") or "").strip()
    for entry in entries:
        if str(entry.seq) == seq:
            return entry
    raise ValueError(f"{where}: no entry with seq {seq!r} (give seq, or heading and date)")


def _date(text: str | None, where: str) -> date | None:
    try:
        return date.fromisoformat(text.strip()) if text and text.strip() else None
    except ValueError:
        raise ValueError(f"{where}: date {text!r} is not YYYY-MM-DD") from None
