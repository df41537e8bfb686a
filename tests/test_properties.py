"""Properties over generated input: dates never crash, segmentation finds exactly the
headings a document was built from, and re-ingesting changes nothing."""

from __future__ import annotations

import itertools
import string
from datetime import date, datetime, timedelta

import pytest
from helpers import snapshot
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from logbook_miner.ingest import ingest, no_labels
from logbook_miner.read import read
from logbook_miner.segment import dates
from logbook_miner.segment.entries import segment

MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August",
               "September", "October", "November", "December"]
# Text that looks like what dates.py parses: digits, separators, month names, zones.
DATEISH = st.lists(st.sampled_from(
    [*"0123456789-/._:, ()[]*#TZapm", "Nov", "March", "Sept", "UTC", "ET", "PST", "th", "XX"]),
    max_size=30).map("".join)
ANY_TEXT = st.one_of(st.text(max_size=200), DATEISH)


@settings(max_examples=400, deadline=None)
@given(ANY_TEXT, st.booleans())
def test_find_dates_gives_valid_dates_in_order(text, dayfirst):
    found = dates.find_dates(text, dayfirst)
    for d in found:
        assert 0 <= d.start < d.end <= len(text)
        assert d.year is None or 1900 <= d.year <= 2099
        date(d.year or 2000, d.month, d.day)  # a real calendar day
    assert all(a.end <= b.start for a, b in itertools.pairwise(found))


@settings(max_examples=400, deadline=None)
@given(ANY_TEXT, st.booleans())
def test_leading_when_is_a_date_the_text_begins_with(text, dayfirst):
    when = dates.leading_when(text, dayfirst)
    if when is not None:
        assert when.date.end <= when.end <= len(text)
        assert not text[:when.date.start].strip(" \t\n*_#[(")
        if when.time:
            assert dates.parse_clock(when.time) is not None


@settings(max_examples=150, deadline=None)
@given(st.dates(date(1900, 1, 2), date(2099, 12, 30)),
       st.one_of(st.none(), st.text(max_size=12), st.from_regex(r"[0-2]?\d(:[0-5]\d)?\s?([ap]m)?",
                                                                fullmatch=True)),
       st.one_of(st.none(), st.text(max_size=20), st.sampled_from(sorted(dates.ZONES)),
                 st.from_regex(r"UTC[+-](1[0-2]|\d)", fullmatch=True)))
def test_to_utc_is_none_or_within_a_day_of_the_local_date(day, clock, zone):
    utc = dates.to_utc(day, clock, zone)
    if utc is not None:
        assert utc.tzinfo is None
        assert abs(utc - datetime.combine(day, datetime.min.time())) < timedelta(days=2)


@pytest.mark.parametrize("zone", ["UTC+15", "UTC-20", "UTC+99"])
def test_an_impossible_utc_offset_is_an_unknown_zone_not_a_crash(zone):
    assert dates.zone_info(zone) is None
    assert dates.to_utc(date(2022, 1, 1), "10:00", zone) is None


# --- segmentation: headings are recovered exactly --------------------------------------------

WORD = st.text(alphabet=string.ascii_letters, min_size=1, max_size=10)
BODY_LINE = st.lists(WORD, min_size=1, max_size=8).map(" ".join).flatmap(
    lambda words: st.sampled_from(["", ",", ";", ".", "!", "?"]).map(lambda p: words + p))


@st.composite
def heading(draw) -> tuple[str, date]:
    day = draw(st.dates(date(1990, 1, 1), date(2035, 12, 31)))
    style = draw(st.sampled_from(["iso", "iso-time", "month-day-year", "day-month-year"]))
    written = {
        "iso": day.isoformat(),
        "iso-time": f"{day.isoformat()} {draw(st.integers(0, 23)):02d}:"
                    f"{draw(st.integers(0, 59)):02d} {draw(st.sampled_from(['UTC', 'ET', 'PT']))}",
        "month-day-year": f"{MONTH_NAMES[day.month - 1]} {day.day}, {day.year}",
        "day-month-year": f"{day.day} {MONTH_NAMES[day.month - 1]} {day.year}",
    }[style]
    tail = draw(st.lists(WORD, max_size=5).map(" ".join))
    return (f"{written} {tail}" if tail else written), day


DOCUMENT = st.lists(st.tuples(heading(), st.lists(BODY_LINE, min_size=1, max_size=4)),
                    min_size=1, max_size=12)


def _render(doc, markdown: bool) -> str:
    mark = "## " if markdown else ""
    return "\n".join(f"{mark}{head}\n\n" + "\n".join(body) + "\n" for (head, _), body in doc)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(DOCUMENT, st.booleans())
def test_segmentation_recovers_the_generated_headings(tmp_path_factory, doc, markdown):
    path = tmp_path_factory.mktemp("doc") / ("notes.md" if markdown else "notes.txt")
    path.write_text(_render(doc, markdown))
    entries = segment(read(path))
    assert [(e.heading, e.date) for e in entries] == [head for head, _ in doc]
    assert [e.text for e in entries] == ["\n".join(body) for _, body in doc]


# --- re-ingest is idempotent -----------------------------------------------------------------

@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(DOCUMENT, min_size=1, max_size=3), st.booleans())
def test_reingest_says_unchanged_and_changes_nothing(tmp_path_factory, docs, markdown):
    assume(len({_render(d, markdown) for d in docs}) == len(docs))
    folder = tmp_path_factory.mktemp("reingest")
    files = []
    for i, doc in enumerate(docs):
        files.append(folder / f"log{i}.{'md' if markdown else 'txt'}")
        files[-1].write_text(_render(doc, markdown))
    db = folder / "store.duckdb"
    first = ingest(files, db=db, classify=no_labels, workers=1)
    assert {r.status for r in first} == {"ingested"}
    before = snapshot(db)
    again = ingest(files, db=db, classify=no_labels, workers=1)
    assert {r.status for r in again} == {"unchanged"}
    assert snapshot(db) == before
