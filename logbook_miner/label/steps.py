"""Whether a resume goes back before the trouble (TAXONOMY rule 6), by the steps the entry names.

"Loss went to NaN at 21,060; restarted from the step-18,000 checkpoint" goes back to before
the bad stretch: a rollback. "Drained the node, resumed from 268000" after a spike told at
238k does not. A cue whose rule says `before_trouble` counts only when the step it names is
earlier than a step named in the sentence of one of the entry's cues of numeric trouble.
"""

from __future__ import annotations

import re

from .cues import Cue

TROUBLE = frozenset({"numerics.loss_spike", "numerics.divergence", "numerics.overflow"})
# a step: "21,060", "18000", "245k", "step-18,000" (not a share, a time or a version)
_STEP = re.compile(r"(?<![\w.:/])(\d{1,3}(?:,\d{3})+|\d{3,}|\d+(?:\.\d+)?k)(?![\w%:/]|\.\d)",
                   re.IGNORECASE)


def step_value(text: str) -> float:
    """A step as a number: "21,060" -> 21060, "245k" -> 245000."""
    text = text.replace(",", "").lower()
    return float(text[:-1]) * 1000 if text.endswith("k") else float(text)


def steps_in(text: str) -> list[float]:
    return [step_value(m[1]) for m in _STEP.finditer(text)]


def before_trouble(cue: Cue, cues: list[Cue], text_of: dict[str, str]) -> bool:
    """Whether the step `cue` resumes from is earlier than a step the trouble is told at."""
    resumed = steps_in(cue.label.evidence)
    if not resumed:
        return False
    told = [step for other in cues if other.label.code in TROUBLE
            for step in steps_in(text_of[other.label.field][
                other.sentence_start:other.sentence_end])]
    return any(step > resumed[0] for step in told)
