"""Faults told only by numbers: a throughput that fell, a step time that rose, a loss that
jumped and came back ("tok/s went from ~270k to ~120k", "loss 2.03 -> 3.91 -> 2.11").

No word of the taxonomy's cues says it; the numbers do. `data/trends.yaml` lists the
measures (their names and units, which way is worse, by how much) and the ways a change
is written; a change of a measure the bad way becomes a fault label, with the numbers as
its evidence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from ..models import FAULT, Entry, Label
from ..resources import DATA, read_yaml
from .cues import FIELDS
from .ruler import clue

TRENDS_PATH = DATA / "trends.yaml"
_REACH = 40  # characters before the first number in which the measure's name stands
_UNIT_REACH = 12  # characters after a number in which its unit stands
# a sentence ends at a full stop before a space or a line end, not inside "1.12" (a run of
# other characters is one step: re loops far faster within a class than through a branch)
_SENTENCE = re.compile(r"(?:[^\n.!?;]+|[.!?](?=\S))+")
_TWO_NUMBERS = re.compile(r"\d\D+\d")
_SCALE = {"k": 1e3, "m": 1e6, "b": 1e9}
_DOUBT_REACH = 24  # characters before a return word in which a doubt or denial voids it
CONFIDENCE = 0.7


@dataclass(frozen=True, slots=True)
class _Measure:
    code: str
    words: re.Pattern[str]
    worse: str  # "down", "up" or "spike"
    by: float


@dataclass(frozen=True, slots=True)
class _Trends:
    measures: tuple[_Measure, ...]
    changes: tuple[tuple[re.Pattern[str], tuple[str, ...], frozenset[str]], ...]  # + clues
    change_clues: frozenset[str]  # the clues of all the changes, each looked for once
    hypothetical: re.Pattern[str]
    returned: re.Pattern[str]  # a rise told with its return ("05:20 recovered") is a spike
    doubted: re.Pattern[str]  # ... unless the words just before it doubt it ("never recovered")
    # finds one of the strings without which a sentence (case-folded) names no measure: one
    # search is cheaper than a substring test for each
    clues: re.Pattern[str]


@cache
def _trends(path: Path = TRENDS_PATH) -> _Trends:
    data = read_yaml(path)
    num, gap = data["number"], data["gap"]
    changes = []
    for change in data["changes"]:
        regex = change["regex"].replace("{gap}", gap)
        for name in change["values"]:  # each {num} in turn becomes the named group
            regex = regex.replace("{num}", f"(?P<{name}>{num})", 1)
        changes.append((re.compile(regex, re.IGNORECASE), tuple(change["values"]),
                        clue(regex) or frozenset({""})))
    measures = tuple(
        _Measure(m["code"], re.compile("|".join(m["words"]), re.IGNORECASE), m["worse"],
                 float(m["by"]))
        for m in data["measures"])
    clues = frozenset(c for m in data["measures"] for w in m["words"] for c in clue(w) or {""})
    return _Trends(measures, tuple(changes), frozenset().union(*(c for _, _, c in changes)),
                   re.compile(data["hypothetical"], re.IGNORECASE),
                   re.compile(data["returned"], re.IGNORECASE),
                   re.compile(data["doubted"], re.IGNORECASE),
                   re.compile("|".join(map(re.escape, sorted(clues)))))


def compile_regexes() -> None:
    """Compile trends.yaml's regexes now: a classifier does as it is built, so that the first
    entry it reads does not pay for them."""
    _trends()


def value(number: str) -> float:
    """A number as logbooks write it: "~270k", "1.02M", "2,048", "3e-4"."""
    text = number.strip().lstrip("~").replace(",", "")
    scale = _SCALE.get(text[-1].lower(), 1.0) if text[-1].isalpha() else 1.0
    return float(text.rstrip("kKmMbB ").strip()) * scale


def worse(measure: _Measure, values: list[float]) -> bool:
    """True if the values, in time order, moved the way that is bad for the measure."""
    if measure.worse == "spike":
        if len(values) != 3:
            return False
        a, b, c = values
        return a > 0 and b >= a * (1 + measure.by) and c * (1 + measure.by) <= b
    if len(values) != 2 or values[0] <= 0:
        return False
    a, b = values
    if measure.worse == "down":
        return b <= a * (1 - measure.by)
    return b >= a * (1 + measure.by)


def _named(measure: _Measure, sentence: str, m: re.Match[str], values: tuple[str, ...]) -> bool:
    """True if the measure's name stands just before the first number or just after one."""
    first = min(m.start(v) for v in values)
    if measure.words.search(sentence, max(0, first - _REACH), first):
        return True
    # a slice, not a search from m.end(v): a unit glued to its number ("0.98s/it") starts a word
    return any(measure.words.search(sentence[m.end(v):m.end(v) + _UNIT_REACH]) for v in values)


def _rose_and_returned(measure: _Measure, values: list[float], after: str,
                       trends: _Trends) -> bool:
    """True if a spike's measure rose between two values and the words after them say it came
    back ("loss 1.82 → 2.70 at step 51230" / "05:20 recovered, 1.83 at 51300"), undoubted,
    and not said of another measure."""
    if measure.worse != "spike" or not worse(replace(measure, worse="up"), values):
        return False
    back = trends.returned.search(after)
    if back is None or trends.doubted.search(after, max(0, back.start() - _DOUBT_REACH),
                                             back.start()):
        return False
    # what came back is this measure, not another named on the way ("throughput recovered")
    return not any(other.words.search(after, 0, back.start())
                   for other in trends.measures if other.code != measure.code)


def _in_sentence(sentence: str, folded: str, trends: _Trends, text: str = "",
                 end: int = 0) -> Iterator[tuple[str, int, int]]:
    """The (code, start, end) of each change in `sentence` (which ends at `end` of `text`) of a
    measure the bad way."""
    # a change is rare: the sentence is asked whether it is hypothetical only when it has one.
    # Each clue is looked for once, not once per change that has it ("from" is in four)
    present = {c for c in trends.change_clues if c in folded}
    changes = [(m, values) for regex, values, clues in trends.changes
               if not clues.isdisjoint(present) for m in regex.finditer(sentence)]
    if not changes or trends.hypothetical.search(sentence):
        return
    following = text[end:_next_line_end(text, end)]  # where a rise's return may be told
    for m, values in changes:
        numbers = [value(m.group(v)) for v in sorted(values)]
        after = sentence[m.end():] + following
        for measure in trends.measures:
            if (worse(measure, numbers) or _rose_and_returned(measure, numbers, after, trends)
                    ) and _named(measure, sentence, m, values):
                yield measure.code, m.start(), m.end()


def _next_line_end(text: str, at: int) -> int:
    """Where the line after the one `at` is in ends (a rise's return is told by then)."""
    end = text.find("\n", at)
    if end == -1:
        return len(text)
    after = text.find("\n", end + 1)
    return len(text) if after == -1 else after


def mine_trends(entry: Entry) -> list[Label]:
    """One fault label per code whose measure the entry's numbers show moving the bad way."""
    trends, found = _trends(), {}
    for field in FIELDS:
        text = getattr(entry, field) or ""
        if not _TWO_NUMBERS.search(text):
            continue
        for sentence in _SENTENCE.finditer(text):
            if not _TWO_NUMBERS.search(text, sentence.start(), sentence.end()):
                continue
            folded = sentence.group().casefold()
            if not trends.clues.search(folded):
                continue  # only a sentence with numbers that may name a measure is read
            for code, start, end in _in_sentence(sentence.group(), folded, trends, text,
                                                 sentence.end()):
                at = sentence.start()
                found.setdefault(code, Label(
                    kind=FAULT, code=code, evidence=text[at + start:at + end], field=field,
                    start=at + start, end=at + end, source=f"trends:{code}",
                    confidence=CONFIDENCE))
    return list(found.values())
