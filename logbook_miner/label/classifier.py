"""The classify stage: taxonomy codes, with the words they stand on, for each entry.

All knowledge lives in data: `data/taxonomy.yaml` holds each code's spaCy
token patterns and phrase lists (and `marks`, cues of no code that say what follows an
event or what a cue is not), `data/context.yaml` the ConText triggers
that stop a cue from counting (negated, hypothetical, another project's,
general advice). This module only wires them into one spaCy pipeline
(blank English + sentence starts, see sentences.py + one span ruler for both
files, see ruler.AnchoredRuler + the "context" component, which writes on
each cue span `span._.context`: the trigger and category that drop it, or
None), so it can be built once and run with `nlp.pipe` over many entries;
`Classifier().nlp(text)` shows every decision.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import spacy
from spacy.attrs import NORM, ORTH
from spacy.language import Language
from spacy.tokenizer import Tokenizer
from spacy.tokens import Doc, Span, Token

from ..models import FAULT, Entry, Label, LabelledEntry, in_kind_order
from ..resources import read_yaml
from ..segment.dates import leading_when, names_only_later_days
from . import context, counters, numbers, rates, trends
from .consequences import Consequences
from .cues import FIELDS, Cue, Rule
from .generated_cues import (
    component_groups,
    edit_group,
    tally_groups,
    variable_groups,
    variant_group,
)
from .learned import LAYER_PATH, LearnedLayer
from .names import LogbookNames, Renaming
from .ruler import optimise  # also registers the "anchored_span_ruler" factory
from .sentences import Sentences, make_sentences  # noqa: F401 (registers "sentences")
from .steps import kept_before_trouble
from .taxonomy import TAXONOMY_PATH
from .wrapping import normalise

SPANS_KEY = "taxonomy"
_PIECE_CHARS = 200_000  # characters of a field tokenized at once
_OPENING = 800  # characters of the first entry read for what the logbook is kept about
_TOKENIZER_CACHE = 200_000  # distinct words whose tokens are kept (spaCy: 10,000)
_HYPHEN_INFIX = "(?:-|–|—|--|---|——|~)"  # spaCy English: split words at these between letters
_DASH_INFIX = "(?:–|—|--|---|——|~)"  # ours: a dash still splits, a hyphen does not
_ARROWS = ("->", "=>")
# what a pattern may match after a cue's words to see where they end (a list's comma, a
# bracket opened or closed after it, a conjunction: taxonomy.yaml's `tally_end`), which its
# evidence leaves out ("4 fabric,": "4 fabric")
_LIST_ENDS = frozenset({",", ";", "|", "(", ")", "—", "–", "and"})
_BULLETS = frozenset({"-", "*", "•", "+", "–"})
# spaCy English splits words at "/" between letters ("TP/PP"); not a rate's unit ("tok/s",
# "samples/sec", "s/it"), which a speed cue names as one word
_SLASH_INFIX = ("[:<>=/](?=", r"(?:[:<>=]|/(?!(?:s|sec|second|step|it|iter|gpu|day|h|hr)\b))(?=")
_LINK_INFIX = r"\]\("  # where a Markdown link's text ends and its address begins
# an image or package named with its tag ("herd-train:2024-05-03", "pytorch:24.03-py3"), not
# a log line's field ("step:1000-2000"): one token, kept whole by the tokenizer's token_match
_TAGGED_NAME = re.compile(r"(?!(step|iter|iteration|epoch|loss|lr|rank|node|gpu)s?:)"
                          r"[A-Za-z][\w.-]*:v?\d[\w.-]*$")
# spaCy English splits at a hyphen between digits ("2-4"); not in a host's name, where a
# letter comes before the digits ("h100-164", "gpu4-12"; a card's memory too: "A100-80GB"
# is "A100-80" "GB", which taxonomy.yaml's gpu_part reads as the card)
_DIGIT_HYPHEN_INFIX = (r"(?<=[0-9])[+\-\*^](?=[0-9-])",
                       r"(?<=[0-9])(?:[+*^]|(?<![A-Za-z][0-9])(?<![A-Za-z][0-9]{2})"
                       r"(?<![A-Za-z][0-9]{3})(?<![A-Za-z][0-9]{4})-)(?=[0-9-])")


def _drop_special_cases_that_change_nothing(tokenizer: Tokenizer) -> None:
    """Keep only the tokenizer's special cases that tokenize their text otherwise than it is
    tokenized without them.

    The others change no token and no norm ("0.0", "it's", the "\\n" of every line end of
    a normalised text), but spaCy stops caching a text's words once that text has met any
    special case (its issue 1250): without them the tokenizer runs about 1.2x faster, and
    without the "\\n" case about 2.5x.
    """
    rules = tokenizer.rules
    tokenizer.rules = {}  # each case's text is read as it is tokenized without any
    useful = {}
    for text, tokens in rules.items():
        plain = [(t.text, t.norm_) for t in tokenizer(text)]
        if [o for o, _ in plain] != [t[ORTH] for t in tokens] or any(
                t.get(NORM, norm) != norm for t, (_, norm) in zip(tokens, plain, strict=True)):
            useful[text] = tokens
    tokenizer.rules = useful


class _WordCachingTokenizer(Tokenizer):
    """spaCy's tokenizer, whose cache also keeps the words that follow a special case.

    spaCy caches a word's tokens only until the text being tokenized meets a special case
    ("don't", "e.g.", "->"; its issue 1250), and nine texts in ten meet one: each word after
    it went through the affix regexes again at each sight (0.21 ms an entry, 0.08 cached).
    Each word new to the tokenizer is first tokenized apart from the text, which caches it
    unless it holds a special case itself; a cached word's tokens are those it is given anew,
    so no token changes. The new words that meet no special case (of letters and digits only
    and none itself, or holding no special case's text) are tokenized together, as one text
    (a doc each cost 8 µs more); any other alone, so that a special case in one keeps no
    other from the cache. (Setting the rules or affixes later flushes the cache, not `_seen`:
    the words are then only tokenized anew, as spaCy's own tokenizer does.)
    """

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self._seen: set[str] = set()  # the words tokenized alone
        # finds a special case's text in a word (a tree of the texts: 1,200 of them)
        self._special = re.compile(context.any_of(set(self.rules)))

    @classmethod
    def like(cls, tokenizer: Tokenizer) -> _WordCachingTokenizer:
        """A tokenizer of the same rules and affixes, whose cache holds _TOKENIZER_CACHE words
        (a logbook has more distinct words than spaCy's default of 10,000)."""
        return cls(tokenizer.vocab, tokenizer.rules, tokenizer.prefix_search,
                   tokenizer.suffix_search, tokenizer.infix_finditer, tokenizer.token_match,
                   tokenizer.url_match, tokenizer.faster_heuristics, _TOKENIZER_CACHE)

    def __call__(self, text: str) -> Doc:
        words = text.split()
        # past max_cache_size, spaCy caches no more words; (most texts hold no new word, which
        # one test tells, cheaper than a set of their words)
        if len(self._seen) < self.max_cache_size and not self._seen.issuperset(words):
            new = set(words) - self._seen
            plain = {word for word in new if (word.isalnum() and word not in self.rules)
                     or not self._special.search(word)}
            if plain:
                super().__call__(" ".join(plain))
            for word in new - plain:
                super().__call__(word)
            self._seen |= new
        doc = super().__call__(text)
        doc.user_data[context.TEXT_KEY] = text  # the same as doc.text, which ConText reads
        return doc


def _blank_pipeline() -> Language:
    """A blank English pipeline whose tokenizer splits words as logbooks write them."""
    nlp = spacy.blank("en")
    # "...went into NaN." keeps its full stop by default (a capital before it reads as
    # an abbreviation); a word ending in lower-then-upper case, or in a number and its
    # unit ("200G.", "the 70B."), is no abbreviation.
    # A number keeps its magnitude ("1M", "4K", "2T", as "6B" already does), so "batch
    # 0.5M -> 1M" reads as two values; units of measure ("12 GB", "5 m") still split off.
    suffixes = [*(s.replace("|T|G|M|K|", "|") for s in nlp.Defaults.suffixes),
                r"(?<=[a-z0-9][A-Z])\."]
    nlp.tokenizer.suffix_search = spacy.util.compile_suffix_regex(suffixes).search
    # A hyphenated word is one token ("low-quality", "re-launched", "oom-killed",
    # "--clip-grad"), so a cue's regex matches it whether or not the writer used the hyphen.
    infixes = [r.replace(_HYPHEN_INFIX, _DASH_INFIX).replace(*_SLASH_INFIX)
               .replace(*_DIGIT_HYPHEN_INFIX) for r in nlp.Defaults.infixes]
    nlp.tokenizer.token_match = _TAGGED_NAME.match  # "herd-train:2024-05-03"
    # A Markdown link's text is a word of the sentence: "a [bug](https://...) was fixed".
    infixes += [_LINK_INFIX, "→"]
    nlp.tokenizer.infix_finditer = spacy.util.compile_infix_regex(infixes).finditer
    _drop_special_cases_that_change_nothing(nlp.tokenizer)
    for arrow in _ARROWS:  # "lr 1e-4 -> 6e-5": an arrow is one word, read as "to"
        nlp.tokenizer.add_special_case(arrow, [{ORTH: arrow}])
    nlp.tokenizer = _WordCachingTokenizer.like(nlp.tokenizer)
    # spaCy's 1M-character cap guards parser/NER memory; rule matching on a blank
    # pipeline is linear, and a logbook entry (a pasted log) may be longer.
    nlp.max_length = 100_000_000
    return nlp


# words that deny or doubt what follows them; a cue's gap never holds one, so a denial between a
# part and its failure ("the Lustre stats show no stalls") or a condition ("the upload, if it
# stalls") stays outside the cue, where ConText reads it
_DENIALS = ("no", "never", "none", "nothing", "if", "whether", "unless", "maybe", "perhaps",
            "probably", "might")
_NAMING_PREDICATES = frozenset({"IN", "REGEX", "FUZZY"})  # a token spec with one names a word


def _no_denial_in_gaps(pattern: list[dict] | str) -> list[dict] | str:
    """The pattern with each gap (a repeated or optional token that names no word) unable to
    match a denial."""
    if isinstance(pattern, str):
        return pattern
    return [_gap_without_denial(token) if _is_gap(token) else token for token in pattern]


def _is_gap(token: dict) -> bool:
    """True if the token spec repeats or is optional and names no word (only flags and NOT_IN
    lists), so it may stand for whatever lies between a cue's words."""
    if token.get("OP") not in {"*", "+", "?"} and not str(token.get("OP", "")).startswith("{"):
        return False
    for attr, value in token.items():
        if attr in {"OP", "IS_PUNCT", "IS_SENT_START", "IS_ALPHA", "IS_SPACE"}:
            continue
        if attr in {"LOWER", "ORTH", "TEXT"} and isinstance(value, dict) and not (
                _NAMING_PREDICATES & set(value)):
            continue
        return False
    return True


def _gap_without_denial(token: dict) -> dict:
    """The gap's spec with the denials added to its LOWER NOT_IN list (made if it has none)."""
    lower = dict(token.get("LOWER", {}))
    lower["NOT_IN"] = sorted({*lower.get("NOT_IN", ()), *_DENIALS})
    return {**token, "LOWER": lower}


def _taxonomy_rules(taxonomy: dict) -> tuple[dict[str, Rule], list[dict]]:
    """Each cue group of the taxonomy (written, or generated from its settings, variables,
    components and tallies) as a Rule, and its patterns for the ruler; marks are rules of no
    code."""
    rules: dict[str, Rule] = {}
    patterns = []
    shared = taxonomy["shared"]
    variables = variable_groups(taxonomy.get("variables", []), shared)
    components = component_groups(taxonomy.get("components", []), shared)
    tallies = tally_groups(taxonomy.get("tallies", []), shared)
    for code, spec in taxonomy["codes"].items():
        edits = [*edit_group(code, spec.get("settings", []), shared),
                 *variant_group(code, spec.get("settings", []), spec.get("variants", []),
                                shared)]
        groups = [*tallies.get(code, []), *spec.get("patterns", []), *edits,
                  *variables.get(code, []), *components.get(code, [])]
        for i, group in enumerate(groups):
            rule_id = f"{code}#{i}"
            rules[rule_id] = Rule(
                code=code,
                kind=spec["kind"],
                source=f"taxonomy:{group.get('name', rule_id)}",
                confidence=float(group.get("confidence", 0.8)),
                unless=frozenset(group.get("unless", ())),
                needs=frozenset(group.get("needs", ())),
                inside=frozenset(group.get("inside", ())),
                not_after=frozenset(group.get("not_after", ())),
                not_before=frozenset(group.get("not_before", ())),
                followed_by=frozenset(group.get("followed_by", ())),
                counted=bool(group.get("counted", False)),
                announced_ahead=bool(spec.get("announced_ahead", False)),
                before_trouble=frozenset(group.get("before_trouble", ())),
            )
            for pattern in group.get("phrases", []) + group.get("tokens", []):
                patterns.append({"label": code, "pattern": _no_denial_in_gaps(optimise(pattern)),
                                 "id": rule_id})
    for name, group in taxonomy.get("marks", {}).items():
        rules[name] = Rule(code=name, kind=FAULT, source=f"mark:{name}", confidence=0.0)
        patterns += [{"label": name, "pattern": _no_denial_in_gaps(optimise(pattern)), "id": name}
                     for pattern in group["tokens"]]
    return rules, patterns


class Classifier:
    """Labels entries with taxonomy codes; build once, then call `classify` on batches."""

    def __init__(self, taxonomy_path: Path | None = None, context_path: Path | None = None,
                 layer_path: Path | None = LAYER_PATH):
        """`layer_path=None`: the rules alone, without the learned layer (learned.py)."""
        context_path = context_path or context.CONTEXT_PATH
        self.nlp = _blank_pipeline()
        self.nlp.add_pipe(  # sentencizer's starts and line ends (sentences.py)
            "sentences", config={"empty_values": context.load_empty_values(context_path)})
        taxonomy = read_yaml(taxonomy_path or TAXONOMY_PATH)
        self.rules, patterns = _taxonomy_rules(taxonomy)
        self.marks = frozenset(taxonomy.get("marks", {}))
        self.names = LogbookNames.from_taxonomy(taxonomy)
        self.consequences = Consequences(taxonomy["shared"])
        self.recurrence = context.load_recurrence(context_path)
        self.followed_run = context.load_followed_run(context_path)
        self.rules[context.RECURRENCE] = Rule(
            code=context.RECURRENCE, kind=FAULT, source="context:recurrence", confidence=0.7)
        ruler = self.nlp.add_pipe("anchored_span_ruler", name="rulers",
                                  config={"spans_key": SPANS_KEY})
        ruler.add_patterns(patterns + self.recurrence.patterns)
        rules, context_patterns, stops = context.load_rules(context_path)
        ruler.add_patterns(context_patterns, spans_key=context.SPANS_KEY)
        ruler.add_patterns(stops, spans_key=context.STOPS_KEY, bare=True)
        self.aside_titles = context.load_aside_titles(context_path)
        self.line_rules = context.load_line_rules(context_path)
        kinds = {rule.code: rule.kind for rule in self.rules.values()}
        # by code, the line rules that drop its cues (a cue is asked about these only)
        self.dropped_by = {code: [i for i, line in enumerate(self.line_rules)
                                  if line.drops_cue(code, kind)] for code, kind in kinds.items()}
        self.layer = LearnedLayer(kinds, layer_path) if layer_path else None
        self.context = self.nlp.add_pipe(
            "context", config={"cues_key": SPANS_KEY}).configure(rules, kinds)
        for miner in (numbers, rates, trends):  # the regexes they read raw text with
            miner.compile_regexes()

    def classify(self, entries: Iterable[Entry]) -> list[LabelledEntry]:
        """Label a logbook's entries (all of them at once, so the logbook's own model is known)."""
        entries = list(entries)
        self.context.own_size = context.own_model_size(
            getattr(e, f) or "" for e in entries for f in FIELDS)
        self.context.followed = bool(entries) and self.followed_run.told_in(_opening(entries))
        renaming = self.names.of(getattr(e, f) or "" for e in entries for f in FIELDS)
        docs = self.nlp.pipe(_pieces(entries, renaming), as_tuples=True)
        by_entry = itertools.groupby(docs, key=lambda piece: piece[1][0])
        results = []
        for entry, (_, pieces) in zip(entries, by_entry, strict=True):
            cues = []
            asides = self._asides(entry)
            zeros = _OnFirstUse(functools.partial(_zero_spans, entry))
            lines = _OnFirstUse(functools.partial(self._line_spans, entry))
            flat: dict[str, list[tuple[str, list[int]]]] = {}  # each field's normalised pieces
            for doc, (_, field, where, normalised) in pieces:
                flat.setdefault(field, []).append((normalised, where))
                cues.extend(cue for cue in self._cues(doc, where, entry, field)
                            if not _inside(cue.label, asides)
                            and not counters.counted_none(cue.label.start, cue.label.end,
                                                          zeros[field])
                            and not any(_inside(cue.label, lines[i])
                                        for i in self.dropped_by[cue.label.code]))
            # an event announced ahead is not labelled; announced by the heading, a notice's
            # subject, it still explains what the notice lists (`unless`: the driver upgrade a
            # maintenance notice lists is the operators')
            told, ahead = [], set()
            for cue in cues:
                if not _announced(cue, entry):
                    told.append(cue)
                elif cue.label.field == "heading":
                    ahead.add(cue.label.code)
            kept = self.consequences.kept(told, entry)
            kept = kept_before_trouble(kept, entry)
            labels = [lb for lb in _best(kept, ahead) if lb.code not in self.marks]
            refers = [lb for lb in labels if lb.code == context.RECURRENCE]
            labels = [lb for lb in labels if lb.code != context.RECURRENCE]
            # "same error" in an entry that names its own symptom refers to that one
            if refers and not any(lb.code in self.recurrence.symptoms for lb in labels):
                labels += _new_codes(labels, self._recurred(refers[0], results))
            labels += _new_codes(labels, [lb for lb in trends.mine_trends(entry)
                                          if not _inside(lb, asides)])
            # not filtered by asides: of the 5 it would drop in the written logbooks, 3 are right
            if self.layer:
                labels = self.layer.reviewed(entry, labels)
            # (rates read a field's own words: a renamed one they normalise anew)
            whole = {field: parts[0] for field, parts in flat.items()
                     if len(parts) == 1 and not renaming}
            results.append(LabelledEntry(entry, labels, numbers.mine(entry),
                                         rates.mine_rates(entry, whole)))
        return results

    def _recurred(self, refers: Label, earlier: list[LabelledEntry]) -> list[Label]:
        """The symptoms of the nearest earlier entry that has any, on `refers`' words."""
        for previous in reversed(earlier[-self.recurrence.reach:] if self.recurrence.reach else []):
            faults = sorted({lb.code for lb in previous.labels} & self.recurrence.symptoms)
            if faults:
                if len(faults) > self.recurrence.max_codes:
                    return []
                return [replace(refers, code=code) for code in faults]
        return []

    def _line_spans(self, entry: Entry, rule: int) -> dict[str, list[tuple[int, int]]]:
        """Per field, the character ranges of the lines the `rule`-th line rule finds (or of
        the records they close, the heading with a whole entry's)."""
        found = self.line_rules[rule]
        text = entry.text or ""
        spans = context.line_spans(text, found.lines, found.label_only)
        if found.whole_record and spans:
            records = context.record_spans(text, spans)
            whole = records == [(0, len(text))]
            return _whole(entry) if whole else {"heading": [], "text": records}
        return {"heading": [], "text": spans}

    def _asides(self, entry: Entry) -> dict[str, list[tuple[int, int]]]:
        """Per field, the character ranges in a section titled as an aside (a plan, others')."""
        text, heading = entry.text or "", entry.heading or ""
        when = leading_when(heading)  # "2025-04-30 · plans: ..." is titled "plans: ..."
        title = heading[when.end:].lstrip(" \t·—–-:|,") if when else heading
        if context.titled_as_aside(title, self.aside_titles):
            return _whole(entry)
        return {"heading": [], "text": context.aside_spans(text, self.aside_titles)}

    def _cues(
        self, doc: Doc, where: list[int], entry: Entry, field: str
    ) -> Iterator[Cue]:
        """Every pattern match in one field that no context trigger modifies."""
        original = getattr(entry, field) or ""
        bounds = Sentences.of(doc)
        modified = context.decisions(doc)
        for span in doc.spans[SPANS_KEY]:
            rule = self.rules[span.id_]
            if (context.cue_key(span) in modified or _dropped_by_neighbours(rule, doc, span)
                    or _crosses_list_item(doc, span, original, where)):
                continue
            first_word, last_word = span[0], span[-1]
            if first_word.is_space or last_word.is_space:  # (a cue's words rarely are)
                words = [tok for tok in span if not tok.is_space] or list(span)
                first_word, last_word = words[0], words[-1]
            if last_word.lower_ in _LIST_ENDS and last_word.i > first_word.i and not (
                    last_word.text == ")" and "(" in span.text):  # (not "(was 2.0.1)")
                last_word = doc[last_word.i - 1]
            start = where[first_word.idx]
            end = where[last_word.idx + len(last_word) - 1] + 1
            label = Label(
                kind=rule.kind,
                code=rule.code,
                evidence=original[start:end],
                field=field,
                start=start,
                end=end,
                source=rule.source,
                confidence=rule.confidence,
            )
            first, last = bounds.around(span.start)
            sentence_end = _end(doc, last, where)
            # what a cue's `followed_by` asks for may be told in the next sentence, when that
            # opens as its sequel: "We updated the container. Since then the job crashes."
            if rule.followed_by and last < len(doc) and self.consequences.sequel(
                    original, sentence_end, end):
                sentence_end = _end(doc, bounds.around(last)[1], where)
            yield Cue(label, rule, where[doc[first].idx], sentence_end)


def _opening(entries: list[Entry]) -> str:
    """A logbook's title and preamble: its first entry's heading, and its text if undated."""
    first = entries[0]
    return first.heading + ("" if first.date else f"\n{(first.text or '')[:_OPENING]}")


def _pieces(entries: list[Entry], renaming: Renaming | None = None
            ) -> Iterator[tuple[str, tuple[int, str, list[int], str]]]:
    """(normalised text, (entry index, field, offsets, the text again)) per piece of each
    field, lazily: the text is handed on as well, as `doc.text` would build it anew from a
    Token object for each token. `renaming` reads the logbook's names of its operators and
    its tools as the words of their roles.

    A field longer than _PIECE_CHARS is cut at line ends into pieces, so the
    tokens of a 100 MB pasted log are never all in memory at once.
    """
    for n, entry in enumerate(entries):
        for field in FIELDS:
            text = getattr(entry, field) or ""
            for start, end in _piece_bounds(text):
                # a closing line end lets a pattern look one token past the last word
                flat, where = normalise(text[start:end] + "\n")
                if renaming:
                    flat, where = renaming(flat, where)
                yield flat, (n, field, [start + w for w in where] if start else where, flat)


def _piece_bounds(text: str) -> Iterator[tuple[int, int]]:
    start = 0
    while len(text) - start > _PIECE_CHARS:
        cut = text.rfind("\n", start + _PIECE_CHARS // 2, start + _PIECE_CHARS) + 1
        end = cut or start + _PIECE_CHARS
        yield start, end
        start = end
    yield start, len(text)


def _end(doc: Doc, end: int, where: list[int]) -> int:
    """The offset in the field's text just after the last character of the sentence that
    ends before token `end`."""
    last = doc[end - 1]
    return where[last.idx + len(last) - 1] + 1


def _whole(entry: Entry) -> dict[str, list[tuple[int, int]]]:
    """Per field, the one character range that is all of it."""
    return {"heading": [(0, len(entry.heading or ""))], "text": [(0, len(entry.text or ""))]}


def _dropped_by_neighbours(rule: Rule, doc: Doc, span: Span) -> bool:
    """True if the word just before the cue is one of its rule's `not_after` ("the fixed
    loader") or the word just after it one of its `not_before` ("fixed template")."""
    before = rule.not_after and span.start and doc[span.start - 1].lower_ in rule.not_after
    after = rule.not_before and span.end < len(doc) and doc[span.end].lower_ in rule.not_before
    return bool(before or after)


def _crosses_list_item(doc: Doc, span: Span, original: str, where: list[int]) -> bool:
    """True if the cue runs from the end of one item of a list into the next at its level:
    "- bf16 gradient reduce\n- Optimizer: AdamW" is two settings described, not one reduced.
    An item that is all title leads into its items ("- Excluded:\n- node-03", "Drained\n-
    r11-n03", "- Excluded\n  - node-03"). Levels are read from the entry's own text
    (`original`, whose characters the doc's are at `where`): the doc's lines come unindented."""
    items = [word for word in span if _starts_list_item(doc, word)]
    if not items or items[-1].i <= span.start:
        return False
    first = _line_start(doc, span.start)
    return (_starts_list_item(doc, first) and span.start > first.i + 1
            and _indent(original, where[items[-1].idx]) <= _indent(original, where[first.idx]))


def _starts_list_item(doc: Doc, word: Token) -> bool:
    return word.text in _BULLETS and _line_start(doc, word.i).i == word.i


def _line_start(doc: Doc, i: int) -> Token:
    """The first word of the line that holds word i."""
    while i > 0 and not _ends_line(doc[i - 1]):
        i -= 1
    while doc[i].is_space and i + 1 < len(doc):  # an indented item
        i += 1
    return doc[i]


def _indent(text: str, at: int) -> int:
    return at - (text.rfind("\n", 0, at) + 1)


def _ends_line(word: Token) -> bool:
    return "\n" in (word.text if word.is_space else word.whitespace_)


def _announced(cue: Cue, entry: Entry) -> bool:
    """A cue of an event announced ahead, told in a sentence that names a later day than its
    entry's: a notice on 19 January of "maintenance 30 Jan - 1 Feb" is not the maintenance."""
    if not cue.rule.announced_ahead or entry.date is None:
        return False
    text = getattr(entry, cue.label.field) or ""
    return names_only_later_days(text[cue.sentence_start:cue.sentence_end], entry.date,
                                 stamped=cue.label.field == "heading")


def _new_codes(labels: list[Label], more: list[Label]) -> list[Label]:
    """The labels of `more` whose code `labels` does not have yet."""
    have = {lb.code for lb in labels}
    return [lb for lb in more if lb.code not in have]


def _zero_spans(entry: Entry, field: str) -> list[tuple[int, int]]:
    """The zero counters of one field of the entry (counters.zero_spans)."""
    return counters.zero_spans(getattr(entry, field) or "")


class _OnFirstUse(dict):
    """A key's value computed when first asked for: an entry's zero counters and lines are
    read only for a cue they may drop (half of the fields have none, most line rules drop
    few codes), and they cost more than the rest of the filter."""

    def __init__(self, compute: Callable[[Any], Any]) -> None:
        super().__init__()
        self.compute = compute

    def __missing__(self, key: Any) -> Any:
        value = self[key] = self.compute(key)
        return value


def _inside(label: Label, plans: dict[str, list[tuple[int, int]]]) -> bool:
    return any(start <= label.start < end for start, end in plans[label.field])


class _Spans:
    """The spans of each (field, code)'s cues, to ask in log time whether one covers a range:
    an entry that is a pasted log has tens of thousands of cues."""

    def __init__(self, cues: list[Cue], codes: set[str]):
        spans: dict[tuple[str, str], list[tuple[int, int]]] = {}
        for cue in cues:
            if cue.label.code in codes:
                spans.setdefault((cue.label.field, cue.label.code), []).append(
                    (cue.label.start, cue.label.end))
        self._starts: dict[tuple[str, str], list[int]] = {}
        self._reach: dict[tuple[str, str], list[int]] = {}  # the farthest end up to each start
        for key, found in spans.items():
            found.sort()
            self._starts[key] = [start for start, _ in found]
            self._reach[key] = list(itertools.accumulate((end for _, end in found), max))

    def cover(self, label: Label, codes: frozenset[str]) -> bool:
        """True if a cue of one of `codes` spans the label's words."""
        for code in codes:
            starts = self._starts.get((label.field, code))
            if starts:
                last = bisect.bisect_right(starts, label.start) - 1
                if last >= 0 and self._reach[(label.field, code)][last] >= label.end:
                    return True
        return False


def _best(cues: list[Cue], ahead: set[str] | frozenset[str] = frozenset()) -> list[Label]:
    """One label per code: the most confident cue, the earliest on ties (heading first).
    `ahead`: the codes of events announced ahead, which `unless` reads too."""
    found = {cue.label.code for cue in cues}
    cues = [cue for cue in cues if not cue.rule.needs or cue.rule.needs & found]
    events = {cue.label.code for cue in cues if not cue.rule.counted} | ahead  # `unless` reads
    spans = _Spans(cues, set().union(*(cue.rule.inside for cue in cues)))  # only what is asked
    best: dict[str, Label] = {}
    order = {field: i for i, field in enumerate(FIELDS)}
    for cue in cues:
        label, rule = cue.label, cue.rule
        if rule.unless & events or (rule.inside and spans.cover(label, rule.inside)):
            continue
        key = (-label.confidence, order[label.field], label.start)
        held = best.get(label.code)
        if held is None or key < (-held.confidence, order[held.field], held.start):
            best[label.code] = label
    return in_kind_order(best.values())
