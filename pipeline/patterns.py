"""Make token patterns from the YAML data cheap to match.

The data files write word forms as readable anchored regexes
(`^restart(ed|ing|s)?$`). spaCy evaluates a REGEX predicate in Python for
every token, but an IN predicate is a set lookup, so each regex that denotes a
small finite set of words is expanded into that set before the matcher sees
it. Matching is unchanged; the classifier gets several times faster.
"""

from __future__ import annotations

import re
from re import _constants as sre
from re import _parser as sre_parse

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
