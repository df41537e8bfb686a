"""A printed paragraph that is a run of notes, back into the lines its author wrote.

A Markdown renderer joins lines that have no blank line between them into one paragraph, and
so does the PDF, web page or Word file it prints: a chat export's "[14/03/2024 09:12] ravi:
..." messages, a notes file's "2024-03-14 09:12 - ..." lines, an IRC log's "--- Day changed
..." days print as one paragraph, a mail's From/To/Date/Subject fields as one line, a chat's
"mayaz — 03/14/2024 9:12 PM" byline as the first words of its message. The lines are broken
again where the author's broke:
- before each note stamp: a date as a paragraph of the document opens with one, its lead
  ("[", "--- Day changed Fri "), clock and separator ("] ", " - ") alike, where the document
  has two or more (with no separator, two or more inside paragraphs) and one stands inside a
  printed line; not a date named in brackets, nor, with no separator, one after a word that
  makes it a sentence's ("resumed from 2024-03-12 09:00"); and after a bracketed stamp's name
  where every note opens with one ("[14/03/2024 09:12] Jane Doe" over its message);
- before each later byline of a paragraph that opens with one (its name the word before its
  dash, or the capitalised words ending there), and after every byline, where its message
  starts;
- around a row of one symbol as long as the words opening the paragraph, which it underlined
  ("Monday 25 March 2024" over "++++++++++++++++++++", a plain-text writer's heading);
- after a separator line that frames who wrote and when between rules ("--- comment by jdoe,
  2024-03-14 09:12 ---") and opens a paragraph, and before each later one;
- before each field of a mail's header, and after its last field where its value ends (a
  sender's address, a date's clock and zone: a bot's mail pasted with its body under its
  header); after a mail client's "On ... wrote:";
- after a notes app's day tag that opens a paragraph ("#2024_07_01" over its note), and around
  a date with its clock after a short title that opens one ("Run started" / "Mar 11, 2024,
  8:02:17 AM" / the text, a Keep export's; "* Restarted after ECC" / "<2024-03-14 Thu 09:12>",
  an Org outline's printed as a list item), where two or more paragraphs open so.
Only printed formats are unfolded: Markdown, text and Org keep their source's lines. A PDF's
lines are wraps, joined first; a web page's or Word file's lines are the author's breaks, kept.
"""

from __future__ import annotations

import bisect
import dataclasses
import itertools
import re
from collections import Counter
from collections.abc import Iterator

from ..models import Line, body_size
from ..read.text import ADORNMENT_SLACK, underline_level
from . import dates
from .mail import MAIL_FIELDS, MBOX_SEPARATOR

PRINTED = frozenset({"pdf", "html", "docx"})  # (a folder of several formats is read as written)
_WINDOW = 200  # characters: as far as a stamp, byline or attribution reaches
_WORDS_BEFORE_A_DATE = frozenset({
    "on", "from", "since", "until", "till", "to", "at", "by", "before", "after", "of", "the",
    "checkpoint", "ckpt", "in", "as", "and", "or", "between", "than"})
# words that carry a sentence on past a date in it, where a note's text would begin: "the loss
# spiked again 2024-03-14 09:12 and we rolled back" is prose, not a title over its stamp
_WORDS_AFTER_A_DATE = frozenset({
    "and", "or", "but", "after", "before", "while", "when", "so", "because", "then", "until",
    "till", "since", "as", "at", "on", "in", "with", "to", "for", "from", "by", "during", "which",
    "that", "where", "though", "although", "if", "via", "once"})
_TOKEN = re.compile(r"(?P<digits>\d+)|(?P<letters>[^\W\d_]+)|(?P<space>\s+)|.")
_CLASSES = {"digits": r"\d+", "letters": r"[^\W\d_]+", "space": r"\s+"}
_SPACE = re.compile(r"\s+")
_LIST_ITEM = re.compile(r"\s*(?:[-*+\u2022]|\d{1,3}[.)])\s")
_MAX_LEAD = 40  # characters before a stamp's date: "--- Day changed Thu "
_MAX_UNDERLINED = 80  # characters: the longest line a row of symbols underlines as a heading
_MAX_TITLE = 60  # characters: a note's title over its stamp ("Checkpoint saves slow")
_WORD = re.compile(r"[^\W\d_]{2}")
_SENTENCE_END = re.compile(r"[.!?]\s")
_MAX_NAME_WORDS = 3  # a byline's name: "mayaz", "Maya Zhang", "Ana Lucia Souza"
_SEPARATOR = re.compile(r"[\]\)>]?\s*(?:[-–—:|,]\s)?")  # after a stamp: "] ", " - ", " – "
_DASHES = re.compile(r"[–—]")
_MAIL_FIELD = re.compile(rf"\s(?=(?i:{'|'.join(sorted(MAIL_FIELDS, key=len, reverse=True))}):\s)")
# a mail client's line over a reply, where a line could begin: "On Tue, Apr 2, 2024 at 8:41 AM
# Priya <p@x.org> wrote:"
_ATTRIBUTION = re.compile(r"(?:^|(?<=[.!?:]\s))On\s.{10,160}?\swrote:(?=\s|$)")
_FIELD_VALUE = re.compile(r"(?P<name>[\w-]+):\s+")
_SENDER = re.compile(r"(?:^|(?<=\s))From:\s+")
# a mail field's address, after its name if any: "Jane Doe <jane@x.org>", "bot bot@x.internal"
_ADDRESS = re.compile(r"[^@\n]{0,60}?<?[\w.+-]+@[\w-]+(?:\.[\w-]+)+>?(?=\s|$)")
_ZONE_OFFSET = re.compile(r"\s*(?:[+-][01]\d[0-5]\d|UTC|GMT)\b(?:\s*\([A-Z]{2,5}\))?")
_BYLINE_DASH = re.compile(r"\s[—–]\s")
# a row of one symbol after a paragraph's first words: "Monday 25 March 2024 ++++++++ ..."
_ROW = re.compile(r"\s(?P<row>([^\w\s])\2{4,})(?=\s)")  # (five or more: "Ok --- fine" is none)


@dataclasses.dataclass(frozen=True, slots=True)
class _Stamp:
    """What a note's date looks like on its line: its lead's shape, its clock, its separator."""

    lead: str  # a pattern
    clocked: bool
    separator: str


def unfolded(lines: list[Line], dayfirst: bool, wrapped: bool) -> list[Line]:
    """`lines` with each printed run of notes broken back into its lines; `wrapped`: the lines
    are a PDF's, whose breaks are the renderer's."""
    paragraphs = list(_paragraphs(lines))
    body = body_size((line.size, len(line.text)) for line in lines if line.size)
    joined = [_joined(paragraph) if _is_body_text(paragraph[0], body) else ([], "")
              for paragraph in paragraphs]
    texts = [text for _, text in joined]
    opening = [_opening_stamp(text, dayfirst) for text in texts]
    kinds = list(dict.fromkeys(stamp for stamp in opening if stamp))  # in the document's order
    later = [list(_stamps_in(text, kinds, dayfirst)) if text else [] for text in texts]
    inside = Counter(stamp for found in later for _, stamp in found)
    count = Counter(opening) + inside
    # each paragraph's notes (where each starts, its stamp): a stamp with no separator breaks
    # where the document has a run of them inside its paragraphs
    notes = [[(at, stamp) for at, stamp in ([(0, first)] if first else []) + found
              if count[stamp] >= 2 and (stamp.separator or inside[stamp] >= 2)]
             for first, found in zip(opening, later, strict=True)]
    names = _names_after_stamps(texts, notes, dayfirst)
    heads = [_head(text, dayfirst) if text else None for text in texts]
    shapes = Counter(head[0] for head in heads if head)
    out: list[Line] = []
    for paragraph, (starts, text), note, head in zip(paragraphs, joined, notes, heads,
                                                     strict=True):
        breaks = _breaks(text, dayfirst) if text else None
        if breaks is None and not note and head and shapes[head[0]] >= 2:
            breaks = head[1]
        if breaks is None:
            breaks = [at for at, _ in note] + [
                end for at, _ in note if (end := names.get((text, at)))]
        out += _split(paragraph, starts, text, sorted(breaks), wrapped)
    return out


def _names_after_stamps(texts: list[str], notes: list[list[tuple[int, _Stamp]]],
                        dayfirst: bool) -> dict[tuple[str, int], int]:
    """Where the name ends after each bracketed stamp of a run of notes whose bylines stood on
    their own line over the message ("[14/03/2024 09:12] Jane Doe" / "job died ...", a Teams
    copy's): by (text, note's start). A name is two or three capitalised words, and as the
    message may open with one too, its length is the one the names that head two or more of
    the document's notes have ("Jane Doe", "Fischer, Lena"); none unless every note opens with
    a name so long and one of them recurs."""
    after: dict[tuple[str, int], tuple[int, list[str]]] = {}
    for text, note in zip(texts, notes, strict=True):
        for at, stamp in note:
            when = dates.leading_when(text[at:at + _WINDOW], dayfirst)
            if when is None or stamp.separator != "]":
                continue
            start = at + when.end + len(_SEPARATOR.match(text, at + when.end).group())
            # (a word past the longest name: a name is followed by its message)
            after[text, at] = (start, text[start:start + _WINDOW].split()[:_MAX_NAME_WORDS + 1])
    heads = Counter(tuple(words[:n]) for _, words in after.values()
                    for n in (2, 3) if _is_name(words[:n]))
    lengths = Counter(n for _, words in after.values() for n in (3, 2)
                      if heads[tuple(words[:n])] >= 2 and _is_name(words[:n]))
    # the length most names have that every note opens with (of two as common, the longer
    # first: "Ana Lucia Souza"; then the shorter, where a message's first word is not capitalised:
    # "Jane Doe Restarted ..." twice over "Ken Nakamura storage is back"); none if no length
    # fits every note (a stamp alone over notes, some of which open with a name: "Vireo Slack")
    for n in sorted(lengths, key=lambda length: (-lengths[length], -length)):
        if all(_is_name(words[:n]) and len(words) > n for _, words in after.values()):
            return {key: start + len(" ".join(words[:n])) for key, (start, words) in after.items()}
    return {}


def _is_name(words: list[str]) -> bool:
    """Words that may be a person's name: capitalised, a comma only after the first ("Fischer,
    Lena"), none ending a sentence or a byline's colon."""
    return len(words) >= 2 and all(
        word[0].isupper() and word[1:].replace("-", "").replace("'", "").isalpha()
        for word in (w.removesuffix(",") if k == 0 else w for k, w in enumerate(words)))


def _paragraphs(lines: list[Line]) -> Iterator[list[Line]]:
    """Printed paragraphs: lines of one style, each list item apart; each blank line alone."""
    paragraph: list[Line] = []
    for line in lines:
        if paragraph and not _goes_on(paragraph[0], line):
            yield paragraph
            paragraph = []
        paragraph.append(line)
    if paragraph:
        yield paragraph


def _goes_on(first: Line, line: Line) -> bool:
    """`line` is more of the paragraph `first` opens: its style, and its indent or, under a
    list item, one deeper (a hanging indent)."""
    if not (first.text.strip() and line.text.strip()) or _LIST_ITEM.match(line.text):
        return False
    style = (line.size, line.bold, line.code, line.level) == (
        first.size, first.bold, first.code, first.level)
    if _LIST_ITEM.match(first.text):
        return style and line.indent >= first.indent
    return style and line.indent == first.indent


def _is_body_text(line: Line, body: float | None) -> bool:
    """A paragraph of the body's text (a heading wrapped over lines is no run of notes)."""
    return (bool(line.text.strip()) and not (line.code or line.bold or line.level)
            and line.size in (None, body))


def _joined(paragraph: list[Line]) -> tuple[list[int], str]:
    """The paragraph's text as one line, and where each of its lines starts in it."""
    texts = [line.text.strip() for line in paragraph]
    starts = list(itertools.accumulate((len(text) + 1 for text in texts[:-1]), initial=0))
    return starts, " ".join(texts)


def _split(paragraph: list[Line], starts: list[int], text: str, breaks: list[int],
           wrapped: bool) -> list[Line]:
    """The paragraph's lines (`text`, `starts`: as `_joined` gives them) broken at `breaks`,
    where one falls inside a line (a paragraph whose lines each open a note was printed as
    written); a PDF's wraps are joined, other lines kept. A list item's later lines were at
    the margin (a renderer runs the lines under an item into it)."""
    if not set(breaks) - set(starts):
        return paragraph
    margin = {"indent": 0.0} if _LIST_ITEM.match(text) else {}
    bounds = sorted({0, *breaks, len(text)} | (set() if wrapped else set(starts)))
    return [dataclasses.replace(paragraph[bisect.bisect_right(starts, a) - 1],
                                text=text[a:b].strip(), **(margin if a in breaks else {}))
            for a, b in itertools.pairwise(bounds) if text[a:b].strip()]


def _opening_stamp(text: str, dayfirst: bool) -> _Stamp | None:
    """The stamp a paragraph opens with, if it is a note's: a clock, a separator or a lead
    tells it from a date that opens a sentence."""
    when = dates.leading_when(text[:_WINDOW], dayfirst)
    if when is None:
        return None
    stamp = _Stamp(_shape(text[:when.date.start]), when.time is not None,
                   _separator_at(text, when.end))
    return stamp if stamp.clocked or stamp.separator or stamp.lead else None


def _head(text: str, dayfirst: bool) -> tuple[str, list[int]] | None:
    """The shape of a note's head a paragraph opens with, its text run into it, and where the
    head's lines ended: a notes app's day tag ("#2024_07_01" over the note), or a short title
    over its stamp, a date with its clock ("Run started" / "Mar 11, 2024, 8:02:17 AM", a Keep
    export's; "* Restarted after ECC" / "<2024-03-14 Thu 09:12>", an Org outline's). None for
    a sentence or a field that names a date ("Resumed on Mar 11, 2024, 8:02 AM ...", "Time:
    November, 24 2022 19:00")."""
    if (tag := dates.DAY_TAG.match(text)) and text[tag.end():tag.end() + 1] == " ":
        return "#", [tag.end()]
    item = _LIST_ITEM.match(text)
    stamp = _titled_stamp(text, item.end() if item else 0, dayfirst)
    return (_shape(text[stamp[0]:stamp[1]]), list(stamp)) if stamp else None


def _titled_stamp(text: str, begin: int, dayfirst: bool) -> tuple[int, int] | None:
    """Where the stamp under a note's title that starts at `begin` stands, (start, end): the
    first date in the text, with its clock, after a few words that end no sentence nor name a
    field ("Time:"), nor ask for a date ("... restarted on"); text after it that does not carry
    the sentence on ("... 09:12 and rolled back")."""
    first = next(iter(dates.find_dates(text[begin:begin + _MAX_TITLE + _WINDOW], dayfirst)), None)
    if first is None or first.start > _MAX_TITLE:
        return None
    at = begin + first.start - (first.start > 0 and text[begin + first.start - 1] in "<[")
    title = text[begin:at]
    when = dates.org_timestamp(text[at:at + _WINDOW], whole=False) or dates.leading_when(
        text[at:at + _WINDOW], dayfirst)
    if when is None or when.time is None or not title.endswith(" ") or not _WORD.search(
            title) or _SENTENCE_END.search(title) or title.rstrip().endswith(":") or (
            title.split()[-1].lower() in _WORDS_BEFORE_A_DATE):
        return None
    end = at + len(text[at:at + when.end].rstrip())
    after = text[end:].split(None, 1)
    return (at, end) if after and after[0].lower() not in _WORDS_AFTER_A_DATE else None


def _breaks(text: str, dayfirst: bool) -> list[int] | None:
    """Where a mail's, a chat's or an underlined heading's lines began in a paragraph's text;
    None if it is none of them."""
    if (text.startswith(("From:", "Date:", "Subject:")) or MBOX_SEPARATOR.match(text)) and (
            _MAIL_FIELD.search(text)):
        fields = [m.end() for m in _MAIL_FIELD.finditer(text)]
        return fields + _header_end(text, fields[-1], dayfirst)
    attributions = [m for m in _ATTRIBUTION.finditer(text)
                    if dates.leading_when(text[m.start() + 3:m.end()], dayfirst)]
    if attributions:
        return sorted({at for m in attributions for at in (m.start(), m.end()) if at})
    row = _ROW.search(text, 0, _MAX_UNDERLINED + 2)  # as long as the line: a plain-text writer's
    if row and underline_level(row["row"], text[:row.start()], True) is not None and (  # heading
            abs(len(row["row"]) - row.start()) <= ADORNMENT_SLACK):
        return [row.start(), row.end()]
    framed = dates.framed_lines(text, dayfirst)
    if framed and framed[0][0] == 0:
        return sorted({at for span in framed for at in span if 0 < at < len(text)})
    if (byline := dates.message_byline(text, dayfirst)) is not None:
        return _byline_breaks(text, byline, dayfirst)
    return None


def _header_end(text: str, last: int, dayfirst: bool) -> list[int]:
    """Where a mail header's body begins after its last field, at `last`, if the field's value
    tells where it ends: a sender's or recipient's address, a date with its clock and zone (a
    mail pasted with its body under the header, "From: train-bot <bot@x.org>" over "step:
    8000", runs into one printed paragraph). Nothing after another field (a Subject's words),
    nor in a header that names no sender's address (a journal's "Date:" over other fields)."""
    field = _FIELD_VALUE.match(text, last)
    sender = _SENDER.search(text)
    if field is None or sender is None or sender.start() > last or not _ADDRESS.match(
            text, sender.end()):
        return []
    name, at = field["name"].lower(), field.end()
    if name in ("from", "to", "cc", "reply-to"):
        end = address.end() if (address := _ADDRESS.match(text, at)) else None
    elif name in ("date", "sent") and (when := dates.leading_when(text[at:at + _WINDOW],
                                                                    dayfirst)):
        zone = _ZONE_OFFSET.match(text, at + when.end)  # "+0000" (a When reads "UTC", not it)
        end = zone.end() if zone else at + when.end
    else:
        end = None
    return [end] if end is not None and text[end:].strip() else []


def _stamps_in(text: str, kinds: list[_Stamp], dayfirst: bool) -> Iterator[tuple[int, _Stamp]]:
    """Where a note of one of the `kinds` begins in `text`, after its start, and which kind."""
    if not kinds:
        return
    last = 0
    for found in dates.find_dates(text, dayfirst):
        for stamp in kinds:
            at = _note_start(text, found.start, stamp.lead)
            note = dates.leading_when(text[at:at + _WINDOW], dayfirst) if at is not None else None
            if note is None or (note.time is not None) != stamp.clocked or (
                    _separator_at(text, at + note.end) != stamp.separator):
                continue
            # not a date named in brackets ("[WARNING: See 2021-12-02 17:16 ET: ...]"), nor one
            # with no separator after a word of a sentence's ("resumed from 2024-03-12 09:00")
            word = text[max(0, at - _MAX_LEAD):at].split()[-1:] or [""]
            if not _in_brackets(text[max(last, at - _MAX_LEAD):at]) and (
                    stamp.separator or word[0].strip("([{\"'").lower() not in _WORDS_BEFORE_A_DATE):
                last = at
                yield at, stamp
                break


def _in_brackets(before: str) -> bool:
    """A square bracket opened just before and not closed: "[WARNING: See "."""
    return before.count("[") > before.count("]")


def _note_start(text: str, date_at: int, lead: str) -> int | None:
    """Where a note whose date stands at `date_at` begins: right after a space, its lead of
    the stamp's shape before the date."""
    for space in _SPACE.finditer(text, max(0, date_at - _MAX_LEAD), date_at):
        if re.fullmatch(lead, text[space.end():date_at]):
            return space.end()
    return None


def _shape(text: str) -> str:
    """Text's digits, letters, spaces and punctuation as a pattern: "[14/03/2024 09:12" matches
    "[15/03/2024 08:47", and "--- Day changed Thu " "--- Day changed Fri "."""
    return "".join(_CLASSES.get(token.lastgroup, re.escape(token.group()))
                   for token in _TOKEN.finditer(text))


def _separator_at(text: str, at: int) -> str:
    """What parts a stamp from its note, any dash as one: "] ", " - ", " – "."""
    return _DASHES.sub("-", _SEPARATOR.match(text, at).group().strip())


def _byline_breaks(text: str, byline: tuple[int, int], dayfirst: bool) -> list[int]:
    """Breaks before each byline of the opening one's shape and after each, where its message
    begins. A later byline's name is the word before its dash, or the run of capitalised words
    ending there ("... the 1.3B ablation Maya Zhang — 03/14/2024 9:40 PM")."""
    name_end, end = byline
    stamp = re.compile(_shape(text[name_end:end].lstrip()))
    breaks = [end]
    for dash in _BYLINE_DASH.finditer(text, end):
        if not stamp.match(text, dash.start() + 1):
            continue
        before = max(end, dash.start() - _MAX_LEAD * _MAX_NAME_WORDS)
        words = list(re.finditer(r"\S+", text[before:dash.start()]))[-_MAX_NAME_WORDS:]
        named = 1
        while named < len(words) and all(word.group()[0].isupper()
                                         for word in words[-named - 1:]):
            named += 1
        if len(words) < named or (before == end and len(words) == named):
            continue  # (nothing of the message before it)
        start = before + words[-named].start()
        got = dates.message_byline(text[start:start + _WINDOW], dayfirst)
        if got is not None:
            breaks += [start, start + got[1]]
    return sorted(set(breaks))
