"""Numbers mined from an entry: steps, losses, throughput, settings before/after, costs.

The regexes live in `data/metrics.yaml` so that a new log format means a new
line of data; this module compiles them once (with the literal text each one
needs, so that most are skipped by a substring test) and turns matches into
Metric objects whose offsets point into the entry's heading or text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from ..models import Entry, Metric
from ..resources import DATA, read_yaml
from . import leads
from .context import any_of
from .cues import FIELDS
from .ruler import clue

METRICS_PATH = DATA / "metrics.yaml"
_VALUE_GROUPS = {"value": "", "neg": "", "before": "_before", "after": "_after"}


@dataclass(frozen=True, slots=True)
class _Pattern:
    name: str
    unit: str | None
    regex: re.Pattern[str]
    factor: float
    scale: dict[str, float]
    clue: frozenset[str] | None  # one of these is in any text the regex matches (case-folded)
    start: re.Pattern[str] | None  # in lower-case ASCII text, where a match can start
    lead: re.Pattern[str] | None  # where it matches, if it opens with a digit (leads.py)
    opening: tuple[re.Pattern[str], int] | None  # if no `start`: leads.opening
    unless: tuple[re.Pattern[str], ...]  # a sentence matching one is not about this run


@cache
def _patterns(path: Path = METRICS_PATH) -> tuple[_Pattern, ...]:
    """Compile metrics.yaml once per process."""
    out = []
    for spec in read_yaml(path)["metrics"]:
        scale = {str(k).lower(): float(v) for k, v in (spec.get("scale") or {}).items()}
        unless = tuple(re.compile(r, re.IGNORECASE) for r in spec.get("unless", ()))
        for item in spec["patterns"]:
            item = item if isinstance(item, dict) else {"regex": item}
            regex = re.compile(item["regex"], re.IGNORECASE)
            factor = float(item.get("factor", 1.0))
            start = leads.start_finder(item["regex"])
            out.append(_Pattern(spec["name"], spec.get("unit"), regex, factor, scale,
                                clue(item["regex"]), start, leads.lead(regex),
                                None if start else leads.opening(item["regex"]), unless))
    return tuple(out)


@dataclass(frozen=True, slots=True)
class _Clues:
    """Each clue's patterns (by their place in `_patterns()`), the patterns of no clue, and
    what finds the clues a text holds."""

    patterns: dict[str, frozenset[int]]
    unclued: frozenset[int]
    # finds the longest clue that starts at a place (a tree of the clues: one search over a
    # text, not a substring test for each of the ~70 clues)
    finder: re.Pattern[str]
    shorter: dict[str, tuple[str, ...]]  # per clue, the clues it begins with (itself too)

    def found(self, folded: str) -> frozenset[int]:
        """The patterns whose clue is in `folded` (a case-folded text), and those of none."""
        clues: set[str] = set()
        at = self.finder.search(folded)
        while at:
            clues.update(self.shorter[at.group()])
            at = self.finder.search(folded, at.start() + 1)
        return self.unclued.union(*map(self.patterns.__getitem__, clues))


@cache
def _by_clue() -> _Clues:
    """The patterns by their clues: a clue is looked for once in a text however many patterns
    share it (a long log's whole length is read for each clue it does not hold), and only
    the patterns of the clues found are read. (`_patterns()` as `mine` calls it: with the
    path given, functools.cache would compile them twice.)"""
    by_clue: dict[str, set[int]] = {}
    for i, p in enumerate(_patterns()):
        for c in p.clue or ():
            by_clue.setdefault(c, set()).add(i)
    unclued = frozenset(i for i, p in enumerate(_patterns()) if not p.clue)
    return _Clues({c: frozenset(found) for c, found in by_clue.items()}, unclued,
                  re.compile(any_of(set(by_clue))),
                  {c: tuple(d for d in by_clue if c.startswith(d)) for c in by_clue})


def compile_regexes() -> None:
    """Compile metrics.yaml's regexes now: a classifier does as it is built, so that the
    first entry it reads does not pay for them."""
    _by_clue()


def _number(text: str) -> float:
    return float(text.replace(",", "").replace("_", "").rstrip("."))


def _metrics(p: _Pattern, m: re.Match[str], field: str) -> list[Metric]:
    groups = m.groupdict()
    factor = p.factor * (1000.0 if groups.get("k") else 1.0)
    if groups.get("per") is not None:
        factor *= p.scale.get(groups["per"].lower(), 1.0)
    out = []
    for group, suffix in _VALUE_GROUPS.items():
        if groups.get(group) is None:
            continue
        value = _number(groups[group]) * factor * (-1 if group == "neg" else 1)
        out.append(Metric(p.name + suffix, value, p.unit, m.group(), field, m.start(), m.end()))
    return out


_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n\s*\n")


def _sentence(text: str, m: re.Match[str]) -> str:
    """The sentence around a match: from the last sentence end before it to the next."""
    start = max((e.end() for e in _SENTENCE_END.finditer(text, max(0, m.start() - 400),
                                                          m.start())), default=0)
    after = _SENTENCE_END.search(text, m.end(), m.end() + 400)
    return text[start:after.start() if after else min(len(text), m.end() + 400)]


def _finditer(p: _Pattern, text: str, lower: str | None) -> Iterator[re.Match[str]]:
    """`p.regex.finditer(text)`, tried only where a match can start (`lower`: the text's
    lower case if it is ASCII, else None)."""
    if p.opening and lower is not None:
        return leads.finditer_opened(p.regex, *p.opening, text, lower)
    return leads.finditer_from(p.regex, p.start, p.lead, text, lower)


def mine(entry: Entry) -> list[Metric]:
    """Every number the metric patterns find in the entry's heading and text, in text order."""
    found: dict[tuple[str, str, int], Metric] = {}
    patterns, clues = _patterns(), _by_clue()
    for field in FIELDS:
        text = getattr(entry, field) or ""
        folded = text.casefold()
        lower = folded if text.isascii() else None
        # looking for the clues is much cheaper than running the regexes
        for p in map(patterns.__getitem__, sorted(clues.found(folded))):
            for m in _finditer(p, text, lower):
                if p.unless and any(u.search(_sentence(text, m)) for u in p.unless):
                    continue
                for metric in _metrics(p, m, field):
                    key = (metric.name, field, metric.start)
                    found.setdefault(key, metric)
    return sorted(found.values(), key=lambda x: (FIELDS.index(x.field), x.start, x.name))
