"""spaCy token patterns matched over a doc's attribute arrays, without spaCy's Matcher.

spaCy's Matcher tries every pattern at every token and calls Python for each
IN or REGEX predicate with a new Token object; on our ~300 patterns that was
most of the classifier's time. Here each pattern is compiled into segments
(a token spec, repeated `lo` to `hi` times). Per doc:

1. each distinct word of the doc (its ORTH value, which also names its LOWER value:
   a lexeme attribute's values are learned with the ORTH word) is looked up in an
   index of the word lists and regexes of the specs; a REGEX is run once per
   distinct string, ever (the words found are kept), and not at all if it is
   anchored at the string's start (or end) and cannot begin (or end) with the
   string's first (or last) three characters: a new word is searched for about
   one regex in five (meeting new words is most of what a first logbook costs more);
2. a pattern cannot match unless the doc holds a word for each of its
   *requirements* (the segments of exactly one token with a word list or a
   regex): the others, all but a few per doc, are skipped;
3. the tokens each spec passes are one integer, bit i for token i (from the
   tokens of each word of the doc, found in one pass); the boundaries where a
   match begins are then found for all tokens at once, a few big-integer ANDs
   and shifts per segment, backwards from the last one; from each start (a
   match, most docs have few), the same steps forwards give every end.

The result is spaCy's Matcher's without a `greedy` filter: every (key, start,
end) such that doc[start:end] matches the pattern, with `?`, `*`, `+`, `{m,n}`
and `!` as spaCy expands them, and no zero-length match. The values tested are
those the Matcher reads (`doc.to_array` and the Matcher share spaCy's
`get_token_attr`; IS_SENT_START is true only where the sentence start is 1, SPACY where
whitespace follows the token; a lexeme flag, LOWER, SHAPE, PREFIX and SUFFIX are the token's
lexeme's, learned once per ORTH word).
Several predicates on one attribute ({"REGEX": ..., "NOT_IN": [...]}) must all pass.
A pattern needing anything else (FUZZY, extension attributes, `>=`, LEMMA)
raises `Unsupported`, for spaCy's Matcher to match.
"""

from __future__ import annotations

import functools
import json
import operator
import re
import string
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from re import _constants as sre
from re import _parser as sre_parse

import numpy as np
from spacy.attrs import IDS, ORTH, SENT_START, SPACY
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.strings import StringStore, get_string_id
from spacy.tokens import Doc
from spacy.vocab import Vocab

# attributes whose values are strings (hashes), which the index can look up
_STRING_ATTRS = {"ORTH", "LOWER", "NORM", "SHAPE", "PREFIX", "SUFFIX"}
# lexeme flags (0 or 1), compared as spaCy's Matcher does with int(value)
_FLAG_ATTRS = {name for name in IDS if name.startswith(("IS_", "LIKE_"))} - {"IS_SENT_START"}
_ALIASES = {"TEXT": "ORTH"}
# the lexeme attributes but ORTH, by the Lexeme property that reads each: a token's value is its
# lexeme's, which its ORTH word names (not so NORM: a token's own norm can be set)
_LEXEME_ATTRS = {IDS[name.upper()]: name for name in ("lower", "shape", "prefix", "suffix")}

_ALL_TRUE = np.uint64(0x0101010101010101)  # eight True booleans read as one uint64
_AFFIX = 3  # characters of a new word's start and end that choose the regexes it is searched for
_MAX_AFFIXES = 256  # strings kept for one end of a regex (past it, they are cut shorter)
# docs seen when each pattern's anchor is picked again; past the last, docs are not counted
_REANCHOR_AT = (64, 256, 1024)
# a doc with at most as many distinct ORTH words finds its viable patterns without numpy
_FEW_WORDS = 64
# doc.user_data: the doc's ORTH values, a list, left by a component that read them before
# (sentences.py), so that the matcher need not read them again
ORTHS_KEY = "logbook_miner.orths"


class Unsupported(ValueError):
    """The pattern uses a feature this matcher does not implement."""


@dataclass(frozen=True, slots=True, eq=False)
class _Index:
    """A check the index can look words up by: `attr` in `words`, or `attr` matching `pattern`."""

    attr: int
    words: frozenset[int] | None
    pattern: re.Pattern | None
    rarity: tuple[int, int, int]  # lowest first: a short list of uncommon words is a good anchor
    # what a string `pattern` finds must begin with, and end with (read backwards), as
    # _affixes gives them (None: not known)
    heads: frozenset[str] | None = None
    tails: frozenset[str] | None = None
    least: int = 0  # the fewest characters a match of `pattern` spans (re's own bound)
    # the words seen so far that `pattern` finds (each word is searched once, when first seen);
    # on a lexeme attr, for a word list too: the ORTH words seen whose lexeme's value passes
    accepted: set[int] = field(default_factory=set)


@dataclass(frozen=True, slots=True, eq=False)
class _Check:
    """One predicate on one attribute: the value is in `words` (for a REGEX, the words found
    to pass it, which every word of a doc is by the time the doc is matched), or with
    `negate`, it is not."""

    attr: int
    words: frozenset[int] | set[int]
    negate: bool = False

    def mask(self, doc: _Doc) -> int:
        """The doc's tokens that pass, as bits (a loop: most docs hold 0 to 2 of the words)."""
        where = doc.where.get(self.attr)
        if where is None:
            where = doc.words(self.attr)
        found = 0
        for word in self.words & doc.values[self.attr]:
            found |= where[word]
        return doc.tokens ^ found if self.negate else found


@dataclass(frozen=True, slots=True, eq=False)
class _FlagCheck:
    """IS_SENT_START or SPACY, or a lexeme flag tested for a value other than 0 or 1 (numpy compares
    all the doc's tokens at once): the value is `value`, or with `negate`, it is not. A flag
    tested for 0 or 1 is a _Check of the ORTH words that have it (see TokenMatcher._flagged)."""

    attr: int
    value: int
    negate: bool = False

    def mask(self, doc: _Doc) -> int:
        """The doc's tokens that pass, as bits."""
        found = doc.equal(self.attr, self.value)
        return doc.tokens ^ found if self.negate else found


class _Spec:
    """A token spec without its OP: the checks every matched token passes. `mask(doc)` gives
    the doc's tokens that pass, as bits: a lone check's own (nine specs in ten have one
    check, and a call less per spec and doc is ~20% of their masks' cost)."""

    __slots__ = ("checks", "index", "mask")

    def __init__(self, checks: list[_Check | _FlagCheck], index: _Index | None) -> None:
        self.checks = checks
        self.index = index
        self.mask: Callable[[_Doc], int] = checks[0].mask if len(checks) == 1 else self._all

    def _all(self, doc: _Doc) -> int:
        found = doc.tokens
        for check in self.checks:
            found &= check.mask(doc)
        return found


class _Negated(_Spec):
    """spaCy's OP "!": one token that fails the spec (no token, for an empty spec)."""

    __slots__ = ("spec",)

    def __init__(self, spec: _Spec | None) -> None:
        super().__init__([], None)
        self.spec = spec
        self.mask = self._failing

    def _failing(self, doc: _Doc) -> int:
        return 0 if self.spec is None else doc.tokens ^ doc.mask(self.spec)


_Segment = tuple[_Spec | None, int, int | None]  # a spec (None: any token), lo, hi (None: any)


@dataclass(slots=True)
class _Pattern:
    """A compiled token pattern."""

    key: int
    segments: tuple[_Segment, ...]
    required: tuple[int, ...]  # its requirements: the indexed segments of exactly one token
    anchor: int  # the requirement tested first for viability (-1 if none): the rarest
    length: int | None  # the tokens every match spans, if all segments are of one token


class _Doc:
    """A doc's values of the attributes the specs test, found on first use (every doc
    reads ORTH; a lexeme attr's checks are of ORTH words, see TokenMatcher._check_of; few
    docs read IS_SENT_START), and the tokens of each value and of each spec as bits (bit i:
    token i), each found once."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.n = len(doc)
        self.tokens = (1 << self.n) - 1
        self.values: dict[int, set[int]] = {}  # per attr, its distinct values (see words)
        self.where: dict[int, dict[int, int]] = {}  # per attr, see words
        self._columns: dict[int, list[int]] = {}
        self._equal: dict[tuple[int, int], int] = {}
        self.masks: dict[_Spec | None, int] = {None: self.tokens}  # None: any token

    def read(self, attrs: list[int]) -> None:
        """Read the values of `attrs` with one to_array call (a call costs ~1.5 µs, however
        short the doc); ORTH alone from ORTHS_KEY, if a component before read them."""
        if not attrs:  # to_array fails on none
            return
        known = self.doc.user_data.get(ORTHS_KEY) if attrs == [ORTH] else None
        if known is not None and len(known) == self.n:  # (not a doc retokenized since)
            self._columns[ORTH], self.values[ORTH] = known, set(known)
            return
        columns = self.doc.to_array(attrs).reshape(self.n, len(attrs)).T  # 1-D for one attr
        for attr, column in zip(attrs, columns.tolist(), strict=True):
            self._columns[attr] = column
            self.values[attr] = set(column)

    def words(self, attr: int) -> dict[int, int]:
        """The tokens of each value of `attr` in the doc (value -> bits), kept in `where`."""
        if attr not in self._columns:
            self.read([attr])
        where: dict[int, int] = {}
        for value, bit in zip(self._columns[attr], _bits_up_to(self.n), strict=False):
            if value in where:  # a word met before (a first one costs no new integer)
                where[value] |= bit
            else:
                where[value] = bit
        self.where[attr] = where
        return where

    def equal(self, attr: int, value: int) -> int:
        """The tokens whose `attr` is `value`, as bits (numpy compares them all at once)."""
        if (attr, value) not in self._equal:
            self._equal[attr, value] = _mask(self.doc.to_array(attr) == value)
        return self._equal[attr, value]

    def mask(self, spec: _Spec) -> int:
        """The tokens that pass `spec`, as bits."""
        found = self.masks.get(spec)
        if found is None:
            found = self.masks[spec] = spec.mask(self)
        return found


class TokenMatcher:
    """Finds every match of spaCy token patterns in a doc; see the module docstring."""

    def __init__(self, strings: StringStore) -> None:
        self.strings = strings
        self.patterns: list[_Pattern] = []
        self._specs: dict[str, _Spec] = {}
        # A requirement is the index of a pattern's segment of exactly one token; its id (a bit)
        # is shared by all the patterns that require it.
        self._requirements: dict[_Index, int] = {}
        self._listed: dict[tuple[int, frozenset[int]], _Index] = {}  # one index per word list
        self._anchored: list[_Pattern] = []  # the patterns with requirements
        # their requirements, a row each (padded), and their anchors (see _table)
        self._required: tuple[np.ndarray, np.ndarray] | None = None
        self._seen = np.zeros(0, np.int64)  # per requirement, the docs it was present in
        self._docs = 0  # the docs counted in _seen
        # for docs of few words (see _viable_few): each row's requirements as bits, and those
        # but its anchor; the rows of each anchor; per word mask met, the rows anchored at
        # one of its requirements, and per attr, those of each word met
        self._needs: list[int] = []
        self._rest: list[int] = []
        self._by_anchor: dict[int, list[int]] = {}
        self._rows_of: dict[int, tuple[int, ...]] = {}
        self._rows_of_word: dict[int, dict[int, tuple[int, ...]]] = {}
        self._scan: list[_Pattern] = []  # patterns with no requirement, tried in every doc
        # per attr: the requirements of each listed word, and every regex, with its bit
        self._words: dict[int, dict[int, int]] = {}  # word -> the bits of its requirements
        self._regexes: dict[int, dict[_Index, int]] = {}  # regex -> its bit (0: not required)
        self._regex_tests: dict[tuple[int, str], _Index] = {}  # one index per (attr, regex)
        self._screens: dict[int, _Screen] = {}  # per attr: which regexes a new word may pass
        # per attr: word -> the requirements it passes, as bits (filled on first sight of each
        # word); a doc's requirements are the OR of its words', a few big-int ORs, not set unions
        self._lookup: dict[int, dict[int, int]] = {}
        # per ORTH word, filled on first sight of it: the requirements it passes, on ORTH and
        # on its lexeme's value of each lexeme attr looked up (LOWER). A doc's LOWER values
        # are then neither read from it nor looked up (see _check_of).
        self._by_orth: dict[int, int] = {}
        self._lexemes: list[int] = []  # the lexeme attrs looked up
        # per lexeme attr: each value -> the word lists that hold it (fixed), and the indexes it
        # passes (lists and regexes, filled on first sight of the value, like _lookup)
        self._listing: dict[int, dict[int, list[_Index]]] = {}
        self._passing: dict[int, dict[int, list[_Index]]] = {}
        self._read: list[int] = [ORTH]  # the attrs _present reads from a doc
        self._masks: dict[int, int] = {}  # each distinct mask once (all numbers pass the same)
        # per lexeme flag tested: the ORTH words that have it (filled on first sight of each
        # word): a flag is the lexeme's, so a check of it is a word list, with no numpy call
        self._flagged: dict[int, set[int]] = {}

    def add(self, key: int, pattern: list[dict]) -> None:
        """Compile a token pattern (raises Unsupported if spaCy must match it instead)."""
        segments = tuple(seg for spec in pattern for seg in self._segments(spec))
        indexes = list(dict.fromkeys(spec.index for spec, lo, hi in segments
                                     if lo == hi == 1 and spec is not None and spec.index))
        required = sorted(self._require(index) for index in indexes)
        anchor = self._require(min(indexes, key=lambda i: i.rarity)) if indexes else -1
        fixed = all(lo == hi == 1 for _, lo, hi in segments)
        self.patterns.append(_Pattern(key, segments, tuple(required), anchor,
                                      len(segments) if fixed else None))
        if required:
            self._anchored.append(self.patterns[-1])
            self._required = None  # tabled again when first needed
        else:
            self._scan.append(self.patterns[-1])
        # words seen so far were looked up without this pattern
        self._lookup = {attr: {} for attr in self._words}
        self._by_orth = {}
        self._lexemes = [attr for attr in self._words if attr in _LEXEME_ATTRS]
        self._passing = {attr: {} for attr in self._lexemes}
        self._read = [ORTH, *(attr for attr in self._words
                              if attr != ORTH and attr not in _LEXEME_ATTRS)]
        self._screens = {}  # indexed again when first needed

    def _require(self, index: _Index) -> int:
        """The requirement id of `index` (given on first use)."""
        if index not in self._requirements:
            r = self._requirements[index] = len(self._requirements)
            if index.pattern is not None:
                self._regexes[index.attr][index] = 1 << r
            else:
                words = self._words.setdefault(index.attr, {})
                for word in index.words:
                    words[word] = words.get(word, 0) | 1 << r
        return self._requirements[index]

    def _segments(self, spec: dict) -> list[tuple[_Spec | None, int, int | None]]:
        """The segments one pattern token stands for, as spaCy expands its OP."""
        spec = {k.upper(): v for k, v in spec.items()}
        op = spec.pop("OP", None)
        compiled = self._spec(spec)
        if op == "!":
            return [(_Negated(compiled), 1, 1)]
        lo, hi = _repeat(op)
        out = [(compiled, 1, 1)] * lo
        if hi is None or hi > lo:
            out.append((compiled, 0, None if hi is None else hi - lo))
        return out

    def _spec(self, spec: dict) -> _Spec | None:
        if not spec:
            return None
        key = json.dumps(spec, sort_keys=True)
        if key not in self._specs:
            checks, index = [], None
            for attr, value in spec.items():
                for predicate in _predicates(value):
                    check, found = self._check(_ALIASES.get(attr, attr), predicate)
                    checks.append(check)
                    index = index or found
            self._specs[key] = _Spec(checks, index)
        return self._specs[key]

    def _check(self, attr: str, value: object) -> tuple[_Check | _FlagCheck, _Index | None]:
        """(check, index or None) for one attribute of a token spec."""
        if attr == "IS_SENT_START" and isinstance(value, bool):
            return _FlagCheck(SENT_START, 1, negate=not value), None
        if attr == "SPACY" and isinstance(value, int) and value in (0, 1):  # bools are ints
            return _FlagCheck(SPACY, 1, negate=not value), None  # whitespace follows the token
        if attr in _FLAG_ATTRS and isinstance(value, int):  # bools are ints
            if int(value) not in (0, 1):
                return _FlagCheck(IDS[attr], int(value)), None
            self._words.setdefault(ORTH, {})  # every ORTH word is learned, its flags with it
            flagged = self._flagged.setdefault(IDS[attr], set())
            return _Check(ORTH, flagged, negate=not value), None
        if attr not in _STRING_ATTRS:
            raise Unsupported(f"{attr}: {value!r}")
        attr_id = IDS[attr]
        if isinstance(value, str):
            value = {"IN": [value]}
        if isinstance(value, dict) and len(value) == 1:
            (kind, arg), = value.items()
            if kind in ("IN", "NOT_IN") and all(isinstance(v, str | int) for v in arg):
                index = self._list_index(attr_id, arg)
                if kind == "NOT_IN":
                    return _check_of(index, negate=True), None
                return _check_of(index), index
            if kind == "REGEX" and isinstance(arg, str):
                if (attr_id, arg) not in self._regex_tests:
                    pattern = re.compile(arg)
                    index = _Index(attr_id, None, pattern, (1, 0, 0), *_affixes(pattern),
                                   _least(pattern))
                    self._regex_tests[attr_id, arg] = index
                    # each word of the attr is searched for it when first seen
                    self._regexes.setdefault(attr_id, {})[index] = 0
                    self._words.setdefault(attr_id, {})
                index = self._regex_tests[attr_id, arg]
                return _check_of(index), index
        raise Unsupported(f"{attr}: {value!r}")

    def _list_index(self, attr: int, words: list[str | int]) -> _Index:
        """The index of a word list on `attr` (one per list); on a lexeme attr, each value it
        holds names it, for the ORTH words of that value to note (_learn_orth)."""
        ids = frozenset(get_string_id(v) for v in words)
        if (attr, ids) not in self._listed:
            index = self._listed[attr, ids] = _Index(
                attr, ids, None, (0, sum(map(_common, words)), len(ids)))
            if attr in _LEXEME_ATTRS:
                self._words.setdefault(attr, {})  # each ORTH word's value is learned
                listing = self._listing.setdefault(attr, {})
                for word in ids:
                    listing.setdefault(word, []).append(index)
        return self._listed[attr, ids]

    def __call__(self, doc: Doc) -> set[tuple[int, int, int]]:
        """Every (key, start, end) some pattern matches in `doc`."""
        found: set[tuple[int, int, int]] = set()
        if not len(doc):
            return found
        state = _Doc(doc)
        present = self._present(state)
        viable = (self._viable_few(state, present) if len(state.values[ORTH]) <= _FEW_WORDS
                  else self._viable(present))
        for pattern in [*viable, *self._scan]:
            starts = _starts(pattern.segments, state)
            if not starts:
                continue
            key = pattern.key
            if pattern.length is not None:
                found.update((key, s, s + pattern.length) for s in _bits(starts))
                continue
            for s in _bits(starts):
                ends = _ends(pattern.segments, s, state)
                found.update((key, s, e) for e in _bits(ends) if e > s)
        return found

    def _viable(self, present: int) -> list[_Pattern]:
        """The patterns with every requirement in `present` (bits): those whose anchor is
        there (one gather over all patterns; a few hundred of ~4,000 pass), then only their
        whole rows."""
        passed = _bit_vector(present, len(self._requirements))
        table, anchors = self._table()
        if self._docs < _REANCHOR_AT[-1]:
            table, anchors = self._count(passed)
        rows = np.flatnonzero(passed[anchors])
        # a row's 8 booleans at a time, read as one integer (numpy's all(axis=1) is 10x slower)
        every = (passed[table[rows]].view(np.uint64) == _ALL_TRUE).all(axis=1)
        return [self._anchored[k] for k in rows[every].tolist()]

    def _viable_few(self, doc: _Doc, present: int) -> list[_Pattern]:
        """`_viable` for a doc of few words (most docs are titles or a few lines), without
        numpy's fixed cost per call: the rows anchored at a requirement of one of its words
        (kept per word: a word's mask, a big integer, costs more to hash than the word), each
        tested in full by two big-int operations, or none if its anchor is its only
        requirement (half the rows; the anchor is present)."""
        self._table()
        rows: set[int] = set()
        for attr in self._read:
            masks = self._by_orth if attr == ORTH else self._lookup[attr]
            kept = self._rows_of_word.setdefault(attr, {})
            for word in doc.values[attr]:
                found = kept.get(word)
                if found is None:
                    found = kept[word] = self._anchored_rows(masks[word])
                rows.update(found)
        rest = self._rest
        return [self._anchored[k] for k in sorted(rows)
                if not rest[k] or present & rest[k] == rest[k]]

    def _anchored_rows(self, mask: int) -> tuple[int, ...]:
        """The rows anchored at a requirement in `mask` (kept per mask)."""
        if mask not in self._rows_of:
            self._rows_of[mask] = tuple(row for r in _bits(mask)
                                        for row in self._by_anchor.get(r, ()))
        return self._rows_of[mask]

    def _anchor(self, anchors: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The table with these anchors; the rows of each anchor for _viable_few."""
        self._by_anchor, self._rows_of, self._rows_of_word = {}, {}, {}
        for row, anchor in enumerate(anchors.tolist()):
            self._by_anchor.setdefault(anchor, []).append(row)
        self._rest = [needs & ~(1 << anchor)
                      for needs, anchor in zip(self._needs, anchors.tolist(), strict=True)]
        self._required = self._required[0], anchors
        return self._required

    def _table(self) -> tuple[np.ndarray, np.ndarray]:
        """The requirements of each pattern that has any, a row per pattern, padded to a
        multiple of 8 with the id one past the last requirement (which `_bit_vector` sets),
        and each row's anchor: numpy gathers test every pattern against a doc's requirements."""
        if self._required is None:
            most = max((len(pattern.required) for pattern in self._anchored), default=1)
            width, pad = -(-most // 8) * 8, len(self._requirements)
            self._required = (
                np.array([[*p.required, *[pad] * (width - len(p.required))]
                          for p in self._anchored], dtype=np.intp).reshape(-1, width),
                np.array([p.anchor for p in self._anchored], dtype=np.intp))
            self._needs = [sum(1 << r for r in p.required) for p in self._anchored]
            self._anchor(self._required[1])
            self._seen, self._docs = np.zeros(pad + 1, np.int64), 0
            self._seen[pad] = 1 << 62  # the padding is never an anchor
        return self._required

    def _count(self, passed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Count the docs each requirement is present in (not those of few words), and after
        _REANCHOR_AT docs, anchor each pattern at its requirement present in the fewest. The
        static guess (stop words and short lists) cannot tell "gpu" from "nccl": on the
        shared logbooks, a doc's anchors then pass ~270 patterns, counted ones ~50, whose rows
        are tested in full. Which anchor a pattern has changes the cost of the test, never
        which patterns pass."""
        table, anchors = self._required
        self._seen += passed[:len(self._seen)]
        self._docs += 1
        if self._docs in _REANCHOR_AT:
            return self._anchor(table[np.arange(len(table)), self._seen[table].argmin(axis=1)])
        return table, anchors

    def _present(self, doc: _Doc) -> int:
        """The requirements some token of the doc passes, as bits: its ORTH words' (which
        hold their lexemes'), then those on the other attrs read."""
        doc.read(self._read)
        words = doc.values[ORTH]
        for word in words.difference(self._by_orth):
            self._learn_orth(word, doc.doc.vocab)
        present = functools.reduce(operator.or_, map(self._by_orth.__getitem__, words), 0)
        for attr in self._read[1:]:
            lookup, words = self._lookup[attr], doc.values[attr]
            for word in words.difference(lookup):
                self._learn(attr, word, doc.doc.vocab)
            present = functools.reduce(operator.or_, map(lookup.__getitem__, words), present)
        return present

    def _learn_orth(self, word: int, vocab: Vocab) -> None:
        """Note the requirements an ORTH word passes on ORTH and on its lexeme's values of the
        lexeme attrs looked up, each value learned on its own first sight, and note the word
        in the indexes its values pass (run once per word)."""
        bits = self._learn(ORTH, word, vocab) if ORTH in self._lookup else 0
        lexeme = vocab[word]
        for attr in self._lexemes:
            value = getattr(lexeme, _LEXEME_ATTRS[attr])
            lookup = self._lookup[attr]
            bits |= lookup[value] if value in lookup else self._learn(attr, value, vocab)
            for index in self._passing[attr][value]:
                index.accepted.add(word)
        self._by_orth[word] = self._masks.setdefault(bits, bits)

    def _learn(self, attr: int, word: int, vocab: Vocab) -> int:
        """Note (and return) the requirements on `attr` that `word` passes, the indexes it
        passes, and for an ORTH word, the flags it has (run once per word)."""
        text, bits = self.strings[word], self._words[attr].get(word, 0)
        if attr == ORTH and self._flagged:
            lexeme = vocab[word]
            for flag, words in self._flagged.items():
                if lexeme.check_flag(flag):
                    words.add(word)
        if attr not in self._screens:
            self._screens[attr] = _Screen(list(self._regexes.get(attr, {}).items()))
        passing = []
        for index, index_bits in self._screens[attr].candidates(text):
            if index.pattern.search(text):
                passing.append(index)
                bits |= index_bits
        if attr in _LEXEME_ATTRS:  # the ORTH words of this value note them (_learn_orth)
            self._passing[attr][word] = [*self._listing.get(attr, {}).get(word, ()), *passing]
        else:
            for index in passing:
                index.accepted.add(word)
        bits = self._lookup[attr][word] = self._masks.setdefault(bits, bits)  # words share one
        return bits


class _Screen:
    """The regexes on one attribute, indexed by the strings their matches begin and end with
    (`_Index.heads`, `.tails`): a new word is searched only for those its own first and last
    characters allow (on the shared logbooks, 24 of 91 on ORTH, 29 of 168 on LOWER), and
    that it is long enough for (an unanchored "ECCUncorrectable" is searched in every word)."""

    def __init__(self, regexes: list[tuple[_Index, int]]) -> None:
        self.regexes = regexes  # (index, its requirement bit or 0)
        self.everything = (1 << len(regexes)) - 1
        # at k, the regexes (as bits) a string of k characters may match (past the end, all)
        longest = max((index.least for index, _ in regexes), default=0)
        self.fitting = [sum(1 << i for i, (index, _) in enumerate(regexes) if index.least <= k)
                        for k in range(longest)]
        self.heads, self.any_head = _by_affix([index.heads for index, _ in regexes])
        self.tails, self.any_tail = _by_affix([index.tails for index, _ in regexes])
        self._chosen: dict[int, list[tuple[_Index, int]]] = {}  # each mask's regexes, once

    def candidates(self, text: str) -> list[tuple[_Index, int]]:
        """The regexes `text` may pass."""
        mask = (self._mask(text[:_AFFIX], self.heads, self.any_head)
                & self._mask(text[:-_AFFIX - 1:-1], self.tails, self.any_tail))
        if len(text) < len(self.fitting):
            mask &= self.fitting[len(text)]
        if mask not in self._chosen:
            self._chosen[mask] = [self.regexes[i] for i in _bits(mask)]
        return self._chosen[mask]

    def _mask(self, affix: str, by_affix: dict[str, int], unknown: int) -> int:
        """The regexes (as bits) whose strings hold a start of `affix`, or are not known; all of
        them for non-ASCII text (Unicode's case rules are not screened) or a line end ("$"
        matches before one)."""
        if not affix.isascii() or "\n" in affix:
            return self.everything
        affix, found = affix.lower(), unknown
        for size in range(1, len(affix) + 1):
            found |= by_affix.get(affix[:size], 0)
        return found


def _by_affix(affixes: list[frozenset[str] | None]) -> tuple[dict[str, int], int]:
    """(string -> the regexes, as bits, that hold it; the regexes whose strings are not known)."""
    by_affix: dict[str, int] = {}
    unknown = 0
    for i, strings in enumerate(affixes):
        if strings is None:
            unknown |= 1 << i
        for affix in strings or ():
            by_affix[affix] = by_affix.get(affix, 0) | 1 << i
    return by_affix, unknown


def _starts(segments: tuple[_Segment, ...], doc: _Doc) -> int:
    """The boundaries (bit b: before token b) where a match of `segments` begins, found
    backwards from the last segment: one step keeps the boundaries b whose token passes the
    spec and whose next boundary b + 1 was kept."""
    here, masks = (doc.tokens << 1) | 1, doc.masks  # every boundary, 0 to n
    for spec, lo, hi in reversed(segments):
        passing = masks.get(spec)
        if passing is None:  # doc.mask(spec), inlined: this loop is the matcher's hottest
            passing = masks[spec] = spec.mask(doc)
        here = passing & here >> 1 if lo == hi == 1 else _repeats(passing, lo, hi, here, back=True)
        if not here:
            break
    return here


def _ends(segments: tuple[_Segment, ...], start: int, doc: _Doc) -> int:
    """The boundaries where a match of `segments` from boundary `start` ends."""
    here = 1 << start
    for spec, lo, hi in segments:
        passing = doc.masks[spec]  # _starts found them all
        if lo == hi == 1:
            here = (here & passing) << 1
        else:
            here = _repeats(passing, lo, hi, here, back=False)
        if not here:
            break
    return here


def _repeats(passing: int, lo: int, hi: int | None, here: int, back: bool) -> int:
    """The boundaries reached from those in `here` through `lo` to `hi` tokens in `passing`."""
    reached, count = here if lo == 0 else 0, 0
    while here and (hi is None or count < hi):
        here = passing & here >> 1 if back else (here & passing) << 1
        count += 1
        if count >= lo:
            if not here & ~reached:  # nothing new: nothing new further on either
                break
            reached |= here
    return reached


def _check_of(index: _Index, negate: bool = False) -> _Check:
    """A check of what `index` finds. On a lexeme attr, of the ORTH words whose lexeme's value
    it finds (noted once per word): a doc then joins no tokens by their LOWER values, and
    all its checks but a few read its ORTH words only."""
    if index.attr in _LEXEME_ATTRS:
        return _Check(ORTH, index.accepted, negate)
    return _Check(index.attr, index.accepted if index.words is None else index.words, negate)


def _bits(mask: int) -> Iterator[int]:
    """The positions of the bits set in `mask`, lowest first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


_BITS: list[int] = []  # 1 << i at i, for as many tokens as the longest doc yet


def _bits_up_to(n: int) -> list[int]:
    """1 << i for i from 0 to at least n - 1 (read from a table: shifts cost allocations)."""
    _BITS.extend(1 << i for i in range(len(_BITS), n))
    return _BITS


def _mask(passing: np.ndarray) -> int:
    """Booleans, one per token, as bits."""
    return int.from_bytes(np.packbits(passing, bitorder="little").tobytes(), "little")


def _bit_vector(mask: int, size: int) -> np.ndarray:
    """`mask`'s bits 0 to `size` - 1 as booleans, and True at `size` (the table's padding)."""
    octets = np.frombuffer((mask | 1 << size).to_bytes(size // 8 + 1, "little"), np.uint8)
    return np.unpackbits(octets, bitorder="little").view(bool)


def _predicates(value: object) -> list[object]:
    """One attribute's predicates, which a token must all pass: {"REGEX": r, "NOT_IN": [...]}
    is two tests (the regex can index the spec; the word list is checked at each token)."""
    if isinstance(value, dict) and len(value) > 1:
        return [{kind: arg} for kind, arg in value.items()]
    return [value]


def _repeat(op: str | None) -> tuple[int, int | None]:
    """(min, max) tokens for spaCy's OP (max None = unbounded), as spaCy reads it."""
    if op in (None, "1"):
        return 1, 1
    if op in ("?", "*", "+"):
        return int(op == "+"), 1 if op == "?" else None
    if isinstance(op, str) and op.startswith("{") and op.endswith("}"):
        low, comma, high = op[1:-1].partition(",")
        high = high if comma else low
        numbers = [int(x) for x in (low, high) if x.isdecimal()]
        if (low or high) and len(numbers) == bool(low) + bool(high) and numbers == sorted(numbers):
            return int(low or 0), int(high) if high else None
    raise Unsupported(f"OP {op!r}")


_CATEGORIES = {sre.CATEGORY_DIGIT: frozenset("0123456789"),
               sre.CATEGORY_WORD: frozenset(string.ascii_lowercase + string.digits + "_"),
               sre.CATEGORY_SPACE: frozenset(" \t\n\r\f\v")}
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_REPEATS = (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT)
_STARTS = (sre.AT_BEGINNING, sre.AT_BEGINNING_STRING)
_ENDS = (sre.AT_END, sre.AT_END_STRING)
# (text, open): what a match may begin with, and whether more follows that is not known
_Strings = set[tuple[str, bool]]
_NOTHING: _Strings = {("", False)}  # a node that consumes nothing
_UNKNOWN: _Strings = {("", True)}


def _affixes(pattern: re.Pattern) -> tuple[frozenset[str] | None, frozenset[str] | None]:
    """(heads, tails): strings of 1 to _AFFIX characters (ASCII, lower case) one of which every
    string `pattern` finds begins with, and one of which it ends with (tails read backwards);
    None where not known (the regex is not anchored there, or may match nothing)."""
    if pattern.flags & re.MULTILINE:
        return None, None
    try:
        nodes = list(sre_parse.parse(pattern.pattern, pattern.flags))
    except re.error:
        return None, None
    return tuple(_known(_strings(nodes, backwards)) if _anchored(nodes, anchors, backwards)
                 else None for anchors, backwards in ((_STARTS, False), (_ENDS, True)))


def _least(pattern: re.Pattern) -> int:
    """The fewest characters a match of `pattern` spans: re's own bound (its search fails at
    once in a shorter string, after the cost of a call), 0 if not known."""
    try:
        return sre_parse.parse(pattern.pattern, pattern.flags).getwidth()[0]
    except re.error:
        return 0


def _anchored(nodes: list, anchors: tuple, backwards: bool) -> bool:
    """True if every match of the parsed `nodes` is at the string's start (or end, read
    `backwards`): one of `anchors` comes before anything that consumes a character."""
    for op, av in reversed(nodes) if backwards else nodes:
        if op is sre.AT and av in anchors:
            return True
        if op in _ZERO_WIDTH:
            continue
        if op is sre.BRANCH:
            return all(_anchored(list(branch), anchors, backwards) for branch in av[1])
        if op is sre.SUBPATTERN:  # "(?m:...)" would anchor at line ends
            return not av[1] & re.MULTILINE and _anchored(list(av[-1]), anchors, backwards)
        return False
    return False


def _known(found: _Strings) -> frozenset[str] | None:
    texts = frozenset(text for text, _ in found)
    return None if "" in texts else texts


def _strings(nodes: list, backwards: bool) -> _Strings:
    """What a match of the parsed `nodes` begins with (or ends with, read `backwards`), up
    to _AFFIX characters."""
    found = _NOTHING
    for op, av in reversed(nodes) if backwards else nodes:
        ended = {(text, more) for text, more in found if more}
        if ended == found:
            break
        after = _node(op, av, backwards)
        found = _bounded(ended | {_joined(text, *part) for text, more in found - ended
                                  for part in after})
    return found


def _node(op: object, av: object, backwards: bool) -> _Strings:
    """What one parsed regex node matches, as `_strings` gives it."""
    if op in _ZERO_WIDTH:
        return _NOTHING
    if op in (sre.LITERAL, sre.IN):
        chars = _class([(op, av)] if op is sre.LITERAL else av)
        return _UNKNOWN if chars is None else {(char, False) for char in chars}
    if op is sre.SUBPATTERN:
        return _strings(list(av[-1]), backwards)
    if op is sre.BRANCH:
        return _bounded(set().union(*(_strings(list(branch), backwards) for branch in av[1])))
    if op in _REPEATS:
        least, most, item = av
        once = _strings(list(item), backwards)
        if most != 1:  # what follows the first time is not known
            once = {(text, True) for text, _ in once}
        return once | _NOTHING if least == 0 else once
    return _UNKNOWN


def _joined(text: str, after: str, more: bool) -> tuple[str, bool]:
    joined = text + after
    return (joined[:_AFFIX], True) if len(joined) >= _AFFIX else (joined, more)


def _bounded(found: _Strings) -> _Strings:
    """`found`, cut shorter until at most _MAX_AFFIXES strings remain."""
    size = _AFFIX
    while len(found) > _MAX_AFFIXES:
        size -= 1
        found = {(text[:size], True) if len(text) > size else (text, more)
                 for text, more in found}
    return found


def _class(items: list) -> frozenset[str] | None:
    """The ASCII characters (lower case) of a character class, or None if it may hold a
    character that matches an ASCII one only by Unicode's case rules (the Kelvin sign)."""
    found: set[str] = set()
    for op, av in items:
        if op is sre.LITERAL and av < 128:
            found.add(chr(av).lower())
        elif op is sre.RANGE and av[1] < 128:
            found.update(chr(c).lower() for c in range(av[0], av[1] + 1))
        elif op is sre.CATEGORY and av in _CATEGORIES:
            found |= _CATEGORIES[av]
        else:
            return None
    return frozenset(found)


def _common(word: str | int) -> bool:
    """A stop word or punctuation: a poor anchor, found in most docs."""
    word = str(word).lower()
    return word in STOP_WORDS or not any(c.isalnum() for c in word)
