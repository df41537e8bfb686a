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


def steps_in(text: str) -> list[float]:
    """The steps named in `text`, in order: "21,060" -> 21060, "245k" -> 245000."""
    found = []
    for match in _STEP.finditer(text):
        step = match[1].replace(",", "").lower()
        found.append(float(step[:-1]) * 1000 if step.endswith("k") else float(step))
    return found


def latest_trouble_step(cues: list[Cue], texts: dict[str, str]) -> float | None:
    """The latest step told in a sentence of one of the cues of numeric trouble (each sentence
    read once: a pasted log may hold thousands of NaN cues)."""
    sentences = {(cue.label.field, cue.sentence_start, cue.sentence_end)
                 for cue in cues if cue.label.code in TROUBLE}
    return max((step for field, start, end in sentences
                for step in steps_in(texts[field][start:end])), default=None)


def goes_back(cue: Cue, latest: float | None) -> bool:
    """Whether the step `cue` resumes from is earlier than the latest step of the trouble."""
    resumed = steps_in(cue.label.evidence)
    return bool(resumed) and latest is not None and resumed[0] < latest
