"""What the classifier knows about one pattern match: the rule of its pattern group, its
label, and the bounds of its sentence (which `followed_by` looks within)."""

from __future__ import annotations

from dataclasses import dataclass

from ..models import Label

FIELDS = ("heading", "text")  # the fields of an entry that are labelled


@dataclass(frozen=True, slots=True)
class Rule:
    """What a taxonomy pattern group says about the spans it matches."""

    code: str
    kind: str
    source: str
    confidence: float
    unless: frozenset[str] = frozenset()  # drop this cue when the entry has one of these codes
    needs: frozenset[str] = frozenset()  # drop this cue unless the entry has one of these codes
    inside: frozenset[str] = frozenset()  # drop this cue when a cue of one of these covers it
    not_after: frozenset[str] = frozenset()  # drop this cue when the word before is one of these
    not_before: frozenset[str] = frozenset()  # drop this cue when the word after is one of these
    followed_by: frozenset[str] = frozenset()  # drop it unless one of these tells what it caused
    counted: bool = False  # a count of events (rule 14): not the same event as another cue's
    announced_ahead: bool = False  # told in a sentence dated after its entry, it has not happened
    before_trouble: frozenset[str] = frozenset()  # its step precedes these codes' (steps.py)


@dataclass(frozen=True, slots=True)
class Cue:
    """A pattern match that no context trigger dropped, and where its sentence lies."""

    label: Label
    rule: Rule
    sentence_start: int  # offset in the field's text where the cue's sentence begins
    sentence_end: int  # offset in the field's text (of the next sentence, if that is its sequel)
