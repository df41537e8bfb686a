"""Make token patterns from the YAML data cheap to match.

The data files write word forms as readable anchored regexes
(`^restart(ed|ing|s)?$`). spaCy evaluates a REGEX predicate in Python for
every token, but an IN predicate is a set lookup, so each regex that denotes a
small finite set of words is expanded into that set before the matcher sees
it. Matching is unchanged; the classifier gets several times faster.

The rest of the cost is spaCy's Matcher trying every pattern at every token.
`AnchoredRuler` (the "anchored_span_ruler" pipe) runs each token pattern only
on the few windows around a word the pattern requires, and `clue` gives the
literal text a regex requires, so that a substring test can skip it (also
used by metrics.py). Both find exactly what the plain matchers find.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from re import _constants as sre
from re import _parser as sre_parse

from spacy.attrs import LOWER
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.language import Language
from spacy.matcher import Matcher, PhraseMatcher
from spacy.tokens import Doc, Span

MAX_WORDS = 500


class _Infinite(ValueError):
    """The regex matches more words than we want to list."""


def _words(nodes: list) -> set[str]:
    out = {""}
    for op, av in nodes:
        if op is sre.LITERAL:
            alts = {chr(av)}
        elif op is sre.SUBPATTERN:
            alts = _words(av[-1])
        elif op is sre.BRANCH:
            alts = set().union(*(_words(branch) for branch in av[1]))
        elif op is sre.MAX_REPEAT and av[:2] == (0, 1):
            alts = _words(av[2]) | {""}
        elif op is sre.IN and all(kind is sre.LITERAL for kind, _ in av):
            alts = {chr(v) for _, v in av}
        else:
            raise _Infinite(op)
        out = {a + b for a in out for b in alts}
        if len(out) > MAX_WORDS:
            raise _Infinite(len(out))
    return out


def expand(regex: str) -> set[str] | None:
    """The words an anchored regex (`^...$`) matches in full, or None if not a small finite set."""
    try:
        nodes = list(sre_parse.parse(regex))
    except re.error:
        return None
    anchored = nodes[:1] == [(sre.AT, sre.AT_BEGINNING)] and nodes[-1:] == [(sre.AT, sre.AT_END)]
    if len(nodes) < 2 or not anchored:
        return None
    try:
        return _words(nodes[1:-1])
    except _Infinite:
        return None


def _cheap(token: dict) -> dict:
    """The token spec with each finite REGEX replaced by an IN list."""
    token = dict(token)
    for attr, value in token.items():
        if isinstance(value, dict) and set(value) == {"REGEX"}:
            words = expand(value["REGEX"])
            if words is not None:
                token[attr] = {"IN": sorted(words)}
    return token


def optimise(pattern: list[dict] | str) -> list[dict] | str:
    """The same pattern with each finite REGEX replaced by an IN list (phrases pass through)."""
    if isinstance(pattern, str):
        return pattern
    return [_cheap(token) for token in pattern]


def _clue(nodes: list) -> frozenset[str] | None:
    """Strings one of which any match of the parsed regex `nodes` contains (lower case)."""
    best: frozenset[str] | None = None

    def consider(found: frozenset[str] | None) -> None:
        nonlocal best
        if found and (best is None or min(map(len, found)) > min(map(len, best))):
            best = found

    run = ""
    for op, av in nodes:
        if op is sre.LITERAL:
            run += chr(av)
            continue
        consider(frozenset({run.casefold()}) if run else None)
        run = ""
        if op is sre.SUBPATTERN:
            consider(_clue(av[-1]))
        elif op is sre.BRANCH:
            alternatives = [_clue(branch) for branch in av[1]]
            if all(alternatives):
                consider(frozenset().union(*alternatives))
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT) and av[0] >= 1:
            consider(_clue(av[2]))
    consider(frozenset({run.casefold()}) if run else None)
    return best


def clue(regex: str) -> frozenset[str] | None:
    """Strings one of which occurs (case-folded) in every text `regex` matches, if it has any.

    A cheap `in` test on the text then skips a regex that cannot match.
    """
    try:
        return _clue(list(sre_parse.parse(regex)))
    except re.error:
        return None


_UNBOUNDED = None
_WORD_ATTRS = ("LOWER", "ORTH", "TEXT")


def _span_of(op: str | None) -> tuple[int, int | None]:
    """(min, max) tokens a pattern token with operator `op` consumes; max None = unbounded."""
    if op in (None, "!"):
        return 1, 1
    if op in ("?", "*", "+"):
        return int(op == "+"), 1 if op == "?" else _UNBOUNDED
    low, _, high = op.strip("{}").partition(",")
    if "," not in op:
        return int(low), int(low)
    return int(low or 0), int(high) if high else _UNBOUNDED


def _word_set(token: dict) -> frozenset[str] | None:
    """The words (lower case) one of which this token spec requires, if it names them."""
    for attr in _WORD_ATTRS:
        value = token.get(attr)
        if isinstance(value, str):
            return frozenset({value.lower()})
        if isinstance(value, dict) and set(value) == {"IN"}:
            return frozenset(str(v).lower() for v in value["IN"])
    return None


def _text_clue(token: dict) -> frozenset[str] | None:
    for attr in _WORD_ATTRS:
        value = token.get(attr)
        if isinstance(value, dict) and set(value) == {"REGEX"}:
            return clue(value["REGEX"])
    return None


def _common(words: frozenset[str]) -> int:
    return sum(w in STOP_WORDS or not any(c.isalnum() for c in w) for w in words)


@dataclass(slots=True)
class _Anchored:
    """One token pattern, its own matcher and what must be in a doc for it to match."""

    matcher: Matcher
    words: frozenset[int]  # LOWER hashes: one of these tokens is in every match
    clue: frozenset[str]  # else: one of these strings is in the text of every match
    before: int | None  # at most this many tokens precede the anchor token in a match
    after: int | None


def anchor(pattern: list[dict]) -> tuple[int | None, frozenset[str], frozenset[str]]:
    """The pattern's rarest required token: (index, its words, or else a text clue)."""
    found = []
    for i, token in enumerate(pattern):
        if _span_of(token.get("OP"))[0] < 1 or token.get("OP") == "!":
            continue
        words = _word_set(token)
        if words:
            found.append(((0, _common(words), len(words)), i, words, frozenset()))
        elif text := _text_clue(token):
            found.append(((1, 0, -min(map(len, text))), i, frozenset(), text))
    if not found:
        return None, frozenset(), frozenset()
    _, i, words, text = min(found, key=lambda f: f[0])
    return i, words, text


def _reach(tokens: list[dict]) -> int | None:
    total = 0
    for token in tokens:
        most = _span_of(token.get("OP"))[1]
        if most is None:
            return None
        total += most
    return total


class AnchoredRuler:
    """spaCy's span ruler, made cheap: each token pattern runs only near its anchor words.

    spaCy's Matcher tries every pattern at every token, and most predicates
    are Python calls; but a pattern can only match around a token it requires,
    so each one runs on the few windows of the doc around those tokens (a
    pattern without such a token runs on the whole doc, when its text clue is
    there). Phrases go to one PhraseMatcher. The spans found, and their order,
    are those of `span_ruler`.
    """

    def __init__(self, nlp: Language, spans_key: str) -> None:
        self.nlp, self.key = nlp, spans_key
        self.phrases = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.tokens: list[_Anchored] = []
        self.by_word: dict[int, list[_Anchored]] = {}
        self.labels: dict[int, tuple[str, str]] = {}

    def add_patterns(self, patterns: list[dict]) -> None:
        """Add span_ruler-style patterns: {"label", "pattern" (a phrase or token list), "id"}."""
        strings = self.nlp.vocab.strings
        for entry in patterns:
            label, span_id, pattern = entry["label"], entry.get("id", ""), entry["pattern"]
            key = repr((label, span_id))
            self.labels[strings.add(key)] = (label, span_id)
            if isinstance(pattern, str):
                self.phrases.add(key, [self.nlp.make_doc(pattern)])
                continue
            matcher = Matcher(self.nlp.vocab, validate=True)
            matcher.add(key, [pattern])
            i, words, text = anchor(pattern)
            before = _reach(pattern[:i]) if i is not None else 0
            after = _reach(pattern[i + 1 :]) if i is not None else 0
            hashes = frozenset(strings.add(w) for w in words)
            item = _Anchored(matcher, hashes, text, before, after)
            self.tokens.append(item)
            for h in hashes:
                self.by_word.setdefault(h, []).append(item)

    def __call__(self, doc: Doc) -> Doc:
        doc.spans[self.key] = self.match(doc)
        return doc

    def match(self, doc: Doc) -> list[Span]:
        """Every match, deduplicated and sorted as span_ruler does."""
        found = set(self.phrases(doc))
        where: dict[int, list[int]] = {}
        for i, h in enumerate(doc.to_array(LOWER).tolist()):
            where.setdefault(h, []).append(i)
        hits: dict[int, list[int]] = {}
        for h in where.keys() & self.by_word.keys():
            for item in self.by_word[h]:
                hits.setdefault(id(item), []).extend(where[h])
        folded = None
        for item in self.tokens:
            if item.words:
                at = hits.get(id(item))
                if at is None:
                    continue
                windows = _windows(sorted(at), item.before, item.after, len(doc))
            else:
                folded = doc.text.casefold() if folded is None else folded
                if item.clue and not any(c in folded for c in item.clue):
                    continue
                windows = [(0, len(doc))]
            for start, end in windows:
                found.update((k, s + start, e + start) for k, s, e in item.matcher(doc[start:end]))
        spans = set()
        for key, start, end in found:
            if start != end:
                label, span_id = self.labels[key]
                spans.add(Span(doc, start, end, label=label, span_id=span_id))
        return sorted(spans)


def _windows(at: list[int], before: int | None, after: int | None, n: int) -> list[tuple[int, int]]:
    """Merged token ranges that hold every match through an anchor token at positions `at`."""
    out: list[tuple[int, int]] = []
    for i in at:
        start = 0 if before is None else max(0, i - before)
        end = n if after is None else min(n, i + 1 + after)
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


@Language.factory("anchored_span_ruler", default_config={"spans_key": "ruler"})
def make_anchored_ruler(nlp: Language, name: str, spans_key: str) -> AnchoredRuler:
    """The pipeline factory: `nlp.add_pipe("anchored_span_ruler", config={"spans_key": ...})`."""
    return AnchoredRuler(nlp, spans_key)
