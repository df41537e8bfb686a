"""Lines -> Entries: which lines are headings, and what belongs to each.

What an entry is, stated once:
- Printed (PDF, web page, Word), a paragraph that is a run of notes is first
  broken back into the lines its author wrote (`unfold`): a renderer joins a
  chat export's messages, a mail's header fields.
- A heading is a line set apart by the format (a Markdown, Word or HTML
  heading, a PDF line in a larger font, a bold line standing alone or that
  is only a date - ranked below the styled headings -, a text line
  underlined with ===, a LaTeX sectioning command: "\\section*{14 March
  2024}") or an unindented line (an HTML folded section's summary, as the
  Markdown reader shows it, too) that begins with a date or date-time and
  starts a block (or continues a run of such lines). A line led by a rule
  and a date (an IRC log's "--- Day changed ...") opens an entry wherever it
  stands, as does one framed by rules ("--- comment by jdoe, 2024-03-14 ---")
  or boxed ("+------------+" / "| 2024-03-14 |" / "+------------+");
  so does a line led by a date and its clock where it goes on a run
  of such notes, as a chat export runs its messages together, or begins one
  however long; and a thread's bylines, two or more with text under each
  ("nick — 03/14/2024 9:12 PM", "@kiri commented on Mar 4, 2024", "On Tue,
  Apr 2, 2024 at 8:41 AM Priya <p@x.org> wrote:"; an activity feed's line
  over a line that is only its date: "Priya moved this card to Done" / "Mar
  14, 2024 at 9:12 AM"); and a mail's header block (From:, Date:, Subject:,
  in an mbox under its "From jdoe@x.org Thu Mar 14 09:12:00 2024"), titled
  by its Subject; a line of tags led by the day's that opens a block (a
  notes app's "#2024_07_01"; right under a heading, one alone is that
  heading's tag line); a line that ends with its date in brackets over
  indented lines ("Restarted after ECC [30/12/2024 09:12]" / "  node
  drained ..."). A list item, a log line with seconds, or a date inside a
  title starts nothing; where styled headings carry dates (more than a title
  naming the dates it covers), plain date-led lines are prose. Where no
  heading is dated and the document is only headings and outermost list
  items, table rows or `Date:` lines (a YAML list's `- date:` too) that
  begin with a date (two or more, each with its block), those are the
  entries: a logbook kept as a list of dated bullets, a table (its date
  maybe after a row's number: "| 1 | 2024-03-11 | ..."; a MediaWiki
  table's rows too: "|-" / "| 14 Mar 2024 || jdoe || ...") or a form; so are
  log lines that each open a block ("Mar 14 09:12:01 node17 kernel: ..." over
  its "> note:"), list items led by a day's number under a heading that
  names their month ("## March 2024" / "- 14: restarted"), and list items
  each over a line that is only its date (an Org outline's "* Restarted
  after ECC" over "<2024-03-14 Thu 09:12>"). A dated list among a report's
  paragraphs is its text.
- A heading is dated by the first date it writes ("## 20240314" too; a
  mail's header block by its Date:, or without one by its Subject's date:
  "Subject: [train-bot] Daily report 2024-03-14"), or by
  a preamble line under it (a labelled one, one that is little but a date,
  a line of tags: "#log/2024-03-14 #train"); a range by its first day, its
  month and year maybe written once at its end ("Mon 11 – Wed 13 Mar 2024");
  a heading that is only a day ("### 14", "## W11 · Thu 14") by the month
  and year named by headings above it that name nothing else ("# 2024" / "##
  March") or one month with its year ("# Run log — March 2025"); one that
  is only a weekday ("### Thursday") by the week the heading above it names
  ("## Week of 2024-03-11", "## 2024-W11", a range of at most seven days;
  not a day's heading nor a sprint's), which is then no entry unless text
  stands under it. A date that writes no year takes one as years.py says.
- A heading wraps onto the next line when that line has its style, or when
  the heading leaves a bracket open.
- A table of contents repeats later headings with nothing under them: its
  lines (and adjacent lines naming a later heading) are dropped, but a
  document that is only a list of dated headers is a list of entries.
- Where headings carry dates, an undated heading deeper than the dated one
  above it is part of that entry; every other heading starts an entry.
- An undated heading with no text under it starts nothing; text before the
  first heading is an entry of its own.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass, field
from datetime import date

from ..models import HEADING_STEP, Document, Entry, Line, body_size
from . import dates
from .mail import MAIL_FIELDS, MBOX_SEPARATOR
from .unfold import PRINTED, unfolded
from .years import complete_dates

_BODY_LEVEL = 99  # the level of a date-led line that has no heading style
_MARKED_BULLET = re.compile(r"\s*(?:- (?=\S))?")  # where `**` opens a bold line
_MARKED_ITEM = re.compile(r"\s*(?:(?:[-*+]|\d{1,3}[.)]|[a-z][.)]) (?=\S))?")
_STRUCTURE_BOLD_LEVEL = 7  # a bold line standing alone, where headings have levels, not sizes
_INDENTED = 2.0  # points or spaces: a line indented this much is a list item or quote
_MAX_HEADING_CHARS = 250
# Markdown's bold (or bold and italic) around words: "**Alice Smith**", "***14 JANUARY 2025***"
# (not "2**16", nor "__init__.py")
_EMPHASIS = re.compile(r"(?<![\w*])(\*\*\*?)(\S(?:.*?\S)?)\1(?![\w*])")
_MAX_STANDALONE_BOLD_CHARS = 120
_MAX_DATED_LABEL_CHARS = 40  # a bold line that is only a date ("Mon 4 Mar 2024, 09:00 UTC")
_LEADER_CHARS = ".·…_"
# a forum's BBCode around words, pasted with its post: "[b]14/03/2024[/b]", "[size=150]...[/size]"
_BBCODE = re.compile(rf"(?i)\[(?P<tag>{dates.BBCODE_TAGS})(?:=[^\]\s]*)?\](?P<text>.*?)"
                     r"\[/(?P=tag)\]")
_AUTHOR = re.compile(r"\[(?P<name>[A-Z][\w.' -]{0,40}?)\]")
_RUN_ID = [
    re.compile(r"\bRun\s+#?(?P<id>\d[\w.-]*)", re.IGNORECASE),  # "Run 12.17" is run 12.17
    re.compile(r"\b(?:Experiment|Exp\.?|Job|Attempt)\s+#?\d[\w.-]*", re.IGNORECASE),
    re.compile(r"\A\s*[:\-–]?\s*(?P<id>\d+\.\d+)\b"),  # "...ET: 12.36 restart from 37k"
    re.compile(r"\b(?:main|run|exp|job)[-_]\d+\b", re.IGNORECASE),
]
_PREAMBLE = re.compile(
    r"^\W*(?P<label>posted|published|written|dated?|time|updated|created|authors?|by)\b[^:]{0,20}:"
    r"\W*(?P<value>.+)$",
    re.IGNORECASE,
)
_PREAMBLE_LINES = 4
# a notes app's line of tags under a note's title, one of them its day: "#log/2024-03-14 #train"
_TAG_LINE = re.compile(r"#[^\s#]+(?:\s+#[^\s#]+)*")
# a rule before a line's date sets it apart wherever it stands: "=== 2021-11-24 ===", an IRC
# log's "--- Day changed Thu Mar 14 2024"
_RULE_LEAD = re.compile(r"\s*(?:={3,}|~{3,}|-{3,})\s")
# a box drawn around one line, as a plain-text writer sets a day apart: "+------------+" / "|
# 2024-03-14 |" / "+------------+" (a grid table of one cell), in box-drawing characters too
_BOX_EDGE = re.compile(r"[+┌└╔╚][-=─═]{3,}[+┐┘╗╝]")
_BOX_SIDES = re.compile(r"[|│║]\s*(?P<text>[^|│║]*?)\s*[|│║]")
_TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")  # |---|:--:|
# a MediaWiki table, from its "{|" to its "|}", its rows a bar's ("|-" / "| 14 Mar 2024 || jdoe
# || ..."), its header row the "!"'s ("! Date !! Who !! Note"); and a wiki page's category links,
# which MediaWiki writes at its end ("[[Category:Training runs]]"), tags, no text
_WIKI_TABLE = re.compile(r"\s*(?P<edge>\{\||\|\})")
_WIKI_CATEGORIES = re.compile(r"(?:\s*\[\[Category:[^\[\]]+\]\])+\s*")
# a list item's bullet or number, a table row's bar, a date's label ("Date: 2023-03-04"; a
# YAML list's "- date: 2024-05-06" too)
_BULLET = r"[-*+\u2022]"
_DATE_LABEL = r"(?:Date|Dated|Posted|Updated)\s*:"
_ITEM_MARK = re.compile(rf"(?:(?:{_BULLET}|\||\d{{1,3}}[.)](?=\s))\s*(?:{_DATE_LABEL}\s*\"?)?"
                        rf"|{_DATE_LABEL}\s*\"?)", re.IGNORECASE)
_FIELD = re.compile(r"(?P<name>[A-Za-z][\w-]{0,20})\s*:\s+(?P<value>\S.*)")  # "Subject: run-42"
_SENDER = re.compile(r"<[^<>]*>")  # a From: field's address, after the sender's name
# a mail's or a post's date field, whose stamp to the second is no log line's
_DATE_FIELD = re.compile(rf"(?:{_BULLET}\s*)?{_DATE_LABEL}", re.IGNORECASE)
# "Author: Jun Tan <jtan@>", "By: hlin · Reviewers: ptak": a name, up to another field
_BYLINE = re.compile(r"^\W*(?:authors?|written by|posted by|by)\s*:\W*(?P<name>[^:·|;]{1,200}?)"
                     r"\s*(?:[·|;]|$)", re.IGNORECASE)


@dataclass(slots=True)
class _Heading:
    index: int  # position in the document's lines
    text: str
    level: int
    when: dates.When | None
    page: int | None = None
    span: int = 1  # lines the heading covers after a wrap is joined
    body: list[Line] = field(default_factory=list)
    bold: bool = False  # a bold line standing alone (not a heading's size or level)
    size: float | None = None  # its font's (a PDF's)
    date_led: bool = False  # its text opens with its date
    byline: bool = False  # a chat's, tracker's or mail thread's message: who, (what) and when
    author: str | None = None  # who wrote it, where a field says (a mail's From:)
    days: bool = False  # a week's heading over headings that are only its weekdays

    @property
    def clocked(self) -> bool:
        """A note led by its date and clock ("2024-05-02 14:10 - ..."), not a styled heading."""
        return (self.level == _BODY_LEVEL and self.date_led and self.when is not None
                and self.when.time is not None)


def segment(doc: Document, default_timezone: str | None = None,
            dayfirst: bool | None = None) -> list[Entry]:
    """Split a document into entries with dates, times, zones, authors and run ids.

    `dayfirst` says how to read 04/03/2024; by default the document's own dates say
    (`dates.reads_dayfirst`).
    """
    if dayfirst is None:
        dayfirst = dates.reads_dayfirst(line.text for line in doc.lines)
    lines = unfolded(doc.lines, dayfirst, doc.format == "pdf") if doc.format in PRINTED else (
        doc.lines)
    heads = _join_wrapped(_find_headings(lines, dayfirst), lines, dayfirst)
    months = _date_days_by_headings_above(heads, dayfirst)
    titles = [head.text for head in heads]  # a title may name the year ("Training log 2024")
    column_names: set[int] = set()
    if not any(head.when for head in heads):
        items = _dated_items(lines, heads, dayfirst, months)
        heads = sorted([*heads, *items], key=lambda h: h.index)
        column_names = _table_header(lines, items)
    first_heading = heads[0].index if heads else len(lines)
    heads, toc = _drop_toc(heads, lines)
    left_out = toc | column_names
    heads = _prefer_styled(heads, doc.format)
    ends = [h.index for h in heads[1:]] + [len(lines)]
    for head, end in zip(heads, ends, strict=False):
        head.body = [line for i, line in enumerate(lines[head.index + head.span:end],
                                                   head.index + head.span) if i not in left_out]
    heads = _merge_subheadings(heads)
    lead = _leading_text([line for i, line in enumerate(lines[:first_heading])
                          if i not in column_names], any_heading=bool(heads),
                         wrapped=doc.format == "pdf")
    entries = [lead] if lead else []
    first = len(entries)
    entries += [_to_entry(first + n, head, dayfirst) for n, head in enumerate(heads, 1)]
    no_year = {i: h.when.date for i, h in enumerate(heads, first) if entries[i].date is None
               and h.when and h.when.date.year is None and not h.when.date.partial}
    complete_dates(entries, no_year, default_timezone, titles)
    return entries


def _find_headings(lines: list[Line], dayfirst: bool) -> list[_Heading]:
    levels = _style_levels(lines)
    heads: list[_Heading] = []
    for i, line in enumerate(lines):
        text = line.text.strip()
        covered = bool(heads) and i < heads[-1].index + heads[-1].span  # a heading's 2nd line
        if text and not line.code and not covered and (
                head := _heading_at(lines, i, levels, heads, dayfirst)):
            heads.append(head)
    dropped = _not_messages(heads)
    return [head for head in heads if head.index not in dropped]


def _not_messages(heads: list[_Heading]) -> set[int]:
    """The lines of the bylines that head no message of a thread: a thread is two or more,
    each with text under it; a lone one is a reply quoted in a note, and bylines on
    consecutive lines are a list ("Maintenance — 2024-03-20 06:00 UTC" over "ETA — ...")."""
    bylines = {head.index for head in heads if head.byline}
    listed = {i for i in bylines if {i - 1, i + 1} & bylines}
    return bylines if len(bylines) - len(listed) < 2 else listed


def _heading_at(lines: list[Line], i: int, levels: dict, heads: list[_Heading],
                dayfirst: bool) -> _Heading | None:
    """The heading line i is, if any; `heads`: those found above it."""
    line, text = lines[i], lines[i].text.strip()
    if line.level is None and (boxed := _boxed(lines, i, dayfirst)):
        return boxed
    # a paragraph, unless it goes on a run of notes or begins one
    long = len(text) > _MAX_HEADING_CHARS and not _begins_run(lines, i, dayfirst)
    unindented = line.indent < _INDENTED
    previous = heads[-1] if heads else None
    level = None if long else (
        line.level if line.level is not None else levels.get((line.size, line.bold)))
    # a bold line stands apart by blank lines, or by being only a date (a PDF may print no
    # gap under a heading as small as its text: "26.02.")
    bold = level is None and not long and line.bold and unindented and (
        _standalone(lines, i) or _date_alone(text, dayfirst) is not None)
    if bold:
        level = levels.get("bold")  # indented, it is a list item or a table's header row
    starts_block = _starts_block(lines, i)
    if level is None and not long and starts_block and (
            mail := _mail_header(lines, i, dayfirst)):
        return mail
    in_list = (previous is not None and previous.level == _BODY_LEVEL
               and i - previous.index <= 2)
    opens = level is not None or (unindented and not long and (
        starts_block or in_list or _RULE_LEAD.match(text)))
    # inside a block only a run of notes led by their date and clock goes on ("May 3 09:12 -
    # ..." after "May 2 18:40 - ...": not a timeline inside a note)
    goes_on = not opens and unindented and previous is not None and previous.clocked
    when = dates.leading_when(text, dayfirst) if opens or goes_on else None
    if goes_on and when is not None and when.time is None:
        when = None
    led = when is not None  # (a framed line's date need not open it)
    if when is None and not long and opens and _RULE_LEAD.match(text):
        when = dates.framed_when(text, dayfirst)
    if when is None and level is None and not long and unindented and starts_block and (
            tagged := _day_tag_note(lines, i, heads, dayfirst)):
        when, led = tagged, True
    if when is None and level is None and not long and _depth(line) < _INDENTED and (
            ends := _over_indented_lines(lines, i, dayfirst)):
        when = ends
    byline = None
    if when is None and not long and (level is not None or unindented):
        byline = dates.byline_when(text, dayfirst)  # kept if a thread's (`_not_messages`)
        when = byline
        led = when is not None
    if level is None and when is not None and not _log_line(when, text):
        level = _BODY_LEVEL
    if level is None and when is None and unindented and starts_block and not long:
        return _over_its_date(lines, i, dayfirst)
    if level is None:
        return None
    return _Heading(i, text, level, when or dates.heading_when(text, dayfirst), page=line.page,
                    bold=bold, size=line.size, date_led=led,
                    byline=byline is not None)


def _boxed(lines: list[Line], i: int, dayfirst: bool) -> _Heading | None:
    """The box whose top edge is line i, three lines of one width ("+------------+" / "|
    2024-03-14 |" / "+------------+"), as a heading titled by the line in it, where that line
    has a date (the first it writes): it stands apart wherever it stands, as a line framed by
    rules does (`dates.framed_when`). None for another line."""
    rows = lines[i:i + 3]
    if len(rows) < 3 or any(row.code or row.page != lines[i].page for row in rows):
        return None
    top, middle, bottom = (row.text.rstrip() for row in rows)
    sides = _BOX_SIDES.fullmatch(middle.strip())
    if not (sides and _BOX_EDGE.fullmatch(top.strip()) and _BOX_EDGE.fullmatch(bottom.strip())
            and len(top) == len(middle) == len(bottom)):
        return None
    title = sides["text"]
    when = dates.heading_when(title, dayfirst) if title else None
    if when is None:
        return None
    return _Heading(i, title, _BODY_LEVEL, when, page=lines[i].page, span=3,
                    date_led=dates.leading_when(title, dayfirst) is not None)


def _date_days_by_headings_above(heads: list[_Heading], dayfirst: bool = False,
                                 ) -> dict[int, tuple[int | None, int]]:
    """Date each heading that is only a day ("### 14", "### W11 · Thu 14") by the month and year
    named by headings above it that name nothing else ("# 2024" / "## March") or name a month
    with its year ("# 70B run log — March 2025"): a calendar kept as nested headings; and each
    that is only a weekday ("### Thursday") by the dated heading right above it if it names a
    week ("## Week of 2024-03-11", "## 2024-W11", a range of at most seven days:
    `dates.week_of`; not a day's "## 2024-03-14 (Thu)" nor a sprint's two weeks), which then
    heads its days and is no entry of its own unless text stands under it. One pass, with a
    stack of the (level, year, month) of those above, and the week's heading above. Returns the
    (year, month) in force under each heading that names a month, by its line, for the list
    items under it that are only a day's number ("- 14: restarted", `_dated_items`)."""
    above: list[tuple[int, int | None, int | None]] = []
    months: dict[int, tuple[int | None, int]] = {}
    week: _Heading | None = None  # the week's heading above, whose sub-headings may be weekdays
    monday: date | None = None  # (the first day of its week)
    for head in heads:
        if head.level == _BODY_LEVEL:
            continue
        while above and above[-1][0] >= head.level:
            above.pop()
        if week is not None and week.level >= head.level:
            week = None
        if head.when is not None:
            monday = dates.week_of(head.text, head.when, dayfirst)
            week = head if monday is not None else None
            continue
        if week is not None and (day := dates.weekday_under(head.text, monday)):
            head.when, week.days = day, True
            continue
        if named := dates.year_or_month(head.text):
            above.append((head.level, *named))
            year, month = _calendar(above)
            if month is not None and dates.names_only_a_month(head.text):
                months[head.index] = (year, month)
            continue
        year, month = _calendar(above)
        if month is not None:
            head.when = dates.day_under(head.text, year, month)
        if head.when is None:
            above.append((head.level, None, None))
    return months


def _calendar(above: list[tuple[int, int | None, int | None]]) -> tuple[int | None, int | None]:
    """The year and month the headings right above name (the nearest of each): "### Open
    issues" under "## March 2024" ends the calendar for the headings under it."""
    calendar = list(itertools.takewhile(lambda named: named[1] or named[2], reversed(above)))
    year = next((year for _, year, _ in calendar if year is not None), None)
    month = next((month for *_, month in calendar if month is not None), None)
    return year, month


def _over_its_date(lines: list[Line], i: int, dayfirst: bool) -> _Heading | None:
    """Line i, if the line under it is only a date (and clock), as an activity feed writes
    each event and comment ("Priya moved this card to Done" / "Mar 14, 2024 at 9:12 AM",
    "Jonas Weber" / its date / the comment): a byline over two lines, a message's where the
    document has a run of them (`_not_messages`). A list item or a table row is none, nor a
    line over a date set apart as a heading (a PDF's bold "Monday, March 4" under a preamble),
    nor one that closes its section (a heading next). A bold title over its date is a notes
    app's ("**Checkpoint follow-up**" / "14 March 2024 at 14:40"): its `**` is no bullet."""
    title, below = lines[i].text.strip(), i + 1
    listed = _ITEM_MARK.match(title) and not _EMPHASIS.match(title)
    if below == len(lines) or listed or lines[below].code or (
            lines[below].indent >= _INDENTED or lines[below].page != lines[i].page) or (
            lines[below].bold or lines[below].level is not None):
        return None
    found = _date_alone(lines[below].text.strip(), dayfirst)
    after = next((line for line in lines[below + 1:below + 4] if line.text.strip()), None)
    if found is None or (after is not None and (after.level is not None or after.bold)):
        return None  # (a sign-off closing its section: "Handed over by Ana" / "2024-03-04")
    when = dates.When(found.date, found.time, found.timezone)  # no text of the title's
    return _Heading(i, title, _BODY_LEVEL, when, page=lines[i].page, span=2, byline=True)


def _day_tag_note(lines: list[Line], i: int, heads: list[_Heading],
                  dayfirst: bool) -> dates.When | None:
    """The date of line i if it is a line of tags led by the day's ("#2024_07_01", "#2024-03-14
    #train"), as a notes app exports notes titled by their day: a note of its own, but for the
    line of tags under a heading, which dates that heading (`_read_preamble`), unless another
    such line stands under it before the next styled heading (a heading over several notes).
    Tags with nothing under them but a heading close a note (as Bear and Obsidian notes end) and
    title nothing, where the document's first tags follow a note's text."""
    text = lines[i].text.strip()
    if not _day_tag_line(text):
        return None
    under = next((j for j in range(i + 1, len(lines)) if lines[j].text.strip()), None)
    if under is None or _day_tag_line(lines[under].text.strip()) or (
            lines[under].level is not None and _tags_close_notes(lines)):
        return None
    above = next((j for j in range(i - 1, -1, -1) if lines[j].text.strip()), None)
    if heads and above is not None and heads[-1].index <= above < heads[-1].index + heads[-1].span:
        later = (j for j in range(i + 1, len(lines))
                 if lines[j].level is not None or _day_tag_line(lines[j].text.strip()))
        nxt = next(later, None)
        if nxt is None or lines[nxt].level is not None:
            return None
    return dates.heading_when(text, dayfirst)


def _tags_close_notes(lines: list[Line]) -> bool:
    """The document's first day tag follows text of a note: its tags end its notes. (Tags that
    stand before any text, over the first heading, lead theirs: "#2024-03-14" / "# Thursday".)"""
    for line in lines:
        text = line.text.strip()
        if _day_tag_line(text):
            return False
        if text and line.level is None:
            return True
    return False


def _day_tag_line(text: str) -> bool:
    """A line of tags led by the day's: "#2024_07_01", "#log/2024-03-14 #train"."""
    return bool(_TAG_LINE.fullmatch(text)) and bool(dates.DAY_TAG.fullmatch(text.split()[0]))


def _over_indented_lines(lines: list[Line], i: int, dayfirst: bool) -> dates.When | None:
    """The date of line i if it ends with its date in brackets and the line under it is
    indented, as a plain-text log writes each note: its title and when ("Restarted after ECC on
    node17 [30/12/2024 09:12]"), then its text indented under it. A list item is none, and so is
    a line inside a paragraph (the two lines above it text at its margin, the one right above no
    note's title): "Used the checkpoint of the day before (2024-03-14)" over "    and lowered
    the lr" continues a note."""
    below, above = i + 1, lines[i - 1] if i else None
    if below == len(lines) or lines[below].code or not lines[below].text.strip() or (
            _depth(lines[below]) < _INDENTED or _ITEM_MARK.match(lines[i].text.strip())):
        return None
    if (above is not None and above.level is None and above.text.strip()
            and _depth(above) < _INDENTED and i > 1 and lines[i - 2].text.strip()
            and dates.trailing_when(above.text.strip(), dayfirst) is None):
        return None
    return dates.trailing_when(lines[i].text.strip(), dayfirst)


def _depth(line: Line) -> float:
    """How far right a line begins: its indent (a PDF's points, a text's spaces) and the spaces
    it begins with (a Markdown line keeps them in its text)."""
    return line.indent + len(line.text) - len(line.text.lstrip())


def _begins_run(lines: list[Line], i: int, dayfirst: bool) -> bool:
    """Line i and the line under it are notes led by their date and clock: a run's first note,
    however long (a printed chat export's "[02/04/2024 19:03] hazel: ..." over "[02/04/2024
    19:05] ...")."""
    if i + 1 >= len(lines) or lines[i + 1].indent >= _INDENTED:
        return False
    whens = (dates.leading_when(lines[j].text.strip(), dayfirst) for j in (i, i + 1))
    return all(when is not None and when.time is not None for when in whens)


def _mail_header(lines: list[Line], i: int, dayfirst: bool) -> _Heading | None:
    """A mail's header block at line i, a field a line (From:, To:, Date:, Subject:), as an
    export of a thread writes one over each message (an mbox under its "From " line): a
    heading titled by its Subject, dated by its Date, its body the message under it. Pasted
    without a Date, as a bot's reports are ("Subject: [train-bot] Daily report 2024-03-14" /
    "From: train-bot <...>"), it is dated by the full date its Subject names."""
    fields: dict[str, str] = {}
    end = i + 1 if MBOX_SEPARATOR.match(lines[i].text.strip()) else i
    while end < len(lines) and (field := _FIELD.fullmatch(lines[end].text.strip())) and (
            field["name"].lower() in MAIL_FIELDS):
        fields.setdefault(field["name"].lower(), field["value"])
        end += 1
    when = dates.leading_when(fields["date"], dayfirst) if {"from", "date"} <= set(fields) else None
    if when is not None and "subject" in fields:  # its end in the field says nothing of the subject
        when = dates.When(when.date, when.time, when.timezone)
    elif when is None and {"from", "subject"} <= set(fields) and "date" not in fields:
        when = dates.heading_when(fields["subject"], dayfirst)
        when = when if when is not None and when.date.year is not None else None
    if when is None:
        return None
    sender = _SENDER.sub("", fields["from"]).strip(' "') or fields["from"].strip("<> ")
    return _Heading(i, fields.get("subject") or fields["date"], _BODY_LEVEL, when,
                    page=lines[i].page, span=end - i, author=sender)


def _dated_items(lines: list[Line], heads: list[_Heading], dayfirst: bool,
                 months: dict[int, tuple[int | None, int]]) -> list[_Heading]:
    """The outermost list items, table rows and `Date:` lines that begin with a date (or, right
    under a heading that names their month, with a day's number: "## March 2024" / "- 14:
    restarted", `months` by the heading's line), where they are the document: two or more, and
    every other non-blank line a heading, a table line, a line of an item's block (up to the
    next blank line) or one of a short preamble before the first ("Notes for run sparrow-2, kept
    by Mike"). A log line that opens a block is an item too, as a triage file pastes each log
    line over its note ("Mar 14 09:12:01 node17 kernel: ..." / "> note: GPU 6 gone"); a list's
    log lines are a log's excerpt. A report that holds a dated list or a timeline table among
    its paragraphs keeps them as its text."""
    found = []
    other = {head.index for head in heads}
    last_text = -1  # the last non-blank line before this one
    month: tuple[int | None, int] | None = None  # the one the heading above names
    for i, line in enumerate(lines):
        month = months.get(i) if i in other else month
        text = _item_text(line)
        pasted = text is None and _pasted_log_line(lines, i)
        text = line.text.strip() if pasted else text
        when = dates.leading_when(text, dayfirst) if text else None
        if when is None and text and month is not None and not pasted and _ITEM_MARK.match(
                line.text.strip()):
            when = dates.day_led(text, *month)
        if when is None and text and "|" in text and (row := _row_from_its_date(text, dayfirst)):
            text, when = row
        under = None  # (the date line under an item is its heading's, no text of its entry)
        if when is None and text and not pasted:
            when = under = _date_under_item(lines, i, dayfirst)
        field = _DATE_FIELD.match(line.text.strip())
        if when is not None and (field or _log_line(when, text) == pasted):
            depth = _depth(line)
            head = _Heading(i, text, _BODY_LEVEL, when, page=line.page, span=2 if under else 1)
            found.append((depth, head, field is not None, last_text in other))
        last_text = i if line.text.strip() else last_text
    # `Date:` lines each right under a heading date those headings' entries ("## Day 1" /
    # "Date: ..."); a list of them under one title is the log (a YAML file's "- date: ...")
    if all(under for _, _, field, under in found if field):
        found = [(depth, head, field, under) for depth, head, field, under in found if not field]
    # the outermost: less than a list's step deeper than the least (a PDF's rows may sit a
    # fraction of a point apart)
    outermost = min((depth for depth, *_ in found), default=0)
    items = [item for depth, item, *_ in found if depth - outermost < _INDENTED]
    if len(items) < 2:
        return []
    starts = {item.index for item in items}
    tabled = _table_lines(lines)
    preamble = [i for i, line in enumerate(lines[:items[0].index])
                if line.text.strip() and i not in other and i not in tabled]
    allowed = other | tabled | (set(preamble) if len(preamble) <= _PREAMBLE_LINES else set())
    in_item = after_item = False  # in an item's block; the last non-blank line was
    for i, line in enumerate(lines):
        text = line.text.strip()
        # an item's block goes on to the next blank line, and over a quote right under it (a
        # Markdown reader sets the "> note: ..." under a line apart as a block of its own; a
        # PDF prints it indented)
        quote = bool(text) and (text[0] == ">" or line.indent >= _INDENTED)
        in_item = bool(text) and (in_item or i in starts or (after_item and quote))
        after_item = in_item if text else after_item
        if text and not (in_item or i in allowed):
            return []
    return items


def _table_lines(lines: list[Line]) -> set[int]:
    """The lines of a log's tables, which a table log holds besides its dated rows: each line
    with a bar (a Markdown table's header and rule), each line of a MediaWiki table (its header
    row "! Date !! Who" has none) and a wiki page's category links under it."""
    found: set[int] = set()
    in_wiki_table = False
    for i, line in enumerate(lines):
        edge = _WIKI_TABLE.match(line.text)
        in_wiki_table = (in_wiki_table or bool(edge and edge["edge"] == "{|")) and not (
            edge and edge["edge"] == "|}")
        if "|" in line.text or in_wiki_table or _WIKI_CATEGORIES.fullmatch(line.text):
            found.add(i)
    return found


def _date_under_item(lines: list[Line], i: int, dayfirst: bool) -> dates.When | None:
    """The date of the line under list item i, where that line is only a date in the item's
    block: an Org-mode outline pasted into Markdown, whose "* Restarted after ECC" reads as a
    list item, writes its day on the line under it ("<2024-03-14 Thu 09:12>"), as a
    plain-text list may ("- Restarted after ECC" / "  2024-03-14"), as a page's item broken at
    its date does. A plain date at the item's own margin with another item under it heads that
    one ("- restarted node17" / "2024-03-15" / "- loss spike"), and another line is none."""
    below, after = i + 1, i + 2
    if not _marked(lines[i].text) or below == len(lines) or (
            lines[below].code or lines[below].page != lines[i].page):
        return None
    text = lines[below].text.strip()
    if not text or _marked(text):
        return None
    if dates.org_timestamp(text) is None and _depth(lines[below]) <= _depth(lines[i]) and (
            after < len(lines) and _marked(lines[after].text)):
        return None
    found = _date_alone(text, dayfirst)
    return dates.When(found.date, found.time, found.timezone) if found else None  # no title's


def _marked(text: str) -> bool:
    """A line set as a list item: its bullet or number ("- ", "* ", "3. ") before words."""
    return bool(_MARKED_ITEM.match(text).group().strip())


def _pasted_log_line(lines: list[Line], i: int) -> bool:
    """Line i may be a log line pasted as a note's title: unindented, opening its block, no
    code, and no longer than a heading. (A list item or table row is none: the caller asks
    only of a line that `_item_text` does not read as one.)"""
    line = lines[i]
    return (line.indent < _INDENTED and not line.code and _starts_block(lines, i)
            and len(line.text.strip()) <= _MAX_HEADING_CHARS)


def _table_header(lines: list[Line], items: list[_Heading]) -> set[int]:
    """The column names of a log kept as a table: a Markdown rule line (`|---|---|`) right
    above a dated row, and the header row above it; or, in a table read without one (a
    PDF's aligned columns), a row of short names right above the first dated row ("Date |
    Event"). They are no entry's text (a title over them has none)."""
    header = set()
    for item in items:
        rule = item.index - 1
        if rule >= 1 and _TABLE_RULE.match(lines[rule].text) and "|" in lines[rule - 1].text:
            header |= {rule - 1, rule}
    above = items[0].index - 1 if items else -1
    if above >= 0 and above not in header and _column_names(lines[above].text):
        header.add(above)
    return header


def _column_names(text: str) -> bool:
    """A table row of names only: two or more cells, each a few words and no digit."""
    cells = [cell.strip() for cell in text.strip().strip("|").split("|")]
    return len(cells) >= 2 and all(
        cell and len(cell.split()) <= 3 and not any(c.isdigit() for c in cell) for cell in cells)


def _item_text(line: Line) -> str | None:
    """A list item's, table row's or `Date:` line's text without its bullet, bars or label;
    None for another line."""
    text = line.text.strip()
    if line.code or len(text) > _MAX_HEADING_CHARS:
        return None
    mark = _ITEM_MARK.match(text)
    if mark is None and " | " not in text:
        return None
    item = text[mark.end() if mark else 0:].removesuffix("|").strip()
    return item.replace('"', "", 1) if mark and mark.group().endswith('"') else item  # date: "…"


def _row_from_its_date(row: str, dayfirst: bool) -> tuple[str, dates.When] | None:
    """A table row dated by its date's cell, where each cell before it is one word (a row's
    number or id): "1 | 2024-03-11 | priya | Loss spike" is a log kept as a table whose date
    column is not its first. The whole row is its heading, as a row led by its date is, so the
    id before the date is read too ("run-41 | 2024-03-11 | Loss spike"); None for another
    row."""
    cells = [cell.strip() for cell in row.split("|")]
    for k in range(1, len(cells)):
        if len(cells[k - 1].split()) != 1:
            break
        if when := dates.leading_when(" | ".join(cells[k:]), dayfirst):
            at = len(" | ".join(cells[:k])) + len(" | ")
            return " | ".join(cells), dates.moved(when, at)
    return None


def _prefer_styled(heads: list[_Heading], fmt: str) -> list[_Heading]:
    """Where styled headings carry dates, a plain date-led line is prose or a wrapped line (not
    beside a Markdown bold line, which wraps nothing: "2024-05-01: launched" stays an entry;
    nor under a title alone that names the dates it covers: "# #ops — export (01/03/2024 –
    15/03/2024)")."""
    dated = [h for h in heads if h.when is not None and h.level != _BODY_LEVEL
             and not (h.bold and fmt == "markdown")]
    title_only = len(dated) == 1 and dated[0] is heads[0] and dated[0].level == 1
    if dated and not title_only:
        return [h for h in heads if h.level != _BODY_LEVEL]
    return heads


def _style_levels(lines: list[Line]) -> dict:
    """PDF font sizes larger than the body's, ranked: the largest is level 1; bold is below them."""
    sized = [(line.size, len(line.text)) for line in lines
             if line.size and not line.code and line.level is None]
    body = body_size(sized)
    if body is None:  # no sizes (DOCX, HTML): a bold line standing alone sits below h1-h6
        return {"bold": _STRUCTURE_BOLD_LEVEL}
    larger = sorted({size for size, _ in sized if size >= body + HEADING_STEP}, reverse=True)
    levels: dict = {}
    for rank, size in enumerate(larger, 1):
        levels[(size, True)] = levels[(size, False)] = rank
    levels["bold"] = len(larger) + 1
    return levels


def _starts_block(lines: list[Line], i: int) -> bool:
    return i == 0 or not lines[i - 1].text.strip() or lines[i - 1].page != lines[i].page


def _standalone(lines: list[Line], i: int) -> bool:
    """A line with a block break before and after it (a blank line, a page's end)."""
    after = (i + 1 >= len(lines) or not lines[i + 1].text.strip()
             or lines[i + 1].page != lines[i].page)
    return (_starts_block(lines, i) and after
            and len(lines[i].text) <= _MAX_STANDALONE_BOLD_CHARS)


def _date_alone(text: str, dayfirst: bool) -> dates.When | None:
    """The date of a line that is only a date, with its weekday or time: "26.02.", "Mon 4 Mar
    2024", an Org-mode timestamp "<2024-03-14 Thu 09:12>" (not "3 nodes lost since Mar 4")."""
    if len(text) > _MAX_DATED_LABEL_CHARS:
        return None
    if stamp := dates.org_timestamp(text):  # "<2024-03-14 Thu 09:12>": its clock after a weekday
        return stamp
    when = dates.leading_when(text, dayfirst)
    if when is None:  # a bare day and month ("26.02."), which only a heading's reading finds
        when = dates.heading_when(text, dayfirst)
        if when is not None and when.date.start != len(text) - len(text.lstrip(" *_#")):
            return None
    return when if when is not None and not text[when.end:].strip(" *_.:,)]") else None


def _log_line(when: dates.When, text: str) -> bool:
    """A timestamped log line (`2022-04-29 20:28:38 INFO ...`), not a heading."""
    return bool(when.time and when.time.count(":") == 2) or text[when.date.end:].startswith("T")


def _join_wrapped(heads: list[_Heading], lines: list[Line], dayfirst: bool) -> list[_Heading]:
    """A heading that wrapped onto the next line: same style, or an unclosed bracket.

    Either line may hold the date: "INC-412: Training crashes at step 1840 with illegal
    memory" over "access (2023-09-04)" is one heading, as in its Markdown.
    """
    out: list[_Heading] = []
    for head in heads:
        prev = out[-1] if out else None
        if prev is not None and head.index == prev.index + prev.span and _continues(
                prev, head, lines):
            prev.text, prev.span = f"{prev.text} {head.text}", prev.span + 1
            if prev.when is None and head.when is not None:  # found again, placed in the whole
                prev.when = dates.heading_when(prev.text, dayfirst)
            continue
        out.append(head)
    starts = {h.index for h in out}
    joined: list[_Heading] = []
    for head in out:  # an unclosed bracket continues on the next line, whatever it looks like
        prev = joined[-1] if joined else None
        if prev is not None and head.index == prev.index + prev.span and _unclosed(prev.text):
            prev.text, prev.span = f"{prev.text} {head.text}", prev.span + head.span
            continue
        nxt = head.index + head.span
        if _unclosed(head.text) and nxt < len(lines) and lines[nxt].text.strip() and not (
                lines[nxt].code or nxt in starts):
            head.text, head.span = f"{head.text} {lines[nxt].text.strip()}", head.span + 1
        joined.append(head)
    return joined


def _continues(prev: _Heading, head: _Heading, lines: list[Line]) -> bool:
    a, b = lines[prev.index], lines[head.index]
    if prev.level == _BODY_LEVEL or a.level is not None:
        return False  # Markdown headings never wrap; body-style lines are handled above
    same_style = (a.size, a.bold) == (b.size, b.bold)
    return same_style and (head.when is None or prev.when is None or _unclosed(prev.text))


def _unclosed(text: str) -> bool:
    return text.count("[") > text.count("]") or text.count("(") > text.count(")")


def _drop_toc(heads: list[_Heading], lines: list[Line]) -> tuple[list[_Heading], set[int]]:
    """A table of contents names later headings, a line each (or wrapped over two).

    A run of two or more such lines with nothing else between them is a TOC,
    and so is a lone one with nothing under it; its lines belong to no entry,
    however they are styled or indented. Returns the headings that remain and
    the TOC's line indices.
    """
    def key(text: str) -> str:
        return "".join(_without_toc_leader(text).split()).casefold()

    last_at = {key(h.text): h.index for h in heads}  # a heading's text -> its last place
    starts = {h.index for h in heads}
    blank_before = list(itertools.accumulate(
        (not line.text.strip() for line in lines), initial=0))
    runs: list[list[tuple[int, int]]] = []
    i = 0
    while i < len(lines):
        span = _names_later_heading(lines, i, last_at, key)
        if not span:
            i += 1
            continue
        previous = runs[-1][-1] if runs else None
        if previous and blank_before[i] - blank_before[sum(previous)] == i - sum(previous):
            runs[-1].append((i, span))
        else:
            runs.append([(i, span)])
        i += span
    toc: set[int] = set()
    for run in runs:
        first, span = run[0]
        nxt = next((j for j in range(first + span, len(lines)) if lines[j].text.strip()), None)
        if len(run) > 1 or (first in starts and (nxt is None or nxt in starts)):
            toc.update(j for start, n in run for j in range(start, start + n))
    return [h for h in heads if h.index not in toc], toc


def _without_toc_leader(text: str) -> str:
    """"Title ..... 12" -> "Title": a page number after a leader or a wide gap is dropped.

    String operations from the line's end, not a regex: a regex for the gap
    backtracks over every start in a long run of spaces (50,000 spaces took 35 s).
    """
    body = text.rstrip()
    digits = len(body) - len(body.rstrip("0123456789"))
    if not digits:
        return text
    before = body[:-digits]
    gap = before.rstrip()
    leader = gap.rstrip(_LEADER_CHARS)
    if len(gap) - len(leader) >= 2:
        return leader.rstrip()
    if "\t" in before[len(gap):] or len(before) - len(gap) >= 2:
        return gap
    return text


def _names_later_heading(lines: list[Line], i: int, last_at: dict[str, int], key) -> int:
    """How many lines (1 or 2) from i spell a heading that stands later; 0 if none."""
    text = lines[i].text.strip()
    if not text or lines[i].code or len(text) > 2 * _MAX_HEADING_CHARS:
        return 0
    if last_at.get(key(text), -1) > i:
        return 1
    wrapped = i + 1 < len(lines) and lines[i + 1].text.strip() and not lines[i + 1].code
    if wrapped and last_at.get(key(f"{text} {lines[i + 1].text}"), -1) > i + 1:
        return 2
    return 0


def _merge_subheadings(heads: list[_Heading]) -> list[_Heading]:
    """Fold undated sub-headings into the dated entry above; drop empty undated ones. A
    bold label below a dated heading, a date only inside it ("**comment (ana.k,
    2025-01-16):**", "**Carried over (Mar 4 – Mar 11):**"), is that entry's too (not a bold
    title of its own: "Standup, 2024-03-05"); so is an undated bold line below a heading its
    preamble dates ("Comments" under "TRN-101 ..." / "Created: 2025-04-28", as a PDF prints
    a Markdown bold line: a styled sub-heading there stays an entry, as the OPT notes' do)."""
    merged: list[_Heading] = []
    dated_level: int | None = None
    preamble_level: int | None = None  # of the heading above, dated by its preamble
    section_level: int | None = None  # of the last heading that is no message's byline
    for head in heads:
        below = dated_level is not None and head.level > dated_level and merged
        label = head.bold and not head.date_led and head.text.rstrip().endswith(":")
        bold_under = (preamble_level is not None and head.level > preamble_level and head.bold
                      and head.when is None)
        # a chat's or tracker's message holds the headings written in it ("### Update"), but
        # not a section as high as the one the messages are in ("## Week 11" after "## Week 10")
        in_message = (bool(merged) and merged[-1].byline and head.when is None
                      and (section_level is None or head.level > section_level))
        if (below and (head.when is None or label)) or bold_under or in_message:
            merged[-1].body += [Line(head.text, size=head.size, bold=head.bold), *head.body]
            continue
        dated_level = head.level if head.when is not None else None
        preamble_level = head.level if head.when is None and _preamble_dated(head) else None
        section_level = section_level if head.byline else head.level
        merged.append(head)
    return [h for h in merged if (h.when is not None and not h.days)
            or any(x.text.strip() for x in h.body)]


def _preamble_dated(head: _Heading) -> bool:
    """A heading dated by a labelled line among its first ("**Created:** 2025-04-28 11:02" under
    "TRN-101 · Provision nodes"), whose sub-headings ("Comments") are its entry's too."""
    return any((label := _PREAMBLE.match(text.replace("*", "").strip()))
               and label["label"].lower() not in ("author", "authors", "by")
               and dates.find_dates(label["value"]) for text in _first_lines(head.body))


def _leading_text(lines: list[Line], any_heading: bool, wrapped: bool) -> Entry | None:
    """Text before the first heading (or a document with none) is an undated entry; before
    headings, one line alone is a preamble, and in a PDF (`wrapped`: its renderer broke the
    lines) one paragraph, however many lines it wraps to."""
    body = [line for line in lines if line.text.strip()]
    blocks = len(body) if not wrapped else sum(
        1 for i, line in enumerate(lines)
        if line.text.strip() and (i == 0 or not lines[i - 1].text.strip()))
    if not body or (any_heading and blocks < 2):
        return None
    return Entry(seq=1, heading=_unwrapped(body[0].text.strip()),
                 text=_body_text(body[1:]), page_start=body[0].page, page_end=body[-1].page)


def _to_entry(seq: int, head: _Heading, dayfirst: bool) -> Entry:
    heading = " ".join(head.text.split())
    body = head.body
    pages = [line.page for line in body if line.page is not None and line.text.strip()]
    entry = Entry(seq=seq, heading=_unwrapped(heading), text=_body_text(body), page_start=head.page,
                  page_end=pages[-1] if pages else head.page)
    when = head.when
    tail = heading[when.end:] if when else heading
    if when is not None and "|" in heading[:when.date.start]:  # a row dated by a later cell
        tail = f"{heading[:when.date.start]} {tail}"
    if when is not None:
        entry.date, entry.time, entry.timezone = when.date.value, when.time, when.timezone
    if head.author:  # a field's (a mail's "[ALERT] job exited" is a list's tag)
        entry.author = head.author
    elif (author := _AUTHOR.search(tail)) and author.group("name").lower() != "undated":
        entry.author = author.group("name").strip()
    entry.run_id = _run_id(tail)
    _read_preamble(entry, body, dayfirst, when.date if when else None,
                   dates_too=when is None or when.date.year is None)
    return entry


def _unwrapped(text: str) -> str:
    """A heading without the bold marks of a dated line or title kept as the Markdown wrote
    it: "**Mon 3/4 — call notes**", "**Alice Smith** — 04/03/2024 09:14"; nor a forum post's
    BBCode tags ("[b]14/03/2024[/b] — posted by jdoe"), nested ones too."""
    while (unmarked := _BBCODE.sub(r"\g<text>", text)) != text:
        text = unmarked
    return _EMPHASIS.sub(r"\2", text).strip()


def _run_id(tail: str) -> str | None:
    tail = _AUTHOR.sub("", tail)
    for pattern in _RUN_ID:
        m = pattern.search(tail)
        if m:
            return (m.groupdict().get("id") or m.group(0)).strip()
    return None


def _read_preamble(entry: Entry, body: list[Line], dayfirst: bool,
                   yearless: dates.DateMatch | None, dates_too: bool) -> None:
    """`Author: kim` under a heading names its author; with `dates_too` (a heading without
    a full date), `**Posted on:** November 17, 2021` / `Time: June, 12 2022` date the note.

    Under a heading dated without a year (`Log (June, 12)`), only a preamble date of
    the same month and day counts: it gives the year and the time. A line of tags
    ("#log/2024-03-14 #train") is a label too, as notes apps tag a note with its day.
    """
    for text in _first_lines(body):
        plain = text.replace("*", "").replace("_", " ").strip()
        byline = _BYLINE.match(plain)
        if byline and not dates.find_dates(byline.group("name"), dayfirst):
            entry.author = entry.author or byline.group("name").strip()
            continue
        if not dates_too:
            continue
        m = _PREAMBLE.match(plain)
        value = m.group("value") if m else plain
        tags = m is None and _TAG_LINE.fullmatch(value)
        if tags:  # only the tag that names the day: "#log/2024-03-14", not "#due/2024-04-01"
            value = next((tag for tag in value.split() if dates.DAY_TAG.fullmatch(tag)), "")
        found = dates.find_dates(value, dayfirst)
        if found and (m or tags or len(value) - (found[0].end - found[0].start) < 8):
            d = found[0]
            if yearless is not None and (d.month, d.day) != (yearless.month, yearless.day):
                continue
            if entry.date is None and d.value is not None:
                entry.date = d.value
                when = dates.when_at(value, d)
                entry.time, entry.timezone = when.time, when.timezone


def _first_lines(body: list[Line]) -> list[str]:
    """The non-blank lines a preamble may be among (`Posted on:`, `Author:`, `Created:`)."""
    return [line.text.strip() for line in body if line.text.strip()][:_PREAMBLE_LINES]


def _body_text(body: list[Line]) -> str:
    """Body lines joined; leading/trailing blank lines and runs of blanks trimmed; bold lines
    (a PDF's, Word's or HTML's) marked as Markdown marks them, so "**Next steps**" over a
    list titles it whatever the format."""
    out: list[str] = []
    for line, text in zip(body, _bold_marked(body), strict=True):
        if line.text.strip() or (out and out[-1]):
            out.append(text)
    while out and not out[-1]:
        out.pop()
    return "\n".join(out)


def _bold_marked(body: list[Line]) -> list[str]:
    """Each line's text, in `**` if it is bold prose (not code, nor a table's row): a Word or
    HTML line (one paragraph, of no font size) by itself, after a list's marker (its reader
    writes the number, which was never bold); a PDF's run of bold lines only where it is a
    block of its own (one bold line inside a paragraph, marked, would end its sentence),
    item by item if it is a list, after the bullet (a number set in bold was typed so)."""
    def bold(line: Line) -> bool:
        return line.bold and not line.code and not line.text.lstrip().startswith("|")

    texts = [line.text for line in body]
    n = 0
    while n < len(body):
        if not bold(body[n]):
            n += 1
            continue
        end = n + 1
        while end < len(body) and bold(body[end]) and body[n].size is not None:
            end += 1
        block = (n == 0 or not body[n - 1].text.strip()) and (
            end == len(body) or not body[end].text.strip())
        if body[n].size is None or block:
            marker = _MARKED_ITEM if body[n].size is None else _MARKED_BULLET
            items = [k for k in range(n + 1, end) if texts[k].startswith("- ")]
            for first, last in zip([n, *items], [*items, end], strict=True):
                at = marker.match(texts[first]).end()
                texts[first] = f"{texts[first][:at]}**{texts[first][at:]}"
                texts[last - 1] = f"{texts[last - 1].rstrip()}**"
        n = end
    return texts
