"""Counters that read zero: what they name did not happen.

Reports print counters on every page, most of them at zero: a field ("OOM kills: 0",
"ECC corr/uncorr: 0/0"), a Markdown table's column or row, an aligned table's column in a
code block, a tool's output (dotted leaders, runs of key=value, JSON pairs, checks marked
OK). A count is a fact about the run (TAXONOMY rule 14), and a count of zero is one too: a
cue in a zero counter's name reports nothing. A pair of counters written as one ("ckpt
ok/fail 5/0") is read part by part.
"""

from __future__ import annotations

import re

from . import leads

# a cell that says nothing ("-" and "n/a" are a table's empty cell), and a zero or an empty
# value ("[]" and "null" are a JSON one; "ok" says a check found nothing)
_EMPTY = r"none|nothing|nil|n/a|[-–—]"
_NONE = rf"0+(?:\.0+)?%?|{_EMPTY}|\[\]|null|false|ok"
# a value that counts none, or a check's pass ("OK", "✅")
_ZERO = re.compile(rf"(?i)^(?:{_NONE}|zero|pass(ed|ing)?|healthy|green|✅|✓|✔)$")
# a value that says there is none of what the field names, whatever it names ("Workaround:
# none yet", "Fix: n/a"), where a 0 may be an id ("rank: 0")
_ABSENT = re.compile(rf"(?i)^(?:{_EMPTY})$")
_NUMBER = re.compile(r"(?i)^[~<>]?\d[\d.,_]*[kmb%x]?$")
# a cell that holds a value, not a name: "0", "n/a", "5/0", "4,250 → 6,920"
_VALUE = re.compile(rf"(?i)^([~<>]?\d[\d.,_ /%→>-]*[kmb%x]?|{_EMPTY}|ok)$")
# a zero where a value stands (after ':', '=', '|', a leader of dots or a column's gap, or
# a line's last word), or a check's pass: the lines to read. Each branch opens with a
# character (the lookbehinds come after the first space), so that its lead skips ahead to
# one (re itself tries a regex that opens with a choice of groups at every character).
# A line's last word is read whole (`\S++`: it can only end at its last character), not
# backed off a character at a time after each space. A space is most characters the lead
# stops at: what follows it is first asked to open a value (`_OPENS`, a character of _NONE's).
_OPENS = r"(?=[\d\-–—\[nfo])"
_ZERO_VALUE = re.compile(rf"(?:[:=|][ \t*\"]*|\.{{3,}} *| (?<=\S )[ ]+{_OPENS}|"
                         rf" (?<=[\w`\"] ){_OPENS}(?=\S++\s*$))"
                         rf"(?:\d+/)*(?:{_NONE})(?![\w.]|,\d)|\[(?:ok|pass)\]|[✅✓✔]",
                         re.IGNORECASE | re.MULTILINE)
_ZERO_VALUE_LEAD = leads.lead(_ZERO_VALUE) or _ZERO_VALUE  # where one stands
# a field of a report: "- **OOM kills:** 0", "NCCL timeouts = 0"
_FIELD = re.compile(r"^[\s>*+-]*(?:\*\*)?(?P<name>[^\s:=*][^:=*]{0,60}?)\s*(?:\*\*\s*)?"
                    r"(?P<leader>[:=]|\.{3,}|…+)\s*(?:\*\*\s*)?(?P<value>[^\s*]+)(?:\s*\*\*)?"
                    r"(?P<rest>.*)$")
# a zero said before what it counts, where a count opens (a line, a clause or a sentence):
# "job RUNNING, 0 requeues", "- 0 resubmits since Wed", "saw zero NaNs", "MFU 37.6%. 0 node
# failures" (not an id: "rank 0 crashes", "GPU 0 fell off"); the zero is found first (it is
# rare), then what stands before it on its line
_ZERO_BEFORE = re.compile(r"(?<![\w.])(?:0|zero)[ \t]+"
                          r"(?P<name>[a-z][\w-]*(?:[ \t]+(?!(?:0|zero)\b)[a-z][\w-]*){0,2})",
                          re.IGNORECASE)
# where one stands (no other character folds into "z"), as leads.lead makes it for a regex
# that opens with digits: re tries a regex that opens with a lookbehind at each character
_ZERO_BEFORE_LEAD = re.compile(rf"[0zZ](?<=(?=(?i:{_ZERO_BEFORE.pattern}))[0zZ])")
_WORD = re.compile(r"[\w-]+")
_COUNT_OPENS = re.compile(r"(?im)(?:^[ \t>*+-]*|[,;(:|·][ \t]*|[.!?][ \t]+"
                          r"|\b(?:and|with|had|has|saw|see|got)[ \t]+)$")
_STILL_GOING = re.compile(r"^\s*(-|–|→|->|=>|to\b|of\b|out\b|/)")  # "0 -> 3", "0 of 8": not a count
# machine output: a key ("nan_steps 0", "xid: 0"), a run of keys ("nan=0 ovf=0 xid=1"), a JSON
# pair ('"oom_kills": 0'), a check's status ("`GPUMemoryECC` OK", "[OK] ECC", "✅ IB links")
_KEY = re.compile(r"^[a-z][a-z0-9]*([_.-][a-z0-9]+)*$")
_KEY_VALUE_LINE = re.compile(r"^\s*(?P<name>[A-Za-z][\w./-]{2,})\s+(?P<value>\S+)\s*$")
_KEY_VALUE = re.compile(r"(?<![\w.-])(?P<name>[A-Za-z][\w./-]*)=(?P<value>[^\s,;|]+)")
_JSON_PAIR = re.compile(r'"(?P<name>[^"\n]{1,40})"\s*:\s*(?P<value>\[\]|[^\s,}\]"]+)')
_STATUS = re.compile(r"(?i)(?P<name>`?[A-Za-z][\w>.-]*`?)\s+(?:ok|green|passing)\b(?![/-])")
_STATUS_WORDS = ("ok", "green", "passing")  # one of them is in each _STATUS match (case-folded)
_TAGGED = re.compile(r"(?i)^\s*[-*]?\s*(?:\[(?:ok|pass)\]|[✅✓✔])\s*"
                     r"(?P<name>[^\s·|,;.][^·|,;.]{0,60})$")  # a checklist's item, not "ok ✅."
_COUNTED = re.compile(r"(?i)([a-z]s|count|counter|total|number|nans?|infs?|#)$")  # a counted noun
_PAIR = re.compile(r"[^\s/]+(?:/[^\s/]+)+$")  # "ok/failed", "c/u"
_MAX_NAME_WORDS = 6
_ROW = re.compile(r"^\s*\|")
_ADDED = re.compile(r"^\+[ \t]")  # a diff's added line sets a value ("+  tie_embeddings: false")
_REMOVED = re.compile(r"^-")
_HUNK_LINES = 50  # added lines looked back over for the removed one they replace
_SEPARATOR = re.compile(r"^\s*\|?(\s*:?-{2,}:?\s*\|)+\s*:?-*:?\s*$")
_CELL = re.compile(r"[^|]+")
_PIECE = re.compile(r"[^|,;·]+")  # a field of a line of several
_PAIR_PART = re.compile(r"[^/]+")
_PARENTHESIS = re.compile(r"\([^)]*\)")
_NOT_APPLICABLE = re.compile(r"(?i)\bn/a\b")
_COLUMN = re.compile(r"\S+(?: \S+)*")  # a field of an aligned table: words one space apart

Span = tuple[int, int]


def zero_spans(text: str) -> list[Span]:
    """Character ranges of `text` that name a counter whose value is zero (only the lines
    with a zero value are read: a pasted log may be megabytes long)."""
    spans: list[Span] = []
    at = 0  # where the next line to read may start: a line's first zero value is enough
    while zero := _ZERO_VALUE_LEAD.search(text, at):
        start = text.rfind("\n", 0, zero.start()) + 1
        line = _line(text, start)
        at = start + len(line) + 1
        if _ADDED.match(line) and _in_diff(text, start):
            continue
        if _ROW.match(line):
            while start and _ROW.match(_line(text, _previous(text, start))):
                start = _previous(text, start)
            rows = []
            while start < len(text) and _ROW.match(line := _line(text, start)):
                rows.append((start, line))
                start += len(line) + 1
            spans += _table_spans(rows)
            at = start
            continue
        spans += _field_spans(start, line)
        if start:
            above = _previous(text, start)
            spans += _column_spans((above, _line(text, above)), (start, line))
    spans += [span for found in leads.finditer(_ZERO_BEFORE, _ZERO_BEFORE_LEAD, text)
              if (span := _counted_name(found)) and _COUNT_OPENS.search(
                  text, text.rfind("\n", 0, found.start()) + 1, found.start())]
    return spans


def _in_diff(text: str, start: int) -> bool:
    """Whether the added line at `start` follows a removed one ("- old" then "+ new", past
    any added lines between, a hunk's worth): a diff's, not a Markdown list's "+" item."""
    for _ in range(_HUNK_LINES):
        if not start:
            return False
        start = _previous(text, start)
        line = _line(text, start)
        if not _ADDED.match(line):
            return bool(_REMOVED.match(line))
    return False


def _counted_name(found: re.Match[str]) -> Span | None:
    """What a zero counts: its words up to the first counted noun ("node failures" in "0 node
    failures since Tuesday"; "loss" is no plural), or None if none of them is one."""
    for word in _WORD.finditer(found["name"]):
        if _COUNTED.search(word[0]) and not word[0].lower().endswith("ss"):
            return found.start("name"), found.start("name") + word.end()
    return None


def counted_none(start: int, end: int, spans: list[Span]) -> bool:
    """Whether a cue at [start, end) begins or ends in a zero counter's name."""
    return any(a <= start < b or a < end <= b for a, b in spans)


def _line(text: str, start: int) -> str:
    end = text.find("\n", start)
    return text[start:] if end < 0 else text[start:end]


def _previous(text: str, start: int) -> int:
    """The start of the line before the one starting at `start` (> 0)."""
    return text.rfind("\n", 0, start - 1) + 1


def _field_spans(at: int, line: str) -> list[Span]:
    """The zero fields of a line, split at '|', ',', ';' and '·' ("OOM kills = 0, NCCL t/o = 0"),
    and its machine output."""
    spans = []
    pairs = list(_KEY_VALUE.finditer(line)) if "=" in line else []
    if len(pairs) > 1:  # "nan=0 ovf=0 ckpt_fail=0 xid=1"
        return [span for m in pairs for span in _named_zero(at + m.start(), m["name"],
                                                             m["value"], counted=False)]
    statuses = _STATUS.finditer(line) if _may_hold(line, _STATUS_WORDS) else ()
    for found in [*_JSON_PAIR.finditer(line), *statuses, *_TAGGED.finditer(line)]:
        value = found.groupdict().get("value", "ok")
        spans += _named_zero(at + found.start("name"), found["name"].strip(), value, counted=False)
    if spans:
        return spans
    key = _KEY_VALUE_LINE.match(line)
    if key:
        return _named_zero(at + key.start("name"), key["name"], key["value"], counted=False)
    for piece in _PIECE.finditer(line):
        field = _FIELD.match(piece[0])
        # ("0 to 3" is a range, "nothing to fix" is none)
        if field and (_ABSENT.match(field["value"]) or not _STILL_GOING.match(field["rest"])):
            layout = _KEY.match(field["name"]) or field["leader"] not in ":="
            spans += _named_zero(at + piece.start() + field.start("name"), field["name"],
                                 field["value"], counted=not layout)
    return spans


def _may_hold(line: str, words: tuple[str, ...]) -> bool:
    """False if an ASCII line holds none of `words` (lower case) in any case: a substring
    test is much cheaper than a case-insensitive regex tried at each character. (A non-ASCII
    letter may fold into an ASCII one: "K", the Kelvin sign, matches "k".)"""
    if not line.isascii():
        return True
    lower = line.lower()
    return any(word in lower for word in words)


def _named_zero(at: int, name: str, value: str, counted: bool = True) -> list[Span]:
    """The parts of `name` whose value is zero: the whole name, or a pair's zero parts. A
    field's name must name what it counts (not "rank: 0"), unless its layout (a table, a
    tool's key, a leader of dots) says it is a counter's."""
    values = _parts(value)
    # (most values read are a count other than zero: no part of them is)
    if not any(map(_ZERO.match, values)) or not all(
            _ZERO.match(v) or _NUMBER.match(v) for v in values):
        return []
    pair = _PAIR.search(name)
    if pair and len(values) > 1:
        parts = list(_PAIR_PART.finditer(pair[0]))
        if len(parts) == len(values):
            return [(at + pair.start() + p.start(), at + pair.start() + p.end())
                    for p, v in zip(parts, values, strict=True) if _ZERO.match(v)]
    words = _PARENTHESIS.sub(" ", name).split()
    # a field's name is a few words, none a number ("after 100 iterations on lr=0" is prose)
    named = len(words) <= _MAX_NAME_WORDS and not any(map(_NUMBER.match, words))
    says_none = any(map(_COUNTED.search, words)) or all(map(_ABSENT.match, values))
    if all(_ZERO.match(v) for v in values) and (not counted or (named and says_none)):
        return [(at, at + len(name))]
    return []


def _cells(at: int, line: str) -> list[tuple[int, str]]:
    """(offset, text) of each cell of a table row, stripped."""
    first = line.index("|") + 1
    return [(at + cell.start() + len(cell[0]) - len(cell[0].lstrip()), cell[0].strip())
            for cell in _CELL.finditer(line.rstrip(), first)]


def _table_spans(lines: list[tuple[int, str]]) -> list[Span]:
    """A Markdown table's zero counters: a header over a column of zeros, a row's name
    beside zeros only."""
    rows = [_cells(at, line) for at, line in lines]
    header: list[tuple[int, str]] = []
    if len(rows) > 1 and _SEPARATOR.match(lines[1][1]):
        header, rows = rows[0], rows[2:]
    if rows and all(row and not _VALUE.match(row[0][1]) for row in rows):
        # each row names a counter ("| restarts | 0 | 2 |"): a row of zeros counts none
        return [span for row in rows if len(row) > 1 and all(_ZERO.match(v) for _, v in row[1:])
                for span in _named_zero(row[0][0], row[0][1], "0", counted=False)]
    return [span for j, (at, name) in enumerate(header)
            for span in _named_zero(at, name, _column_value([row[j][1] for row in rows
                                                              if j < len(row)]), counted=False)]


def _column_value(column: list[str]) -> str:
    """One value standing for a column: each part zero where every row's is ("5/0", "7/0"
    -> "1/0"), "" where the rows do not agree on their parts."""
    split = [_parts(value) for value in column]
    if not split or len({len(parts) for parts in split}) != 1:
        return ""
    return "/".join("0" if all(_ZERO.match(parts[k]) for parts in split) else "1"
                    for k in range(len(split[0])))


def _column_spans(header: tuple[int, str], row: tuple[int, str]) -> list[Span]:
    """An aligned table's zero counters: a header line over a line of values, fields two
    spaces apart."""
    names = [(header[0] + m.start(), m[0]) for m in _COLUMN.finditer(header[1])]
    cells = [m[0] for m in _COLUMN.finditer(row[1])]
    if len(names) < 3 or len(names) != len(cells):
        return []
    numeric = sum(bool(_VALUE.match(cell)) for cell in cells)
    if numeric < 0.8 * len(cells) or any(_VALUE.match(name) for _, name in names):
        return []
    spans = []
    for (at, name), value in zip(names, cells, strict=True):
        spans += _named_zero(at, name, value, counted=False)
    return spans


def _parts(value: str) -> list[str]:
    """A value's parts: "5/0" -> ["5", "0"]; "n/a" is one."""
    return _NOT_APPLICABLE.sub("-", value).split("/") if "/" in value else [value]
