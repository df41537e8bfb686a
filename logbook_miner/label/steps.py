"""Whether a resume goes back before the trouble (TAXONOMY rule 6), by the steps the entry names.

"Loss went to NaN at 21,060; restarted from the step-18,000 checkpoint" goes back to before
the bad stretch: a rollback. "Drained the node, resumed from 268000" after a spike told at
238k does not. A cue whose rule names `before_trouble` codes counts only when the step it
names is earlier than a step told in the sentence of a cue of one of those codes.
"""

from __future__ import annotations

import re

from ..models import Entry
from .cues import Cue

# a step: "21,060", "18000", "245k", "step-18,000" (not a share, a time or a version)
_STEP = re.compile(r"(?<![\w.:/])(\d{1,3}(?:,\d{3})+|\d{3,}|\d+(?:\.\d+)?k)(?![\w%:/]|\.\d)",
                   re.IGNORECASE)


def steps_in(text: str) -> list[float]:
    """The steps named in `text`, in order: "21,060" -> 21060, "245k" -> 245000."""
    found = []
    for match in _STEP.finditer(text):
        step = match[1].replace(",", "").lower()
        found.append(float(step[:-1]) * 1000 if step.endswith("k") else float(step))
    return found


def kept_before_trouble(cues: list[Cue], entry: Entry) -> list[Cue]:
    """The entry's cues less those whose rule asks `before_trouble` and whose step is not
    earlier than the latest step told with that trouble."""
    latest: dict[frozenset[str], float | None] = {}
    kept = []
    for cue in cues:
        codes = cue.rule.before_trouble
        if codes:
            if codes not in latest:
                latest[codes] = _latest_step(cues, entry, codes)
            resumed = steps_in(cue.label.evidence)
            if not resumed or latest[codes] is None or resumed[0] >= latest[codes]:
                continue
        kept.append(cue)
    return kept


def _latest_step(cues: list[Cue], entry: Entry, codes: frozenset[str]) -> float | None:
    """The latest step told in a sentence of a cue of `codes` (each sentence read once: a
    pasted log may hold thousands of NaN cues)."""
    sentences = {(cue.label.field, cue.sentence_start, cue.sentence_end)
                 for cue in cues if cue.label.code in codes}
    return max((step for field, start, end in sentences
                for step in steps_in((getattr(entry, field) or "")[start:end])), default=None)
