"""Cues that count only with what they caused (taxonomy.yaml's `followed_by`).

A version change is the fault `software.dependency` only when what it broke is told with it:
after it in its sentence ("upgraded NCCL and the allreduce hangs"), in the next sentence when
that opens as its sequel ("Since then, ..."), before it and linked to it as to its cause
("throughput fell 6% after the PyTorch bump"), or in the body under a heading that names it (a
heading "vLLM upgrade" over "HumanEval dropped 4 points; ImportError ..."). Not what it was
meant to fix ("upgraded NCCL to fix the hang"). The words of each link are taxonomy.yaml's
(`shared`: `continues`, `caused_by`, `reason`, `over`).
"""

from __future__ import annotations

import bisect
import itertools
import re

from ..models import Entry
from .cues import FIELDS, Cue

# characters around a cue in which what it caused must be told: a prose sentence's length, not a
# pasted log line's (a 1 MB line is one "sentence"; searching all of it for each cue is quadratic)
REACH = 400
_HEADING_TOPICS = "harm"  # a heading names an event whose harm, of any kind, the body tells

_Standing = list[tuple[int, str, int]]  # (start, code, end) of the cues that stand on their own


class Consequences:
    """The links between an event and what it caused, read from taxonomy.yaml's `shared`."""

    def __init__(self, shared: dict):
        self.reason = re.compile(shared["reason"], re.IGNORECASE)
        self.over = re.compile(shared["over"], re.IGNORECASE)
        self.continues = re.compile(shared["continues"], re.IGNORECASE)
        self.caused_by = re.compile(shared["caused_by"], re.IGNORECASE)

    def sequel(self, text: str, sentence_end: int, cue_end: int) -> bool:
        """Whether the sentence after the one ending at `sentence_end` opens as its sequel."""
        return bool(self.continues.match(text, sentence_end, cue_end + REACH))

    def kept(self, cues: list[Cue], entry: Entry) -> list[Cue]:
        """The cues less those with a `followed_by` that nothing they caused answers."""
        # the cues that stand on their own, by field, in text order (a long pasted log has many)
        standing: dict[str, _Standing] = {field: [] for field in FIELDS}
        for cue in cues:
            if not cue.rule.followed_by:
                standing[cue.label.field].append((cue.label.start, cue.label.code, cue.label.end))
        for found in standing.values():
            found.sort()
        return [cue for cue in cues if not cue.rule.followed_by
                or self._after(cue, entry, standing[cue.label.field])
                or self._before(cue, entry, standing[cue.label.field])
                or self._under(cue, entry, standing["text"])]

    def _after(self, cue: Cue, entry: Entry, standing: _Standing) -> bool:
        """What the cue caused follows it in its sentence (or in that sentence's sequel)."""
        text, end = getattr(entry, cue.label.field) or "", cue.label.end
        stop = min(cue.sentence_end, end + REACH)
        if self.over.search(text, end, stop):
            return False
        for start, code, _ in itertools.islice(standing, bisect.bisect_left(standing, (end, "")),
                                               None):
            if start >= stop:
                return False
            if code in cue.rule.followed_by and not self.reason.search(text, end, start):
                return True
        return False

    def _before(self, cue: Cue, entry: Entry, standing: _Standing) -> bool:
        """What the cue caused comes first in its sentence, linked to it as to its cause."""
        text, start = getattr(entry, cue.label.field) or "", cue.label.start
        since = max(cue.sentence_start, start - REACH)
        for k in range(bisect.bisect_left(standing, (start, "")) - 1, -1, -1):  # no copy
            begin, code, end = standing[k]
            if begin < since:
                return False
            if code in cue.rule.followed_by:
                between = text[end:start]
                return bool(self.caused_by.fullmatch(between)) and not self.reason.search(between)
        return False

    def _under(self, cue: Cue, entry: Entry, body: _Standing) -> bool:
        """The cue is in the heading, which names an event, and the body tells its harm."""
        if cue.label.field != "heading" or _HEADING_TOPICS not in cue.rule.followed_by:
            return False
        text = entry.text or ""
        return any(code in cue.rule.followed_by and not self.reason.search(text, 0, start)
                   for start, code, _ in body)
