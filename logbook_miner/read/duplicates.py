"""One logbook in two files: its notes rendered twice (x.md and x.docx, x.pdf and x.weasy.pdf).

Names prove nothing (`x.weasy.pdf`, `x (1).docx`, `notes-final.html`), so the
comparison is of the text the pipeline extracted: the Jaccard similarity of
the two logbooks' sets of 5-word shingles over their entries' headings and
text. Building a set is linear in the text. On the dev logbooks in ../shared,
every pair of renderings of one logbook (Markdown, DOCX, HTML, Chromium and
WeasyPrint PDFs) scores >= 0.90, and every pair of different logbooks <= 0.01;
two CPM-Live daily notes written from one template score <= 0.25.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from ..models import Entry

SHINGLE_WORDS = 5
# Jaccard at or above which two texts are one logbook: well under the renderings' 0.90, and
# above a logbook's older export with a fifth of its notes still to come.
SAME_LOGBOOK = 0.8
# The share of the shorter text's shingles the other holds (`overlap`) below which a file is
# another logbook than the one stored under its name: a moved, re-rendered or grown logbook
# keeps about all of them, two different logbooks share <= 0.01, and a gold file quoting a
# logbook's headings and evidence 0.13-0.31.
ANOTHER_LOGBOOK = 0.5
_WORD = re.compile(r"\w+")


def fingerprint(entries: Iterable[Entry]) -> frozenset[int]:
    """The set of 5-word shingles of the entries' headings and text, casefolded, marks ignored."""
    words: list[str] = []
    for entry in entries:
        words += _WORD.findall(f"{entry.heading}\n{entry.text}".casefold())
    count = max(1, len(words) - SHINGLE_WORDS + 1)
    return frozenset(hash(tuple(words[i:i + SHINGLE_WORDS])) for i in range(count))


def similarity(a: frozenset[int], b: frozenset[int]) -> float:
    """Jaccard: shared shingles over all shingles."""
    union = len(a | b)
    return len(a & b) / union if union else 1.0


def overlap(a: frozenset[int], b: frozenset[int]) -> float:
    """The share of the smaller set's shingles that the other holds: 1.0 for a logbook and
    the same logbook grown, where Jaccard falls with the growth."""
    smaller = min(len(a), len(b))
    return len(a & b) / smaller if smaller else 1.0


@dataclass(slots=True)
class Renderings:
    """The logbooks kept so far, to tell whether another file is one of them again."""

    kept: list[tuple[str, frozenset[int]]] = field(default_factory=list)

    def add(self, name: str, shingles: frozenset[int]) -> None:
        self.kept.append((name, shingles))

    def same_as(self, shingles: frozenset[int]) -> tuple[str, float] | None:
        """(name, similarity) of the kept logbook this text repeats, if any."""
        best: tuple[str, float] | None = None
        for name, other in self.kept:
            small, large = sorted((len(shingles), len(other)))
            if small < SAME_LOGBOOK * large:  # Jaccard <= small / large: cannot reach the bar
                continue
            score = similarity(shingles, other)
            if score >= SAME_LOGBOOK and (best is None or score > best[1]):
                best = (name, score)
        return best
