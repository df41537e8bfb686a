"""ConText-style modifiers: which matched cues are negated, hypothetical or not ours.

A cue such as "ECC errors" only means a fault happened when the sentence says
so: "no ECC errors since" and "ECC errors might be the cause" do not. The
algorithm is that of medspaCy's ConText (Chapman et al.): trigger phrases,
matched by the pipeline's span ruler from `data/context.yaml`, open a scope
forward, backward or both ways up to the end of the sentence, a terminator
("but", ";") or `max_scope` tokens; a cue inside a scope takes the
trigger's category. Pseudo-triggers ("not only") cancel triggers they
overlap. A guess at a cause ("we suspect the OOM yesterday is related to
fragmentation") reports the thing it explains: its scope starts at the
causal link.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path

from spacy.attrs import ORTH
from spacy.language import Language
from spacy.strings import StringStore, get_string_id
from spacy.tokens import Doc, Span

from ..resources import DATA, read_yaml
from . import leads
from .ruler import clue, optimise
from .sentences import Sentences

CONTEXT_PATH = DATA / "context.yaml"
SPANS_KEY = "context"  # doc.spans: the triggers, pseudo-triggers and causal links
STOPS_KEY = "context_stops"  # doc._.bare_matches: the terminators, (start, end, label)
TEXT_KEY = "logbook_miner.text"  # doc.user_data: the doc's text, if its tokenizer kept it
TERMINATE = "TERMINATE"
PSEUDO = "PSEUDO"
CAUSE = "CAUSE"
DIRECTIONS = ("forward", "backward", "bidirectional")
_OPENS = 3  # a trigger that reaches back starts within this many tokens of its sentence
MODEL_SIZE = re.compile(r"\b(\d+(?:\.\d+)?)\s*([BbTt])(?![\w-]*tokens)\b")
_MODEL_SIZE_LEAD = leads.lead(MODEL_SIZE)  # where one is written


@dataclass(frozen=True, slots=True)
class Rule:
    """One trigger group of context.yaml."""

    category: str
    direction: str
    kinds: frozenset[str]
    max_scope: int | None
    model_size: bool  # fires only when the size named differs from the logbook's own
    explains: bool = False  # a guess at a cause: its scope starts at the cause (CAUSE link)
    spares: frozenset[str] = frozenset()  # codes it never modifies
    unless_code_follows: bool = False  # a code block after its sentence (or the next) undoes it
    holds: bool = False  # also modifies a cue that holds the trigger ("drains any node")
    unless_text: re.Pattern[str] | None = None  # it does not fire in a text this matches
    # opening its sentence, it also modifies the sentence before's faults: these ("faults": all)
    reaches_back: frozenset[str] = frozenset()
    theirs: bool = False  # another party only as "they": the run's own where the logbook follows it


@dataclass(frozen=True, slots=True)
class Scope:
    """Tokens [start, end) of a doc that a trigger modifies."""

    rule: Rule
    trigger: Span
    start: int
    end: int
    only: frozenset[str] | None = None  # the codes it modifies, if not all the rule's

    def covers(self, start: int, end: int, code: str, kind: str) -> bool:
        """True if a cue (of `code` and `kind`, on tokens [start, end)) lies in this scope and
        does not hold the trigger (unless the rule says `holds`)."""
        rule = self.rule
        if kind not in rule.kinds or code in rule.spares:
            return False
        if self.only is not None and code not in self.only:
            return False
        trigger = self.trigger
        if start <= trigger.start and trigger.end <= end:
            return rule.holds
        # a cue said before a forward trigger and ending on its first word: "took 41 min instead"
        before = start < trigger.start < end <= trigger.end
        if before and rule.direction == "forward":
            return False
        return start < self.end and self.start < end


def _read(path: Path) -> dict:
    """context.yaml's data; each loader below takes its part, and the file is parsed once."""
    return _parsed(path, path.stat().st_mtime_ns)


@cache
def _parsed(path: Path, mtime_ns: int) -> dict:
    return read_yaml(path)


def load_rules(path: Path) -> tuple[dict[str, Rule], list[dict], list[dict]]:
    """Read context.yaml -> (rule by id, span-ruler patterns labelled with the rule id or
    PSEUDO or CAUSE, the terminators' patterns labelled TERMINATE[:category])."""
    data = _read(path)
    rules: dict[str, Rule] = {}
    patterns: list[dict] = []
    for i, group in enumerate(data["rules"]):
        category = group["category"]
        direction = group.get("direction", "forward")
        if direction not in DIRECTIONS:
            raise ValueError(f"{path}: rule {i}: direction {direction!r} not in {DIRECTIONS}")
        rule_id = f"{category}#{i}"
        rules[rule_id] = Rule(
            category=category,
            direction=direction,
            kinds=frozenset(group.get("kinds", ("fault", "intervention"))),
            max_scope=group.get("max_scope"),
            model_size=bool(group.get("model_size", False)),
            explains=bool(group.get("explains", False)),
            spares=frozenset(group.get("spares", ())),
            unless_code_follows=bool(group.get("unless_code_follows", False)),
            holds=bool(group.get("holds", False)),
            unless_text=re.compile(group["unless_text"]) if "unless_text" in group else None,
            reaches_back=frozenset(_listed(group.get("reaches_back", ()))),
            theirs=bool(group.get("theirs", False)),
        )
        for pattern in group.get("phrases", []) + group.get("tokens", []):
            patterns.append({"label": rule_id, "pattern": optimise(pattern)})
    for label, key in ((PSEUDO, "pseudo"), (CAUSE, "causal_links")):
        for pattern in data.get(key, []):
            patterns.append({"label": label, "pattern": optimise(pattern)})
    categories = {rule.category for rule in rules.values()}
    stops = [stop for terminator in data.get("terminators", [])
             for stop in _stops(terminator, categories, path)]
    stops += [{"label": f"{TERMINATE}:{category}", "pattern": optimise(pattern)}
              for category, group in data.get("category_terminators", {}).items()
              for pattern in group]
    return rules, patterns, stops


def load_empty_values(path: Path) -> list[str]:
    """context.yaml's `run_in_empty_values`: the words that leave a run-in label's field
    empty, for the sentence component (ConText's pattern reads them by the YAML anchor)."""
    return list(_read(path).get("run_in_empty_values", []))


def _listed(value: str | list[str]) -> list[str]:
    return [value] if isinstance(value, str) else list(value)


def _stops(terminator: list | dict, categories: set[str], path: Path) -> list[dict]:
    """A terminator's patterns: one ending every scope, or (`{pattern, carried_by}`) one per
    category, which for the categories named ends only what lies before it: their forward
    scopes go on past it, for a clause that still belongs to them ("Lina's group lost a week
    because a checkpoint was corrupted": the cause is their story too; "our job crashed
    because another team's job filled /scratch" is still our crash)."""
    if isinstance(terminator, list):
        return [{"label": TERMINATE, "pattern": optimise(terminator)}]
    carried = set(terminator["carried_by"])
    if unknown := carried - categories:
        raise ValueError(f"{path}: a terminator is carried_by unknown categories "
                         f"{sorted(unknown)} (known: {sorted(categories)})")
    return [{"label": f"{TERMINATE}{'<' if category in carried else ':'}{category}",
             "pattern": optimise(terminator["pattern"])} for category in sorted(categories)]


# a command or setting line (a code block's, whose fences the reader drops) right after a
# sentence, or after one short line more: "Let's try 300.\n\nSAVE_INTERVAL=300"
_CODE_FOLLOWS = re.compile(
    r"[^\n]{0,80}\n(?:\s*[^\n]{1,80}\n)?\s*(?:```|[A-Za-z_][\w.]*=\S|--?[a-z][\w-]+|\$ )")
_LIST_ITEM = re.compile(r"^\s*(?:[-*•+]|\d+[.)]|[a-z][.)])\s")
_MAX_TITLE = 120  # characters: a title line ending in ':'
_MAX_HEADING = 60  # characters: a line standing as a sub-heading
_NOT_HEADING_END = ".!?;,"  # a line ending in one is no heading
# a list item ticked off: "(done)", "[x]", "✅", "- restarted the job: done"
_DONE_ITEM = re.compile(r"(?i)\((done|completed|finished)\)|\[x\]|[✅✓✔]|\bdone\s*[.!]?[*_\s]*$")
_LAST_SENTENCE = re.compile(r"(?<=[a-z0-9)][.!?]) +(?=[A-Z])")  # where a line's sentences part
_LABELLED = re.compile(r"[A-Z][\w-]*( [\w-]+){0,2}: ")  # a sub-heading's label: "Paper: ..."


RECURRENCE = "RECURRENCE"


@dataclass(frozen=True, slots=True)
class Recurrence:
    """context.yaml's `recurrence`: how far back an entry's "same problem" may refer."""

    reach: int  # entries back
    max_codes: int  # an earlier entry with more fault codes than this is no one failure
    symptoms: frozenset[str]  # the codes that recur: what was seen, not a cause found
    patterns: list[dict]


def load_recurrence(path: Path) -> Recurrence:
    data = _read(path)
    patterns = [{"label": RECURRENCE, "pattern": optimise(p), "id": RECURRENCE}
                for p in data.get("recurrence", [])]
    return Recurrence(int(data.get("recurrence_reach", 0)), int(data.get("recurrence_codes", 0)),
                      frozenset(data.get("recurrence_symptoms", ())), patterns)


@dataclass(frozen=True, slots=True)
class FollowedRun:
    """context.yaml's `followed_run` and `many_parties`: what a logbook's title or preamble
    says when it is kept about one other party's run, where "they" and "their job" are the
    run's own (rules marked `theirs` do not fire there)."""

    says: re.Pattern[str]
    many: re.Pattern[str]

    def told_in(self, opening: str) -> bool:
        """Whether a logbook's opening (its title and preamble) says it follows another's run."""
        return bool(self.says.search(opening)) and not self.many.search(opening)


def load_followed_run(path: Path) -> FollowedRun:
    data = _read(path)
    return FollowedRun(re.compile(data["followed_run"]), re.compile(data["many_parties"]))


@dataclass(frozen=True, slots=True)
class AsideTitles:
    """context.yaml's `aside_sections`, case-insensitive: what a section's title says when it
    holds no report (plans, other groups' stories)."""

    # each regex, and the strings one of which every title it finds holds (ruler.clue)
    regexes: tuple[tuple[re.Pattern, frozenset[str] | None], ...]
    any_clue: re.Pattern | None  # finds any regex's clue (None: a regex has none)


def load_aside_titles(path: Path) -> AsideTitles:
    """context.yaml's `aside_sections`, each with its clues."""
    regexes = tuple((regex, clue(regex.pattern))
                    for regex in _compiled(_read(path).get("aside_sections", [])))
    clues = {c for _, found in regexes for c in found or ()}
    every_regex_has_one = all(found for _, found in regexes)
    return AsideTitles(regexes, re.compile(any_of(clues))
                       if clues and every_regex_has_one else None)


def any_of(strings: set[str]) -> str:
    """A regex that finds one of `strings`, as a tree of their beginnings ("a(?:gainst|
    n(?:other|ything))"): re tries a flat list of choices one by one at each character
    (three times slower on titles, for the 60 clues of context.yaml's asides)."""
    branches: dict[str, set[str]] = {}
    for string in strings:
        if string:
            branches.setdefault(string[0], set()).add(string[1:])
    tree = "|".join(re.escape(first) + any_of(rest) for first, rest in sorted(branches.items()))
    if "" in strings:  # a string ends here: found, whatever follows
        return f"(?:{tree})?" if tree else ""
    return f"(?:{tree})" if len(branches) > 1 else tree


def _compiled(patterns: list[str]) -> list[re.Pattern]:
    return [re.compile(p, re.IGNORECASE) for p in patterns]


@dataclass(frozen=True, slots=True)
class LineRule:
    """context.yaml's `line_rules`: the cues (by kind or code) that lines like these drop, on
    the whole line, or (`labels`) only in the field's label the regex matches, or
    (`whole_record`) in the whole record such a line closes (see record_spans)."""

    drops: frozenset[str]
    lines: list[re.Pattern]
    label_only: bool = False
    whole_record: bool = False

    def drops_cue(self, code: str, kind: str) -> bool:
        return code in self.drops or kind in self.drops


def load_line_rules(path: Path) -> list[LineRule]:
    """context.yaml's `line_rules`, their screens (see line_spans) compiled with them, not on
    the first text read."""
    data = _read(path)
    rules = [LineRule(frozenset(rule["drops"]), _compiled(rule.get("lines") or rule["labels"]),
                      "labels" in rule, bool(rule.get("whole_record", False)))
             for rule in data.get("line_rules", [])]
    for rule in rules:
        _screens(tuple(rule.lines))
    return rules


def line_spans(text: str, patterns: list[re.Pattern],
               label_only: bool = False) -> list[tuple[int, int]]:
    """Character ranges of the lines of `text` that one of `patterns` matches at the start
    (with `label_only`, of what it matches)."""
    at_start, after_line_end, clues = _screens(tuple(patterns))
    if clues and text.isascii() and not any(map(text.lower().__contains__, clues)):
        return []
    if not (at_start.match(text) or after_line_end.search(text)):
        return []
    spans, at = [], 0
    for line in text.split("\n"):
        found = next(filter(None, (p.match(line) for p in patterns)), None)
        if found:
            spans.append((at, at + (found.end() if label_only else len(line))))
        at += len(line) + 1
    return spans


def record_spans(text: str, lines: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The records that these lines of `text` close: each from the nearest line above it that
    titles a section (ending in ':', "NCCL upgrade to 2.21.5:") to the end of its paragraph,
    or, with no such title, the whole text (a change record's or a ticket's fields)."""
    spans = []
    for start, end in lines:
        before = text.rfind("\n\n", 0, start)
        title = max((m.start() for m in _TITLE_LINE.finditer(text, before + 1, start)), default=-1)
        if title < 0:
            return [(0, len(text))]
        after = text.find("\n\n", end)
        spans.append((title, len(text) if after < 0 else after))
    return spans


_TITLE_LINE = re.compile(r"^[^\n]*\S[*_]*:[*_]*[ \t]*$", re.MULTILINE)


@cache
def _screens(patterns: tuple[re.Pattern, ...]) -> tuple[re.Pattern, re.Pattern, frozenset[str]]:
    """Two regexes that find every line one of `patterns` matches in a whole text (and maybe
    more; not a pattern that looks past its line's end, which none of context.yaml's does):
    most entries have no such line, and one pass tells it. The first is tried at the text's
    start; the second reads a pattern's '^' as the line end before the line, which re skips
    ahead to (it tries '^' at every character). And the strings one of which (lower case) a
    line they match holds, if each pattern has some (ruler.clue): in ASCII text, a few
    substring tests are cheaper than the regexes."""
    def joined(parts: Iterable[str]) -> re.Pattern:
        return re.compile("|".join(f"(?:{part})" for part in parts), re.IGNORECASE | re.MULTILINE)

    at_start = joined(p.pattern for p in patterns)
    after_line_end = joined(
        "\\n" + p.pattern[1:] if p.pattern.startswith("^") else p.pattern for p in patterns)
    clues = [clue(p.pattern) for p in patterns]
    return at_start, after_line_end, frozenset().union(*clues) if all(clues) else frozenset()


def _unmarked(line: str) -> str:
    """A line without Markdown's heading, list, quote and emphasis marks at its ends."""
    return line.lstrip(" \t#*_>-").rstrip(" \t*_")


def titled_as_aside(line: str, titles: AsideTitles) -> bool:
    """Whether a title (an entry's heading, or a line that stands as one) names an aside.

    A regex is run only on a title holding one of its clues, and none on a title holding
    no clue at all (19 titles in 20), which one search tells: a substring test is much
    cheaper. (On ASCII titles only, where case-folding is re's.)
    """
    folded = line.casefold() if line.isascii() else None
    if folded is not None and titles.any_clue and not titles.any_clue.search(folded):
        return False
    return any(regex.search(line) for regex, clues in titles.regexes
               if folded is None or clues is None or any(map(folded.__contains__, clues)))


def aside_spans(text: str, titles: AsideTitles) -> list[tuple[int, int]]:
    """Character ranges of `text` inside sections titled as asides ("Future experiments:").

    A title is a line of its own: one ending in ':' owns the list it introduces (up to
    the first paragraph after a blank line that is not a list item), and so does a question
    a stand-up asks ("What will you do today?"), up to the next question; a short line with
    no closing punctuation (a folded sub-heading) owns what follows up to the next such
    line standing alone between blank lines.
    """
    lines, at = [], 0
    for raw in text.split("\n"):
        lines.append((at, raw))
        at += len(raw) + 1
    spans: list[tuple[int, int]] = []
    done = 0  # the lines before it are read
    for i, line in _may_title(lines):
        if i < done:
            continue
        raw = lines[i][1]
        # a paragraph's last sentence may title the list below it: "... Not optional. Plan:"
        title = _LAST_SENTENCE.split(line)[-1] if line.endswith(":") else line
        colon = title.endswith(":") and len(title) <= _MAX_TITLE
        question = (title.endswith("?") and len(title) <= _MAX_TITLE
                    and not _LIST_ITEM.match(raw))  # (a list's item may doubt: "not us?")
        if not ((colon or question or _heading_like(lines, i))
                and titled_as_aside(title, titles)):
            continue
        j = i + 1
        while j < len(lines) and not _section_ends(lines, j, colon or question) and not (
                question and _unmarked(lines[j][1]).endswith("?")):
            j += 1
        spans += _without_done_items(lines, i, j, len(text))
        done = j
    return spans


def _without_done_items(lines: list[tuple[int, str]], title: int, end: int,
                        text_end: int) -> list[tuple[int, int]]:
    """The range from line `title` up to line `end`, less the items marked done: minutes'
    action items list what is to be done, and one ticked off reports it ("- drained node-12
    (done)")."""
    spans, start = [], lines[title][0]
    for k in range(title + 1, end):
        if _DONE_ITEM.search(lines[k][1]):
            spans.append((start, lines[k][0]))
            start = lines[k + 1][0] if k + 1 < len(lines) else text_end
    spans.append((start, lines[end][0] if end < len(lines) else text_end))
    return [(a, b) for a, b in spans if a < b]


def _may_title(lines: list[tuple[int, str]]) -> Iterator[tuple[int, str]]:
    """The lines that may title an aside (index, text but Markdown's marks): those ending in
    ':' or '?', and those a heading may stand on (short, after a blank line, not ending a
    sentence). Few lines are either, and reading each whole cost more."""
    for i, (_, raw) in enumerate(lines):
        line = _unmarked(raw)
        if line and (line[-1] in ":?" or (
                len(line) <= _MAX_TITLE and line[-1] not in _NOT_HEADING_END
                and not (i and lines[i - 1][1].strip()))):
            yield i, line


def _heading_like(lines: list[tuple[int, str]], i: int) -> bool:
    if i and lines[i - 1][1].strip():  # a heading stands after a blank line (most lines do not)
        return False
    line = _unmarked(lines[i][1])
    # a labelled title may be longer: "Paper: Tanaka et al., 'What broke: lessons from a 65B run'"
    longest = _MAX_TITLE if _LABELLED.match(line) else _MAX_HEADING
    return (0 < len(line) <= longest and line[-1] not in _NOT_HEADING_END
            and not _LIST_ITEM.match(lines[i][1]))


def _section_ends(lines: list[tuple[int, str]], j: int, colon: bool) -> bool:
    raw = lines[j][1]
    if not raw.strip():
        return False
    after_blank = not lines[j - 1][1].strip()
    if colon:
        return after_blank and not _LIST_ITEM.match(raw) and not raw.startswith((" ", "\t"))
    blank_after = j + 1 >= len(lines) or not lines[j + 1][1].strip()
    return _heading_like(lines, j) and blank_after


def own_model_size(texts: Iterable[str]) -> str | None:
    """The model size a logbook names most often ("176B"): the size of its own run."""
    sizes = Counter(f"{m[1]}{m[2].upper()}" for text in texts
                    for m in leads.finditer(MODEL_SIZE, _MODEL_SIZE_LEAD, text))
    return sizes.most_common(1)[0][0] if sizes else None


def _names_other_model(trigger: Span, own_size: str | None) -> bool:
    m = MODEL_SIZE.search(trigger.text)
    return bool(m) and f"{m[1]}{m[2].upper()}" != own_size


def scopes(doc: Doc, rules: dict[str, Rule], own_size: str | None = None,
           followed: bool = False) -> list[Scope]:
    """The scopes opened by the context triggers found in `doc`; `followed`: the logbook is
    kept about another party's run (`FollowedRun`)."""
    # a SpanGroup makes its Spans anew each pass, and a Span its label's string
    found = [(span, span.label_) for span in doc.spans.get(SPANS_KEY, [])]
    if not found:
        return []  # (most docs: what follows costs more than the rest of ConText on them)
    pseudo = [s for s, label in found if label == PSEUDO]
    stops = (doc._.bare_matches or {}).get(STOPS_KEY, [])  # sorted (start, end, label)
    stop_starts = [start for start, _, _ in stops]
    causes = [s for s, label in found if label == CAUSE]
    parentheses: dict[int, list[tuple[int, int]]] = {}  # by sentence start
    text: str | None = None
    words: list[int] | None = None  # each token's ORTH id, read once, only if needed
    out: list[Scope] = []
    unless_met: dict[str, bool] = {}  # rule id -> whether its unless_text is in the doc
    # the triggers that count: a rule's, and not inside a pseudo-trigger ("no longer")
    live = [(trig, rule_id) for trig, rule_id in found if rule_id in rules
            and not any(p.start <= trig.start and trig.end <= p.end for p in pseudo)]
    starts_of: dict[str, list[int]] = {}  # each rule's trigger starts, in order
    for trig, rule_id in sorted(live, key=lambda one: one[0].start):
        starts_of.setdefault(rule_id, []).append(trig.start)
    for trig, rule_id in live:
        rule = rules[rule_id]
        if (rule.model_size and not _names_other_model(trig, own_size)) or (
                rule.theirs and followed):
            continue
        if rule.unless_text is not None:
            if rule_id not in unless_met:  # searched once per doc and rule, not per trigger
                text = _text(doc) if text is None else text
                unless_met[rule_id] = rule.unless_text.search(text) is not None
            if unless_met[rule_id]:
                continue
        # the trigger's sentence, tokens [first, last)
        first, last = Sentences.of(doc).around(trig.start)  # read once, kept on the doc
        if rule.unless_code_follows:
            text = _text(doc) if text is None else text  # built once, only if needed
            if _code_follows(text, doc[first:last]):
                continue
        if first not in parentheses:
            words = doc.to_array(ORTH).tolist() if words is None else words
            parentheses[first] = _parentheses(words[first:last], first, doc.vocab.strings)
        parens = [(o, c) for o, c in parentheses[first] if not o <= trig.start <= c]
        in_sentence = stops[bisect_left(stop_starts, first):bisect_left(stop_starts, last)]
        behind = f"{TERMINATE}<{rule.category}"  # ends only what lies before it
        ends = [(a, b, label != behind) for a, b, label in in_sentence
                if label in (TERMINATE, f"{TERMINATE}:{rule.category}", behind)
                and not any(o <= a <= c for o, c in parens)]
        start, end = trig.start, trig.end
        if rule.direction != "backward":
            # as medspaCy's ConText, a scope ends where the same rule fires again ("no exit and
            # no progress": the second "no" is the progress cue's own, not the first's)
            again = starts_of[rule_id]
            at = bisect_left(again, trig.end)
            end = min([last, *(a for a, _, ahead in ends if ahead and a >= trig.end),
                       *again[at:at + 1]])
            if rule.max_scope is not None:
                end = min(end, trig.end + rule.max_scope)
            if rule.explains:  # "we suspect the OOM is related to X": the OOM happened
                start = min((c.start for c in causes if trig.end <= c.start < end),
                            default=start)
        if rule.direction != "forward":
            start = max([first, *(b for _, b, _ in ends if b <= trig.start)])
            if rule.max_scope is not None:
                start = max(start, trig.start - rule.max_scope)
        for o, c in sorted(parens):  # the scope goes on after a parenthesis, without it
            if start <= o and c < end:
                out.append(Scope(rule, trig, start, o))
                start = c + 1
            elif start <= o < end <= c:  # nor into one it would stop inside:
                end = o  # "instead of 52,000 (`lr_decay_iters` changed to match)"
            elif o < start <= c < end:
                start = c + 1
        out.append(Scope(rule, trig, start, end))
        if rule.reaches_back and start == first and first > 0 and trig.start - first <= _OPENS:
            # the faults told just before: "Their cloud account was frozen for a week. That did
            # not affect us." (not what was done: "We relaunched. Not our problem though")
            out.append(Scope(replace(rule, kinds=rule.kinds & {"fault"}), trig,
                             Sentences.of(doc).around(first - 1)[0], first,
                             None if "faults" in rule.reaches_back else rule.reaches_back))
    return out


def _text(doc: Doc) -> str:
    """The doc's text: as its tokenizer kept it, or as `doc.text` builds it (a Token object
    per token: a long pasted log's cost more than the rest of ConText on it)."""
    text = doc.user_data.get(TEXT_KEY)
    return doc.text if text is None else text


def _code_follows(text: str, sent: Span) -> bool:
    """Whether a sentence (of the doc whose text is `text`) introduces the commands that carry
    it out: it ends in a colon, or a command or setting line follows it."""
    last = next((t for t in reversed(sent) if not t.is_space), None)
    return ((last is not None and last.text.endswith(":"))
            or bool(_CODE_FOLLOWS.match(text, sent.end_char)))


_OPEN = get_string_id("(")


def _parentheses(words: list[int], start: int, strings: StringStore) -> list[tuple[int, int]]:
    """The parentheses of a sentence (its tokens' ORTH ids, from token `start`), as (open,
    close) token indexes: "FYI from the Osprey team (70B, other region): they lost 3 days to
    ..." goes on after the parenthesis. Read on ids: a sentence's Token objects cost more."""
    out: list[tuple[int, int]] = []
    if _OPEN not in words:
        return out
    opened = []
    for i, word in enumerate(words, start):
        if word == _OPEN:
            opened.append(i)
        elif opened and strings[word].startswith(")"):  # "):" is one token
            out.append((opened.pop(), i))
    return out


def _modifiers(cues: Iterable[Span], kinds: dict[str, str], found: list[Scope]
               ) -> dict[tuple[int, int, int], Scope]:
    """By `cue_key`, the first scope of `found` that modifies each cue a scope modifies.
    A scope is asked only about the cues that reach its tokens or its trigger's (all that
    it may modify): asking each cue about every scope was quadratic in a long doc."""
    near = [(min(s.start, s.trigger.start), max(s.end, s.trigger.end), s) for s in found]
    out = {}
    for span in cues:
        start, end = span.start, span.end
        close = [scope for first, last, scope in near if first < end and start < last]
        if close:
            code = span.label_
            kind = kinds[code]
            scope = next((s for s in close if s.covers(start, end, code, kind)), None)
            if scope:
                out[cue_key(span)] = scope
    return out


_DECISIONS = "logbook_miner.context_decisions"  # a doc's decisions, in doc.user_data


def decisions(doc: Doc) -> dict[tuple[int, int, int], Scope]:
    """The Scope that modifies each cue ConText modified in `doc`, by `cue_key`: what each
    cue's `span._.context` reads, for many cues at once (two extension lookups per cue cost
    more than the rest of reading it). Kept in doc.user_data: a Doc extension's lookup costs
    more than the dict's."""
    return doc.user_data.get(_DECISIONS) or {}


def cue_key(span: Span) -> tuple[int, int, int]:
    """A cue's key in `decisions`."""
    return span.start, span.end, span.label


def _decision(span: Span) -> Scope | None:
    return decisions(span.doc).get(cue_key(span))


# A Span's extension values are kept per character range, so two cues on the same words
# ("upgraded the driver": a dependency_change and a software.dependency) would share one; the
# decisions are kept on the doc per cue instead (per cue a scope modifies: most cues stand),
# and `span._.context` reads its own.
if not Span.has_extension("context"):
    Span.set_extension("context", getter=_decision)


class ConText:
    """The pipeline component: each cue span gets `span._.context`, the Scope that
    modifies it (its category and trigger), or None when the cue stands as written.

    As in medspaCy, the decision is written on the doc, so `nlp(text)` shows why a
    cue was kept or dropped. `kinds` maps a cue's label to fault or intervention;
    `own_size` is the model size of the logbook being labelled, `followed` whether it is kept
    about another party's run (both set per logbook).
    """

    def __init__(self, cues_key: str) -> None:
        self.cues_key = cues_key
        self.rules: dict[str, Rule] = {}
        self.kinds: dict[str, str] = {}
        self.own_size: str | None = None
        self.followed = False

    def configure(self, rules: dict[str, Rule], kinds: dict[str, str]) -> ConText:
        """Give the component context.yaml's rules and the cue codes' kinds; returns it."""
        self.rules, self.kinds = rules, kinds
        return self

    def __call__(self, doc: Doc) -> Doc:
        found = scopes(doc, self.rules, self.own_size, self.followed)
        cues = doc.spans.get(self.cues_key, []) if found else []
        doc.user_data[_DECISIONS] = _modifiers(cues, self.kinds, found)
        return doc


@Language.factory("context", default_config={"cues_key": "taxonomy"})
def make_context(nlp: Language, name: str, cues_key: str) -> ConText:
    """`nlp.add_pipe("context", config={"cues_key": ...})`, then `.configure(rules, kinds)`."""
    return ConText(cues_key)
