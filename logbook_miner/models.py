"""The objects that flow between stages: Line -> Entry -> Label/Metric.

Each stage takes the previous stage's objects and knows nothing of the next,
so these classes are the whole contract between modules.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path

FAULT = "fault"
INTERVENTION = "intervention"
KINDS = (FAULT, INTERVENTION)  # the order labels are listed in


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a document as a reader saw it.

    Readers fill what their format knows: a PDF line has a page, font size and
    weight; a Markdown heading has a level; a line of a code block is `code`.
    """

    text: str
    page: int | None = None
    size: float | None = None
    bold: bool = False
    code: bool = False
    level: int | None = None  # heading level (1-6; Markdown, Org, Word, HTML); None: body
    indent: float = 0.0  # points (PDF) or spaces (text) right of the body's left edge


HEADING_STEP = 1.0  # points: a font this much larger than the body text's is a heading's


def body_size(sized: Iterable[tuple[float, int]]) -> float | None:
    """Of (font size, characters) pairs, the size most characters are set in: the body text's.
    The PDF reader (which steps heading lines) and the segmenter (which ranks headings) each
    call it on the lines they hold, so a heading's size is found by one rule."""
    characters: Counter[float] = Counter()
    for size, count in sized:
        characters[size] += count
    return characters.most_common(1)[0][0] if characters else None


@dataclass(slots=True)
class Document:
    """What a reader returns: the lines of one file plus what it knows of the file."""

    path: Path
    format: str  # "pdf", "markdown", "text", "docx", "html"; "mixed" for a folder of several
    lines: list[Line]
    pages: int | None = None
    title: str | None = None


@dataclass(slots=True)
class Entry:
    """One dated (or undated) note of a logbook: a heading and the text up to the next one."""

    seq: int
    heading: str
    text: str
    date: date | None = None
    time: str | None = None  # as written, e.g. "1:00pm"
    timezone: str | None = None  # as written, e.g. "ET"
    ts_utc: datetime | None = None
    author: str | None = None
    run_id: str | None = None
    page_start: int | None = None
    page_end: int | None = None
    date_inferred: bool = False
    chronology_anomaly: bool = False


@dataclass(frozen=True, slots=True)
class Label:
    """A taxonomy code on an entry with the words it stands on.

    `field` is "heading" or "text"; `start`/`end` are character offsets into
    that field of the entry, so `getattr(entry, field)[start:end] == evidence`.
    """

    kind: str  # FAULT or INTERVENTION
    code: str
    evidence: str
    field: str
    start: int
    end: int
    source: str  # the rule or component that produced it
    confidence: float


@dataclass(frozen=True, slots=True)
class Metric:
    """A number mined from an entry, with its unit and the words it came from."""

    name: str
    value: float
    unit: str | None
    evidence: str
    field: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Rate:
    """How often something happened, as an entry states it: `events` events of `code`
    (bound '>=', '~' or '=') in `hours` ("40+ restarts since Nov 17", "~2 a day")."""

    code: str
    events: float
    bound: str
    hours: float
    period_start: date | None  # a count over a stated period; None for a frequency
    period_end: date | None
    evidence: str  # the sentence
    field: str
    start: int
    end: int

    @property
    def mtbf_hours(self) -> float:
        return self.hours / self.events


@dataclass(slots=True)
class LabelledEntry:
    """An entry with what the classify stage found in it."""

    entry: Entry
    labels: list[Label] = field(default_factory=list)
    metrics: list[Metric] = field(default_factory=list)
    rates: list[Rate] = field(default_factory=list)


# a classifier as the stages see it: a logbook's entries in, each with what was found in it out
Classify = Callable[[Sequence[Entry]], list[LabelledEntry]]


def in_kind_order(labels: Iterable[Label]) -> list[Label]:
    """Faults first, then interventions, each by code: the order an entry's labels are kept in."""
    return sorted(labels, key=lambda lb: (KINDS.index(lb.kind), lb.code))
