"""Make patterns from the YAML data cheap to match.

The data files write word forms as readable anchored regexes
(`^restart(ed|ing|s)?$`). spaCy evaluates a REGEX predicate in Python for
every token, but an IN predicate is a set lookup, so each regex that denotes a
small finite set of words is expanded into that set (`optimise`).

`AnchoredRuler` (the "anchored_span_ruler" pipe) is spaCy's span ruler with
the token patterns matched by `token_matcher.TokenMatcher`, only those whose
required words the doc holds. For the regexes run on raw text (numbers.py,
rates.py), `clue` gives the literal text every match contains, so that a
substring test skips a regex that cannot match, and `starts` the literal text
every match begins with, so that a case-sensitive search finds where one can
start. All of them find exactly what the plain matchers find.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from functools import cache
from re import _constants as sre
from re import _parser as sre_parse

from spacy.errors import MatchPatternError
from spacy.language import Language
from spacy.matcher import Matcher, PhraseMatcher
from spacy.schemas import validate_token_pattern
from spacy.tokens import Doc, Span

from .token_matcher import TokenMatcher, Unsupported

MAX_WORDS = 500
# parsed regex nodes (re._parser) that consume nothing, and those that repeat a part
ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)


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


@cache  # the generated cues repeat a few hundred regexes about ten thousand times
def expand(regex: str) -> frozenset[str] | None:
    """The words an anchored regex (`^...$`) matches in full, or None if not a small finite set."""
    try:
        nodes = list(sre_parse.parse(regex))
    except re.error:
        return None
    anchored = nodes[:1] == [(sre.AT, sre.AT_BEGINNING)] and nodes[-1:] == [(sre.AT, sre.AT_END)]
    if len(nodes) < 2 or not anchored:
        return None
    try:
        return frozenset(_words(nodes[1:-1]))
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


def optimise(pattern: list[dict | list[dict]] | str) -> list[dict] | str:
    """The same pattern with each finite REGEX replaced by an IN list (phrases pass through).

    A list inside the pattern, a run of tokens the data shares under one YAML anchor, is
    spliced in place."""
    if isinstance(pattern, str):
        return pattern
    return [_cheap(token) for token in _spliced(pattern)]


def _spliced(pattern: list[dict | list[dict]]) -> Iterator[dict]:
    for token in pattern:
        for spec in token if isinstance(token, list) else [token]:
            if not isinstance(spec, dict):  # a misplaced alias fails here, not in a match
                raise TypeError(f"a token pattern holds {spec!r}, not a token's spec")
            yield spec


def _clue(nodes: list) -> frozenset[str] | None:
    """Strings one of which any match of the parsed regex `nodes` contains (lower case)."""
    best: frozenset[str] | None = None

    def consider(found: frozenset[str] | None) -> None:
        nonlocal best
        if found and (best is None or min(map(len, found)) > min(map(len, best))):
            best = found

    run, run_at = "", 0
    for i, (op, av) in enumerate(nodes):
        if op is sre.LITERAL:
            run, run_at = run + chr(av), run_at if run else i
            continue
        if run:
            # the run with what follows it, as far as `_starts` reads: the parser factors a
            # shared prefix out of an alternation ("wps|words" is "w" then "ps" or "ords")
            consider(frozenset(s.casefold() for s in _starts(nodes[run_at:])[0]))
        run = ""
        if op is sre.SUBPATTERN:
            consider(_clue(av[-1]))
        elif op is sre.BRANCH:
            alternatives = [_clue(branch) for branch in av[1]]
            if all(alternatives):
                consider(frozenset().union(*alternatives))
        elif op in REPEATS and av[0] >= 1:
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


_MAX_STARTS = 64


def _starts(nodes: list) -> tuple[frozenset[str], bool]:
    """(strings, whole): every match of the parsed regex `nodes` begins with one of the
    strings; `whole` if each string is a whole match, so that what follows extends it."""
    out = frozenset({""})
    for op, av in nodes:
        if op in ZERO_WIDTH:
            continue  # consumes nothing
        if op is sre.LITERAL:
            out = frozenset(p + chr(av) for p in out)
            continue
        if op is sre.BRANCH:
            parts, whole = [_starts(branch) for branch in av[1]], True
        elif op is sre.SUBPATTERN and not (av[1] or av[2]):  # no flags changed inside
            parts, whole = [_starts(av[-1])], True
        elif op in REPEATS and av[0] >= 1:
            parts, whole = [_starts(av[2])], False
        else:
            return out, False
        whole = whole and all(w for _, w in parts)
        longer = frozenset(p + q for p in out for found, _ in parts for q in found)
        if len(longer) > _MAX_STARTS:
            return out, False
        out = longer
        if not whole:
            return out, False
    return out, True


def starts(regex: str, shortest: int = 2) -> frozenset[str] | None:
    """Strings (lower case, ASCII) one of which every match of the case-insensitive `regex`
    begins with, if each has `shortest` characters at least.

    A match can then start only where one is in the text's lower case (for ASCII text),
    which a case-sensitive search finds far faster than the regex tries every position.
    """
    try:
        nodes = list(sre_parse.parse(regex))
    except re.error:
        return None
    return parsed_starts(nodes, shortest)


def parsed_starts(nodes: list, shortest: int = 2) -> frozenset[str] | None:
    """`starts` of a regex parsed into `nodes` (re._parser)."""
    found = frozenset(s.lower() for s in _starts(nodes)[0])
    if found and min(map(len, found)) >= shortest and all(map(str.isascii, found)):
        return found
    return None


class AnchoredRuler:
    """spaCy's span ruler, made cheap: token patterns go to `TokenMatcher`.

    spaCy's Matcher tries every pattern at every token and calls Python for
    each IN or REGEX predicate; `TokenMatcher` matches only the patterns whose
    required words the doc holds, on bit masks of its tokens (see token_matcher.py).
    Phrases go to one PhraseMatcher; a pattern TokenMatcher cannot compile goes
    to a spaCy Matcher. Patterns may be added under several spans keys (the
    taxonomy's cues and the ConText triggers), so that one pass over a doc
    finds them all. The spans found, and their order, are those of `span_ruler`.
    Matches that need no Span (ConText's terminators: a comma, "but", most of
    all matches) can go to `doc._.bare_matches[key]` as sorted (start, end,
    label) tuples instead: a Span costs a few microseconds to make.
    """

    def __init__(self, nlp: Language, spans_key: str) -> None:
        self.nlp, self.key = nlp, spans_key
        self.phrases = PhraseMatcher(nlp.vocab, attr="LOWER")
        self.tokens = TokenMatcher(nlp.vocab.strings)
        self.others = Matcher(nlp.vocab)
        self.labels: dict[int, tuple[str, str, str]] = {}  # match key -> label, id, spans key
        self.keys = [spans_key]
        self.bare_keys: list[str] = []  # keys whose matches are kept as tuples
        self._hashes: dict[int, tuple[int, int]] = {}  # match key -> label and id, as hashes
        # match key -> its spans key and what follows (start, end) in its row (see match)
        self._rows: dict[int, tuple[str, tuple]] = {}

    def add_patterns(self, patterns: list[dict], spans_key: str | None = None,
                     bare: bool = False) -> None:
        """Add span_ruler-style patterns: {"label", "pattern" (a phrase or token list), "id"},
        whose spans go to doc.spans[spans_key] (default: the ruler's own spans_key), or,
        if `bare`, to doc._.bare_matches[spans_key] as (start, end, label) tuples."""
        strings, spans_key = self.nlp.vocab.strings, spans_key or self.key
        keys = self.bare_keys if bare else self.keys
        if spans_key not in keys:
            keys.append(spans_key)
        for entry in patterns:
            label, span_id, pattern = entry["label"], entry.get("id", ""), entry["pattern"]
            key = repr((label, span_id, spans_key))
            self.labels[strings.add(key)] = (label, span_id, spans_key)
            self._hashes[strings[key]] = (strings.add(label), strings.add(span_id))
            if isinstance(pattern, str):
                self.phrases.add(key, self._spellings(pattern))
                continue
            if errors := validate_token_pattern(pattern):
                raise MatchPatternError(key, {0: errors})
            try:
                self.tokens.add(strings[key], pattern)
            except Unsupported:
                self.others.add(key, [pattern])
        bare_keys = set(self.bare_keys)  # a spans key made bare keeps every match bare
        self._rows = {key: (spans_key, (label,) if spans_key in bare_keys else self._hashes[key])
                      for key, (label, _, spans_key) in self.labels.items()}

    def _spellings(self, phrase: str) -> list[Doc]:
        """A phrase as written, and its words joined by hyphens when the tokenizer keeps
        that as one word: "silent corruption" also finds "the silent-corruption GPU"."""
        docs = [self.nlp.make_doc(phrase)]
        if len(docs[0]) > 1 and all(token.is_alpha for token in docs[0]):
            joined = self.nlp.make_doc("-".join(token.text for token in docs[0]))
            if len(joined) == 1:
                docs.append(joined)
        return docs

    def __call__(self, doc: Doc) -> Doc:
        spans, bare = self.match(doc)
        for spans_key, found in spans.items():
            doc.spans[spans_key] = found
        doc._.bare_matches = bare
        return doc

    def match(self, doc: Doc) -> tuple[dict[str, list[Span]], dict[str, list[tuple]]]:
        """Every match per spans key, sorted as span_ruler does, and the bare matches."""
        found = self.tokens(doc)  # a new set, which the other matches join
        found.update(self.phrases(doc))
        if len(self.others):
            found.update(self.others(doc))
        # rows per spans key: Spans sort by (start, end, label, kb_id, id), labels and ids as
        # hashes; bare matches are (start, end, label)
        spans: dict[str, list[tuple]] = {key: [] for key in self.keys}
        bare: dict[str, list[tuple]] = {key: [] for key in self.bare_keys}
        targets, kinds = spans | bare, self._rows
        for key, start, end in found:
            if start != end:
                spans_key, tail = kinds[key]
                targets[spans_key].append((start, end, *tail))
        return ({key: [Span(doc, start, end, label=label, span_id=span_id)
                       for start, end, label, span_id in sorted(rows)]
                 for key, rows in spans.items()},
                {key: sorted(rows) for key, rows in bare.items()})


if not Doc.has_extension("bare_matches"):
    Doc.set_extension("bare_matches", default=None)


@Language.factory("anchored_span_ruler", default_config={"spans_key": "ruler"})
def make_anchored_ruler(nlp: Language, name: str, spans_key: str) -> AnchoredRuler:
    """The pipeline factory: `nlp.add_pipe("anchored_span_ruler", config={"spans_key": ...})`."""
    return AnchoredRuler(nlp, spans_key)
