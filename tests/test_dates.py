"""Dates, times and zones as logbooks write them."""

from __future__ import annotations

import importlib.util
from datetime import date, datetime
from pathlib import Path

import pytest
from helpers import headings_and_dates, logbook_in_process

from logbook_miner import Store
from logbook_miner.models import Document, Line
from logbook_miner.read import read
from logbook_miner.segment.chronology import chronology_anomalies
from logbook_miner.segment.dates import (
    find_dates,
    heading_when,
    leading_when,
    names_only_later_days,
    reads_dayfirst,
    to_utc,
)
from logbook_miner.segment.entries import segment


@pytest.mark.parametrize("text, expected", [
    ("2022-03-21", (2022, 3, 21)),
    ("2022/03/21 launch", (2022, 3, 21)),
    ("crashed at 2022-03-21_13:34:34", (2022, 3, 21)),
    ("November 17, 2021", (2021, 11, 17)),
    ("Posted on Nov 5", (None, 11, 5)),
    ("the 3rd of December", (None, 12, 3)),
    ("8th of April 2024", (2024, 4, 8)),
    ("March the 15th", (None, 3, 15)),  # a heading written out longhand
    ("March the Nineteenth", (None, 3, 19)),
    ("The first of April", (None, 4, 1)),
    ("the twenty-first of March, 2024", (2024, 3, 21)),
    ("a third of March's budget", None),  # a share, not the 3rd: a day in words follows "the"
    # a day in words that modifies a noun is no date; one a clause goes on after is
    ("Notes on the first of March incident", None),
    ("On the first of March we restarted from step 40k", (None, 3, 1)),
    ("May the 4 runs crashed", None),  # a figure after "the" needs its ordinal
    # the day must end the date: a modal "May" and a word after "the" are none
    ("May the second run reuse the first run's cache? Asked Priya.", None),
    ("The run reached May the 4th checkpoint.", None),
    ("Launched on May the 4th, as planned", (None, 5, 4)),
    ("March the 15th 14:00 UTC: restart", (None, 3, 15)),
    ("March the fifteenth 2024 kickoff", (2024, 3, 15)),
    ("3 December 2021", (2021, 12, 3)),
    ("Week 15 (8\u201314 April 2024)", (2024, 4, 8)),  # a range: its first day
    ("Sprint 12 \u2014 Apr 8-19, 2024", (2024, 4, 8)),
    ("3 of June's runs crashed", None),  # a count, not the 3rd of June
    ("Week of Apr 29 \u2013 May 5, 2024", (2024, 4, 29)),  # a range over two months
    ("29 April - 5 May 2024", (2024, 4, 29)),
    ("Apr 8 - 14:00 UTC", (None, 4, 8)),  # a time after a dash is no range's end
    ("17/11/2021", (2021, 11, 17)),  # day first: 17 is no month
    ("11/17/21", (2021, 11, 17)),
    ("17.11.2021", (2021, 11, 17)),
    ("04.03.2023", (2023, 3, 4)),  # dotted: day first, as Europe writes it
    ("03-04-2023", (2023, 3, 4)),  # dashed as slashed: month first unless the logbook says
    ("13-04-2023", (2023, 4, 13)),
    ("ranks 3-4-21", None),  # a dashed date needs four year digits
    ("TP-PP-DP 4-16-2048", None),  # and a year before 2040
    ("4-Mar-2023", (2023, 3, 4)),
    ("04-Mar-23 restart", (2023, 3, 4)),
    ("apex 2.4.21", None),  # a version, not a date
    ("2021-02-30", None),  # no such day
    ("Feb 29", (None, 2, 29)),  # valid in a leap year; the year comes later
    ("CPM-Live Training Log (June, 12)", (None, 6, 12)),  # month, comma, day
    ("Time: June, 12 2022 16:00", (2022, 6, 12)),
    ("Mon 6/3", (None, 6, 3)),  # a day and month with no year, after a weekday
    ("Tuesday, 6/4 10:00", (None, 6, 4)),
    ("TP/PP 4/8", None),  # without a weekday, a ratio
    ("restart from ckpt at 0452Z.", None),  # a clock and its zone, no date-time group
])
def test_find_dates(text, expected):
    found = find_dates(text)
    assert (None if not found else (found[0].year, found[0].month, found[0].day)) == expected


def test_partial_date_is_found_but_has_no_value():
    [match] = find_dates("2022-04-XX repeated hardware crashes")
    assert match.partial and match.value is None


@pytest.mark.parametrize("heading, clock, zone, utc", [
    ("2021-11-24 1:00pm ET [Susan]: Run 12.17", "1:00pm", "ET", datetime(2021, 11, 24, 18, 0)),
    ("2021-11-27 11:39 ET [Stephen]: Run 12.26", "11:39", "ET", datetime(2021, 11, 27, 16, 39)),
    ("2021-07-27 11:39 ET: summer", "11:39", "ET", datetime(2021, 7, 27, 15, 39)),  # EDT
    ("2021-11-30 10:10am PT: 12.36 restart", "10:10am", "PT", datetime(2021, 11, 30, 18, 10)),
    ("2022-03-21 13:34 CET", "13:34", "CET", datetime(2022, 3, 21, 12, 34)),
    ("2022-06-21 13:34 CET", "13:34", "CET", datetime(2022, 6, 21, 11, 34)),  # CEST
    ("2022-03-21T13:34Z", "13:34", "Z", datetime(2022, 3, 21, 13, 34)),
    ("2021-11-21 3pm [Myle]", "3pm", None, None),
    ("2021-11-21 12am UTC", "12am", "UTC", datetime(2021, 11, 21, 0, 0)),
    # an operations log's date-time group: day, clock, zone letter, month, year
    ("141200ZMAR24", "12:00", "Z", datetime(2024, 3, 14, 12, 0)),
    ("182340ZMAR 2024 Xid 79 on gpu-r03-n05", "23:40", "Z", datetime(2024, 3, 18, 23, 40)),
])
def test_leading_time_and_zone(heading, clock, zone, utc):
    when = leading_when(heading)
    assert (when.time, when.timezone) == (clock, zone)
    assert to_utc(when.date.value, when.time, when.timezone) == utc


def test_a_date_time_group_is_read_only_in_utc():
    """An ops log's "141200ZMAR24" is 14 March 12:00 UTC; one with another zone's letter
    ("141200RMAR24", "141200JMAR24") is no date: no zone would be stored for its clock."""
    assert leading_when("141200ZMAR24 NCCL timeout on rank 211").timezone == "Z"
    assert leading_when("141200RMAR24 NCCL timeout on rank 211") is None
    assert find_dates("ops: 141200JMAR24 relay down") == []


def test_a_date_inside_a_title_is_not_leading():
    title = "Experiment 11.xx Lineage - November 5, 2021"
    assert leading_when(title) is None
    assert heading_when(title).date.value == date(2021, 11, 5)
    assert leading_when("* 2021-11-17 a list item") is None
    assert leading_when("**2021-11-17** bold").date.value == date(2021, 11, 17)
    assert leading_when("Monday, November 22, 2021").date.value == date(2021, 11, 22)
    assert leading_when("Tue 2021-11-23 09:00 UTC").time == "09:00"
    assert leading_when("Monday we restarted on 2021-11-22") is None


def test_numbers_after_a_date_are_not_times():
    when = leading_when("2022-04-12 13 nodes down")
    assert when.time is None


def test_chronology_flags_the_typo_in_either_order():
    d = date.fromisoformat
    ascending = [d("2021-11-28"), d("2021-11-30"), d("2021-11-20"), d("2021-11-30"), None,
                 d("2021-12-01")]
    assert chronology_anomalies(ascending) == [False, False, True, False, False, False]
    newest_first = [d("2021-12-01"), d("2021-11-30"), d("2021-11-20"), d("2021-11-30"),
                    d("2021-11-29")]
    assert chronology_anomalies(newest_first) == [False, False, True, False, False]
    same_days = [d("2022-01-21"), *[d("2022-01-20")] * 3, d("2022-01-13"), d("2021-01-13"),
                 *[d("2022-01-13")] * 3, d("2022-01-09")]
    assert [i for i, f in enumerate(chronology_anomalies(same_days)) if f] == [5]
    assert chronology_anomalies([d("2021-11-17"), d("2021-11-05"), d("2021-11-11")]) == [
        False, False, False]  # a recap dated after its sections is no typo


def test_a_sentence_dated_ahead_names_only_later_days() -> None:
    """A date without its year is read in the year nearest the entry's (a December note of
    "back on 3 Jan" names the next January); a span that has begun is not ahead."""
    assert names_only_later_days("maintenance 30 Jan - 1 Feb", date(2024, 1, 19))
    assert not names_only_later_days("maintenance 30 Jan - 1 Feb", date(2024, 1, 30))
    assert names_only_later_days("back on 3 Jan", date(2023, 12, 28))
    assert not names_only_later_days("since 2023-12-01, no step", date(2023, 12, 28))
    assert not names_only_later_days("no date here", date(2023, 12, 28))
    stamp = "Planned maintenance Sat Oct 12 — Tue Oct 8 21:14:03 CEST 2024"  # a mail's subject
    assert names_only_later_days(stamp, date(2024, 10, 8), stamped=True)
    assert not names_only_later_days(stamp, date(2024, 10, 8))
    assert not names_only_later_days("Maintenance Oct 8", date(2024, 10, 8), stamped=True)
    assert names_only_later_days("[users] 2024-01-19 Scheduled maintenance 2024-01-23",
                                 date(2024, 1, 19), stamped=True)
    assert not names_only_later_days("2024-03-02 — maintenance done, next window 2024-04-06",
                                     date(2024, 3, 2), stamped=True)


def test_a_weekday_picks_the_year_the_logbook_writes(tmp_path):
    """"Mon 6/3" in a "Training log 2024" is 3 June 2024; with no year written it stays undated,
    and a weekday the year does not fit leaves it undated too."""
    notes = tmp_path / "weekly.md"
    notes.write_text("# Training log 2024\n\n## Mon 6/3\n\nlaunched\n\n## Tue 6/4\n\nrestarted\n\n"
                     "## Mon 6/4\n\nwhich Monday?\n", encoding="utf-8")
    assert [(e.heading, e.date, e.date_inferred) for e in segment(read(notes))] == [
        ("Mon 6/3", date(2024, 6, 3), True), ("Tue 6/4", date(2024, 6, 4), True),
        ("Mon 6/4", None, False)]
    notes.write_text("## Mon 6/3\n\nlaunched\n", encoding="utf-8")
    assert [e.date for e in segment(read(notes))] == [None]


def test_bold_lines_led_by_a_weekday_and_day_are_entries(tmp_path):
    """A titled document whose entries are bold lines "**Mon 3/4 — ...**" (a Google Doc pasted
    as Markdown): the weekday-led date opens the line, so each is an entry, its year the one
    the title writes, its heading without the bold marks."""
    notes = tmp_path / "account.md"
    notes.write_text("# Orion Labs account — CSM notes (Q1 2024)\n\nOwner: me.\n\n"
                     "**Mon 3/4 — Kickoff call**\n\nThey started on 32 nodes.\n\n"
                     "**Wed 3/6 — Ticket 4411**\n\nA node lost a GPU; we swapped it.\n",
                     encoding="utf-8")
    assert [(e.heading, e.date) for e in segment(read(notes))][1:] == [
        ("Mon 3/4 — Kickoff call", date(2024, 3, 4)), ("Wed 3/6 — Ticket 4411", date(2024, 3, 6))]
    assert leading_when("Mon 4/8 TP").date.weekday == 0  # a weekday's date opens at the weekday
    assert leading_when("- Mon 3/4 call") is None  # a list item does not begin with a date


def test_where_no_heading_writes_a_year(tmp_path):
    """The year of a full date before the first entry dates "Mon 24 Mar"; with no year written
    anywhere, the latest recent year whose calendar fits every weekday does; "3/12 Mon" is a
    day and month with its weekday after it (not "3/12 Monitoring")."""
    notes = tmp_path / "bujo.md"
    notes.write_text("# on-call bujo\n\nmy rotation: 3 Mar – 13 Apr 2025.\n\n## Mon 24 Mar\n\n"
                     "quiet\n\n## Tue 25 Mar\n\nswap\n", encoding="utf-8")
    assert [e.date for e in segment(read(notes))][1:] == [date(2025, 3, 24), date(2025, 3, 25)]
    notes.write_text("# Account notes\n\n## 3/4 Mon\n\ncall\n\n## 3/6 (Wed)\n\nticket\n\n"
                     "## 3/12 Monitoring\n\nnot a date\n", encoding="utf-8")
    fitting = [year for year in range(date.today().year, date.today().year - 10, -1)
               if date(year, 3, 4).weekday() == 0 and date(year, 3, 4) <= date.today()]
    assert [(e.heading, e.date) for e in segment(read(notes))] == [
        ("3/4 Mon", date(fitting[0], 3, 4)), ("3/6 (Wed)", date(fitting[0], 3, 6)),
        ("3/12 Monitoring", None)]
    assert heading_when("3/12 Monitoring") is None
    # with its weekday after it, a day and month may be followed by any words
    assert heading_when("14/3 (Fri) nights", dayfirst=True).date.day == 14
    assert heading_when("1/2 of the nodes") is None


def test_days_named_under_a_month_and_in_words(tmp_path):
    """A ranked list under a heading that names its month among other words is no month's days;
    a run's own week numbers leave a weekday that fits its date dated; a day in words is a date
    unless a noun it modifies follows."""
    notes = tmp_path / "notes.md"
    notes.write_text("# sparrow-3 notes\n\nRun is healthy.\n\n## Top issues, March 2024\n\n"
                     "- 1: NCCL timeouts on rank 17\n- 2: ECC errors on n12\n", encoding="utf-8")
    assert [(e.heading, e.date) for e in segment(read(notes))][1:] == [
        ("Top issues, March 2024", None)]
    notes.write_text("# 70B run log — March 2025\n\n## Week 1 · Tue 4\n\nlaunched\n\n"
                     "## Week 2 · Tue 11\n\nquiet\n", encoding="utf-8")
    assert [e.date for e in segment(read(notes))] == [date(2025, 3, 4), date(2025, 3, 11)]
    assert [(d.month, d.day) for d in find_dates("On the first of March Priya restarted it.")] == [
        (3, 1)]
    assert find_dates("Notes on the first of March incident") == []


def test_a_mails_sender_is_its_author_and_its_subject_names_its_run(tmp_path):
    """From: gives the author ("[ALERT]", a list's tag, is none); the subject the run id."""
    mails = tmp_path / "thread.md"
    mails.write_text(
        "# ops list\n\nFrom: Priya Nair <p@x.org>\nDate: Mon, 4 Mar 2024 18:02:10 +0100\n"
        "Subject: run-42: loss spike at 12k\n\nRolled back.\n\nFrom: ops-bot@x.org\n"
        "Date: Tue, 5 Mar 2024 02:11:57 +0100\nSubject: [ALERT] job exited with 137\n\n"
        "Exit 137.\n", encoding="utf-8")
    assert [(e.author, e.run_id) for e in segment(read(mails))] == [
        ("Priya Nair", "run-42"), ("ops-bot@x.org", None)]


def test_a_mail_archive_heading_is_dated_by_its_posting_stamp():
    """A subject naming the day of the work it announces is dated when it was posted."""
    when = heading_when("[users] Planned maintenance Sat Oct 12, 08:00-16:00 — "
                        "Tue Oct 8 21:14:03 CEST 2024")
    assert (when.date.month, when.date.day, when.time, when.timezone) == (10, 8, "21:14:03",
                                                                          "CEST")
    assert heading_when("Oct 3 incident, Oct 5 12:00 update").date.day == 3


@pytest.mark.parametrize("text, expected", [
    # a dated list under a short preamble
    ("Notes for run sparrow-2, kept by Mike\n\n- 3/5/24: started on 4 nodes\n"
     "- 3/6/24: sp-03 went down, restarted\n  lost 45 min\n",
     [("3/5/24: started on 4 nodes", date(2024, 3, 5)),
      ("3/6/24: sp-03 went down, restarted", date(2024, 3, 6))]),
    # a mail thread exported: each header block titles and dates its message
    ("# Mail export\n\nFrom: Priya <p@x.org>\nDate: Mon, 4 Mar 2024 18:02:10 +0100\n"
     "Subject: run-42 launched\n\nUp on 256 GPUs.\n\nFrom: Jonas <j@x.org>\n"
     "Date: Tue, 5 Mar 2024 09:14:22 +0100\nSubject: Re: run-42 launched\n\nLost a-117.\n",
     [("run-42 launched", date(2024, 3, 4)), ("Re: run-42 launched", date(2024, 3, 5))]),
    # a chat export, each message under its author and time, under a title naming its dates
    ("# #ops — export (01/03/2024 – 15/03/2024)\n\n**Alice Smith** — 04/03/2024 09:14\n"
     "Kicked off the run.\n\n**Ben Okafor** — 05/03/2024 02:51\ngpu-b07 is down\n",
     [("#ops — export (01/03/2024 – 15/03/2024)", date(2024, 3, 1)),
      ("Alice Smith — 04/03/2024 09:14", date(2024, 3, 4)),
      ("Ben Okafor — 05/03/2024 02:51", date(2024, 3, 5))]),
    # a `Date:` line right under a heading dates that heading's entry (rule 13), preamble or not
    ("# Run diary\n\nKept by the on-call.\n\n## Day 1\n\nDate: 2024-03-04\nLaunched.\n\n"
     "## Day 2\n\nDate: 2024-03-05\nNode 12 died.\n",
     [("Day 1", date(2024, 3, 4)), ("Day 2", date(2024, 3, 5))]),
    # an mbox: each mail's "From " line over its header block; a body's ">From" is quoted
    ("# ops list\n\nFrom ana@lab.example Tue Apr  2 07:30:05 2024\nFrom: Ana <ana@lab.example>\n"
     "Date: Tue, 2 Apr 2024 07:30:05 +0200\nSubject: ckpt 12k saved\n\nAll shards verified.\n"
     ">From the logs: no retries.\n\nFrom - Wed Apr  3 10:02:44 2024\nFrom: Bo <bo@lab.example>\n"
     "Date: Wed, 3 Apr 2024 10:02:44 +0200\nSubject: Re: ckpt 12k saved\n\nthanks\n",
     [("ckpt 12k saved", date(2024, 4, 2)), ("Re: ckpt 12k saved", date(2024, 4, 3))]),
    # an activity feed copied as it shows: each event or comment over a line that is only its
    # date; inside a comment, a line over a date line is its text
    ("# Card: eval sweep — Activity\n\nAna Ruiz moved this card from Doing to Done\n"
     "Nov 8, 2024 at 4:10 PM\n\nBo Chen\nNov 8, 2024 at 3:55 PM\nSweep finished; rerun set for\n"
     "Nov 9, 2024 at 9:00 AM\nand the report after it.\n",
     [("Ana Ruiz moved this card from Doing to Done", date(2024, 11, 8)),
      ("Bo Chen", date(2024, 11, 8))]),
    # a notes app's export: each note's bold title over a line that is only its date
    ("# Notes export\n\n**Checkpoint corruption?**\n14 March 2024 at 09:12\n\nshard mismatch"
     "\n\n**Rack C cooling**\n15 March 2024 at 16:22\n\nfan tray fixed\n",
     [("Checkpoint corruption?", date(2024, 3, 14)), ("Rack C cooling", date(2024, 3, 15))]),
    # a heading's later date clocked to the second is a log's, not a posting stamp
    ("## Incident 2024-03-05 — last good checkpoint 2024-03-03 22:14:09\n\nJob hung.\n",
     [("Incident 2024-03-05 — last good checkpoint 2024-03-03 22:14:09", date(2024, 3, 5))]),
    # a log kept as a table whose first column numbers its rows: each row dated by its date
    # cell, the whole row its heading
    ("# run-12 incidents\n\n| # | Date | Who | What happened |\n|---|---|---|---|\n"
     "| 1 | 2024-03-11 | priya | Loss spike at 41180 |\n| 2 | 2024-03-12 | tom | ECC errors |\n",
     [("1 | 2024-03-11 | priya | Loss spike at 41180", date(2024, 3, 11)),
      ("2 | 2024-03-12 | tom | ECC errors", date(2024, 3, 12))]),
    # a triage file: log lines pasted each over its note, the year from the title
    ("# node triage, March 2024\n\nFrom journalctl.\n\nMar 14 09:12:01 node17 kernel: Xid 79\n"
     "> note: GPU 6 gone.\n\nMar 15 02:03:17 node42 kernel: mlx5_core: Cable unplugged\n"
     "> note: IB link flap.\n",
     [("Mar 14 09:12:01 node17 kernel: Xid 79", date(2024, 3, 14)),
      ("Mar 15 02:03:17 node42 kernel: mlx5_core: Cable unplugged", date(2024, 3, 15))]),
    # a handover template's fields under Date:/From: stay its text
    ("Date: 2024-03-04\nFrom: night shift\nSummary: gpu-12 crashed with Xid 79\n\n"
     "Date: 2024-03-05\nFrom: day shift\nSummary: quiet\n",
     [("2024-03-04", date(2024, 3, 4)), ("2024-03-05", date(2024, 3, 5))]),
    # a preamble's date is a neighbour: the January after a run that ended in December
    ("# Sparrow-3\n\nContinues the run that ended 2023-12-20.\n\n## Jan 5\n\nlaunched\n\n"
     "## Jan 9\n\nnode died\n", [("Jan 5", date(2024, 1, 5)), ("Jan 9", date(2024, 1, 9))]),
    # under a dated section heading, a timeline's date-led lines stay its text
    ("# Notes\n\n## 2024-03-04 Incident: NCCL hang\n\nTimeline:\n\nMar 3 — job started\n\n"
     "Mar 4 — job hung, restarted\n\n## 2024-03-06 quiet\n\nnothing\n",
     [("2024-03-04 Incident: NCCL hang", date(2024, 3, 4)),
      ("2024-03-06 quiet", date(2024, 3, 6))]),
    # an issue tracker's thread: each comment under who wrote it and the day; a heading
    # written in a comment is the comment's
    ("# Loss NaN after resume #212\n\n**@tanya-r** commented on Mar 5, 2024\n\nwhich image?\n\n"
     "okafor-d commented Mar 6, 2024 •  edited\n\nrepro on 8 nodes\n\n### Update\n\nNVLS off"
     " fixes it\n\n**@tanya-r** closed this as completed on Mar 12, 2024\n\n---\n\n"
     "**@tanya-r** pinned this issue on Mar 13, 2024\n",
     [("@tanya-r commented on Mar 5, 2024", date(2024, 3, 5)),
      ("okafor-d commented Mar 6, 2024 • edited", date(2024, 3, 6)),
      ("@tanya-r closed this as completed on Mar 12, 2024", date(2024, 3, 12)),
      ("@tanya-r pinned this issue on Mar 13, 2024", date(2024, 3, 13))]),
    # a chat copied as it shows, bylines between messages with no blank line
    ("# #ablations\n\nmayaz — 03/14/2024 9:12 PM\nkicked off the 1.3B ablation\nETA 30h\n"
     "dkim — 03/15/2024 10:22 AM\nnode 7 fell off IB\n",
     [("mayaz — 03/14/2024 9:12 PM", date(2024, 3, 14)),
      ("dkim — 03/15/2024 10:22 AM", date(2024, 3, 15))]),
    # a chat copied with each message's date and clock in brackets after its author
    ("# #pretrain-13b\n\nJane Doe (Mar 14, 2024 9:12 AM):\njob died at 03:14\n\n"
     "Marco Rossi (Mar 15, 2024 11:58 PM):\nOOM in the eval hook\n",
     [("Jane Doe (Mar 14, 2024 9:12 AM):", date(2024, 3, 14)),
      ("Marco Rossi (Mar 15, 2024 11:58 PM):", date(2024, 3, 15))]),
    # a chat export's stamped messages run on for lines, with no blank line between them; a
    # long one is still a message
    ("# #training-run\n\n[02/04/2024 19:03] hazel: launched on 4 nodes\nconfig pinned above\n"
     "ckpt every 500 steps\n[03/04/2024 08:30] hazel: stuck in an allreduce, " + "x " * 130
     + "\nkilled it, swapped hn-03\n",
     [("[02/04/2024 19:03] hazel: launched on 4 nodes", date(2024, 4, 2)),
      ("[03/04/2024 08:30] hazel: stuck in an allreduce, " + "x " * 129 + "x",
       date(2024, 4, 3))]),
    # an IRC log's day changes, each after the last day's lines
    ("# #llm-train, March 2024\n\n--- Day changed Thu Mar 14 2024\n[09:12] <ravi> step 40k\n"
     "--- Day changed Fri Mar 15 2024\n[08:05] <elena> restarted from 40k\n",
     [("--- Day changed Thu Mar 14 2024", date(2024, 3, 14)),
      ("--- Day changed Fri Mar 15 2024", date(2024, 3, 15))]),
    # a mail thread pasted with its client's lines over each reply; the quoted text is the
    # reply's
    ("# Re: restarts\n\nOn Tue, Apr 2, 2024 at 8:41 AM Priya Raman <priya@lab.example> wrote:\n"
     "Drained gx-14.\n\nOn 8 Apr 2024, at 07:55, Tom Becker <tb@lab.example> wrote:\n"
     "> Drained gx-14.\nQuiet weekend.\n",
     [("On Tue, Apr 2, 2024 at 8:41 AM Priya Raman <priya@lab.example> wrote:",
       date(2024, 4, 2)),
      ("On 8 Apr 2024, at 07:55, Tom Becker <tb@lab.example> wrote:", date(2024, 4, 8))]),
    # a YAML list of dated notes
    ("# run-log.yaml\n\n- date: 2024-05-06\n  note: launched\n- date: \"2024-05-07\"\n"
     "  note: >\n    k-04 drained\n",
     [("2024-05-06", date(2024, 5, 6)), ("2024-05-07", date(2024, 5, 7))]),
    # a GitLab thread: who, their handle and the day
    ("# Step time regression (#1284)\n\nOpened by Kim Laine · 6 comments\n\n**Kim Laine**"
     " @klaine · Jun 3, 2024\n\nslower\n\nRavi Menon @rmenon · Jun 4, 2024 · edited\n\n"
     "pinned NCCL\n",
     [("Kim Laine @klaine · Jun 3, 2024", date(2024, 6, 3)),
      ("Ravi Menon @rmenon · Jun 4, 2024 · edited", date(2024, 6, 4))]),
    # a day and month as Europe dots them, the year from the title
    ("# Run delta-7b, 2024\n\n#### 26.02.\n\nstarted\n\n#### 01.03.\n\nnode swap\n",
     [("26.02.", date(2024, 2, 26)), ("01.03.", date(2024, 3, 1))]),
    # headings that each cover a few days, a weekday before each end, dated by the first day
    ("# Ops diary\n\n## Thu 7 – Sat 9 Nov 2024\n\nswapped k-02\n\n"
     "## Sun 10 Nov – Tue 12 Nov 2024\n\nquiet\n\n## Wed, Nov 27 - Mon, Dec 2, 2024\n\nevals\n",
     [("Thu 7 – Sat 9 Nov 2024", date(2024, 11, 7)),
      ("Sun 10 Nov – Tue 12 Nov 2024", date(2024, 11, 10)),
      ("Wed, Nov 27 - Mon, Dec 2, 2024", date(2024, 11, 27))]),
    # a notebook kept as LaTeX source: its sectioning commands are its headings
    ("% run notes\n\\section{Ablations}\n\n\\subsection*{Tue 5 Nov 2024}\nlaunched r3\n\n"
     "\\subsection*{6 November 2024} % after the swap\n\\begin{itemize}\n\\item k-07 out\n"
     "\\end{itemize}\n",
     [("Tue 5 Nov 2024", date(2024, 11, 5)), ("6 November 2024", date(2024, 11, 6))]),
    # a LaTeX title typesets its inner markup's text
    ("\\section*{\\textbf{7 Nov 2024}: \\texttt{lr=3e-4} sweep}\nlaunched\n",
     [("7 Nov 2024: lr=3e-4 sweep", date(2024, 11, 7))]),
    # a calendar kept as nested headings: a day under its month, the year from above or from
    # the day before; a number under another heading is no day
    ("# Ops calendar\n\n## June 2025\n\n### Mon 2nd\n\nrack swap\n\n### 30\n\nquiet\n\n"
     "## July\n\n### 1\n\nlaunched\n\n## Open questions\n\n### 3\n\nwhy the spikes\n",
     [("Mon 2nd", date(2025, 6, 2)), ("30", date(2025, 6, 30)), ("1", date(2025, 7, 1))]),
    # ISO weeks, each dated by its Monday
    ("# Weekly log\n\n## 2024-W10\n\n- Mon: launched\n\n## 2025-W01\n\n- Tue: quiet\n",
     [("2024-W10", date(2024, 3, 4)), ("2025-W01", date(2024, 12, 30))]),
    # a sign-off over its date closes its section: the heading's date, no event of a feed
    ("# Log\n\n## Handover 1\n\nNodes swapped.\n\nHanded over by Ana\n2024-03-04\n\n"
     "## Handover 2\n\nQuiet.\n\nHanded over by Bo\n2024-03-05\n",
     [("Handover 1", date(2024, 3, 4)), ("Handover 2", date(2024, 3, 5))]),
    # a day's heading written without separators, as file names write it; a stamp with its
    # clock after an underscore is a dump's name
    ("# run-34 log\n\n## 20240311\n- resumed\n\n## 20240315 (fri)\n- evals\n\n"
     "## 20240316_1200 dump\n\nx\n",
     [("20240311", date(2024, 3, 11)), ("20240315 (fri)", date(2024, 3, 15))]),
    # a ticket's comments pasted under separator lines that frame who wrote and when; a line
    # framed without a date is a rule's text
    ("# INFRA-4412: crashes on 7b-v2\n\n--- comment by jdoe, 2024-03-14 09:12 ---\n"
     "Run crashed at step 12,400.\n\n=== comment by mchen, Mar 15, 2024 ===\nSame node.\n\n"
     "--- end of export ---\n",
     [("--- comment by jdoe, 2024-03-14 09:12 ---", date(2024, 3, 14)),
      ("=== comment by mchen, Mar 15, 2024 ===", date(2024, 3, 15))]),
    # a month's notes kept one bullet a day under its heading, the year from the month above;
    # a clock under a day is its text
    ("# Sweep notes\n\n## February 2024\n\n- 27: NCCL timeout at 14:00\n- 29: leap day\n\n"
     "## March\n\n- 1: swapped b-14\n- 14:05 restarted\n",
     [("27: NCCL timeout at 14:00", date(2024, 2, 27)), ("29: leap day", date(2024, 2, 29)),
      ("1: swapped b-14", date(2024, 3, 1))]),
    # days labelled by their week's number under a title that names the month and year; a
    # week's number the day is not in says it is another month's
    ("# 70B run log — March 2025\n\n## W10 · Tue 4\n\nresumed\n\n## W11 · Fri 14\n\nquiet"
     "\n\n## W14 · Tue 1\n\nevals\n",
     [("W10 · Tue 4", date(2025, 3, 4)), ("W11 · Fri 14", date(2025, 3, 14))]),
    # a number under another heading beneath a month is no day of it
    ("# Report\n\n## March 2024\n\n### Open issues\n\n#### 1\n\nNCCL hang\n", []),
])
def test_entries_of_other_shapes(tmp_path, text, expected):
    """Shapes of logbook met in benchmarks/segment_shapes/, in own words."""
    notes = tmp_path / "notes.md"
    notes.write_text(text, encoding="utf-8")
    assert [(e.heading, e.date) for e in segment(read(notes)) if e.date] == expected


def test_a_forum_posts_bbcode_tags_neither_hide_its_date_nor_stay_in_its_heading(tmp_path):
    """A forum thread pasted with its BBCode: "[b]29/04/2024[/b] — posted by jdoe" opens a post
    as "**29/04/2024** — ..." would, and its heading (and the thread's title) drop the tags; a
    quoted reply is no post."""
    thread = tmp_path / "thread.md"
    thread.write_text(
        "[size=150][b]Thread: 13B run[/b][/size]\nCopied from the forum.\n\n"
        "[b]29/04/2024[/b] — posted by jdoe\n"
        "Run [i]bb13-r4[/i] kicked off.\n\n[b]30/04/2024[/b] — posted by mkowalski\n"
        "[quote=\"jdoe\"]Run kicked off.[/quote]\nDied at step 5120.\n", encoding="utf-8")
    assert [(e.heading, e.date) for e in segment(read(thread))] == [
        ("Thread: 13B run", None), ("29/04/2024 — posted by jdoe", date(2024, 4, 29)),
        ("30/04/2024 — posted by mkowalski", date(2024, 4, 30))]
    assert leading_when("[B]Mar 4, 2024[/B] notes").date.day == 4


@pytest.mark.parametrize("name", ["boxes.txt", "boxes.md"])
def test_a_box_drawn_around_a_date_heads_its_entry(tmp_path, name):
    """"+------------+" / "| 2024-06-03 |" / "+------------+" (in box-drawing characters too) is
    a heading dated by the line in it, its edges no entry's text; a box around an undated line,
    or a grid table's row of two cells, heads nothing."""
    notes = tmp_path / name
    notes.write_text(
        "RUN LOG\n\n+------------+\n| 2024-06-03 |\n+------------+\nStarted, 16 nodes.\n\n"
        "┌────────────┐\n│ 2024-06-04 │\n└────────────┘\nOOM on rank 41.\n\n+-------+\n"
        "| Notes |\n+-------+\nquiet\n\n+------------+-----+\n| 2024-06-05 | ok  |\n"
        "+------------+-----+\n", encoding="utf-8")
    got = [e for e in segment(read(notes)) if e.date]
    assert [(e.heading, e.date) for e in got] == [
        ("2024-06-03", date(2024, 6, 3)), ("2024-06-04", date(2024, 6, 4))]
    assert got[0].text == "Started, 16 nodes."
    assert got[1].text.startswith("OOM on rank 41.") and "| Notes |" in got[1].text


def test_a_bots_mail_without_a_date_field_is_dated_by_its_subject(tmp_path):
    """Mails pasted as a bot sends them, "Subject: [train-bot] Daily report 2024-03-11" over
    "From: ...", no Date: field: each is dated by the full date its subject names and written
    by its sender; a header block whose subject names no date heads nothing."""
    mails = tmp_path / "bot.md"
    mails.write_text(
        "# bot mails\n\nSubject: [train-bot] Daily report 2024-03-11\n"
        "From: train-bot <train-bot@cluster.internal>\n  step: 8000\n\n"
        "Subject: [train-bot] Daily report 2024-03-12\n"
        "From: train-bot <train-bot@cluster.internal>\n  step: 14900\n\n"
        "Subject: Re: weekly sync\nFrom: Ana <ana@x.org>\n  see you Thursday\n",
        encoding="utf-8")
    got = segment(read(mails))
    assert [(e.heading, e.date, e.author) for e in got if e.date] == [
        ("[train-bot] Daily report 2024-03-11", date(2024, 3, 11), "train-bot"),
        ("[train-bot] Daily report 2024-03-12", date(2024, 3, 12), "train-bot")]
    assert "Subject: Re: weekly sync" in got[-1].text


def test_a_bold_line_under_a_heading_its_preamble_dates_is_that_entrys():
    """A tracker export printed to PDF: each issue a heading dated by its "Created:" line, its
    "Comments" a bold line standing alone, as the printed Markdown bold shows; a styled
    sub-heading under a preamble-dated heading stays an entry (the OPT notes' sections)."""
    lines = [Line("TRN-101 · Provision nodes", level=2), Line(""),
             Line("Created: 2025-04-28 11:02 by Dana"), Line("Contract signed."), Line(""),
             Line("Comments", bold=True), Line(""), Line("All 16 nodes visible."), Line(""),
             Line("TRN-103 · Burn-in", level=2), Line(""), Line("Created: 2025-05-02 17:41"),
             Line(""), Line("Results", level=3), Line(""), Line("14/16 clean."), Line("")]
    entries = segment(Document(path=Path("x.pdf"), format="pdf", lines=lines))
    assert [(e.heading, e.date) for e in entries] == [
        ("TRN-101 · Provision nodes", date(2025, 4, 28)), ("TRN-103 · Burn-in", date(2025, 5, 2)),
        ("Results", None)]
    assert "All 16 nodes visible." in entries[0].text


def test_printed_bracketed_bylines_and_indented_notes_are_read():
    """Printed, a chat's byline runs into its message ("Jane Doe (Mar 14, 2024 9:12 AM): job
    died"), and a triage file's quoted note under its log line is an indented block."""
    def pdf(title: str, texts: list[tuple[str, float]]) -> list:
        lines = [Line(title, page=1, size=22.0, bold=True), Line("", page=1)] + [
            Line(text, page=1, size=11.0, indent=indent) if text else Line("", page=1)
            for text, indent in texts]
        return segment(Document(path=Path("x.pdf"), format="pdf", lines=lines))

    chat = pdf("#pretrain", [("Jane Doe (Mar 14, 2024 9:12 AM): job died at 03:14", 0.0),
                             ("", 0.0),
                             ("Marco Rossi (Mar 15, 2024 11:58 PM): OOM in the eval hook", 0.0)])
    assert [(e.heading, e.date, e.text) for e in chat if e.date] == [
        ("Jane Doe (Mar 14, 2024 9:12 AM):", date(2024, 3, 14), "job died at 03:14"),
        ("Marco Rossi (Mar 15, 2024 11:58 PM):", date(2024, 3, 15), "OOM in the eval hook")]
    triage = pdf("triage, March 2024", [
        ("Mar 14 09:12:01 node17 kernel: Xid 79", 0.0), ("", 0.0), ("note: GPU 6 gone.", 30.0),
        ("", 0.0), ("Mar 15 02:03:17 node42 kernel: Cable unplugged", 0.0), ("", 0.0),
        ("note: IB link flap.", 30.0)])
    assert [(e.heading, e.date) for e in triage if e.date] == [
        ("Mar 14 09:12:01 node17 kernel: Xid 79", date(2024, 3, 14)),
        ("Mar 15 02:03:17 node42 kernel: Cable unplugged", date(2024, 3, 15))]


SHAPES = Path(__file__).resolve().parents[1] / "benchmarks" / "segment_shapes" / "tune"


@pytest.mark.parametrize("markdown", sorted(SHAPES.glob("*.md")), ids=lambda path: path.stem)
def test_the_tune_shapes_read_whole(markdown):
    """Every entry of the segmenter's tune shapes is found and dated, but an org-mode line whose
    date follows its TODO state ("* DONE <2024-03-06 Wed> ...")."""
    spec = importlib.util.spec_from_file_location("segmentation",
                                                  SHAPES.parents[1] / "segmentation.py")
    segmentation = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(segmentation)
    entries, found, dated = segmentation.scored(markdown)
    missed = 1 if markdown.stem == "seg-10-org-mode" else 0
    assert (found, dated) == (entries - missed, entries - missed)


def test_a_month_and_day_take_the_year_the_logbook_writes(tmp_path):
    """"Dec 30" under "# Run notes 2023" is 30 December 2023, and the "Jan 2" after it is in
    2024: each takes the year that puts it nearest the entry before."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Run notes 2023\n\n## Dec 30\n\nnode 12 died\n\n## Jan 2\n\nloss spike\n\n"
                     "## January 5\n\nquiet\n", encoding="utf-8")
    assert [(e.date, e.date_inferred) for e in segment(read(notes))] == [
        (date(2023, 12, 30), True), (date(2024, 1, 2), True), (date(2024, 1, 5), True)]


def test_italian_names_of_months_and_weekdays_date_a_logbook(tmp_path):
    """Italian writes its months and weekdays in lower case: "### giovedì 14 marzo 2024" is 14
    March, a line led by "venerdì 15 marzo 2024" is led by its date, and "giovedì 14/3" is a
    Thursday's day and month that take the year the title writes. English names stay
    capitalised: "we may 5x the batch" names no day."""
    notes = tmp_path / "diario.md"
    notes.write_text("# Diario 2024\n\n### giovedì 14 marzo 2024\n\nnodo r3-n07 sostituito\n\n"
                     "### lunedì 1 aprile 2024\n\nwe may 5x the batch\n", encoding="utf-8")
    assert [(e.heading, e.date) for e in segment(read(notes))] == [
        ("giovedì 14 marzo 2024", date(2024, 3, 14)), ("lunedì 1 aprile 2024", date(2024, 4, 1))]
    assert leading_when("venerdì 15 marzo 2024 \u2014 loss spike").date.value == date(2024, 3, 15)
    assert [d.value for d in find_dates("Martedì 12 Marzo 2024, 3 maggio")] == [
        date(2024, 3, 12), None]
    thursday = tmp_path / "settimana.md"
    thursday.write_text("# Diario 2024\n\n## giovedì 14/3\n\nok\n\n## venerdì 15/3\n\nok\n",
                        encoding="utf-8")
    assert [e.date for e in segment(read(thursday))] == [date(2024, 3, 14), date(2024, 3, 15)]


def test_french_and_german_names_of_months_and_weekdays_date_a_logbook(tmp_path):
    """French writes its months in lower case and "1er" for the first ("### lundi 1er avril
    2024"), German its day with a dot ("## Mo, 18. März 2024"). German's weekdays cut to two
    letters lead a line only before such a day ("So 1/2 of the nodes" is a sentence), and
    "mars" or "Juni", which English text uses as a word or a name, is a month only between a
    day and a year."""
    carnet = ("# Carnet fr-7b\n\n### jeudi 14 mars 2024\n\nloss 4.1\n\n"
              "### lundi 1er avril 2024\n\ncooldown\n")
    assert headings_and_dates(tmp_path, "carnet.md", carnet) == [
        ("jeudi 14 mars 2024", date(2024, 3, 14)), ("lundi 1er avril 2024", date(2024, 4, 1))]
    logbuch = ("# Logbuch de-13b\n\n## Donnerstag, 14. März 2024\n\nstarted\n\n"
               "## Mo, 18. März 2024\n\nIB link flapping\n")
    assert headings_and_dates(tmp_path, "logbuch.md", logbuch) == [
        ("Donnerstag, 14. März 2024", date(2024, 3, 14)), ("Mo, 18. März 2024", date(2024, 3, 18))]
    assert leading_when("Do, 14. März 2024 \u2014 Knoten getauscht").date.value == date(2024, 3, 14)
    assert leading_when("So 1/2 of the nodes came back") is None
    assert find_dates("a bad shard mars 3 runs; Project Mars 2024; Juni 3 nodes down") == []
    # German's dot after the day takes no English month ("1. March 2024" is a numbered list's
    # item), and a day is never run into a word ("gpt4 March 2024 snapshot")
    assert find_dates("1. March 2024 data mix frozen; gpt4 March 2024 snapshot") == []
    # Italian's first of the month ("1°", "1º"), and a month in capitals written out in full,
    # whatever its longest spelling ("MÄRZ" beside "maerz")
    assert [d.value for d in find_dates("venerdì 1° marzo 2024; 14. MÄRZ 2024")] == [
        date(2024, 3, 1), date(2024, 3, 14)]
    assert [d.value for d in find_dates("ab 3. Juni 2024, le 2 mai 2024")] == [
        date(2024, 6, 3), date(2024, 5, 2)]


def test_a_heading_that_is_only_a_dotted_date_with_a_two_digit_year_is_dated(tmp_path):
    """"### 14.03.24" and "### Fr 15.03.24" head a day each, day first as Europe writes it; a
    heading or a line with more in it keeps "2.4.21" or "14.03.24" a version."""
    notes = ("# Logbuch ch-3b\n\n### 14.03.24\n\nstarted\n\n### Fr 15.03.24\n\n"
             "moved to v2.4.21\n")
    assert headings_and_dates(tmp_path, "logbuch.md", notes) == [
        ("14.03.24", date(2024, 3, 14)), ("Fr 15.03.24", date(2024, 3, 15))]
    assert heading_when("Release 14.03.24") is None
    assert heading_when("2.4.21") is None


def test_a_date_line_in_capitals_and_bold_italic_opens_an_entry(tmp_path):
    """"***14 JANUARY 2025***" is a date line set in bold italic, its month written out in
    capitals: an entry's heading, without its marks."""
    notes = ("# RLHF log\n\n***13 JANUARY 2025***\nSFT launched.\n\n"
             "***14 JANUARY 2025***\nSFT done.\n")
    assert headings_and_dates(tmp_path, "pipeline.md", notes) == [
        ("13 JANUARY 2025", date(2025, 1, 13)), ("14 JANUARY 2025", date(2025, 1, 14))]
    # its weekday in capitals too, as a heading in capitals writes it
    shouted = ("TRAINING LOG\n\nMONDAY 11 MARCH 2024\nRestarted node17.\n\n"
               "TUESDAY 12 MARCH 2024\nLoss spike at 52k.\n")
    assert headings_and_dates(tmp_path, "shouted.txt", shouted) == [
        ("MONDAY 11 MARCH 2024", date(2024, 3, 11)), ("TUESDAY 12 MARCH 2024", date(2024, 3, 12))]


def test_a_heading_that_is_only_a_day_and_month_is_dated(tmp_path):
    """"6/3" as a whole heading (a time or a dash after it allowed) takes the headings' year;
    "1/2 of the nodes down" is no date, and a body line "6/5" starts no entry."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Run notes 2023\n\n## 6/3\n\nnode 12 died\n6/5\n\n## 6/4 14:20 UTC\n\n"
                     "loss spike\n\n## 6/10 - quiet\n\nok\n\n## 1/2 of the nodes down\n\nx\n",
                     encoding="utf-8")
    assert [(e.heading, e.date, e.time) for e in segment(read(notes))] == [
        ("6/3", date(2023, 6, 3), None), ("6/4 14:20 UTC", date(2023, 6, 4), "14:20"),
        ("6/10 - quiet", date(2023, 6, 10), None), ("1/2 of the nodes down", None, None)]


def test_a_heading_that_is_only_a_weekday_is_a_day_of_the_week_above(tmp_path):
    """"### Thursday" under "## Week of 2024-03-11" is 14 March; the week heads its days and is
    no entry of its own, unless text stands under it; "#### Notes" stays in its day."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Run v3 log\n\n## Week of 2024-03-11\n\n### Monday\n\nlaunched\n\n"
                     "### Thursday\n\nECC on node17\n\n#### Notes\n\nwatch node17\n\n"
                     "## Week of 2024-03-18\n\nquiet week\n\n### Sat\n\nslow checkpoint\n",
                     encoding="utf-8")
    assert [(e.heading, e.date) for e in segment(read(notes))] == [
        ("Monday", date(2024, 3, 11)), ("Thursday", date(2024, 3, 14)),
        ("Week of 2024-03-18", date(2024, 3, 18)), ("Sat", date(2024, 3, 23))]


def test_only_a_heading_that_names_a_week_dates_the_weekdays_under_it(tmp_path):
    """An ISO week or a range of at most seven days dates "### Tuesday"; a sprint's two weeks
    do not (its second "### Monday" would go back a week), nor a day's heading ("### Friday"
    under "## 2024-03-14 (Thu)" is a part of Thursday's entry)."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Run log\n\n## 2024-W11\n\n### Tuesday\n\nloss spike\n\n"
                     "## Mar 18-22, 2024\n\n### Wed\n\nnode 4 down\n\n"
                     "## Sprint 12 (2024-03-25 \u2013 2024-04-05)\n\n### Monday\n\nkicked off\n\n"
                     "### Monday\n\nsecond week\n\n## 2024-04-11 (Thu)\n\nrestarted\n\n"
                     "### Friday\n\nplan: swap node 12\n", encoding="utf-8")
    found = [(e.heading, e.date) for e in segment(read(notes))]
    assert found == [("Tuesday", date(2024, 3, 12)), ("Wed", date(2024, 3, 20)),
                     ("Sprint 12 (2024-03-25 \u2013 2024-04-05)", date(2024, 3, 25)),
                     ("2024-04-11 (Thu)", date(2024, 4, 11))]
    assert "plan: swap node 12" in segment(read(notes))[-1].text


@pytest.mark.parametrize(("title", "headings", "dates"), [
    ("Run notes 2023", ["Dec 31", "Jan 2"], ["2023-12-31", "2024-01-02"]),  # the title's year first
    ("Run notes 2024", ["Jan 5", "Dec 20", "Nov 2"], ["2024-01-05", "2023-12-20", "2023-11-02"]),
    ("Pretraining log, 2023", ["Jun 3 (2048 GPUs)", "Jun 4"], ["2023-06-03", "2023-06-04"]),
    ("Replicating the 2022 paper: run notes 2024", ["Mar 3"], ["2024-03-03"]),  # a tie: the later
    ("Run notes 2023", ["Feb 27", "Feb 29", "Mar 2"], ["2023-02-27", "None", "2023-03-02"]),
])
def test_the_headings_year_turns_only_at_the_years_end(tmp_path, title, headings, dates):
    """Newest first turns it back; a count in a heading is no year; a day the year lacks stays
    undated and leaves the year as it was."""
    notes = tmp_path / "notes.md"
    notes.write_text(f"# {title}\n\n" + "".join(f"## {h}\n\nx\n\n" for h in headings),
                     encoding="utf-8")
    assert [str(e.date) for e in segment(read(notes))] == dates


@pytest.mark.parametrize(("headings", "dayfirst", "dates"), [
    # a day past 12 written first says the logbook writes day first: 04/08 is 4 August
    (["03.07.2023", "13.07.2023", "04/08/2023"], True, ["2023-07-03", "2023-07-13", "2023-08-04"]),
    # a day past 12 written second says month first, whatever else it writes
    (["07/03/2023", "07/13/2023", "13/07/2023"], False,
     ["2023-07-03", "2023-07-13", "2023-07-13"]),
    (["07/03/2023", "08/04/2023"], False, ["2023-07-03", "2023-08-04"]),  # nothing says
    # a two-digit year counts in a date that leads its line
    (["03/07/24 night shift", "13/07/24 night shift", "04/08/24"], True,
     ["2024-07-03", "2024-07-13", "2024-08-04"]),
])
def test_a_logbook_that_writes_day_first_is_read_day_first(tmp_path, headings, dayfirst, dates):
    assert not reads_dayfirst([*headings, "TP/PP/DP = 16/8/32"]) or dayfirst  # no dates
    assert not reads_dayfirst([*headings, "16/8/32 -> 38% MFU"]) or dayfirst
    assert reads_dayfirst(headings) == dayfirst
    notes = tmp_path / "standup.md"
    notes.write_text("".join(f"### {h}\n\nall fine\n\n" for h in headings), encoding="utf-8")
    assert [str(e.date) for e in segment(read(notes))] == dates


def test_where_no_date_says_the_order_of_the_dates_does():
    """A log moves days at a time: 04/03, 05/03, 07/03 are March read day first, and April,
    May and July read month first; a run of such dates settles it, as 13/03 would."""
    assert reads_dayfirst(["[04/03/2024 09:12] mira: up", "[05/03/2024 02:03] bot: failed",
                           "[07/03/2024 18:30] mira: relaunched"])
    assert not reads_dayfirst(["04/03/2024 standup", "04/05/2024 standup", "04/08/2024"])
    assert not reads_dayfirst(["07/03/2023", "08/04/2023"])  # 32 days either way: month first


@pytest.mark.parametrize(("legend", "dates"), [
    ("Dates are DD/MM/YY.", ["2024-07-03", "2024-08-04"]),
    ("Date order: day-month-year", ["2024-07-03", "2024-08-04"]),
    ("All dates MM/DD/YY.", ["2024-03-07", "2024-04-08"]),
    ("Kept at the console, initials on each line.", ["2024-03-07", "2024-04-08"]),
])
def test_a_legend_says_how_a_logbook_writes_its_dates(tmp_path, legend, dates):
    notes = tmp_path / "console.md"
    notes.write_text(f"# Console log\n\n{legend}\n\n## 03/07/24 (JK)\n\nall fine\n\n"
                     "## 04/08/24 (AL)\n\nall fine\n", encoding="utf-8")
    assert [str(e.date) for e in segment(read(notes)) if e.date] == dates


@pytest.mark.parametrize("line", ["Checkpoints are named ckpt-YYYY-MM-DD so they sort.",
                                  "Spend per day/month: $1.2k / $36k.", "Rain: 0.8 mm/day."])
def test_a_format_or_a_unit_is_no_legend(line):
    assert reads_dayfirst([line, "13/03/2024", "05/04/2024"])
    assert not reads_dayfirst([line, "04/03/2024", "04/05/2024"])


@pytest.mark.parametrize(("given", "dates"), [
    ((), ["2023-03-07", "2023-04-08"]),  # nothing in the logbook says: month first
    (("--dates", "day-first"), ["2023-07-03", "2023-08-04"]),
    (("--dates", "month-first"), ["2023-03-07", "2023-04-08"]),
])
def test_ingest_can_be_told_how_to_read_dates_no_other_date_settles(tmp_path, given, dates):
    notes = tmp_path / "standup.md"
    notes.write_text("### 03/07/2023\n\nall fine\n\n### 04/08/2023\n\nNCCL timeout\n")
    db = tmp_path / "x.duckdb"
    assert logbook_in_process("ingest", notes, "--db", db, "--no-label", *given).returncode == 0
    assert [str(d) for d in Store(db).sql("SELECT date FROM entries ORDER BY seq")["date"]] \
        == dates


def test_an_unchanged_file_read_with_other_date_options_is_read_again(tmp_path):
    """The dates are a reading of the file: told another zone or day order, ingest parses
    the same bytes again (and says so). Options not given stay as the logbook was read, so
    a folder ingested again without them keeps each logbook's zone."""
    notes = tmp_path / "standup.md"
    notes.write_text("### 03/07/2023 09:00\n\nall fine\n\n### 04/08/2023 10:00\n\nNCCL timeout\n")
    db = tmp_path / "x.duckdb"

    def ingest(*given: str) -> str:
        done = logbook_in_process("ingest", notes, "--db", db, "--no-label", *given)
        assert done.returncode == 0, done.stderr
        return done.stdout + done.stderr

    def stored() -> list[str]:
        rows = Store(db).sql("SELECT strftime(ts_utc, '%Y-%m-%d %H:%M') AS t FROM entries "
                             "ORDER BY seq")
        return list(rows["t"])

    ingest("--timezone", "UTC")
    assert stored() == ["2023-03-07 09:00", "2023-04-08 10:00"]
    assert "unchanged" in ingest("--timezone", "UTC")
    said = ingest("--timezone", "UTC", "--dates", "day-first")
    assert ("read again: stored as read with --timezone UTC, now with --timezone UTC "
            "--dates day-first") in said
    assert stored() == ["2023-07-03 09:00", "2023-08-04 10:00"]
    assert "unchanged" in ingest()  # nothing given: read as it was
    said = ingest("--dates", "month-first")  # the zone stays
    assert "now with --timezone UTC --dates month-first" in said
    assert stored() == ["2023-03-07 09:00", "2023-04-08 10:00"]


@pytest.mark.parametrize("text, expected", [
    # a timeline inside a note, each line led by its date and clock
    ("2024-03-04 - night shift\n\nJob crashed. Timeline:\n2024-03-04 23:12 NCCL timeout\n"
     "2024-03-04 23:55 restarted from 41000\nBack by midnight.\n\n2024-03-05 - day shift\n\n"
     "Quiet.\n",
     ["2024-03-04 - night shift", "2024-03-05 - day shift"]),
    # a schedule, a ticket's history and a list of who changed what on which day
    ("# Notes\n\n## Maintenance\n\nWindows booked:\nMaintenance — 2024-03-20 06:00 UTC\n"
     "ETA — 2024-03-28 12:00\nUntil then 62 nodes.\n\n## Week 10\n\nChanges, in order:\n"
     "Tanya merged the NVLS fix on Mar 5, 2024\nRMA-88213 opened on Mar 1, 2024\n"
     "Swapped the board in gx-14.\n\nRestarts:\n-- Mar 4: NCCL hang at 41k\n"
     "~~Mar 7: swap gx-14~~ late\n", ["Maintenance", "Week 10"]),
    # log lines pasted among a note's paragraphs are its text
    ("# Triage\n\nMar 14 09:12:01 node17 kernel: Xid 79\nMar 14 09:12:05 node17 kernel: Xid 79"
     "\n\nRebooted node17, then:\n\nMar 14 10:02:11 node17 kernel: Xid 79\n\nRMA opened.\n",
     ["Triage"]),
    # labels dated in brackets, with no clock, are a note's, not a chat's bylines
    ("# Notes\n\n## Week 11\n\nPlan (Mar 14, 2024):\nswap k-02\n\nDone (Mar 15, 2024):\n"
     "nothing\n", ["Week 11"]),
    # one reply quoted in a note, and sections after a forwarded mail
    ("2024-04-03 - vendor update\n\nForwarding the reply:\n\nOn Tue, Apr 2, 2024 at 8:41 AM "
     "Priya <p@vendor.example> wrote:\n> Ships Friday.\n\nWe swap it Monday.\n\n"
     "2024-04-04 - quiet\n\nLoss 2.11.\n", ["2024-04-03 - vendor update", "2024-04-04 - quiet"]),
    ("# Spring\n\n## Vendor thread\n\nOn Tue, Apr 2, 2024 at 8:41 AM Priya <p@v.example> wrote:"
     "\n> Ships Friday.\n\nOn Wed, Apr 3, 2024 at 9:00 AM Tom <t@v.example> wrote:\n> Thanks.\n\n"
     "## Checkpointing\n\nAsync saves.\n",
     ["On Tue, Apr 2, 2024 at 8:41 AM Priya <p@v.example> wrote:",
      "On Wed, Apr 3, 2024 at 9:00 AM Tom <t@v.example> wrote:", "Checkpointing"]),
    # a long paragraph that opens with a date and clock, numbered sections, a form's "- Date:"
    ("# Postmortem\n\n## Narrative\n\n2024-03-04 09:12 UTC is when the first alert fired; "
     + "the job hung again and again " * 10 + "\n\n## 1.1. - Hardware\n\n64 nodes.\n\n"
     "## INC-101: NCCL hang\n\n- Date: 2024-03-04\n- Owner: Ravi\n",
     ["Narrative", "1.1. - Hardware", "INC-101: NCCL hang"]),
])
def test_lines_inside_a_note_stay_its_text(tmp_path, text, expected):
    """The shapes that open entries in chat and tracker exports, met inside ordinary notes."""
    notes = tmp_path / "notes.md"
    notes.write_text(text, encoding="utf-8")
    assert [e.heading for e in segment(read(notes))] == expected


def test_a_two_digit_year_00_is_read_without_error():
    assert not reads_dayfirst(["01/02/00 - test line from the old template", "03/04/2024 - up"])



def test_a_heading_naming_an_incident_by_its_day_in_words_is_undated(tmp_path):
    """"the first of March incident" names the incident; "The first of April" alone is a day."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Run notes, sparrow-3b\n\n## 2024-02-28\n\nLaunched on 32 nodes.\n\n"
                     "## Notes on the first of March incident\n\nNCCL hang on rank 17.\n\n"
                     "## The first of April\n\nRestarted from 40k.\n", encoding="utf-8")
    assert [(e.heading, e.date) for e in segment(read(notes))] == [
        ("2024-02-28", date(2024, 2, 28)), ("Notes on the first of March incident", None),
        ("The first of April", date(2024, 4, 1))]
