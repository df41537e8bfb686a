"""Counts and rates stated in prose: "40+ restarts since Nov 17", "~2 machines go down every day".

Recap notes state how often things failed without an entry per failure
(TAXONOMY rule 14), and those statements are the best evidence of the real
failure rate. Each becomes a `Rate`: how many events of which code, with what
bound, over how many hours (a stated frequency, or a count over a stated
period ending at the entry's date). The vocabulary is `data/rates.yaml`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from datetime import date, timedelta
from functools import cache
from pathlib import Path

from ..models import Entry, Rate
from ..resources import DATA, read_yaml
from ..segment import dates
from . import leads
from .ruler import clue
from .wrapping import normalise

RATES_PATH = DATA / "rates.yaml"
_SENTENCE = re.compile(r"[^.!?\n]+(?:[.!?]+|\n|$)")
_HYPOTHETICAL = re.compile(r"\b(?:if|would|could|might|should|expect|expected)\b", re.IGNORECASE)
_SINCE_REACH = 40  # characters after "since" in which its date stands
_REACH = 200  # characters around an event in which its quantity, period and evidence stand


@dataclass(frozen=True, slots=True)
class _Vocabulary:
    events: tuple[tuple[str, re.Pattern[str]], ...]
    clues: tuple[frozenset[str] | None, ...]  # per event: one of these is in each match
    starts: dict[re.Pattern[str], re.Pattern[str] | None]  # per event: leads.start_finder
    quantities: tuple[tuple[re.Pattern[str], str], ...]
    words: dict[str, float]
    frequencies: tuple[tuple[re.Pattern[str], float], ...]
    units: dict[str, float]
    approximate: re.Pattern[str]
    since: re.Pattern[str]
    last: re.Pattern[str]


@cache
def _vocabulary(path: Path = RATES_PATH) -> _Vocabulary:
    data = read_yaml(path)

    def rx(text: str) -> re.Pattern[str]:
        return re.compile(text, re.IGNORECASE)

    events = tuple((code, rx(r"\b" + p)) for code, ps in data["events"].items() for p in ps)
    return _Vocabulary(
        events=events,
        # a non-ASCII letter may fold into ASCII ones ("İ" matches "i"): such a regex has none
        clues=tuple(clue(p.pattern) if p.pattern.isascii() else None for _, p in events),
        starts={p: leads.start_finder(p.pattern) for _, p in events},
        quantities=tuple((rx(f"(?:{q['regex']})" + r"\s+$"), q["bound"])
                         for q in data["quantities"]),
        words={k: float(v) for k, v in data["words"].items()},
        frequencies=tuple((rx(f["regex"]), float(f["hours"])) for f in data["frequencies"]),
        units={k: float(v) for k, v in data["units"].items()},
        approximate=rx(data["approximate"]),
        since=rx(data["periods"]["since"]),
        last=rx(data["periods"]["last"]),
    )


def compile_regexes() -> None:
    """Compile rates.yaml's regexes now: a classifier does as it is built, so that the first
    entry it reads does not pay for them."""
    _vocabulary()


def mine_rates(entry: Entry,
               normalised: Mapping[str, tuple[str, list[int]]] | None = None) -> list[Rate]:
    """Every count or rate the entry's text states, with the hours it covers. A sentence a
    PDF wrapped is one sentence: fields are read normalised (`wrapping.normalise`), as the
    classifier has them already (`normalised`: field -> text and offsets) or made here."""
    vocab = _vocabulary()
    found: list[Rate] = []
    for field in ("heading", "text"):
        original = getattr(entry, field) or ""
        events = _possible_events(vocab, original)
        if not events:
            continue
        text, where = (normalised or {}).get(field) or normalise(original)
        events = _found_events(vocab, events, text)
        if not events:
            continue
        previous = ""
        for sentence in _SENTENCE.finditer(text):
            for rate in _in_sentence(vocab, events, entry, field, sentence, previous):
                start, end = where[rate.start], where[rate.end - 1] + 1
                found.append(replace(rate, evidence=original[start:end], start=start, end=end))
            previous = sentence.group()
    return found


def _possible_events(vocab: _Vocabulary, text: str) -> list[tuple[str, re.Pattern[str]]]:
    """The event patterns that may match in `text`: in ASCII text, those whose clue is in
    it (a substring test is much cheaper than a regex per sentence); else all of them."""
    if not text.isascii():  # some letters fold into others ("ı" matches "i"), or into two
        return list(vocab.events)
    lower = text.lower()
    return [event for event, found in zip(vocab.events, vocab.clues, strict=True)
            if found is None or any(c in lower for c in found)]


def _found_events(vocab: _Vocabulary, events: list[tuple[str, re.Pattern[str]]], text: str
                  ) -> list[tuple[str, re.Pattern[str]]]:
    """The event patterns that match somewhere in `text`: an event's words hold no sentence
    end and its regex looks at no character around them but through `\\b`, so it matches in
    a sentence only where it matches in the whole text. One search over the text (tried
    where a match can start) spares a search per sentence where none matches (in 9 texts
    out of 10 whose clues it holds)."""
    lower = text.lower() if text.isascii() else None
    return [(code, pattern) for code, pattern in events
            if next(leads.finditer_from(pattern, vocab.starts[pattern], None, text, lower), None)]


def _in_sentence(vocab: _Vocabulary, events: list[tuple[str, re.Pattern[str]]], entry: Entry,
                 field: str, sentence: re.Match, previous: str) -> list[Rate]:
    """The rates one sentence states; everything is looked up within _REACH of the event,
    so a pasted log of one endless 'sentence' stays linear."""
    text = sentence.group()
    out = []
    for code, pattern in events:
        for event in pattern.finditer(text):
            begin, finish = max(0, event.start() - _REACH), min(len(text), event.end() + _REACH)
            if _HYPOTHETICAL.search(text, begin, event.start()):
                continue
            quantity = _quantity(vocab, text[max(0, event.start() - 40):event.start()])
            if quantity is None:
                continue
            events, bound = quantity
            span = _span(vocab, entry, text[begin:finish], previous[-_REACH:], bound)
            if span is None or events <= 0:
                continue
            hours, start, end, bound = span
            clause = text if len(text) <= 2 * _REACH else text[begin:finish]
            evidence = clause.strip()
            at = sentence.start() + (0 if clause is text else begin) + clause.index(evidence)
            out.append(Rate(code, events, bound, hours, start, end, evidence, field, at,
                            at + len(evidence)))
    return out


def _quantity(vocab: _Vocabulary, before: str) -> tuple[float, str] | None:
    """The number right before the event words ("40+", "~2", "over 100", "one of the")."""
    if re.search(r"\bone\s+of\s+(?:the|our)\s+$", before, re.IGNORECASE):
        return 1.0, "="
    for pattern, bound in vocab.quantities:
        m = pattern.search(before[-40:])
        if m:
            groups = m.groupdict()
            if groups.get("n"):
                return float(groups["n"].replace(",", "").rstrip(".")), bound
            return vocab.words[" ".join(groups["word"].lower().split())], bound
    return None


def _span(vocab: _Vocabulary, entry: Entry, text: str, previous: str,
          bound: str) -> tuple[float, date | None, date | None, str] | None:
    """(hours, period start, period end, bound) the count covers, or None if no period.

    "Since then" takes its date from the sentence before ("... since the November
    17th update. Since then, we've had 40+ restarts").
    """
    for pattern, hours in vocab.frequencies:
        m = pattern.search(text)
        if m:
            groups = m.groupdict()
            if groups.get("n"):
                hours = float(groups["n"]) * vocab.units[groups["unit"].lower()]
            return hours, None, None, "~" if vocab.approximate.search(text) else bound
    if entry.date is None:
        return None
    for since_text in (text, previous):
        since = vocab.since.search(since_text)
        found = since and dates.find_dates(since_text[since.end():since.end() + _SINCE_REACH])
        if found:
            d = found[0]
            begun = d.value or dates.infer_year(d.month, d.day, entry.date)
            if begun < entry.date:
                return (entry.date - begun).days * 24.0, begun, entry.date, bound
            break
    last = vocab.last.search(text)
    if last:
        n = (last.group("n") or "one").lower()
        count = float(n) if n.isdigit() else vocab.words[n]
        hours = count * vocab.units[last.group("unit").lower()]
        return hours, entry.date - timedelta(hours=hours), entry.date, bound
    return None
