"""Dates, times and time zones in logbook headings -> values and UTC.

Locating a date needs its position in the heading (to find the time, zone and
author that follow it), which general date parsers do not give; so dates are
found with a few explicit patterns and validated by `datetime`. Time zones go
through `zoneinfo`, so DST is right for ET/PT/CET.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, date, datetime, time
from itertools import pairwise
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# The names of months and weekdays, as data: per language, each month's (each weekday's) forms,
# short ones too. English writes them capitalised ("Mar", "March"), a month written out in
# capitals too ("14 MARCH 2024", as a heading in capitals does; a short one, "MAR", "DEC", is as
# often an acronym or a code), never in lower case, where "may" and "march" are words; Italian
# and French write them in lower case too ("giovedì 14 marzo 2024", "jeudi 14 mars 2024"),
# German capitalised, as it writes every noun ("Donnerstag, 14. März 2024"). Only forms no
# English word shares: Italian's short "set" and "ago" are words, so its months are written out
# in full, as French's are (its "mar", "sam" are words). French's "mars" is a word too ("a
# spike mars 3 runs") and a planet's name ("Mars 2024"), and "Juni", "Juli", "Mai", "Avril" are
# people's names ("Juni 3 nodes down" may be Juni's note): those are read only between a day
# and a year, where French and German write them ("14 mars 2024", "3. Juni 2024";
# `_SHARED_MONTHS`). German cuts its weekdays to two letters ("Mo", "Do", "So"), which English
# words and syllables are: those are read only before a day written with its dot, as German
# writes it ("Mo, 18. März 2024", "Fr 15.03.24"; `_CUT`).
MONTH_NAMES: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": (("jan", "january"), ("feb", "february"), ("mar", "march"), ("apr", "april"),
           ("may",), ("jun", "june"), ("jul", "july"), ("aug", "august"),
           ("sep", "sept", "september"), ("oct", "october"), ("nov", "november"),
           ("dec", "december")),
    "it": (("gennaio",), ("febbraio",), ("marzo",), ("aprile",), ("maggio",), ("giugno",),
           ("luglio",), ("agosto",), ("settembre",), ("ottobre",), ("novembre",),
           ("dicembre",)),
    "fr": (("janvier",), ("février", "fevrier"), ("mars",), ("avril",), ("mai",), ("juin",),
           ("juillet",), ("août", "aout"), ("septembre",), ("octobre",), ("novembre",),
           ("décembre", "decembre")),
    "de": (("januar",), ("februar",), ("märz", "mär", "maerz"), ("april",), ("mai",),
           ("juni",), ("juli",), ("august",), ("september",), ("oktober", "okt"),
           ("november",), ("dezember", "dez")),
}
WEEKDAY_NAMES: dict[str, tuple[tuple[str, ...], ...]] = {
    "en": (("mon", "monday"), ("tue", "tues", "tuesday"), ("wed", "wednesday"),
           ("thu", "thur", "thurs", "thursday"), ("fri", "friday"), ("sat", "saturday"),
           ("sun", "sunday")),
    "it": (("lunedì", "lunedi"), ("martedì", "martedi"), ("mercoledì", "mercoledi"),
           ("giovedì", "giovedi"), ("venerdì", "venerdi"), ("sabato",), ("domenica",)),
    "fr": (("lundi",), ("mardi",), ("mercredi",), ("jeudi",), ("vendredi",), ("samedi",),
           ("dimanche",)),
    "de": (("montag", "mo"), ("dienstag", "di"), ("mittwoch", "mi"), ("donnerstag", "do"),
           ("freitag", "fr"), ("samstag", "sonnabend", "sa"), ("sonntag", "so")),
}
_LOWER_CASE = ("it", "fr")  # the languages that write those names in lower case
# the months' names an English word or name shares, read only between a day and a year
_SHARED_MONTHS = ("mars", "avril", "mai", "juni", "juli")
_CUT = 2  # letters of a weekday cut short as German cuts it, read only before a dotted day
MONTHS = {name: number for names in MONTH_NAMES.values()
          for number, forms in enumerate(names, start=1) for name in forms}
WEEKDAYS = {name: number for names in WEEKDAY_NAMES.values()
            for number, forms in enumerate(names) for name in forms}


def _written(table: dict[str, tuple[tuple[str, ...], ...]], languages: Iterable[str],
             keep: Callable[[str], bool] = lambda name: True) -> str:
    """A regex alternation of the names of `table` in `languages` (those `keep` keeps) as they
    are written: each capitalised, in capitals if written out (its longest form, or any form of
    more than three letters: German's "MÄRZ" beside its "maerz"), and in lower case where the
    language writes it so (the longest first, so that "March" is not read as its "Mar")."""
    forms = {written for language in languages for names in table[language] for name in names
             if keep(name)
             for written in (name.capitalize(),
                             *((name.upper(),) if len(name) == max(map(len, names))
                               or len(name) > 3 else ()),
                             *((name,) if language in _LOWER_CASE else ()))}
    return "|".join(sorted(forms, key=lambda form: (-len(form), form)))


_MONTH = rf"(?P<mon>{_written(MONTH_NAMES, MONTH_NAMES, lambda n: n not in _SHARED_MONTHS)})\.?"
# a month's name between its day and its year: every form ("14 mars 2024")
_ANY_MONTH = rf"(?P<mon>{_written(MONTH_NAMES, MONTH_NAMES)})\.?"
_NOT_ENGLISH_MONTH = _written(MONTH_NAMES, set(MONTH_NAMES) - {"en"})
# French writes "1er" for the first ("2" for the second), Italian "1°" or "1º"
_ORDINAL = r"(?:st|nd|rd|th|(?<=\b1)(?:er|°|º))?"
_DAY = rf"(?P<day>[0-3]?\d){_ORDINAL}"
# a weekday's name, in full or cut short ("Mon", "Tues", "Thurs"; "giovedì"), in any case (not
# cut to two letters, as German cuts it: "Do", "So" are English words)
_WEEKDAY_FORMS = sorted((n for n in WEEKDAYS if len(n) > _CUT), key=lambda n: (-len(n), n))
_WEEKDAY = rf"(?P<weekday>{'|'.join(_WEEKDAY_FORMS)})"
# a weekday cut short as German cuts it ("Mo", "Do"), capitalised, before a dotted day
_CUT_WEEKDAY = rf"(?:{_written(WEEKDAY_NAMES, WEEKDAY_NAMES, lambda n: len(n) == _CUT)})"
_DASH = r"\s*[-\u2013]\s*"
# a range's end may name its weekday: "Mon 11 – Wed 13 Mar 2024", "Fri 29 Mar – Mon 1 Apr 2024"
_DASH_TO = rf"{_DASH}(?:(?i:{_WEEKDAY.replace('?P<weekday>', '?:')})\.?,?\s+)?"
_LAST_DAY = rf"[0-3]?\d{_ORDINAL}"  # a range's last day
# "8-14 April": the range's last day (not the hour of "Apr 8 - 14:00")
_RANGE_END = rf"(?:{_DASH_TO}{_LAST_DAY}(?![:\d]))?"
_OTHER_MONTH = _MONTH.replace("?P<mon>", "?:")  # a range's last month: "Apr 29 - May 5, 2024"
# a day's ordinal in words, as a heading written out longhand names it ("the first of April",
# "March the Nineteenth", "the twenty-first of March")
_ORDINAL_WORDS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth",
                  "ninth", "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth",
                  "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth")
DAY_WORDS = {
    **{word: n for n, word in enumerate(_ORDINAL_WORDS, 1)},
    "twentieth": 20, "thirtieth": 30, "thirty-first": 31, "thirty first": 31,
    **{f"twenty{sep}{word}": 20 + n for n, word in enumerate(_ORDINAL_WORDS[:9], 1)
       for sep in ("-", " ")},
}
# (longest first: "twenty-first", not its "twenty")
_DAY_WORD = rf"(?P<dayword>(?i:{'|'.join(sorted(DAY_WORDS, key=len, reverse=True))}))"
_YEAR_AFTER = r"(?:,?\s+(?P<year>(?:19|20)\d\d)\b)?"
# what may follow a day that ends its date: the end, punctuation, a clock ("at 9", "14:00")
_DAY_ENDS = r"(?=\s*(?:$|[^\w\s]|[0-2]?\d[:.h][0-5]\d|(?:at|@)\s*\d))"
# what a date in words may modify, as a noun after it: "the first of March incident" names an
# incident, not a day ("on the first of March Priya restarted" names a day)
_MODIFIED_NOUN = (r"(?!\s+(?i:incidents?|outages?|crash(?:es)?|failures?|runs?|restarts?|spikes?|"
                  r"maintenance|meetings?|release|deadline|checkpoints?|launch|post-?mortems?|"
                  r"reviews?|reports?|updates?|changes?|upgrades?|migrations?|windows?|events?|"
                  r"issues?|problems?|notes|sync|call|memo|jobs?|rollbacks?|divergence|"
                  r"retro(?:spective)?)\b)")
_NEEDS: dict[re.Pattern, str] = {}  # a date regex -> a text every text it matches holds


def _needing(character: str, regex: str) -> re.Pattern:
    """A date regex that matches only in a text holding `character`: a cheap `in` test then
    spares most lines the search (find_dates reads every line of a logbook)."""
    pattern = re.compile(regex)
    _NEEDS[pattern] = character
    return pattern


# a military date-time group, as an operations log heads its entries: day, hour and minute, the
# zone's letter, month and year: "141200ZMAR24", "141200ZMAR 2024" (the spaced form, "141200Z
# MAR 24", changed logbooks held out for checking when read: it waits for a shape). Only Z
# (UTC): another letter ("141200RMAR24") is a zone no clock converts, so it is read as none
_DTG = re.compile(r"(?<!\w)(?P<day>[0-3]\d)(?P<hour>[0-2]\d)(?P<minute>[0-5]\d)(?P<zone>Z)"
                  r"(?P<mon>(?i:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec))\s?"
                  r"(?P<year>\d\d(?:\d\d)?)(?!\w)")
# Mon 6/3, Tuesday 6/4: a day and month with no year are a date only after a weekday ("TP/PP
# 4/8" is none); the weekday later picks the year (`year_of_weekday`)
_WEEKDAY_FIRST = _needing(
    "/", rf"(?i)\b{_WEEKDAY}\b\.?,?\s+(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)(?![\d/])")
# Each pattern names its groups; `partial` marks a date written with a placeholder day.
DATE_PATTERNS = [
    re.compile(r"(?<![\d.])(?P<year>(?:19|20)\d\d)[-/._](?P<month>[01]?\d)[-/._](?P<day>[0-3]?\d)(?!\d)"),
    re.compile(r"(?<![\d.])(?P<year>(?:19|20)\d\d)-(?P<month>[01]?\d)-(?P<partial>XX|xx|\?\?)"),
    # an ISO week, dated by its Monday: "2024-W10", "2024W10"
    _needing("W", r"(?<![\d.])(?P<year>(?:19|20)\d\d)-?W(?P<isoweek>[0-5]\d)(?![\d-])"),
    # Nov 5, November 5th 2021, June, 12 (a comma after the month, as CPM-Live writes it);
    # a range is dated by its first day: Apr 8-19, 2024; 8-14 April 2024; the 8th of April
    re.compile(rf"\b{_MONTH},?\s+{_DAY}{_RANGE_END}\b(?:,?\s+(?P<year>(?:19|20)\d\d)\b)?"),
    # a range over two months takes the year written after its end: "Apr 29 - May 5, 2024",
    # "29 April - 5 May 2024"
    re.compile(rf"\b{_MONTH},?\s+{_DAY}{_DASH_TO}{_OTHER_MONTH}\s+{_LAST_DAY}"
               rf",?\s+(?P<year>(?:19|20)\d\d)\b"),
    re.compile(rf"\b{_DAY}\s+{_MONTH}{_DASH_TO}{_LAST_DAY}\s+{_OTHER_MONTH}"
               rf",?\s+(?P<year>(?:19|20)\d\d)\b"),
    _DTG,
    # ("of" only after an ordinal: "3 of June's runs" is a count)
    re.compile(rf"\b(?P<day>[0-3]?\d)(?:(?:st|nd|rd|th)\s+of|{_ORDINAL}{_RANGE_END})"
               rf"\s+{_MONTH}\b,?(?:\s+(?P<year>(?:19|20)\d\d)\b)?"),
    # a day, its month and its year, as French and German write a date: "14 mars 2024" (a
    # month's name English text shares is read only so: "Juni 3 nodes", "3 Juni" are none),
    # "14. März 2024", its dot German's ordinal (its year after it: "step 3. March ..." may
    # end a sentence), German's name after it ("1. March 2024 data frozen" is a numbered list's
    # item); nothing run into the day ("gpt4 March 2024 snapshot" names a model)
    re.compile(rf"(?<![\w.])(?P<day>[0-3]?\d)(?:{_ORDINAL}|\.(?=\s+(?:{_NOT_ENGLISH_MONTH})))"
               rf"\s+{_ANY_MONTH}\s+(?P<year>(?:19|20)\d\d)\b"),
    # the day after its month and "the": "March the 15th", "March the Nineteenth" (a day in
    # figures needs its ordinal: "May the 4 runs" is none); in words before "of" and its month:
    # "the first of April" (after "the": "a third of March's budget" is a share)
    # The day ends the date: its year, a clock, punctuation or the end follow ("May the second
    # run reuse ...", "May the 4th checkpoint" are none)
    _needing("the", rf"\b{_MONTH}\s+the\s+(?:(?P<day>[0-3]?\d)(?:st|nd|rd|th)|{_DAY_WORD})\b"
             rf"(?:,?\s+(?P<year>(?:19|20)\d\d)\b|{_DAY_ENDS})"),
    # ... and its month ends it too, but for a noun it modifies: "the first of March incident"
    # names an incident, "on the first of March we restarted" a day
    _needing(" of ", rf"(?<=\b[Tt]he\s){_DAY_WORD}\s+of\s+{_MONTH}\b"
             rf"(?:,?\s+(?P<year>(?:19|20)\d\d)\b|{_DAY_ENDS}|{_MODIFIED_NOUN})"),
    _needing("-", rf"\b{_DAY}-{_MONTH}-(?P<year>(?:19|20)?\d\d)\b"),  # 4-Mar-2023, 04-Mar-23
    # 17/11/2021, 11/17/21, 03-04-2023, 17.11.2021 (a dashed or dotted date needs four year
    # digits: 3-4-21 is a range, 2.4.21 a version, and a dashed one a year before 2040:
    # 4-16-2048 is TP-PP-DP; a dotted one is day first, as Europe writes it)
    _needing("/", r"(?<![\d/.])(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)/(?P<year>(?:19|20)?\d\d)(?![\d/])"),
    _needing("-", r"(?<![\d/.-])(?P<a>[0-3]?\d)-(?P<b>[0-3]?\d)-(?P<year>19\d\d|20[0-3]\d)"
             r"(?![\d-])"),
    _needing(".", r"(?<![\d/.])(?P<a>[0-3]?\d)(?P<dot>\.)(?P<b>[0-3]?\d)\.(?P<year>(?:19|20)\d\d)"
             r"(?![\d.])"),
    _WEEKDAY_FIRST,
]
# a heading that opens with only a day and month: "6/3", "6/3 14:20 UTC", "26.02." (day
# first, as Europe writes it, two digits each: not a section's "1.1."; not "TP/PP 4/8", not
# "1/2 of the nodes": a heading's, never a line of the body's, see `heading_when`); with its
# weekday after it, any words may follow: "3/12 Mon", "14/3 (Fri) nights"
_BARE_DAY = re.compile(r"\s*(?:(?P<a>[0-3]?\d)/(?P<b>[0-3]?\d)"
                       r"|(?P<da>[0-3]\d)(?P<dot>\.)(?P<db>[01]\d)\.)"
                       rf"(?:\s+\(?(?i:{_WEEKDAY})\.?\)?(?!\w)"
                       r"|(?=\s*$|\s+\d{1,2}:\d\d|\s*[:\u2013\u2014-]\s))")
# a heading that is only a dotted date with a two-digit year, its weekday before it or not:
# "14.03.24", "Fr 15.03.24" (day first, zero-padded, as Europe writes it; a heading's only: in
# a line of the body "2.4.21" is a version as often, see `heading_when`)
_DOTTED_SHORT_YEAR = re.compile(rf"\s*(?:(?:(?i:{_WEEKDAY})|{_CUT_WEEKDAY})\.?,?\s+)?"
                                r"(?P<da>[0-3]\d)(?P<dot>\.)(?P<db>[01]\d)\.(?P<year>\d\d)\s*")
# a heading that opens with a date written without separators, as file names and some daily
# logs write it: "20240314", "20240315 (fri)" (a heading's only: in a line of the body eight
# digits are a count or an id as often; not "20240314_1200" nor "20240314-rc1")
_COMPACT = re.compile(r"(?P<year>(?:19|20)\d\d)(?P<month>[01]\d)(?P<day>[0-3]\d)(?![\w.:/-])")
# a heading that names only part of a date, the headings above it the rest ("# 2024" / "##
# March" / "### 14"; "## March 2024" / "### Thu 14th"): a year or a month (its year after it or
# not) over a day (its weekday before it or not)
_YEAR_OR_MONTH = re.compile(rf"\s*(?:{_MONTH},?\s*)?(?P<year>(?:19|20)\d\d)?\s*")
# (its week's number may label it: "W11 · Thu 14", "Week 11: 14")
_DAY_ALONE = re.compile(r"\s*(?:(?i:W|Week)\s?(?P<week>[0-5]?\d)\s*[·:,|\u2013\u2014-]?\s+)?"
                        rf"(?:(?i:{_WEEKDAY})\.?,?\s+)?{_DAY}\s*")
# a list item led by a day's number alone, under a heading naming its month: "14: restarted",
# "Thu 14 – swapped k-02" (the number then a colon or a dash: "3 nodes lost" is a count)
_DAY_LED = re.compile(rf"\s*(?:(?i:{_WEEKDAY})\.?,?\s+)?{_DAY}(?=\s*(?::(?!\d)|[\u2013\u2014-]\s))")
# a heading that names one month with its year among other words: "70B run log — March 2025"
_MONTH_YEAR = re.compile(rf"\b{_MONTH},?\s+(?P<year>(?:19|20)\d\d)\b")
# a heading that is only a weekday ("### Thursday", "Tue:"), under one that dates its week
_WEEKDAY_ALONE = re.compile(rf"\s*(?i:{_WEEKDAY})\.?:?\s*")
# what says a heading names a week by its first day: "Week of 2024-03-11", "Week beginning 11
# March" (right before the date)
_WEEK_OF = re.compile(r"(?i)\bweek\s+(?:of|beginning|starting|commencing)\s*:?\s*\W{0,2}$")
# what joins the two dates of a range written in full: "2024-03-11 – 2024-03-15", "... to ..."
_RANGE_TO = re.compile(r"\s*(?:[-\u2013\u2014]|to|until|through)\s*")
# day and month both numbers, with a year (what says whether a logbook writes the day first)
_NUMERIC = [p for p in DATE_PATTERNS if "a" in p.groupindex and "year" in p.groupindex]
# a legend of the order, all three parts: "Dates DD/MM/YY", "(day/month/year)", "mm-dd-yyyy"
# (not "ckpt-YYYY-MM-DD", year first, nor "per day/month"); its first part says which comes first
_LEGEND = re.compile(r"(?i)\b(?P<first>dd|day|mm|month)\s?(?P<sep>[/.-])\s?"
                     r"(?P<second>dd|day|mm|month)\s?(?P=sep)\s?(?:yy|yyyy|year)\b")
# what follows a number triple that is no date: "16/8/32 -> 38% MFU", "16/8/32 = TP/PP/DP"
_NOT_A_DATE_AFTER = re.compile(r"\s*(?:->|=>|→|=|:\s*\d)")
# a forum's tags of emphasis and type, which a post pasted with its BBCode keeps: "[b]", "[/b]",
# "[size=150]"; before a date they are emphasis too ("[b]14/03/2024[/b] — posted by jdoe")
BBCODE_TAGS = "b|i|u|size|color|font"
_BBCODE_TAG = re.compile(rf"\[/?(?i:{BBCODE_TAGS})(?:=[^\]\s]*)?\]")
# an Org-mode timestamp, active or inactive, as Org writes one on the line under a heading:
# "<2024-03-14 Thu 09:12>", "[2024-03-14 Thu]", "<2024-03-14 Thu 09:00-10:30 +1w>"; the weekday
# (in the writer's language) stands between its date and clock
_ORG_TIMESTAMP = re.compile(
    r"\s*[<\[](?P<date>(?:19|20)\d\d-[01]\d-[0-3]\d)(?:\s+[^\W\d_]{2,3}\.?)?"
    r"(?:\s+(?P<time>(?:[01]?\d|2[0-3]):[0-5]\d)(?:-[0-2]?\d:[0-5]\d)?)?(?:\s+[.+-]{1,2}\d+[hdwmy])*[>\]]\s*")
# a notes app's tag that dates its note: a date alone ("#2024-03-14", "#2024_07_01") or under a
# key that names the day ("#log/2024-03-14", "#daily/2024-03-14"); not a deadline's "#due/..."
DAY_TAG = re.compile(r"(?i)#(?:(?:log|journal|daily|day|date|diary)[/:_-])?"
                     r"(?:19|20)\d\d[-/._][01]?\d[-/._][0-3]?\d")
_TIME = re.compile(
    r"(?:\s*(?:T|_|,|at|@))?\s*(?P<hour>[0-2]?\d)(?::(?P<minute>[0-5]\d))?(?::(?P<second>[0-5]\d))?"
    r"(?:\s*(?P<ampm>[ap]\.?m\.?))?(?=Z(?!\w)|:(?!\d)|[^\w:]|$)",
    re.IGNORECASE,
)
# a name that heads a line, then a dash: "**Alice Smith** — ", "@kiri - ", "mayaz — " (a chat
# nickname); "Kim Laine @klaine · " (a tracker's, its handle after the name); or the name, then
# its message's date in brackets: "Jane Doe (" of "Jane Doe (Mar 14, 2024 9:12 AM):"
_NAME = r"(?:\*\*|__)?@?[A-Za-z][\w.'-]*(?: [A-Z][\w.'-]*){0,3}(?:\*\*|__)?"
_NAME_BEFORE_DATE = re.compile(
    rf"{_NAME}(?:(?P<handle>\s+@[\w.-]+)?\s*[—–·-]\s+|\s+(?P<bracket>\()(?=\w))")
# what closes a byline whose date is in brackets: "):", ")"
_BRACKET_END = re.compile(r"\)\s*:?")
# who did what on a tracker, then the day: "**@tanya-r** commented on ", "okafor-d commented ",
# "**@mara-k** closed this as completed on ": the name marked as a tracker marks it (its @ or
# bold), or the act a comment's ("Tanya merged the fix on Mar 5, 2024" is a sentence)
_MARKED_NAME = r"(?:\*\*|__)@?[\w.'-]+(?: [\w.'-]+){0,3}(?:\*\*|__)|@[\w.-]+"
_NAME_THEN_ACTION = re.compile(
    rf"(?:{_MARKED_NAME})\s+(?:commented|replied|wrote|posted|opened|closed|reopened|merged"
    r"|edited|approved|reviewed|added|removed|changed|assigned|labell?ed|pinned|locked"
    r"|referenced|mentioned|transferred|renamed)\b"
    rf"|{_NAME}\s+(?:commented|replied)(?=\s+(?:on\s+)?\S+\s+\d)")
_ACTION_WORDS = 7  # at most, between the verb and the day: "closed this as completed on"
# what a tracker may write after a comment's date: "•  edited", "(edited)", "(edited Jun 7)"
_EDITED = re.compile(r"\s*(?:[•·]\s*edited|\(edited\b[^()]*\))?\s*$")
# a mail client's line over a quoted reply: "On Tue, Apr 2, 2024 at 8:41 AM Priya Raman
# <priya@lab.example> wrote:", "On 8 Apr 2024, at 07:55, Priya Raman wrote:"
_ATTRIBUTION = re.compile(r"\s*On\s+(?=.*\swrote:\s*$)")
# what says an event is over, whatever later day its sentence also names
_DONE = re.compile(r"(?i)\b(done|completed|complete|finished|ended|went (fine|well|smoothly))\b")
# a date's clock to the second, as a mail archive stamps a post ("Tue Oct 8 21:14:03 CEST 2024")
_STAMP = re.compile(r"\s+[0-2]?\d:[0-5]\d:[0-5]\d\b")
# a separator line that frames who wrote and when between two rules of one symbol, as a ticket's
# comments pasted one under another are set apart: "--- comment by jdoe, 2024-03-14 09:12 ---"
_FRAMED = re.compile(r"\s*(?P<rule>[-=~])(?P=rule){2,}\s+(?P<text>\S.*?)\s+(?P=rule){3,}\s*")
# one where a line may begin in a printed paragraph, the text after it run on to it
_FRAMED_IN = re.compile(r"(?:^|(?<=\s))(?P<rule>[-=~])(?P=rule){2,}\s+\S.{0,160}?\s(?P=rule){3,}"
                        r"(?=\s|$)")
_ZONE = re.compile(r"\s*\(?(?P<zone>Z|[A-Z]{2,5}|UTC[+-]\d{1,2})\)?(?![\w])")

# What may stand before a leading date: space, emphasis (bold, or bold and italic: "***14
# JANUARY 2025***"), a Markdown '#', a bracket (an Org-mode timestamp's '<' too), a rule of '='
# or '~' or '--' (`=== 2021-11-24 ===`), a weekday, the day's number in a journal (`Day 12 (Mon
# 6 Mar 2023)`, `Entry #5 - ...`), an IRC log's marker of a new day (`--- Day changed Thu Mar 14
# 2024`, `--- Log opened ...`).
# A lone '-' or '*' is a list item.
# (a weekday: English's capitalised, or in capitals written out, "MONDAY 11 MARCH 2024", as a
# month in capitals is; another language's as it writes it; German's cut to two letters only
# before a dotted day: "Do, 14. März 2024", not "So 1/2 of")
_NOT_ENGLISH_WEEKDAYS = _written(WEEKDAY_NAMES, set(WEEKDAY_NAMES) - {"en"},
                                 lambda name: len(name) > _CUT)
_ENGLISH_IN_CAPITALS = "|".join(names[-1].upper() for names in WEEKDAY_NAMES["en"])
_WEEKDAY_LEAD = (rf"(?:(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)[a-z]*|{_ENGLISH_IN_CAPITALS}"
                 rf"|{_NOT_ENGLISH_WEEKDAYS})\.?,?\s+|{_CUT_WEEKDAY}\.?,?\s+(?=[0-3]?\d\.))")
_LEAD = re.compile(
    rf"^(?:\s|\*\*\*?|#+\s|[\[(<]|=+|~+|-{{2,}}|{_WEEKDAY_LEAD}(?=\w)|"
    r"(?:Day|Week|Entry)\s+#?\d+\b[\s,:.\-\u2013\u2014]*|Day changed\s+|Log opened\s+)*")
# a weekday at the end of the lead, where a date written with it opens ("Mon 3/4")
_LEADING_WEEKDAY = re.compile(rf"{_WEEKDAY_LEAD}$")

# Abbreviations as written in logbooks -> IANA zones; a US "ET"/"PT" follows DST.
ZONES = {
    "UTC": "UTC", "GMT": "UTC", "Z": "UTC",
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "CT": "America/Chicago", "CST": "America/Chicago", "CDT": "America/Chicago",
    "MT": "America/Denver", "MST": "America/Denver", "MDT": "America/Denver",
    "PT": "America/Los_Angeles", "PST": "America/Los_Angeles", "PDT": "America/Los_Angeles",
    "CET": "Europe/Paris", "CEST": "Europe/Paris", "JZ": "Europe/Paris",
    "BST": "Europe/London", "IST": "Asia/Kolkata", "JST": "Asia/Tokyo", "KST": "Asia/Seoul",
}


@dataclass(frozen=True, slots=True)
class DateMatch:
    """A date found in text; `year` is None when it was not written."""

    year: int | None
    month: int
    day: int
    start: int
    end: int
    partial: bool = False  # e.g. 2022-04-XX: a date-shaped heading with no usable day
    weekday: int | None = None  # Monday is 0, when the date was written with its weekday

    @property
    def value(self) -> date | None:
        return None if self.partial or self.year is None else date(self.year, self.month, self.day)


@dataclass(frozen=True, slots=True)
class When:
    """What a heading says about when: the date, and the time and zone as written."""

    date: DateMatch
    time: str | None = None
    timezone: str | None = None
    end: int = 0  # where the date/time/zone text ends in the heading


def find_dates(text: str, dayfirst: bool = False) -> list[DateMatch]:
    """Every valid date in `text`, in order of position, overlaps resolved leftmost-longest."""
    found: list[DateMatch] = []
    for pattern in DATE_PATTERNS:
        if _NEEDS.get(pattern, "") not in text:
            continue
        for m in pattern.finditer(text):
            match = _to_match(m, dayfirst)
            if match is not None:
                found.append(match)
    found.sort(key=lambda d: (d.start, -(d.end - d.start)))
    kept: list[DateMatch] = []
    for d in found:
        if not kept or d.start >= kept[-1].end:
            kept.append(d)
    return kept


def reads_dayfirst(texts: Iterable[str]) -> bool:
    """Whether a logbook writes its numeric dates day first: some say so (13/03/2024, a day
    past 12 first, or a legend: "dates are DD/MM/YY") and none says otherwise (03/13/2024,
    "MM/DD/YY"). Then 04/03/2024 is 4 March in it, as its writer meant, not 3 April. Where
    none says, the dates' order does: a log moves days at a time, so 04/03, 05/03, 07/03 are
    March and not April, May and July. A date counts when it has a four-digit year or leads
    its line ("13/03/24 - night shift"): "TP/PP/DP = 16/8/32" and "16/8/32 -> 38% MFU" are
    no dates."""
    day_first = month_first = False
    unsettled: list[tuple[int, int, int]] = []  # (year, a, b) of 04/03/2024, in order
    for text in texts:
        for legend in _LEGEND.finditer(text):
            first, second = legend["first"][0].lower(), legend["second"][0].lower()
            day_first |= (first, second) == ("d", "m")
            month_first |= (first, second) == ("m", "d")
        for pattern in _NUMERIC:
            if _NEEDS[pattern] not in text:
                continue
            for m in pattern.finditer(text):
                if len(m["year"]) != 4 and (_LEAD.match(text).end() != m.start()
                                            or _NOT_A_DATE_AFTER.match(text, m.end())):
                    continue
                a, b = int(m["a"]), int(m["b"])
                day_first |= 12 < a <= 31 and 1 <= b <= 12
                month_first |= 12 < b <= 31 and 1 <= a <= 12
                if 1 <= a <= 12 and 1 <= b <= 12:
                    year = int(m["year"])
                    unsettled.append((year + 2000 if year < 100 else year, a, b))
        for a, b in _with_weekday(text):  # "14/3 (Fri) nights", "Fri 14/3": no year, a date
            day_first |= 12 < a <= 31 and 1 <= b <= 12
            month_first |= 12 < b <= 31 and 1 <= a <= 12
    if day_first or month_first:
        return day_first and not month_first
    return _steps(unsettled, dayfirst=True) < _steps(unsettled, dayfirst=False)


def _with_weekday(text: str) -> Iterator[tuple[int, int]]:
    """The two numbers of each day and month written without a year but with a weekday, which
    makes them a date: after it ("Fri 14/3") or, opening the line, before it ("14/3 (Fri)")."""
    if "/" not in text:
        return
    for m in _WEEKDAY_FIRST.finditer(text):
        yield int(m["a"]), int(m["b"])
    bare = _BARE_DAY.match(text, _LEAD.match(text).end())
    if bare and bare["a"] and bare["weekday"]:
        yield int(bare["a"]), int(bare["b"])


def _steps(numbers: list[tuple[int, int, int]], dayfirst: bool) -> int:
    """Days moved from each date to the next, read one way or the other."""
    days = [date(year, b, a).toordinal() if dayfirst else date(year, a, b).toordinal()
            for year, a, b in numbers]
    return sum(abs(later - earlier) for earlier, later in pairwise(days))


def _to_match(m: re.Match, dayfirst: bool) -> DateMatch | None:
    groups = m.groupdict()
    year = int(groups["year"]) if groups.get("year") else None
    if year is not None and year < 100:
        year += 2000
    if groups.get("isoweek"):
        try:
            monday = date.fromisocalendar(year, int(groups["isoweek"]), 1)
        except ValueError:  # week 0, or a 53rd the year has not
            return None
        month, day = monday.month, monday.day
        year = monday.year  # week 1 may begin in December
    elif groups.get("partial"):
        month, day = int(groups["month"]), 1
    elif groups.get("mon"):
        month = MONTHS[groups["mon"].lower().rstrip(".")]
        day = DAY_WORDS[groups["dayword"].lower()] if groups.get("dayword") else int(groups["day"])
    elif groups.get("da"):  # a bare day and month dotted, day first: "26.02."
        month, day = int(groups["db"]), int(groups["da"])
    elif groups.get("a"):
        a, b = int(groups["a"]), int(groups["b"])
        day_first = dayfirst or groups.get("dot") is not None
        month, day = (b, a) if (a > 12 or (day_first and b <= 12)) else (a, b)
    else:
        month, day = int(groups["month"]), int(groups["day"])
    if not _exists(year, month, day):
        return None
    return DateMatch(year, month, day, m.start(), m.end(), partial=bool(groups.get("partial")),
                     weekday=_weekday(m))


def _exists(year: int | None, month: int, day: int) -> bool:
    """The calendar has this day (without a year, in a leap year: Feb 29 is valid)."""
    try:
        date(year or 2000, month, day)
    except ValueError:
        return False
    return True


def _weekday(m: re.Match) -> int | None:
    """The weekday a date was written with (Monday is 0), if any."""
    name = m.groupdict().get("weekday")
    return WEEKDAYS[name.lower()] if name else None


def year_or_month(text: str) -> tuple[int | None, int | None] | None:
    """(year, month) of a heading that names a year or a month and nothing else ("2024",
    "March", "March 2024") or one month with its year among other words ("70B run log — March
    2025"), whose sub-headings may be only days (`day_under`); else None."""
    named = _YEAR_OR_MONTH.fullmatch(text)
    if named is None or not (named["mon"] or named["year"]):
        months = list(_MONTH_YEAR.finditer(text))
        if len(months) != 1 or find_dates(text):
            return None
        named = months[0]
    return (int(named["year"]) if named["year"] else None,
            MONTHS[named["mon"].lower().rstrip(".")] if named["mon"] else None)


def day_under(text: str, year: int | None, month: int) -> When | None:
    """The date of a heading that is only a day ("14", "Thu 14th", "W11 · Thu 14") in the month
    (and year, if written) the headings above it name; None for another heading, a day the
    month has not, or one its ISO week's number and weekday both say is in another month (a
    "W14 · Tue 1" under "March 2025" is April's; a run's own "Week 1 · Tue 4" whose weekday
    fits is the 4th)."""
    day = _DAY_ALONE.fullmatch(text)
    if day is None or not _exists(year, month, int(day["day"])):
        return None
    if day["week"] and year:
        there = date(year, month, int(day["day"]))
        if there.isocalendar().week != int(day["week"]) and _weekday(day) != there.weekday():
            return None
    found = DateMatch(year, month, int(day["day"]), day.start(), day.end(), weekday=_weekday(day))
    return When(found, end=day.end())


def names_only_a_month(text: str) -> bool:
    """Whether a heading names a month (its year or not) and nothing else: "March 2024", over
    one list item a day, not "Top issues, March 2024" over a ranked list."""
    named = _YEAR_OR_MONTH.fullmatch(text)
    return bool(named and named["mon"])


def day_led(text: str, year: int | None, month: int) -> When | None:
    """The date of a list item led by a day's number alone ("14: restarted from 12k"), in the
    month (and year) its heading names ("## March 2024"), as a month's notes are kept one
    bullet a day; None for another item or a day the month has not."""
    day = _DAY_LED.match(text)
    if day is None or not _exists(year, month, int(day["day"])):
        return None
    found = DateMatch(year, month, int(day["day"]), day.start(), day.end(), weekday=_weekday(day))
    return When(found, end=day.end())


def week_of(text: str, when: When, dayfirst: bool = False) -> date | None:
    """The first day of the week a heading names, whose sub-headings may then be only its
    weekdays (`weekday_under`): "Week of 2024-03-11", an ISO week "2024-W11", or a range of at
    most seven days ("Mar 11-15, 2024", "2024-03-11 – 2024-03-17"); None for a heading that
    dates one day ("2024-03-14 (Thu)") or a longer span ("Sprint 12 (2024-03-11 – 2024-03-22)"),
    under which a weekday heading is no day of one week."""
    first = when.date.value
    if first is None:
        return None
    start, end = when.date.start, when.date.end
    if _WEEK_OF.search(text, 0, start) or DATE_PATTERNS[2].fullmatch(text, start, end):
        return first
    last = _range_end(text[start:end], when.date)
    if last is None:
        later = [d for d in find_dates(text, dayfirst) if d.start >= end]
        if later and _RANGE_TO.fullmatch(text, end, later[0].start):
            d = later[0]
            last = _dated(d.year or first.year, d.month, d.day)
    return first if last is not None and 0 < (last - first).days < 7 else None


def _range_end(written: str, found: DateMatch) -> date | None:
    """The last day of a range written as one date ("Apr 8-12, 2024", "29 April - 3 May
    2024"), in the year of its first; None for a date that is no range."""
    dash = re.search(_DASH, written)
    if dash is None or not re.search(_OTHER_MONTH, written):  # (not 2024-03-11's dashes)
        return None
    tail = written[dash.end():]
    day = re.search(r"(?<!\d)([0-3]?\d)(?!\d)", tail)
    month = re.search(_OTHER_MONTH, tail)
    if day is None:
        return None
    number = MONTHS[month[0].lower().rstrip(".")] if month else found.month
    year = (found.year or 2000) + (number < found.month)
    return _dated(year, number, int(day[1]))


def _dated(year: int, month: int, day: int) -> date | None:
    return date(year, month, day) if _exists(year, month, day) else None


def weekday_under(text: str, week: date) -> When | None:
    """The date of a heading that is only a weekday ("### Thursday") under a heading that dates
    its week ("## Week of 2024-03-11", "## 2024-W11"): that weekday in the week's first seven
    days; None for another heading."""
    named = _WEEKDAY_ALONE.fullmatch(text)
    if named is None:
        return None
    weekday = _weekday(named)
    day = date.fromordinal(week.toordinal() + (weekday - week.weekday()) % 7)
    return When(DateMatch(day.year, day.month, day.day, named.start("weekday"),
                          named.end("weekday"), weekday=weekday), end=named.end())


def leading_when(text: str, dayfirst: bool = False) -> When | None:
    """The date (and time, zone) a line begins with, after emphasis (a forum's BBCode tags too:
    "[b]14/03/2024[/b]"), a bracket or a weekday.

    A list item (`* 2021-11-17 ...`, `- Nov 5: ...`) does not begin with a date.
    """
    # BBCode's tags read as the spaces they show, so the lead runs over them where it stands
    shown = _BBCODE_TAG.sub(lambda tag: " " * len(tag.group()), text) if "[" in text else text
    lead = len(shown) - len(_LEAD.sub("", shown))
    # where the date may open: after the lead, or at a weekday the lead ends with, which a date
    # without its year needs ("**Mon 3/4 — call notes**")
    weekday = _LEADING_WEEKDAY.search(shown, 0, lead)
    opens = (lead, weekday.start()) if weekday else (lead,)
    # the first date found, if it opens there, is a match there: most lines have none,
    # which a match per pattern tells, cheaper than finding every date
    if not any(_NEEDS.get(p, "") in text and p.match(text, start)
               for p in DATE_PATTERNS for start in opens):
        return None
    dates = find_dates(text, dayfirst)
    if not dates or dates[0].start not in opens:
        return None
    return when_at(text, dates[0])


# a date in brackets that ends a line, as a plain-text log writes a note's title, then when:
# "Restarted after ECC on node17 [30/12/2024 09:12]", "Loss spike (2024-03-14)"
_BRACKETED_AT_END = re.compile(r"[\[(](?P<inside>[^\[\]()]+)[\])]\s*$")


def trailing_when(text: str, dayfirst: bool = False) -> When | None:
    """The date (and clock, zone) in brackets that ends a line, nothing else in them: "Restarted
    after ECC on node17 [30/12/2024 09:12]"; None for another line ("Rolled back (to ckpt 2024-
    03-14 morning)")."""
    bracket = _BRACKETED_AT_END.search(text)
    inside = bracket["inside"] if bracket else ""
    when = leading_when(inside, dayfirst) if bracket else None
    if when is None or inside[when.end:].strip():
        return None
    return moved(when, bracket.start("inside"))


def _posting_stamp(text: str, found: DateMatch) -> bool:
    """A date as a mail archive stamps a post: after its weekday, clocked to the second ("Tue
    Oct 8 21:14:03 CEST 2024"; not "last good checkpoint 2024-03-03 22:14:09")."""
    return bool(_STAMP.match(text, found.end) and _LEADING_WEEKDAY.search(text, 0, found.start))


def byline_when(text: str, dayfirst: bool = False) -> When | None:
    """The date of a line that is only a name and when it wrote, as a chat export heads each
    message ("**Alice Smith** — 04/03/2024 09:14", "Jane Doe (Mar 14, 2024 9:12 AM):": a date
    and its time end the line), or a
    name, what it did and the day, as an issue tracker heads each comment ("**@tanya-r**
    commented on Mar 5, 2024", "Kim Laine @klaine · Jun 3, 2024"), or a mail client's line
    over a reply ("On Tue, Apr 2, 2024 at 8:41 AM Priya <p@x.org> wrote:")."""
    action = _NAME_THEN_ACTION.match(text)
    found = find_dates(text, dayfirst) if action else []
    if found and len(text[action.end():found[-1].start].split()) <= _ACTION_WORDS:
        when = when_at(text, found[-1])
        if _EDITED.fullmatch(text, when.end):
            return when
    attribution = _ATTRIBUTION.match(text)
    if attribution:
        when = leading_when(text[attribution.end():], dayfirst)
        return moved(when, attribution.end()) if when else None
    name = _NAME_BEFORE_DATE.match(text)
    when = leading_when(text[name.end():], dayfirst) if name else None
    if when is None:
        return None
    rest = text[name.end() + when.end:]
    if name["handle"]:  # a tracker's "Kim Laine @klaine · Jun 3, 2024 · edited"
        return moved(when, name.end()) if _EDITED.fullmatch(rest) else None
    if name["bracket"]:  # a chat copy's "Jane Doe (Mar 14, 2024 9:12 AM):" closes it
        closed = _BRACKET_END.match(rest)
        if closed is None:
            return None
        rest = rest[closed.end():]
    if when.time is None or rest.strip(" *_"):
        return None  # ("Vendor ETA – 2024-03-11" is a line of the body)
    return moved(when, name.end())


def framed_when(text: str, dayfirst: bool = False) -> When | None:
    """The first date (with its clock and zone) of a separator line that frames it between two
    rules, wherever in the frame it stands ("--- comment by jdoe, 2024-03-14 09:12 ---", "===
    Standup, Thu 14 Mar 2024 ==="): each such line sets apart a note, as a ticket's comments
    pasted into a logbook are. None for another line."""
    framed = _FRAMED.fullmatch(text)
    when = heading_when(framed["text"], dayfirst) if framed else None
    return moved(when, framed.start("text")) if when else None


def org_timestamp(text: str, whole: bool = True) -> When | None:
    """The date and clock of a line that is only an Org-mode timestamp ("<2024-03-14 Thu
    09:12>"), which `leading_when` reads without its clock, the weekday between them; None for
    another line. Not `whole`: of the timestamp `text` opens with (a printed paragraph runs the
    text under it into its line)."""
    stamp = (_ORG_TIMESTAMP.fullmatch if whole else _ORG_TIMESTAMP.match)(text)
    found = find_dates(stamp["date"]) if stamp else []
    if not found or found[0].end - found[0].start != len(stamp["date"]):
        return None
    day = replace(found[0], start=stamp.start("date"), end=stamp.end("date"))
    return When(day, stamp["time"], None, end=stamp.end())


def framed_lines(text: str, dayfirst: bool = False) -> list[tuple[int, int]]:
    """Where each dated separator line stands in a printed paragraph's text (a renderer runs the
    comment under "--- comment by jdoe, 2024-03-14 09:12 ---" into its line): (start, end)."""
    return [(m.start(), m.end()) for m in _FRAMED_IN.finditer(text)
            if framed_when(m.group(), dayfirst)]


def message_byline(text: str, dayfirst: bool = False) -> tuple[int, int] | None:
    """A chat's byline that a printed export runs into its message ("mayaz — 03/14/2024 9:12
    PM kicked off ...", its dash a long one; "Jane Doe (Mar 14, 2024 9:12 AM): job died ..."):
    where its name ends and where the date and clock after its dash (or in its brackets) end."""
    name = _NAME_BEFORE_DATE.match(text)
    dashed = name is not None and text[:name.end()].rstrip()[-1] in ("—", "–")
    if name is None or not (dashed or name["bracket"]) or name["handle"]:
        return None  # ("Investigating · Jul 23, 2024 10:40 UTC — ..." is a status line)
    when = leading_when(text[name.end():name.end() + 80], dayfirst)
    if when is None or when.time is None:
        return None
    if name["bracket"]:
        closed = _BRACKET_END.match(text, name.end() + when.end)
        return (len(text[:name.start("bracket")].rstrip()), closed.end()) if closed else None
    name_end = len(text[:name.end()].rstrip()[:-1].rstrip())  # before its dash
    return name_end, name.end() + when.end


def moved(when: When, at: int) -> When:
    """`when` found in a text that begins `at` characters into the line."""
    found = replace(when.date, start=when.date.start + at, end=when.date.end + at)
    return replace(when, date=found, end=when.end + at)


def heading_when(text: str, dayfirst: bool = False) -> When | None:
    """The first date in a heading, with the time and zone written right after it; a heading
    that is only a day and month ("6/3", "6/3 14:20") is one too, its year found later, as is
    one that is only a dotted date with a two-digit year ("Fr 15.03.24"), and so is one that
    opens with a date without separators ("20240314")."""
    compact = _COMPACT.match(text, _LEAD.match(text).end())
    if compact and (found := _to_match(compact, dayfirst)):
        return when_at(text, found)
    dates = find_dates(text, dayfirst)
    if dates:  # a mail's subject may name other days: its posting stamp dates it
        return when_at(text, next((d for d in dates[1:] if _posting_stamp(text, d)), dates[0]))
    bare = _BARE_DAY.match(text) or _DOTTED_SHORT_YEAR.fullmatch(text)
    found = _to_match(bare, dayfirst) if bare else None
    return when_at(text, found) if found else None


def when_at(text: str, d: DateMatch) -> When:
    """The date `d` found in `text`, with the time and zone written right after it."""
    end, clock, zone = d.end, None, None
    group = _DTG.match(text, d.start)
    if group and group.end() == d.end and int(group["hour"]) <= 23:  # its clock is in it
        return When(d, f"{group['hour']}:{group['minute']}", group["zone"], end)
    t = _TIME.match(text, end)
    if t and (t.group("minute") or t.group("ampm")) and _valid_clock(t):
        clock = text[t.start("hour"):t.end()].strip()
        end = t.end()
    z = _ZONE.match(text, end)
    if (z and z.group("zone").upper() in ZONES) or (z and z.group("zone").startswith("UTC")):
        zone, end = z.group("zone"), z.end()
    return When(d, clock, zone, end)


def _valid_clock(t: re.Match) -> bool:
    hour = int(t.group("hour"))
    return hour <= 12 if t.group("ampm") else hour <= 23


def parse_clock(clock: str) -> time | None:
    """'1:00pm' -> 13:00, '11:39' -> 11:39, '3pm' -> 15:00."""
    t = _TIME.match(clock)
    if not t:
        return None
    hour, minute = int(t.group("hour")), int(t.group("minute") or 0)
    ampm = (t.group("ampm") or "").lower().replace(".", "")
    if ampm == "pm" and hour < 12:
        hour += 12
    elif ampm == "am" and hour == 12:
        hour = 0
    if hour > 23:
        return None
    return time(hour, minute, int(t.group("second") or 0))


def zone_info(zone: str | None) -> ZoneInfo | None:
    """An abbreviation (ET, PST, UTC+2) or an IANA name -> ZoneInfo."""
    if not zone:
        return None
    key = zone.strip().upper()
    if key in ZONES:
        return ZoneInfo(ZONES[key])
    offset = re.fullmatch(r"UTC([+-])(\d{1,2})", key)
    if offset:  # POSIX Etc/ zones have inverted signs and exist for -14..+12 only
        hours = int(offset.group(2)) * (1 if offset.group(1) == "+" else -1)
        return ZoneInfo(f"Etc/GMT{-hours:+d}") if -12 <= hours <= 14 else None
    try:
        return ZoneInfo(zone.strip())
    except (ZoneInfoNotFoundError, ValueError):
        return None


def to_utc(day: date, clock: str | None, zone: str | None) -> datetime | None:
    """Local date + time + zone -> naive UTC datetime; None unless all three are known."""
    tz, t = zone_info(zone), parse_clock(clock) if clock else None
    if tz is None or t is None:
        return None
    local = datetime.combine(day, t, tzinfo=tz)
    return local.astimezone(UTC).replace(tzinfo=None)


def names_only_later_days(text: str, day: date, stamped: bool = False) -> bool:
    """Whether `text` names days, all of them after `day` (a date without its year is read in
    the year that puts it nearest `day`): "maintenance 30 Jan - 1 Feb" in a note of 19 January,
    not in one of 30 January; not one that says it is done. In a `stamped` text (a heading) its
    entry's own day, first or as a mail's posting stamp, is no day it names: "[users] 2024-01-19
    Scheduled maintenance 2024-01-23", "Planned maintenance Sat Oct 12 — Tue Oct 8 21:14:03"."""
    if _DONE.search(text):  # "maintenance done, next window 2024-04-06" reports it
        return False
    named = [(d, d.value or infer_year(d.month, d.day, day))
             for d in find_dates(text) if not d.partial]
    if stamped:  # its first date when that is its entry's day, and a posting stamp anywhere
        named = [(d, value) for k, (d, value) in enumerate(named)
                 if not _posting_stamp(text, d) and not (k == 0 and value == day)]
    return bool(named) and min(value for _, value in named) > day


def year_of_weekday(month: int, day: int, weekday: int, near_year: int) -> date | None:
    """The date of month/day that falls on `weekday` within a year of `near_year` (a year the
    logbook writes), or None: "Mon 6/3" in a "Training log 2024" is 3 June 2024."""
    for year in (near_year, near_year - 1, near_year + 1):
        try:
            found = date(year, month, day)
        except ValueError:
            continue
        if found.weekday() == weekday:
            return found
    return None


def infer_year(month: int, day: int, neighbour: date) -> date:
    """The year that puts month/day closest to a neighbouring entry's date."""
    candidates = []
    for year in (neighbour.year - 1, neighbour.year, neighbour.year + 1):
        try:
            candidates.append(date(year, month, day))
        except ValueError:
            continue
    return min(candidates, key=lambda d: abs((d - neighbour).days))
