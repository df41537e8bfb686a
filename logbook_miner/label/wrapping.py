"""Whitespace read as a writer meant it: a real line end, or a line wrapped by a PDF.

A PDF (or a hard-wrapped text file) ends a line wherever the page did, so a sentence may
run over two lines: "we've had 40+" / "restarts since the update". Cues and counts are
found on text where each whitespace run is one space or one line end, and offsets map back
to the original, so evidence is always the original's own characters.
"""

from __future__ import annotations

import re

_SOFT_BEFORE = ",-(/+%&"  # a line ending in these stopped mid-sentence
_WRAP_WIDTH = 60  # characters: a shorter line ended on purpose
# a line that opens with a tag ("#training", a chat export's channel; "#SBATCH") is never
# wrapped (a script's comment, "# force crashing on nccl issues", may run on)
_TAG = re.compile(r"#\w")
# a line that opens with a date is a record of its own ("2023-01-09 03:45 added gpu-044 to
# --exclude"), not the rest of a long line before it (a time may be: "drain it at / 14:00")
_STAMPED = re.compile(r"\d{4}-\d\d-\d\d\b")
# spaces that align a table's columns (a space first, which re skips ahead to: it tries a
# regex that opens with a lookbehind, or with a choice of classes, at every character)
_COLUMN_GAP = re.compile(r" (?<=\S ) +(?=\S)")
_THOUSANDS = re.compile(r"(?<![\d.,])\d{1,3}(?: \d{3})+(?![\d.,]?\d)")  # "75 000", "1 500 000"
_SPACED_DIGITS = re.compile(r"\d \d{3}")  # what every _THOUSANDS match holds, 4x cheaper to seek
_MAX_WORD = 100  # characters: a longer run without whitespace is cut before tokenizing
# what normalise changes: a whitespace run other than one space, a word longer than _MAX_WORD
_TO_CHANGE = re.compile(rf"\s{{2,}}|[^\S ]|\S{{{_MAX_WORD + 1},}}")
# the same in a text that has no such word (most), opening with a whitespace
_SPACES_TO_CHANGE = re.compile(r"\s(?:\s+|(?<=[^ ]))")
# a word longer than _MAX_WORD at the text's start, or after a whitespace
_LONG_WORD = re.compile(rf"\S{{{_MAX_WORD + 1}}}")
_LONG_WORD_AFTER_SPACE = re.compile(rf"\s\S{{{_MAX_WORD + 1}}}")


def _hard_break(text: str, m: re.Match) -> bool:
    """True if a whitespace run ends a line for real, not a line wrapped by a PDF.

    A wrapped line stops mid-sentence (on a word or a comma) and goes on in lower case,
    or, when it is long enough to have hit the margin, in any word or number ("from 512
    to / 1024"), unless it opens with a tag or the next opens with a date.
    """
    run = m.group()
    if run.count("\n") != 1:
        return run.count("\n") > 1
    before = text[m.start() - 1] if m.start() else "\n"
    after = text[m.end()] if m.end() < len(text) else "\n"
    if not (before.isalnum() or before in _SOFT_BEFORE):
        return True
    line_start = text.rfind("\n", 0, m.start()) + 1
    if _TAG.match(text, line_start):
        return True
    if not (after.islower() or (after.isalnum() and m.start() - line_start >= _WRAP_WIDTH)):
        return True
    if after.isdigit() and _STAMPED.match(text, m.end()):
        return True
    # a row of aligned columns (asked last: the costliest test)
    return len(_COLUMN_GAP.findall(text, line_start, m.start())) >= 2


def normalise(text: str) -> tuple[str, list[int]]:
    """Collapse whitespace so cues match across wrapped lines.

    Each whitespace run becomes one "\\n" (a real line end, which also ends a
    sentence) or one " ". Returns the new text and, for each of its
    characters plus the end, the offset in `text` it came from.
    """
    parts: list[str] = []
    where: list[int] = []
    last = 0
    long_word = _LONG_WORD.match(text) or _LONG_WORD_AFTER_SPACE.search(text)
    # a single space, most runs, stays as it is
    for m in (_TO_CHANGE if long_word else _SPACES_TO_CHANGE).finditer(text):
        start, end = m.span()
        parts.append(text[last:start])
        run = m.group()
        if run.isspace():
            where.extend(range(last, start + 1))  # the run's one character: its first's
            # (_hard_break's own first test, inlined: most runs hold no line end, or several)
            ends = run.count("\n")
            parts.append("\n" if ends > 1 or (ends == 1 and _hard_break(text, m)) else " ")
        else:
            where.extend(range(last, start))
            _add_word(parts, where, text, start, end)
        last = end
    parts.append(text[last:])
    where.extend(range(last, len(text) + 1))
    # a number whose thousands a space sets apart ("step 75 000", as French and SI write it) is
    # read as one, its space as a comma: one character for one, so offsets stay the same
    flat = "".join(parts)
    return (_THOUSANDS.sub(_comma_grouped, flat) if _SPACED_DIGITS.search(flat) else flat), where


def _comma_grouped(m: re.Match) -> str:
    return m.group().replace(" ", ",")


def _add_word(parts: list[str], where: list[int], text: str, start: int, end: int) -> None:
    """Append text[start:end] (no whitespace in it), cut by a space every _MAX_WORD chars.

    spaCy's tokenizer peels a word's prefixes and suffixes one at a time, each with a
    regex over the rest: quadratic in a word of 20,000 ')' (60 s). No cue is that long.
    """
    for cut in range(start, end, _MAX_WORD):
        if cut > start:
            parts.append(" ")
            where.append(cut)
        parts.append(text[cut:min(cut + _MAX_WORD, end)])
        where.extend(range(cut, min(cut + _MAX_WORD, end)))
