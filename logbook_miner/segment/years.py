"""The dates a segmenter cannot read from a heading alone: the year of a year-less heading
(from its neighbours, its weekday, the year the headings write most or a date written before
it), each entry's UTC timestamp, and the chronology flags of entries out of place."""

from __future__ import annotations

import re
from collections import Counter
from datetime import UTC, date

from ..models import Entry
from . import dates
from .chronology import chronology_anomalies

# a year as written: 2024, not 2024.05 or 12024
_YEAR = re.compile(r"(?<![\d.])(?:19|20)\d\d(?![\d.])")
_COUNTED = re.compile(r"\s*(?:gpus?|nodes?|hosts?|tokens?|steps?|its?|iters?|samples?|seqs?|k)\b",
                      re.IGNORECASE)  # "2048 GPUs" counts, it dates nothing ("2023 items" does)


def complete_dates(entries: list[Entry], no_year: dict[int, dates.DateMatch],
                    default_timezone: str | None, titles: list[str]) -> None:
    """Years from neighbours (or from a weekday, or the entry before, and the year the headings
    write most: "June 3" under "# Run notes 2023"), UTC timestamps, chronology flags."""
    nearest = _nearest_dated(entries, no_year) if no_year else []
    written_year = (_most_written_year(titles) or _preamble_year(entries, no_year)
                    or _weekdays_year(list(no_year.values())) if no_year else None)
    previous: date | None = None  # the last year-less date dated from the headings' year
    for i, entry in enumerate(entries):
        if i in no_year:
            neighbour, found = nearest[i], no_year[i]
            if neighbour is not None:
                entry.date = dates.infer_year(found.month, found.day, neighbour)
            elif found.weekday is not None and written_year is not None:
                entry.date = dates.year_of_weekday(found.month, found.day, found.weekday,
                                                   written_year)
            elif written_year is not None:
                entry.date = _in_year_of(found, previous, written_year)
                previous = entry.date or previous
            entry.date_inferred = entry.date is not None
        if entry.date and entry.time:
            entry.ts_utc = dates.to_utc(entry.date, entry.time, entry.timezone or default_timezone)
    flags = chronology_anomalies(_home_days(entries, default_timezone),
                                 [e.run_id for e in entries])
    for entry, flag in zip(entries, flags, strict=True):
        entry.chronology_anomaly = flag


def _home_days(entries: list[Entry], default_timezone: str | None) -> list[date | None]:
    """Each entry's date in the logbook's own zone (its most written one), for ordering.

    `11:07 PM PT` on the 26th is the 27th in ET: days written in several zones compare
    only once they are days of one zone.
    """
    zones = Counter(e.timezone for e in entries if e.timezone)
    home = dates.zone_info(zones.most_common(1)[0][0] if zones else default_timezone)
    if home is None:
        return [e.date for e in entries]
    return [e.ts_utc.replace(tzinfo=UTC).astimezone(home).date() if e.ts_utc else e.date
            for e in entries]


def _most_written_year(titles: list[str]) -> int | None:
    """The year the headings write most often ("Training log 2024"; the latest of a tie), or
    None: a body's numbers are no years, nor a heading's count ("2048 GPUs") or a year to come."""
    latest = date.today().year + 1
    years = Counter(int(m[0]) for title in titles for m in _YEAR.finditer(title)
                    if int(m[0]) <= latest and not _COUNTED.match(title, m.end()))
    return max(years, key=lambda year: (years[year], year)) if years else None


def _preamble_year(entries: list[Entry], no_year: dict[int, dates.DateMatch]) -> int | None:
    """Where no heading names a year, the year that puts the first year-less heading nearest
    the latest full date written before it: "my rotation: 3 Mar – 13 Apr 2025" over "Mon 24
    Mar" is 2025; "continues the run that ended 2023-12-20" over "Jan 5" is 2024."""
    first = min(no_year)
    written = [found.value for entry in entries[:first]
               for found in dates.find_dates(f"{entry.heading}\n{entry.text}")
               if found.year is not None and not found.partial]
    if not written:
        return None
    return dates.infer_year(no_year[first].month, no_year[first].day, max(written)).year


def _weekdays_year(found: list[dates.DateMatch]) -> int | None:
    """Where no text writes a year, the latest of the last ten whose calendar puts every
    weekday-dated heading ("Mon 3/4", "Wed 3/6") on its weekday, none of them after today: a
    logbook is read as recent, so the year found depends on the year it is read in (the
    entries are marked `date_inferred`)."""
    dated = [d for d in found if d.weekday is not None]
    today = date.today()
    for year in range(today.year, today.year - 10, -1) if len(dated) > 1 else ():
        days = [dates.year_of_weekday(d.month, d.day, d.weekday, year) for d in dated]
        if all(day is not None and day <= today for day in days):
            return year
    return None


def _in_year_of(found: dates.DateMatch, previous: date | None, written_year: int) -> date | None:
    """A month and day in the year of the entry before (the headings' year for the first),
    turned where the months go round the year's end: "Dec 30" then "Jan 2" is the next year
    (or the one before, in a logbook written newest first). None if there is no such day."""
    year = written_year
    if previous is not None:
        year = previous.year
        if previous.month >= 10 and found.month <= 3:
            year += 1
        elif previous.month <= 3 and found.month >= 10:
            year -= 1
    try:
        return date(year, found.month, found.day)
    except ValueError:  # 29 February of a year that has none
        return None


def _nearest_dated(entries: list[Entry], no_year: dict) -> list[date | None]:
    """Per entry, the closest date with a written year: before it if any, else after it.

    Two linear passes, so a logbook of thousands of `Nov 5` headings stays linear.
    """
    written = [e.date if e.date is not None and i not in no_year else None
               for i, e in enumerate(entries)]
    before, after, last = [None] * len(entries), [None] * len(entries), None
    for i, value in enumerate(written):
        before[i], last = last, value or last
    last = None
    for i in range(len(written) - 1, -1, -1):
        after[i], last = last, written[i] or last
    return [b or a for b, a in zip(before, after, strict=True)]
