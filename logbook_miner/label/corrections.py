"""A person's review decisions, applied on top of the classifier's labels.

A correction names its entry by (heading, date), not by seq, so it survives
a re-ingest that renumbers entries. It is applied whenever a logbook's labels
are written (ingest, `logbook classify`, `logbook review --apply`), so the
stored labels are always the corrected ones and every view and export sees
them. A correction whose entry is gone (the file changed) is kept, not
applied, and logged as a warning naming it.
"""

from __future__ import annotations

import logging
import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, replace
from datetime import date

from ..models import Entry, Label, LabelledEntry, in_kind_order

ACCEPT, REJECT, REPLACE = "accept", "reject", "replace"
REVIEW_SOURCE = "review"  # the `source` of a label a person added
VERIFIED_CONFIDENCE = 1.0

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Correction:
    """One decision on one code of one entry: accept it, reject it, or replace it."""

    logbook: str
    heading: str
    date: date | None
    kind: str
    code: str
    decision: str  # ACCEPT (also: add a code the classifier missed) | REJECT | REPLACE
    replacement: str | None = None
    evidence: str = ""  # words anchoring an added label, found again in the entry

    @property
    def final_code(self) -> str | None:
        """The code the entry carries after this decision (None: rejected)."""
        return {ACCEPT: self.code, REPLACE: self.replacement}.get(self.decision)

    def describe(self) -> str:
        what = f"{self.code} -> {self.replacement}" if self.decision == REPLACE else self.code
        when = self.date.isoformat() if self.date else "undated"
        return f"{self.logbook} {self.heading!r} ({when}) {self.decision} {what}"


def apply(entries: Iterable[LabelledEntry], corrections: list[Correction]) -> list[LabelledEntry]:
    """The entries with the decisions applied; warns about decisions that match no entry."""
    by_entry: dict[tuple[str, date | None], list[Correction]] = defaultdict(list)
    for c in corrections:
        by_entry[(c.heading, c.date)].append(c)
    out, matched = [], set()
    for le in entries:
        key = (le.entry.heading, le.entry.date)
        if key in by_entry:
            matched.add(key)
            le = replace(le, labels=_correct(le, by_entry[key]))
        out.append(le)
    for key, unmatched in by_entry.items():
        if key not in matched:
            for c in unmatched:
                log.warning("warning: correction not applied, no entry matches it now: %s",
                            c.describe())
    return out


def _correct(le: LabelledEntry, decided: list[Correction]) -> list[Label]:
    labels = {lb.code: lb for lb in le.labels}
    dropped = {c.code: labels.pop(c.code, None) for c in decided if c.decision != ACCEPT}
    for c in decided:
        final = c.final_code
        if final is None:
            continue
        held = labels.get(final)
        if held is not None:
            labels[final] = replace(held, confidence=VERIFIED_CONFIDENCE)
            continue
        anchor = dropped.get(c.code) or _anchor(le, c)
        labels[final] = Label(kind=c.kind, code=final, evidence=anchor.evidence,
                              field=anchor.field, start=anchor.start, end=anchor.end,
                              source=REVIEW_SOURCE, confidence=VERIFIED_CONFIDENCE)
    return in_kind_order(labels.values())


def _anchor(le: LabelledEntry, c: Correction) -> Label:
    """Where an added code stands: the reviewer's evidence words if the entry has them."""
    found = locate(le.entry, c.evidence)
    if found is None:
        return Label(c.kind, c.code, "", "text", 0, 0, "", 0.0)
    field, start, end = found
    return Label(c.kind, c.code, getattr(le.entry, field)[start:end], field, start, end, "", 0.0)


def locate(entry: Entry, words: str) -> tuple[str, int, int] | None:
    """(field, start, end) of `words` in the entry's heading or text, spaces and line breaks
    matching any run of whitespace (a spreadsheet may have rewrapped them); None if absent."""
    if not words.strip():
        return None
    pattern = re.compile(r"\s+".join(map(re.escape, words.split())))
    for field in ("heading", "text"):
        m = pattern.search(getattr(entry, field) or "")
        if m:
            return field, m.start(), m.end()
    return None
