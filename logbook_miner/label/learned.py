"""A learned layer over the rules: codes a linear model is sure of, added to the rules' own, and
codes of the rules it is sure are wrong, withdrawn.

The rules miss events told in words no pattern names, and give codes to words that name an
event the entry does not report; a logistic regression per code, over an entry's words (and
word pairs) and the codes the rules gave it, catches some of both. It adds a code only when it
is sure (its chance above the threshold chosen for that code in training) and withdraws a
rule's code only when its chance is below the code's cut; a code whose additions or
withdrawals did not pay in training has none. An added code's evidence is the sentence of the
entry whose words speak most for it. `benchmarks/learned_layer.py` trains it on the project's
own written tune logbooks (never on ../shared, whose texts are their authors') and writes
`data/learned_layer.npz`; it reports what the layer changes on logbooks it did not see.
"""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Iterable
from pathlib import Path

import numpy as np
from spacy.lang.en.stop_words import STOP_WORDS

from ..models import Entry, Label, in_kind_order
from ..resources import DATA
from .cues import FIELDS

LAYER_PATH = DATA / "learned_layer.npz"
_WORD = re.compile(r"[a-z][a-z0-9_\-]+")  # in lowercased text
# a sentence, or a line: up to a line end or a full stop, ! or ? before a space ("2.5" stays;
# a run of other characters is one step, as trends.py's, which also ends one at ';')
_SENTENCE = re.compile(r"(?:[^\n.!?]+|[.!?](?=\S))+")


def words(entry: Entry) -> set[str]:
    """The lowercased words of the entry's heading and text but stop words ("its", "the"),
    and each pair of them adjacent once stop words are left out ("replaced node")."""
    found: set[str] = set()
    for field in FIELDS:
        found |= _words(getattr(entry, field) or "")
    return found


def _words(text: str) -> set[str]:
    tokens = _tokens(text)
    return {*tokens, *(f"{first} {second}" for first, second in itertools.pairwise(tokens))}


def _tokens(text: str) -> list[str]:
    """The lowercased words of `text` but stop words, in order."""
    return [word for word in _WORD.findall(text.lower()) if word not in STOP_WORDS]


def _score(chances: np.ndarray) -> np.ndarray:
    """The model's scores (log-odds) that stand for `chances`."""
    chances = chances.astype(np.float64)
    return np.log(chances / (1 - chances))


def features(found_words: Iterable[str], rule_codes: Iterable[str]) -> list[str]:
    """What the model reads: the entry's words and word pairs and the codes the rules gave."""
    return [*found_words, *(f"rule:{code}" for code in rule_codes)]


class LearnedLayer:
    """A logistic regression per code, read from `path` (written by benchmarks/learned_layer.py)."""

    def __init__(self, kinds: dict[str, str], path: Path = LAYER_PATH) -> None:
        """`kinds`: each code's kind (FAULT or INTERVENTION), as the taxonomy gives it."""
        self.kinds = kinds
        with np.load(path, allow_pickle=False) as layer:
            self.codes: list[str] = layer["codes"].tolist()
            # one row per feature, one column per code
            self.weights: np.ndarray = layer["weights"].astype(np.float32)
            self.bias: np.ndarray = layer["bias"]
            # the scores the chances stand for: above `adds_above` a code is added, below
            # `withdraws_below` a rule's code is withdrawn (a chance of 1 or 0: never)
            with np.errstate(divide="ignore"):
                self.adds_above = _score(layer["thresholds"])
                self.withdraws_below = _score(layer["withdraw_below"])
            self.trained_on: dict[str, int | float] = json.loads(str(layer["trained_on"]))
            self.index = {name: i for i, name in enumerate(layer["features"].tolist())}
        # each feature's two largest weights and the code of the first: how much more a word
        # speaks for one code than for any other (`_evidence`)
        self._top_code = self.weights.argmax(axis=1)
        self._top = self.weights.max(axis=1)
        self._second = (np.partition(self.weights, -2, axis=1)[:, -2]
                        if self.weights.shape[1] > 1 else np.zeros_like(self._top))
        # the word pairs' rows by the pair: an entry's pairs are looked up without a string
        # made for each (most are no feature)
        self._pairs = {tuple(name.split(" ")): i for name, i in self.index.items()
                       if name.count(" ") == 1}

    def reviewed(self, entry: Entry, labels: list[Label]) -> list[Label]:
        """The rules' `labels` but those whose code the model is sure is wrong, and labels for
        the codes it is sure of that the rules did not give, in kind order."""
        have = {lb.code for lb in labels}
        present = sorted(self._rows(entry, have))  # one order: one float sum
        scores = self.weights.take(present, axis=0).sum(axis=0) + self.bias
        wrong = {self.codes[column] for column in np.flatnonzero(scores < self.withdraws_below)}
        kept = [lb for lb in labels if lb.code not in wrong]
        added = self._added(entry, have, scores)
        return in_kind_order([*kept, *added]) if added or len(kept) < len(labels) else labels

    def _added(self, entry: Entry, have: set[str], scores: np.ndarray) -> list[Label]:
        """Labels for the codes scored above their threshold that are not in `have`, each on
        its evidence sentence."""
        added = []
        for column in np.flatnonzero(scores > self.adds_above).tolist():
            code = self.codes[column]
            if code in have:
                continue
            place = self._evidence(entry, column)
            if place is None:
                continue
            field, start, end = place
            added.append(Label(
                kind=self.kinds[code], code=code,
                evidence=(getattr(entry, field) or "")[start:end], field=field,
                start=start, end=end, source="learned:layer",
                confidence=round(float(1 / (1 + np.exp(-scores[column]))), 3)))
        return added

    def _rows(self, entry: Entry, rule_codes: Iterable[str]) -> set[int]:
        """The rows of `features(words(entry), rule_codes)` the model has."""
        rows = set(map(self.index.get, features((), rule_codes)))
        for field in FIELDS:
            tokens = _tokens(getattr(entry, field) or "")
            rows.update(map(self.index.get, tokens))
            rows.update(map(self._pairs.get, itertools.pairwise(tokens)))
        rows.discard(None)  # no feature
        return rows

    def _present(self, names: Iterable[str]) -> list[int]:
        return [row for row in map(self.index.get, names) if row is not None]

    def _evidence(self, entry: Entry, column: int) -> tuple[str, int, int] | None:
        """(field, start, end) of the entry's sentence whose words speak most for the code rather
        than for any other (the first on ties): the words a person reads to see why the code was
        added, not the words most codes share ("job", "down"). Single words only: a word pair's
        weight is more often one training logbook's accident ("hw20b lost"); on the written
        check logbooks the sentence holds the gold's evidence 149 times of 323 this way, 145
        with the pairs."""
        best, best_weight = None, 0.0
        for field in FIELDS:
            for sentence in _SENTENCE.finditer(getattr(entry, field) or ""):
                rows = np.array(self._present(set(_tokens(sentence.group()))), dtype=np.intp)
                other = np.where(self._top_code[rows] == column, self._second[rows],
                                 self._top[rows])
                weight = float(np.clip(self.weights[rows, column] - other, 0, None).sum())
                if weight > best_weight:
                    text, at = sentence.group(), sentence.start()
                    best = field, at + len(text) - len(text.lstrip()), at + len(text.rstrip())
                    best_weight = weight
        return best
