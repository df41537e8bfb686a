"""Where a regex can match, for re to skip ahead to.

Python's re skips quickly over a text only to a regex's first literal or character class;
a regex that opens with a lookbehind, a word boundary or an optional part (metrics.yaml:
`(?<![\\w=:#/.,-])...\\b(?P<value>\\d+...`) is tried at every position of the text. Its
`lead`, a regex that opens with the characters every match opens with and then asserts the
regex itself there, finds exactly where it matches, trying it at those characters only.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from re import _constants as sre
from re import _parser as sre_parse

from .ruler import REPEATS, ZERO_WIDTH, parsed_starts, starts

_CATEGORIES = {sre.CATEGORY_DIGIT: r"\d"}
_SPACES = [(sre.IN, [(sre.CATEGORY, sre.CATEGORY_SPACE)])]  # \s, parsed
_MAX_OPENING = 16  # characters an opening may hold besides whitespace (see `opening`)


def _characters(op: object, av: object) -> frozenset[str] | None:
    """A literal's or a character class's characters as items of a class, if it lists them
    (literals and digits)."""
    if op is sre.LITERAL:
        return frozenset({re.escape(chr(av))})
    if op is not sre.IN:
        return None
    items = [re.escape(chr(value)) if kind is sre.LITERAL else
             _CATEGORIES.get(value) if kind is sre.CATEGORY else None for kind, value in av]
    return None if None in items else frozenset(items)


def _openings(nodes: list) -> tuple[frozenset[str], bool] | None:
    """(the characters a match of the parsed regex `nodes` can open with, as items of a
    character class; whether the match can be empty), or None if they are not known."""
    found: frozenset[str] = frozenset()
    for op, av in nodes:
        if op in ZERO_WIDTH:
            continue
        if op in (sre.LITERAL, sre.IN):
            chars = _characters(op, av)
            return None if chars is None else (found | chars, False)
        if op is sre.SUBPATTERN and not (av[1] or av[2]):  # no flags changed inside
            parts = [_openings(av[-1])]
        elif op is sre.BRANCH:
            parts = [_openings(branch) for branch in av[1]]
        elif op in REPEATS:
            parts = [_openings(av[2])]
        else:
            return None
        if None in parts:
            return None
        found = found.union(*(chars for chars, _ in parts))
        if not any(empty for _, empty in parts) and not (op in REPEATS and av[0] == 0):
            return found, False
    return found, True


def lead(pattern: re.Pattern[str]) -> re.Pattern[str] | None:
    """A regex matching one character where `pattern` matches, or None where that is no
    quicker: if a match may open with any character, a letter (case-folded, re scans for
    none) or nothing."""
    try:
        opened = _openings(list(sre_parse.parse(pattern.pattern, pattern.flags)))
    except re.error:
        return None
    if opened is None or opened[1] or any(c.isalpha() for c in opened[0]):
        return None
    chars = f"[{''.join(sorted(opened[0]))}]"
    try:
        return re.compile(f"{chars}(?<=(?={pattern.pattern}){chars})", pattern.flags)
    except re.error:  # global inline flags, which only the pattern's start may hold
        return None


def finditer(pattern: re.Pattern[str], lead: re.Pattern[str] | None, text: str
             ) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, each match tried only where `lead` finds one starts (all of
    them where `lead(pattern)` gave None)."""
    if lead is None:
        yield from pattern.finditer(text)
        return
    at = lead.search(text)
    while at:
        m = pattern.match(text, at.start())  # not None: the lead asserted it, nor empty
        yield m
        at = lead.search(text, m.end())


def start_finder(regex: str) -> re.Pattern[str] | None:
    """A case-sensitive regex that finds, in lower-case ASCII text, where a match of the
    case-insensitive `regex` can start (ruler.starts), or None where that is not known."""
    begins = starts(regex)
    return re.compile("|".join(map(re.escape, sorted(begins)))) if begins else None


def finditer_from(pattern: re.Pattern[str], start: re.Pattern[str] | None,
                  lead: re.Pattern[str] | None, text: str, lower: str | None
                  ) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)`, the pattern tried only where a match can start: Python's re
    tries a case-insensitive regex that begins with a letter, or one that begins with a
    lookbehind, at every position. In ASCII text (`lower` its lower case) a case-sensitive
    search for a literal start (`start_finder`) is far faster; else a number's digits are
    found by `lead`."""
    if start is None or lower is None:
        yield from finditer(pattern, lead, text)
        return
    at = start.search(lower)
    while at:
        m = pattern.match(text, at.start())  # as a search reaching this position would
        if m:
            yield m  # not empty: it holds a start of 2 characters or more
        at = start.search(lower, m.end() if m else at.start() + 1)


def opening(regex: str) -> tuple[re.Pattern[str], int] | None:
    """For a case-insensitive `regex` that opens with optional parts (the last may be optional
    whitespace) before a part of known starts, as `\\b(?:was|were)?\\s*(?:down|stopped)...`:
    a case-sensitive regex that finds, in lower-case ASCII text, where that part can start,
    and how many characters the optional parts hold at most, besides that whitespace. None
    for any other regex. (re tries such a regex at every position of a text.)"""
    try:
        parsed = sre_parse.parse(regex)
    except re.error:
        return None
    reach, spaces = 0, False
    for i, (op, av) in enumerate(parsed):
        if op in ZERO_WIDTH:
            continue
        begins = parsed_starts(list(parsed[i:]))
        if begins:
            return re.compile("|".join(map(re.escape, sorted(begins)))), reach
        if spaces or op not in REPEATS or av[0]:  # whitespace only right before that part
            return None
        if list(av[2]) == _SPACES:
            spaces = True
            continue
        reach += parsed[i:i + 1].getwidth()[1]
        if reach > _MAX_OPENING:
            return None
    return None


def finditer_opened(pattern: re.Pattern[str], core: re.Pattern[str], reach: int, text: str,
                    lower: str) -> Iterator[re.Match[str]]:
    """`pattern.finditer(text)` for a regex of an `opening` (`core`, `reach`) in ASCII text
    (`lower` its lower case): a match holds its core, so it starts no farther before a place
    `core` finds than the whitespace there and `reach` characters more; the pattern is tried
    at those positions only, in order, the first that matches being where a search finds."""
    at, done = core.search(lower), 0  # no match starts before `done`
    while at:
        start = at.start()
        first = start
        while first > done and text[first - 1].isspace():
            first -= 1
        m = next(filter(None, map(functools.partial(pattern.match, text),
                                  range(max(done, first - reach), start + 1))), None)
        if m:
            yield m  # not empty: it holds the core, of 2 characters or more
        done = m.end() if m else start + 1
        at = core.search(lower, done)
