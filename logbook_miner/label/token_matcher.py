"""spaCy token patterns matched over a doc's attribute arrays, without spaCy's Matcher.

spaCy's Matcher tries every pattern at every token and calls Python for each
IN or REGEX predicate with a new Token object; on our ~300 patterns that was
most of the classifier's time. Here each pattern is compiled into segments
(a token spec, repeated `lo` to `hi` times) and matched from an *anchor*: a
token the pattern requires exactly once. Per doc:

1. each distinct word of the doc (its LOWER or ORTH value) is looked up in an
   index of the required specs that accept it; a REGEX is run once per
   distinct string, ever, and only if its group of regexes, joined, finds the
   string, and not if it is anchored at the string's start and cannot begin with
   the string's first character (meeting new words is most of what a first
   logbook costs more);
2. a pattern whose required specs are not all in the doc cannot match and is
   skipped; otherwise matching starts from its anchor, the required spec that
   names the fewest common words (a REGEX comes after any word list);
3. from each anchor token, the segments before it are walked backwards and
   those after it forwards, which gives every start and every end.

The result is spaCy's Matcher's without a `greedy` filter: every (key, start,
end) such that doc[start:end] matches the pattern, with `?`, `*`, `+`, `{m,n}`
and `!` as spaCy expands them, and no zero-length match. The values tested are
those the Matcher reads (`doc.to_array` and the Matcher share spaCy's
`get_token_attr`; IS_SENT_START is true only where the sentence start is 1).
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
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from re import _constants as sre
from re import _parser as sre_parse

import numpy as np
from spacy.attrs import IDS, SENT_START
from spacy.lang.en.stop_words import STOP_WORDS
from spacy.strings import StringStore, get_string_id
from spacy.tokens import Doc

# attributes whose values are strings (hashes), which the index can look up
_STRING_ATTRS = {"ORTH", "LOWER", "NORM", "SHAPE", "PREFIX", "SUFFIX"}
# lexeme flags (0 or 1), compared as spaCy's Matcher does with int(value)
_FLAG_ATTRS = {name for name in IDS if name.startswith(("IS_", "LIKE_"))} - {"IS_SENT_START"}
_ALIASES = {"TEXT": "ORTH"}

_GLOBAL_FLAGS = re.compile(r"\(\?([aiLmsux]+)\)")  # "(?i)" opening a regex
_REGEX_GROUP = 4  # regexes joined to test a new word at once
_ALL_TRUE = np.uint64(0x0101010101010101)  # eight True booleans read as one uint64
_Test = Callable[[int], bool]  # a predicate on one attribute value
# (regex test, the requirements sharing it, their bits)
_RegexGroup = list[tuple[_Test, list[int], int]]


class Unsupported(ValueError):
    """The pattern uses a feature this matcher does not implement."""


@dataclass(frozen=True, slots=True)
class _Index:
    """A check the index can look words up by: `attr` in `words`, or `attr` matching `regex`."""

    attr: int
    words: frozenset[int] | None
    regex: _Test | None
    pattern: re.Pattern | None  # the regex `regex` searches with
    rarity: tuple[int, int, int]  # lowest first: a short list of uncommon words is a good anchor
    # what a string `pattern` finds must begin with, as _first gives it (None: not known)
    firsts: frozenset[str] | None = None


class _Spec:
    """A token spec without its OP: (attribute, test) pairs every matched token passes."""

    __slots__ = ("index", "tests")

    def __init__(self, tests: list[tuple[int, _Test]], index: _Index | None) -> None:
        self.tests = tests
        self.index = index

    def ok(self, columns: _Columns, i: int) -> bool:
        for attr, test in self.tests:  # noqa: SIM110 (the hot loop: all() of a generator is slower)
            if not test(columns[attr][i]):
                return False
        return True


class _Negated(_Spec):
    """spaCy's OP "!": one token that fails the spec (no token, for an empty spec)."""

    __slots__ = ("spec",)

    def __init__(self, spec: _Spec | None) -> None:
        super().__init__([], None)
        self.spec = spec

    def ok(self, columns: _Columns, i: int) -> bool:
        return self.spec is not None and not self.spec.ok(columns, i)


@dataclass(slots=True)
class _Pattern:
    key: int
    # (spec or None for any token, lo, hi or None for unbounded) per segment
    segments: list[tuple[_Spec | None, int, int | None]]
    required: tuple[int, ...]  # its requirements: the indexed segments of exactly one token
    anchor: int  # the requirement matching starts from (-1 if none): the rarest, by its words
    # False if the anchor's spec is its index alone, which every anchor token passes
    recheck: bool = True
    # the segments walked from an anchor token: those before it (the nearest first), after it
    before: tuple[tuple[_Spec | None, int, int | None], ...] = ()
    after: tuple[tuple[_Spec | None, int, int | None], ...] = ()


class _Columns(dict):
    """A doc's values of the attributes the specs test (attr id -> list), each read from the
    doc on first use: every doc needs the indexed ones (LOWER and ORTH), but only a doc in
    five a flag a walk tests, and reading all nine at once cost three times as much."""

    def __init__(self, doc: Doc) -> None:
        super().__init__()
        self.doc = doc
        self.n = len(doc)
        self._distinct: dict[int, set[int]] = {}

    def __missing__(self, attr: int) -> list[int]:
        values = self[attr] = self.doc.to_array(attr).tolist()
        return values

    def distinct(self, attr: int) -> set[int]:
        """The values of `attr` in the doc."""
        if attr not in self._distinct:
            self._distinct[attr] = set(self[attr])
        return self._distinct[attr]

    def where(self, attr: int, words: set[int]) -> dict[int, list[int]]:
        """The tokens of each word in `words` (word -> token indices)."""
        column, out = self[attr], {}
        for i in [i for i, v in enumerate(column) if v in words]:
            out.setdefault(column[i], []).append(i)
        return out


class TokenMatcher:
    """Finds every match of spaCy token patterns in a doc; see the module docstring."""

    def __init__(self, strings: StringStore) -> None:
        self.strings = strings
        self.patterns: list[_Pattern] = []
        self._specs: dict[str, _Spec] = {}
        # A requirement is a pattern's indexed segment of one token. By id: (pattern, segment,
        # index), and the words known to pass the index (all of them for a word list).
        self._requirements: list[tuple[int, int, _Index]] = []
        self._accepted: list[set[int]] = []  # requirements with the same regex share one set
        self._anchored: list[_Pattern] = []  # the patterns with requirements
        # their requirements, a row each (padded), and their anchors (see _table)
        self._required: tuple[np.ndarray, np.ndarray] | None = None
        self._scan: list[int] = []  # patterns with no requirement, tried at every token
        # per attr: the requirements of each listed word, and those with a regex
        self._words: dict[int, dict[int, int]] = {}  # word -> the bits of its requirements
        self._regexes: dict[int, dict[_Test, list[int]]] = {}  # regex test -> its requirements
        self._regex_tests: dict[tuple[int, str], _Index] = {}  # one test per (attr, regex)
        # per (attr, a word's first character): the regexes a word beginning with it can pass,
        # in small groups, each joined into one regex finding any of them, so that a new word
        # is searched for the members of the groups it passes only
        self._regex_groups: dict[tuple[int, str | None],
                                 list[tuple[re.Pattern | None, _RegexGroup]]] = {}
        # per attr: word -> the requirements it passes, as bits (filled on first sight of each
        # word); a doc's requirements are the OR of its words', a few big-int ORs, not set unions
        self._lookup: dict[int, dict[int, int]] = {}
        self._masks: dict[int, int] = {}  # each distinct mask once (all numbers pass the same)

    def add(self, key: int, pattern: list[dict]) -> None:
        """Compile a token pattern (raises Unsupported if spaCy must match it instead)."""
        segments = [seg for spec in pattern for seg in self._segments(spec)]
        number, required = len(self.patterns), []
        for n, (spec, lo, hi) in enumerate(segments):
            if lo == hi == 1 and spec is not None and spec.index is not None:
                self._require(number, n, spec.index)
                required.append(len(self._requirements) - 1)
        anchor = min(required, key=lambda r: self._requirements[r][2].rarity, default=-1)
        at = self._requirements[anchor][1] if required else 0  # the anchor's segment
        recheck = anchor < 0 or len(segments[at][0].tests) > 1
        self.patterns.append(_Pattern(key, segments, tuple(required), anchor, recheck,
                                      tuple(segments[:at][::-1]), tuple(segments[at + 1:])))
        if required:
            self._anchored.append(self.patterns[-1])
            self._required = None  # tabled again when first needed
        else:
            self._scan.append(number)
        # words seen so far were looked up without this pattern
        self._lookup = {attr: {} for attr in self._words}
        self._regex_groups = {}  # joined again when first needed

    def _require(self, number: int, segment: int, index: _Index) -> None:
        r = len(self._requirements)
        self._requirements.append((number, segment, index))
        words = self._words.setdefault(index.attr, {})
        for word in index.words or ():
            words[word] = words.get(word, 0) | 1 << r
        if index.regex is None:
            self._accepted.append(set(index.words))
            return
        sharing = self._regexes.setdefault(index.attr, {}).setdefault(index.regex, [])
        self._accepted.append(self._accepted[sharing[0]] if sharing else set())
        sharing.append(r)

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
            tests, index = [], None
            for attr, value in spec.items():
                for predicate in _predicates(value):
                    attr_id, test, found = self._check(_ALIASES.get(attr, attr), predicate)
                    tests.append((attr_id, test))
                    index = index or found
            self._specs[key] = _Spec(tests, index)
        return self._specs[key]

    def _check(self, attr: str, value: object) -> tuple[int, _Test, _Index | None]:
        """(attr id, test, index or None) for one attribute of a token spec."""
        if attr == "IS_SENT_START" and isinstance(value, bool):
            return SENT_START, _equal_to(1) if value else _not_in({1}), None
        if attr in _FLAG_ATTRS and isinstance(value, int):  # bools are ints
            return IDS[attr], _equal_to(int(value)), None
        if attr not in _STRING_ATTRS:
            raise Unsupported(f"{attr}: {value!r}")
        attr_id = IDS[attr]
        if isinstance(value, str):
            value = {"IN": [value]}
        if isinstance(value, dict) and len(value) == 1:
            (kind, arg), = value.items()
            if kind in ("IN", "NOT_IN") and all(isinstance(v, str | int) for v in arg):
                words = frozenset(get_string_id(v) for v in arg)
                if kind == "NOT_IN":
                    return attr_id, _not_in(words), None
                rarity = (0, sum(map(_common, arg)), len(words))
                return attr_id, words.__contains__, _Index(attr_id, words, None, None, rarity)
            if kind == "REGEX" and isinstance(arg, str):
                if (attr_id, arg) not in self._regex_tests:
                    pattern = re.compile(arg)
                    test = _regex(pattern, self.strings)
                    self._regex_tests[attr_id, arg] = _Index(attr_id, None, test, pattern,
                                                             (1, 0, 0), _first_characters(pattern))
                index = self._regex_tests[attr_id, arg]
                return attr_id, index.regex, index
        raise Unsupported(f"{attr}: {value!r}")

    def __call__(self, doc: Doc) -> set[tuple[int, int, int]]:
        """Every (key, start, end) some pattern matches in `doc`."""
        found: set[tuple[int, int, int]] = set()
        if not len(doc):
            return found
        columns = _Columns(doc)
        viable = self._viable(self._present(columns))
        for pattern, tokens in zip(viable, self._anchors(viable, columns), strict=True):
            self._match(pattern, tokens, columns, found)
        for number in self._scan:
            self._match_everywhere(self.patterns[number], columns, found)
        return found

    def _viable(self, present: int) -> list[_Pattern]:
        """The patterns with every requirement in `present` (bits): those whose anchor is
        there (one gather over all patterns; a few hundred of ~4,000 pass), then only their
        whole rows."""
        passed = _bit_vector(present, len(self._requirements))
        table, anchors = self._table()
        rows = np.flatnonzero(passed[anchors])
        # a row's 8 booleans at a time, read as one integer (numpy's all(axis=1) is 10x slower)
        every = (passed[table[rows]].view(np.uint64) == _ALL_TRUE).all(axis=1)
        return [self._anchored[k] for k in rows[every].tolist()]

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
        return self._required

    def _present(self, columns: _Columns) -> int:
        """The requirements some token of the doc passes, as bits."""
        present = 0
        for attr, lookup in self._lookup.items():
            words = columns.distinct(attr)
            for word in words.difference(lookup):
                self._learn(attr, word)
            present = functools.reduce(operator.or_, map(lookup.__getitem__, words), present)
        return present

    def _learn(self, attr: int, word: int) -> None:
        """Note the requirements on `attr` that `word` passes (run once per word)."""
        text, bits = self.strings[word], self._words[attr].get(word, 0)
        for any_regex, group in self._groups(attr, _first(text)):
            if any_regex is not None and not any_regex.search(text):
                continue
            for regex, sharing, sharing_bits in group:
                if regex(word):
                    self._accepted[sharing[0]].add(word)
                    bits |= sharing_bits
        self._lookup[attr][word] = self._masks.setdefault(bits, bits)  # many words share one

    def _groups(self, attr: int, first: str | None) -> list[tuple[re.Pattern | None, _RegexGroup]]:
        """The groups of regexes on `attr` a word beginning with `first` may pass (None: any)."""
        if (attr, None) not in self._regex_groups:
            # regexes that begin alike are grouped together, so a word skips whole groups
            regexes = sorted(((test, sharing, sum(1 << r for r in sharing))
                              for test, sharing in self._regexes.get(attr, {}).items()),
                             key=lambda r: sorted(self._index(r[1]).firsts or ()))
            groups = [regexes[i:i + _REGEX_GROUP] for i in range(0, len(regexes), _REGEX_GROUP)]
            self._regex_groups[attr, None] = [
                (_any_of([self._index(sharing).pattern for _, sharing, _ in group]), group)
                for group in groups]
        if (attr, first) not in self._regex_groups:
            may = [(any_regex, [member for member in group
                                if _may_begin(self._index(member[1]), first)])
                   for any_regex, group in self._regex_groups[attr, None]]
            self._regex_groups[attr, first] = [(any_regex, group) for any_regex, group in may
                                               if group]
        return self._regex_groups[attr, first]

    def _index(self, sharing: list[int]) -> _Index:
        return self._requirements[sharing[0]][2]

    def _anchors(self, patterns: list[_Pattern], columns: _Columns) -> list[list[int]]:
        """Per pattern: the tokens of its anchor in the doc, found in one pass per attr."""
        found = []
        for pattern in patterns:
            attr = self._requirements[pattern.anchor][2].attr
            found.append((attr, self._accepted[pattern.anchor] & columns.distinct(attr)))
        where = {attr: columns.where(attr, set().union(*(w for a, w in found if a == attr)))
                 for attr in {attr for attr, _ in found}}
        return [[i for w in words for i in where[attr][w]] for attr, words in found]

    def _match(self, pattern: _Pattern, tokens: list[int], columns: _Columns, found: set) -> None:
        """Add the matches whose anchor is one of the `tokens`."""
        if not (pattern.recheck or pattern.before or pattern.after):  # one word (terminators)
            found.update((pattern.key, i, i + 1) for i in tokens)
            return
        spec, n = pattern.segments[len(pattern.before)][0], columns.n
        for i in tokens:
            if pattern.recheck and not spec.ok(columns, i):
                continue
            ends = _walk(pattern.after, i + 1, 1, n, columns)
            starts = _walk(pattern.before, i, -1, n, columns) if ends else ()
            found.update((pattern.key, s, e) for s in starts for e in ends)

    def _match_everywhere(self, pattern: _Pattern, columns: _Columns, found: set) -> None:
        """A pattern that requires no indexed word: walk it forwards from every token."""
        n = columns.n
        for s in range(n):
            found.update((pattern.key, s, e)
                         for e in _walk(pattern.segments, s, 1, n, columns) if e > s)


def _walk(segments: Iterable[tuple[_Spec | None, int, int | None]], at: int, step: int, n: int,
          columns: _Columns) -> set[int]:
    """Token boundaries reached from boundary `at` through `segments`, forwards (step 1;
    token i lies between boundaries i and i + 1) or backwards (step -1)."""
    back = step < 0  # the token crossed from boundary b is b, or b - 1 going backwards
    segments = iter(segments)
    for spec, lo, hi in segments:  # while there is one boundary, without sets (the hot path)
        if lo == hi == 1:  # most segments: exactly one token
            if not (0 <= at - back < n and (spec is None or spec.ok(columns, at - back))):
                return set()
            at += step
            continue
        here = _repeats(spec, lo, hi, {at}, step, n, columns)
        break
    else:
        return {at}
    for spec, lo, hi in segments:
        if not here:
            break
        if lo == hi == 1:
            here = {b + step for b in here if 0 <= b - back < n
                    and (spec is None or spec.ok(columns, b - back))}
        else:
            here = _repeats(spec, lo, hi, here, step, n, columns)
    return here


def _repeats(spec: _Spec | None, lo: int, hi: int | None, here: set[int], step: int, n: int,
             columns: _Columns) -> set[int]:
    """The boundaries reached from those in `here` through `lo` to `hi` tokens passing `spec`."""
    back = step < 0
    reached: set[int] = set()
    for b in here:
        if lo == 0:
            reached.add(b)
        count = 0
        while (hi is None or count < hi) and 0 <= b - back < n and (
                spec is None or spec.ok(columns, b - back)):
            b += step
            count += 1
            if count >= lo:
                reached.add(b)
    return reached


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


def _any_of(patterns: list[re.Pattern]) -> re.Pattern | None:
    """One regex that finds a match wherever one of `patterns` would, or None if joining
    them could change what one means (a back-reference, flags set for the whole regex)."""
    try:
        if any(_refers_back(sre_parse.parse(p.pattern)) for p in patterns):
            return None
        return re.compile("|".join(map(_scoped, patterns)))
    except re.error:
        return None


def _scoped(pattern: re.Pattern) -> str:
    """The regex as a group whose flags stay its own: "(?i)^oom" -> "(?i:^oom)"."""
    flags = _GLOBAL_FLAGS.match(pattern.pattern)
    if flags:
        return f"(?{flags[1]}:{pattern.pattern[flags.end():]})"
    return f"(?:{pattern.pattern})"


def _refers_back(nodes: Iterable) -> bool:
    """True if the parsed regex `nodes` holds a back-reference to a group."""
    for op, av in nodes:
        if op in (sre.GROUPREF, sre.GROUPREF_EXISTS):
            return True
        subs = [x for x in (av if isinstance(av, tuple | list) else ()) for x in
                (x if isinstance(x, list) else [x]) if isinstance(x, sre_parse.SubPattern)]
        if any(_refers_back(sub) for sub in subs):
            return True
    return False


def _first(word: str) -> str | None:
    """A word's first character in lower case, if ASCII (Unicode case rules are not screened)."""
    first = word[:1]
    return first.lower() if first and first.isascii() else None


def _may_begin(index: _Index, first: str) -> bool:
    return index.firsts is None or first in index.firsts


_CATEGORIES = {sre.CATEGORY_DIGIT: frozenset("0123456789"),
               sre.CATEGORY_WORD: frozenset(string.ascii_lowercase + string.digits + "_"),
               sre.CATEGORY_SPACE: frozenset(" \t\n\r\f\v")}


def _first_characters(pattern: re.Pattern) -> frozenset[str] | None:
    """The ASCII characters (lower case) a string must begin with for `pattern` to find it,
    if the regex is anchored at the string's start; None if not known."""
    if pattern.flags & re.MULTILINE:
        return None
    try:
        return _anchored(list(sre_parse.parse(pattern.pattern, pattern.flags)))
    except re.error:
        return None


def _anchored(nodes: list) -> frozenset[str] | None:
    for n, (op, av) in enumerate(nodes):
        if op in (sre.ASSERT, sre.ASSERT_NOT):
            continue
        if op is sre.AT and av in (sre.AT_BEGINNING, sre.AT_BEGINNING_STRING):
            firsts, empty = _firsts(nodes[n + 1:])
            return None if empty else firsts
        if op is sre.BRANCH and n == len(nodes) - 1:  # "^nodes?$|^[a-z]+\d+$"
            found = [_anchored(list(branch)) for branch in av[1]]
            return None if None in found else frozenset().union(*found)
        if op is sre.SUBPATTERN and n == len(nodes) - 1:
            return _anchored(list(av[-1]))
        return None
    return None


def _firsts(nodes: list) -> tuple[frozenset[str] | None, bool]:
    """(the first characters of what the parsed `nodes` match, or None for any; whether they
    can match the empty string)."""
    found: set[str] = set()
    for op, av in nodes:
        if op in (sre.AT, sre.ASSERT, sre.ASSERT_NOT):
            continue  # consumes nothing
        empty = False
        if op is sre.LITERAL:
            first = _class([(op, av)])
        elif op is sre.IN:
            first = _class(av)
        elif op is sre.SUBPATTERN:
            first, empty = _firsts(list(av[-1]))
        elif op is sre.BRANCH:
            parts = [_firsts(list(branch)) for branch in av[1]]
            first = None if any(f is None for f, _ in parts) else frozenset().union(
                *(f for f, _ in parts))
            empty = any(e for _, e in parts)
        elif op in (sre.MAX_REPEAT, sre.MIN_REPEAT, sre.POSSESSIVE_REPEAT):
            first, empty = _firsts(list(av[2]))
            empty = empty or av[0] == 0
        else:
            return None, False
        if first is None:
            return None, False
        found |= first
        if not empty:
            return frozenset(found), False
    return frozenset(found), True


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


def _equal_to(value: int) -> _Test:
    return frozenset({value}).__contains__


def _not_in(values: Iterable[int]) -> _Test:
    values = frozenset(values)
    return lambda v: v not in values


def _regex(pattern: re.Pattern, strings: StringStore) -> _Test:
    """spaCy's REGEX predicate (a search in the value's string), run once per value."""
    verdicts: dict[int, bool] = {}

    def test(v: int) -> bool:
        found = verdicts.get(v)
        if found is None:
            found = verdicts[v] = bool(pattern.search(strings[v]))
        return found

    return test
