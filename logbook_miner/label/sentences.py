"""Sentence starts for the classifier: spaCy's sentencizer rule, and every hard line end.

ConText scopes end at a sentence end, and log lines have no full stops, so a
sentence starts after each line end as well as where spaCy's `Sentencizer`
starts one (the first token after a ".", "!", "?"... that is not punctuation
itself). This component sets what `sentencizer` followed by a line-end rule
set, on the doc's attribute arrays (one exception: a run-in label and its
empty value, "**Maintenance.** None.", stay one sentence): the sentencizer
makes a Token object per token, and setting `Token.is_sent_start` scans the
whole doc each time (for a parse), which made a long pasted log quadratic.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import compress

import numpy as np
from spacy.attrs import IS_PUNCT, IS_SPACE, ORTH, SENT_START
from spacy.lang.lex_attrs import is_punct
from spacy.language import Language
from spacy.pipeline import Sentencizer
from spacy.strings import StringStore, get_string_id
from spacy.tokens import Doc

from .token_matcher import ORTHS_KEY

_ENDS = frozenset(get_string_id(c) for c in Sentencizer.default_punct_chars)
_NOT_START = 2**64 - 1  # a sentence start of -1, as the uint64 of Doc.to_array and from_array
# each end character is punctuation, so an end is looked for among punctuation only
if not all(map(is_punct, Sentencizer.default_punct_chars)):
    raise ImportError("a sentence end character is not punctuation: see _sentencizer_starts")


@Language.factory("sentences", default_config={"empty_values": None})
def make_sentences(nlp: Language, name: str, empty_values: list[str] | None) -> SentenceStarts:
    """`empty_values`: what leaves a run-in label's field empty (by default the package's
    context.yaml's `run_in_empty_values`, which ConText negates the label by)."""
    if empty_values is None:
        from .context import CONTEXT_PATH, load_empty_values  # (context imports this module)
        empty_values = load_empty_values(CONTEXT_PATH)
    return SentenceStarts(empty_values)


class SentenceStarts:
    """Sets every token's sentence start (1 or -1), leaving starts already set by others."""

    def __init__(self, empty_values: list[str]) -> None:
        self.empty_values = frozenset(value.lower() for value in empty_values)

    def __call__(self, doc: Doc) -> Doc:
        """Python reads only the tokens that may matter (punctuation, whitespace), which
        itertools.compress picks: a loop over every token cost most of the component."""
        n = len(doc)
        if not n:
            return doc
        orth, punct, space, known = doc.to_array([ORTH, IS_PUNCT, IS_SPACE, SENT_START]).T.tolist()
        # a start others set (1 or -1) stays
        starts = [s or _NOT_START for s in known] if any(known) else [_NOT_START] * n
        strings = doc.vocab.strings
        for i in _sentencizer_starts(orth, punct):
            if not known[i] and not self._after_run_in_label(i, orth, strings):
                starts[i] = 1
        for i in compress(range(n - 1), space):
            if "\n" in strings[orth[i]]:
                starts[i + 1] = 1
        doc.from_array([SENT_START], np.array(starts, dtype=np.uint64))
        doc.user_data[_BOUNDS] = Sentences(doc, starts)  # the flags just set, not read anew
        doc.user_data[ORTHS_KEY] = orth  # for the token matcher, which reads them too
        return doc

    def _after_run_in_label(self, i: int, orth: list[int], strings: StringStore) -> bool:
        """Whether token `i` opens the empty value of a run-in label, an emphasised line
        opening ending in a full stop ("**Maintenance.** None this week."): the label names
        the field the value leaves empty, as "Maintenance: none" does, so the two are one
        sentence (and ConText reads "none" of it). A value with words in it stays a sentence
        of its own: "**Not fixed.** Hang again at 04:00" reports the hang."""
        return strings[orth[i]].lower() in self.empty_values and _ends_run_in_label(
            i - 1, orth, strings)


_EMPHASIS = frozenset("*_")
_LIST_MARKS = frozenset("-+•")  # and "*", an emphasis mark too
_RUN_IN_LABEL_LENGTH = 6  # words at most: "**Known issues.**", not an emphasised sentence


def _ends_run_in_label(i: int, orth: list[int], strings: StringStore) -> bool:
    """Whether the tokens up to `i` end a run-in label: an emphasised line opening of a few
    words whose last is a full stop, then its closing marks."""
    j = _skip_back(i, orth, strings, _EMPHASIS)
    if j == i or j < 1 or strings[orth[j]] != ".":
        return False
    k = j - 1
    while k >= 0 and strings[orth[k]] not in _EMPHASIS:
        if "\n" in strings[orth[k]] or j - k > _RUN_IN_LABEL_LENGTH:
            return False
        k -= 1
    if k < 0 or j - k < 2:  # no opening mark, or no word inside the marks
        return False
    before = _skip_back(_skip_back(k, orth, strings, _EMPHASIS), orth, strings, _LIST_MARKS)
    return before < 0 or "\n" in strings[orth[before]]


def _skip_back(i: int, orth: list[int], strings: StringStore, skipped: frozenset[str]) -> int:
    """The last index at or before `i` whose token is not in `skipped` (-1 if none)."""
    while i >= 0 and strings[orth[i]] in skipped:
        i -= 1
    return i


def _sentencizer_starts(orth: list[int], punct: list[int]) -> list[int]:
    """spaCy's Sentencizer.predict: the first token, and each token that is neither
    punctuation nor an end character ("." "!" "?"...) but follows an end character, that
    is the first token after one that is no punctuation (an end character is)."""
    out, found = [0], -1
    for i in compress(range(len(orth)), punct):
        if i > found and orth[i] in _ENDS:  # (an end before `found` is followed by it)
            try:
                found = punct.index(0, i + 1)
            except ValueError:  # none: punctuation up to the doc's end
                break
            out.append(found)
    return out


_BOUNDS = "logbook_miner.sentence_bounds"  # a doc's Sentences, in doc.user_data


class Sentences:
    """A doc's sentences as token bounds, read once: `Span.sent` walks token by token to
    its sentence's ends, so asking it for each of many cues in one long sentence (log lines
    wrapped into one: "loss 2.31 at step 100" on each line) is quadratic."""

    def __init__(self, doc: Doc, flags: list[int] | None = None) -> None:
        """`flags`: the doc's SENT_START values, if known (read from the doc if not)."""
        self.n = len(doc)
        if flags is None:
            flags = doc.to_array([SENT_START]).tolist() if self.n else []
        self.starts = [0, *compress(range(1, self.n), map((1).__eq__, flags[1:]))]

    @classmethod
    def of(cls, doc: Doc) -> Sentences:
        """The doc's bounds, read on first use and kept on the doc: ConText and the cues
        read the same doc's sentences."""
        if _BOUNDS not in doc.user_data:
            doc.user_data[_BOUNDS] = cls(doc)
        return doc.user_data[_BOUNDS]

    def around(self, i: int) -> tuple[int, int]:
        """(start, end) of the sentence that token `i` is in, as `doc[i].sent` gives it."""
        k = bisect_right(self.starts, i) - 1
        return self.starts[k], self.starts[k + 1] if k + 1 < len(self.starts) else self.n
