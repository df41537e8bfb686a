"""Segmentation of Markdown chronicles and plain-text logbooks, on documents written here."""

from __future__ import annotations

from datetime import date, datetime
from pathlib import Path

from helpers import entries_of

from logbook_miner.read import read
from logbook_miner.segment.entries import segment

CHRONICLE = """\
# The final training

Trials and tribulations.

## main

### 2022-03-21

One of the GPUs crashed at 2022-03-21_13:34:34.

```
# force crashing on nccl issues
export NCCL_ASYNC_ERROR_HANDLING=1
### 2022-01-01 not a heading
```

Inline ``` spans ``` are code, not fences.

#### Details

Sub-heading text belongs to 2022-03-21.

### 2022-04-XX repeated hardware crashes

Several nodes went down.

### What makes it stable?

Undated sibling of the dated entries.

### 2022-04-28 sudden 5% drop in throughput

Throughput fell.
"""

POSTED = """\
# Update on the run: 10% through
**Written by:** Ada Lovelace, Alan Turing

**Posted on:** November 17, 2021

Since the last post, things happened.

## Training Progress

We are 10% through.

## Empty heading

## Infrastructure

Hosts went down.
"""


def test_chronicle_headings_dates_and_fences(tmp_path):
    got = entries_of(tmp_path, "c.md", CHRONICLE)
    assert [(e.heading, e.date) for e in got] == [
        ("The final training", None),
        ("2022-03-21", date(2022, 3, 21)),
        ("2022-04-XX repeated hardware crashes", None),  # partial date: null, text kept
        ("What makes it stable?", None),
        ("2022-04-28 sudden 5% drop in throughput", date(2022, 4, 28)),
    ]
    body = got[1].text
    assert "# force crashing on nccl issues\nexport NCCL_ASYNC_ERROR_HANDLING=1" in body
    assert "### 2022-01-01 not a heading" in body
    assert "Inline ``` spans ``` are code" in body
    assert "Details\n\nSub-heading text belongs to 2022-03-21." in body
    assert [e.seq for e in got] == [1, 2, 3, 4, 5]


def test_preamble_dates_and_authors_the_title_only(tmp_path):
    got = entries_of(tmp_path, "p.md", POSTED)
    assert [(e.heading, e.date) for e in got] == [
        ("Update on the run: 10% through", date(2021, 11, 17)),
        ("Training Progress", None),
        ("Infrastructure", None),  # "Empty heading" has no text: no entry
    ]
    assert got[0].author == "Ada Lovelace, Alan Turing"


def test_a_line_of_tags_under_a_title_dates_its_note(tmp_path):
    """A notes app tags each note with its day ("#log/2024-03-11 #train"); a sentence that
    names a day under a title does not date it."""
    text = ("# Loss spike at step 41k\n#log/2024-03-11 #train #incident\n\nSkipped batches.\n\n"
            "# Node swap\n#log/2024-03-12 #hardware\n\nECC errors.\n\n"
            "# Restart plan\nWe restart from the 2024-03-10 checkpoint, #ops agreed.\n")
    got = entries_of(tmp_path, "bear.md", text)
    assert [(e.heading, e.date) for e in got] == [
        ("Loss spike at step 41k", date(2024, 3, 11)), ("Node swap", date(2024, 3, 12)),
        ("Restart plan", None)]


def test_dates_in_many_forms_and_year_from_neighbours(tmp_path):
    text = ("# Ops notes\n\n## November 17, 2021\n\nA.\n\n## Nov 20\n\nB.\n\n"
            "## 23/11/2021\n\nC.\n\n## Jan 3\n\nD, a new year.\n")
    got = entries_of(tmp_path, "d.md", text)
    assert [(e.date, e.date_inferred) for e in got] == [  # the bare title has no text
        (date(2021, 11, 17), False), (date(2021, 11, 20), True),
        (date(2021, 11, 23), False), (date(2022, 1, 3), True)]


def test_plain_text_date_led_headings_with_times(tmp_path):
    text = ("Cluster notes\n\n"
            "2021-11-24 1:00pm ET [Susan]: Run 12.17\nRestarted after NCCL timeout.\n"
            "2021-11-24 13:05:11 INFO this log line is not a heading\n\n"
            "2021-11-25 09:30 CET: Run 12.18\nHealthy.\n\n"
            "  2021-11-26 indented lines are list items, not headings\n")
    got = entries_of(tmp_path, "t.txt", text)
    assert [e.heading for e in got] == ["2021-11-24 1:00pm ET [Susan]: Run 12.17",
                                       "2021-11-25 09:30 CET: Run 12.18"]
    assert got[0].ts_utc == datetime(2021, 11, 24, 18, 0)
    assert got[1].ts_utc == datetime(2021, 11, 25, 8, 30)
    assert "13:05:11 INFO" in got[0].text and "indented lines" in got[1].text


def test_text_without_headings_is_one_entry(tmp_path):
    got = entries_of(tmp_path, "n.txt", "Just a note\nwith two lines\n")
    assert [(e.heading, e.text) for e in got] == [("Just a note", "with two lines")]


def test_decorated_and_chat_style_date_lines(tmp_path):
    ruled = "=== 2021-11-24 ===\nRestarted run 12.17.\n\n=== 2021-11-25 ===\nHealthy.\n"
    got = entries_of(tmp_path, "ruled.txt", ruled)
    assert [(e.heading, e.date) for e in got] == [("=== 2021-11-24 ===", date(2021, 11, 24)),
                                                 ("=== 2021-11-25 ===", date(2021, 11, 25))]
    chat = ("Nov 24, 2021, 1:05 PM - Susan: restarted the job from 37k\n"
            "Nov 24, 2021, 3:15 PM - Stephen: NCCL timeout again\n")
    got = entries_of(tmp_path, "chat.txt", chat, default_timezone="ET")
    assert [(e.time, e.ts_utc) for e in got] == [("1:05 PM", datetime(2021, 11, 24, 18, 5)),
                                                 ("3:15 PM", datetime(2021, 11, 24, 20, 15))]


def test_markdown_bold_lines_standing_alone_are_headings_as_in_word(tmp_path):
    """A thread of posts titled by a bold line with the date inside it, not leading it: each
    post is an entry, as the same lines bold in a DOCX or PDF make one. A bold run inside a
    line, or a paragraph only partly bold, stays body text."""
    posts = ("**@kiri@sigmoid.social · Mar 3, 2025, 09:14**\n\nPretraining a 3B alone.\n\n"
             "**Not a heading** but a sentence that runs on.\n\n"
             "**@kiri@sigmoid.social · Mar 5, 2025, 22:40**\n\nFirst spot preemption.\n")
    got = entries_of(tmp_path, "thread.md", posts)
    assert [(e.heading, e.date, e.time) for e in got] == [
        ("@kiri@sigmoid.social · Mar 3, 2025, 09:14", date(2025, 3, 3), "09:14"),
        ("@kiri@sigmoid.social · Mar 5, 2025, 22:40", date(2025, 3, 5), "22:40")]
    assert "**Not a heading** but a sentence" in got[0].text
    # beside headings a bold line is emphasis; beside date-led lines it takes none of them
    titled = "## Week 1\n\nRan.\n\n**TL;DR: the run diverged at 40k.**\n\nMore.\n"
    assert [e.heading for e in entries_of(tmp_path, "titled.md", titled)] == ["Week 1"]
    # a short label over Markdown's usual "~~~" fence is no underlined heading
    fenced = ("## 2024-03-14\n\nJob died.\n\nLog:\n~~~\nRuntimeError: NCCL timeout\n~~~\n\n"
              "## 2024-03-15\n\nQuiet night.\n")
    assert [e.date.day for e in entries_of(tmp_path, "fenced.md", fenced)] == [14, 15]
    # under the document's title alone, bold lines still title its entries; "14/3 (Fri)" says
    # the days come first, so "4/3 (Tue)" is 4 March, a Tuesday in 2025
    nights = ("# kestrel nights\n\nyr 2025. my abbrevs: n=node s=step\n\n**3/3 (Mon) nights**\n\n"
              "quiet.\n\n**4/3 (Tue) nights**\n\nn33 in\n\n**14/3 (Fri) nights**\n\necc x2\n")
    assert [(e.heading, e.date) for e in entries_of(tmp_path, "nights.md", nights)][1:] == [
        ("3/3 (Mon) nights", date(2025, 3, 3)), ("4/3 (Tue) nights", date(2025, 3, 4)),
        ("14/3 (Fri) nights", date(2025, 3, 14))]
    dated = ("2024-05-01: launched.\n\n2024-05-02: NCCL timeout.\n\n"
             "**2024-05-03 incident: gpu-17 died**\n\nIt died.\n\n2024-05-04: loss spike.\n")
    assert [e.date.day for e in entries_of(tmp_path, "dated.md", dated)] == [1, 2, 3, 4]


def test_journal_day_numbers_and_labelled_dates_lead_entries(tmp_path):
    days = ("Day 1 (Mon 6 Mar 2023)\nStarted the run on 64 nodes.\n\n"
            "Day 2 (Tue 7 Mar 2023)\nNCCL timeout on gpu-17; restarted from step 12000.\n\n"
            "Day 3 of the run we saw no spike.\n")
    got = entries_of(tmp_path, "days.txt", days)
    assert [(e.heading, e.date) for e in got] == [
        ("Day 1 (Mon 6 Mar 2023)", date(2023, 3, 6)), ("Day 2 (Tue 7 Mar 2023)", date(2023, 3, 7))]
    assert got[1].text.endswith("Day 3 of the run we saw no spike.")  # no date: prose
    form = ("Date: 2023-03-04\nAuthor: Jun Tan <jtan@>\nJob crashed at 02:10.\n\n"
            "Date: 2023-03-05\nBy: hlin · Reviewers: ptak\nBy 08:00 the loss was back.\n")
    got = entries_of(tmp_path, "form.txt", form)
    assert [(e.date, e.author) for e in got] == [(date(2023, 3, 4), "Jun Tan <jtan@>"),
                                                 (date(2023, 3, 5), "hlin")]


ORG_JOURNAL = """\
#+TITLE: 30B pretraining journal
#+STARTUP: overview
* Week 10
** <2023-03-04 Sat 02:40> NCCL timeout                              :incident:
:PROPERTIES:
:NODE: gpu-17
:END:
Job crashed with NCCL timeout on node gpu-17.
#+BEGIN_SRC sh
* 2023-01-01 not a heading inside a block
#+END_SRC
*** follow-up
Restarted from step 12000.
** DONE [2023-03-05 Sun] Replace gpu-17
# a comment line
Vendor confirmed a bad HCA.
"""


def test_org_headings_timestamps_blocks_and_drawers(tmp_path):
    got = entries_of(tmp_path, "journal.org", ORG_JOURNAL)
    assert [(e.heading, e.date, e.time) for e in got] == [
        ("2023-03-04 02:40 NCCL timeout", date(2023, 3, 4), "02:40"),
        ("2023-03-05 Replace gpu-17", date(2023, 3, 5), None)]
    first = got[0].text
    assert "* 2023-01-01 not a heading inside a block" in first  # code, kept as text
    assert "follow-up" in first and "Restarted from step 12000." in first
    assert ":NODE:" not in first and "STARTUP" not in first and "comment" not in got[1].text


def test_an_org_outline_pasted_as_markdown_dates_each_heading_by_its_timestamp(tmp_path):
    """"* Restarted after ECC" reads as a list item in Markdown; the Org timestamp on the line
    under it ("<2024-03-14 Thu 09:12>", its clock after the weekday) dates it, as a dated
    bullet's date would, and is no text of its entry; a "- " list under it (Markdown's next
    list, no blank line between) is its entry's text."""
    outline = ("#+TITLE: Training log\n\n* Launched on 48 nodes\n<2024-03-11 Mon 08:30>\n"
               "Loss 4.4 at step 500.\n* Node swap g22 -> g53\n<2024-03-18 Mon 14:20>\n"
               "Swapped, perf back.\n- nvidia-smi showed replay errors\n* Eval at step 20000\n"
               "[2024-03-19 Tue]\nHumanEval 29.3.\n")
    got = entries_of(tmp_path, "outline.md", outline)
    assert [(e.heading, e.date, e.time) for e in got if e.date] == [
        ("Launched on 48 nodes", date(2024, 3, 11), "08:30"),
        ("Node swap g22 -> g53", date(2024, 3, 18), "14:20"),
        ("Eval at step 20000", date(2024, 3, 19), None)]
    assert got[-2].text == "Swapped, perf back.\n- nvidia-smi showed replay errors"
    # a plain date at a list's own margin heads the next group: it dates no item above it
    runs = ("Run log\n2024-03-14\n- restarted node17\n2024-03-15\n- loss spike at 52k\n"
            "2024-03-16\n- quiet\n")
    assert not [e for e in entries_of(tmp_path, "runs.txt", runs)
                if e.date is not None and e.heading == "restarted node17"]


def test_lists_that_meet_without_a_blank_line_are_not_set_apart():
    """Markdown parses a list whose bullet changes as a new list; no blank line is read
    between them where the source has none, but one is where it has one."""
    from logbook_miner.read.markdown import read_markdown

    doc = read_markdown(Path("x.md"), "* a\n- b\n\n- c\n\n1. d\n")
    assert [line.text for line in doc.lines] == ["* a", "- b", "", "- c", "", "1. d", ""]


def test_a_log_kept_as_dated_bullets_or_table_rows(tmp_path):
    bullets = ("# Run log\n\n- 2023-03-04: NCCL timeout on gpu-17, restarted from step 12000.\n"
               "  The second try held.\n- 2023-03-05: Loss spike at step 12500.\n"
               "  - 2023-03-06 a nested item is part of its parent\n")
    got = entries_of(tmp_path, "bullets.md", bullets)
    assert [(e.heading[:10], e.date) for e in got] == [
        ("2023-03-04", date(2023, 3, 4)), ("2023-03-05", date(2023, 3, 5))]
    assert "The second try held." in got[0].text and "nested" in got[1].text
    table = ("# Run log\n\n| Date | What happened |\n|---|---|\n"
             "| 2023-03-04 | NCCL timeout on gpu-17 |\n| 2023-03-05 | loss spike at 12500 |\n")
    got = entries_of(tmp_path, "table.md", table)
    # the column names are no entry's text, so the title over them is no entry (rule 13)
    assert [(e.heading, e.date) for e in got] == [
        ("2023-03-04 | NCCL timeout on gpu-17", date(2023, 3, 4)),
        ("2023-03-05 | loss spike at 12500", date(2023, 3, 5))]


def test_a_table_rows_id_before_its_date_cell_is_read(tmp_path):
    """A run log kept as a table whose first column is the run: each row is dated by its date
    cell and keeps its whole text as the heading, so its run id is read, as it is in a row
    whose date comes first."""
    table = ("# Run log\n\n| Run | Date | Note |\n|---|---|---|\n"
             "| run-41 | 2024-03-11 | Loss spike at 5200, rolled back |\n"
             "| run-42 | 2024-03-12 | NCCL timeout, restarted |\n")
    got = entries_of(tmp_path, "runs.md", table)
    assert [(e.heading, e.date, e.run_id) for e in got] == [
        ("run-41 | 2024-03-11 | Loss spike at 5200, rolled back", date(2024, 3, 11), "run-41"),
        ("run-42 | 2024-03-12 | NCCL timeout, restarted", date(2024, 3, 12), "run-42")]


def test_a_log_kept_as_a_mediawiki_table(tmp_path):
    """A wiki page keeps its log as a MediaWiki table: each row ("|-" / "| 14 Mar 2024 || jdoe
    || ...") is an entry, as a Markdown table's is; the table's header row ("! Date !! Who")
    and the page's category links are no prose around the log, but a paragraph after it is."""
    page = ("= Run log =\n\nOn-call notes.\n\n{| class=\"wikitable\"\n! Date !! Who !! Note\n"
            "|-\n| 14 Mar 2024 || jdoe || started on 32 nodes\n|-\n"
            "| 15 Mar 2024 || kpatel || restarted after ECC on node17\n|}\n\n"
            "[[Category:Training runs]]\n")
    got = entries_of(tmp_path, "wiki.md", page)
    assert [(e.heading, e.date) for e in got if e.date] == [
        ("14 Mar 2024 || jdoe || started on 32 nodes", date(2024, 3, 14)),
        ("15 Mar 2024 || kpatel || restarted after ECC on node17", date(2024, 3, 15))]
    report = page + "\nCheckpoint more often next time.\n"
    assert [e.date for e in entries_of(tmp_path, "report.md", report)] == [None]


def test_only_a_tag_that_names_the_day_dates_a_note(tmp_path):
    """A notes app's line of tags dates its note by a tag that is the day ("#log/2024-03-14",
    "#2024-03-15"), not by a deadline's or an issue's ("#due/2024-04-01")."""
    notes = ("# Notes\n\n## Checkpoint follow-up\n\n#log/2024-03-14 #train\n\nLoss back on track."
             "\n\n## Eval sweep plan\n\n#todo #due/2024-04-01\n\nRerun the eval sweep.\n\n"
             "## Node swap\n\n#ops #2024-03-15\n\nSwapped node 12.\n")
    got = entries_of(tmp_path, "tags.md", notes)
    assert [(e.heading, e.date) for e in got] == [
        ("Checkpoint follow-up", date(2024, 3, 14)), ("Eval sweep plan", None),
        ("Node swap", date(2024, 3, 15))]


def test_a_line_of_tags_led_by_the_day_opens_a_note(tmp_path):
    """A notes app exports notes titled by their day's tag ("#2024_07_01"): each such line opens
    a note; under a heading, such a line alone is that heading's tag line and dates it."""
    notes = ("# train-log\n\n#2024_07_01\n#run/vlm-2b kicked off.\n\n#2024_07_02 #infra\n"
             "Loss plateaued at 1.8.\n\n## Node swap\n\n#2024-07-05\n\nSwapped vl-07.\n")
    got = entries_of(tmp_path, "bear.md", notes)
    assert [(e.heading, e.date) for e in got] == [
        ("#2024_07_01", date(2024, 7, 1)), ("#2024_07_02 #infra", date(2024, 7, 2)),
        ("Node swap", date(2024, 7, 5))]


def test_tags_that_close_a_note_title_nothing(tmp_path):
    """Bear and Obsidian notes often end with their tags: a day's tag with only a heading after
    it closes the note above, whose date it is, and opens no empty note of its own."""
    notes = ("# Notes\n\n## Restarted after ECC\n\nNode17 drained, job resumed from step 41k.\n\n"
             "#2024-03-14 #incident\n\n## Loss spike\n\nSpike at 52k, skipped batch.\n\n"
             "#2024-03-15 #incident\n")
    got = entries_of(tmp_path, "closing-tags.md", notes)
    assert [(e.heading, e.date) for e in got] == [
        ("Restarted after ECC", date(2024, 3, 14)), ("Loss spike", date(2024, 3, 15))]
    assert "resumed from step 41k" in got[0].text
    # tags over a document's first heading lead their headings: none dates the note above it
    leading = ("#2024-03-14 #daily\n# Thursday\nLoss 3.2 at 41k.\n\n#2024-03-15 #daily\n"
               "# Friday\nLoss spike at 52k.\n")
    assert [(e.heading, e.date) for e in entries_of(tmp_path, "leading-tags.md", leading)
            if e.heading in ("Thursday", "Friday")] == [("Thursday", None), ("Friday", None)]


def test_a_page_list_item_broken_at_its_date_is_dated_by_it(tmp_path):
    """A page's (or a document's) list item broken at its date and clock ("Restarted after ECC"
    / "2024-03-14 09:12" / "drained and resumed.") is a note dated by it; a sentence that runs
    on past a date and clock in a paragraph ("... again 2024-03-14 09:12 and rolled back") is
    prose, not a title over its stamp."""
    page = ("<h1>Run log</h1><ul><li>Restarted after ECC on node17<br>2024-03-14 09:12<br>"
            "drained and resumed.</li><li>Loss spike at 52k<br>2024-03-15 03:47<br>rolled back."
            "</li></ul>")
    assert [(e.heading, e.date, e.time) for e in entries_of(tmp_path, "list.html", page)] == [
        ("Restarted after ECC on node17", date(2024, 3, 14), "09:12"),
        ("Loss spike at 52k", date(2024, 3, 15), "03:47")]
    prose = ("<h1>Run notes</h1><p>We saw the loss spike again 2024-03-14 09:12 and rolled back "
             "to step 41k; the run was healthy after that.</p><p>Priya restarted the job "
             "2024-03-15 03:47 after node17 threw ECC errors, and drained the node.</p>")
    got = entries_of(tmp_path, "prose.html", prose)
    assert [e.heading for e in got] == ["Run notes"]
    assert "again 2024-03-14 09:12 and rolled back" in " ".join(got[0].text.split())


def test_a_line_ending_in_its_bracketed_date_over_indented_lines_is_a_note(tmp_path):
    """A plain-text log titles each note with its date in brackets at the line's end, its text
    indented under it; a line that ends so over a line not indented is prose."""
    text = ("ops notes\nRestarted after ECC on node17 [30/12/2024 09:12]\n"
            "  node drained, resumed from step 41500.\n"
            "Loss spike, auto-rollback [31/12/2024 03:47]\n  rolled back to 44000.\n"
            "Checkpoints are listed in the sheet (2024-12-30)\nnothing else to add.\n"
            "The sheet also has the older runs,\nsee the tab of the day before (2024-12-29)\n"
            "    for the restarts.\n")
    for name in ("ops.md", "ops.txt"):
        got = entries_of(tmp_path, name, text)
        assert [(e.heading, e.date, e.time) for e in got] == [
            ("Restarted after ECC on node17 [30/12/2024 09:12]", date(2024, 12, 30), "09:12"),
            ("Loss spike, auto-rollback [31/12/2024 03:47]", date(2024, 12, 31), "03:47")]
        assert "nothing else to add." in got[-1].text
        assert "    for the restarts." in got[-1].text  # (a paragraph's line is no title)


def test_dated_links_under_undated_headings_stay_in_their_entry(tmp_path):
    text = ("## Run completed\n\nDone.\n\n- [Nov 17 update](a.md): numerics\n"
            "- [Dec 3 update](b.md): hardware\n\n## Cluster deletion\n\nGone.\n\n"
            "## Results\n\nGood.\n")
    got = entries_of(tmp_path, "final.md", text)
    assert [e.heading for e in got] == ["Run completed", "Cluster deletion", "Results"]


def test_dated_lists_tables_and_date_lines_inside_a_report_stay_its_text(tmp_path):
    incidents = ("## Incident 12: NCCL hang\n\nDate: 2023-03-04\nAuthor: kim\n\nRestarted.\n\n"
                 "## Incident 13: loss spike\n\nDate: 2023-03-06\n\nRolled back.\n")
    got = entries_of(tmp_path, "incidents.md", incidents)
    assert [(e.heading, e.date, e.author) for e in got] == [
        ("Incident 12: NCCL hang", date(2023, 3, 4), "kim"),
        ("Incident 13: loss spike", date(2023, 3, 6), None)]
    report = ("# Run report\n\nWe trained for two weeks. Key dates:\n\n- 2023-03-04: started\n"
              "- 2023-03-10: loss spike, rolled back\n\n| Date | Event |\n|---|---|\n"
              "| 2023-03-11 | hang |\n\nCheckpoint more often next time.\n")
    assert [e.heading for e in entries_of(tmp_path, "report.md", report)] == ["Run report"]
    wrapped = ("Postmortem\n\nThe job was launched on\n2023-03-04 and ran until the crash on\n"
               "2023-03-10 when a node failed.\n")
    assert [e.heading for e in entries_of(tmp_path, "wrapped.txt", wrapped)] == ["Postmortem"]


def test_org_drawers_end_at_a_heading_and_only_known_ones_open():
    from logbook_miner.read.org import read_org

    doc = read_org(Path("j.org"), "* 2023-03-04 hang\n:LOGBOOK:\nCLOCK: x\n* 2023-03-05 spike\n"
                                  "Status:\n:sad:\nRolled back.\n** x :ops:infra:\n")
    assert [(line.text, line.level) for line in doc.lines] == [
        ("2023-03-04 hang", 1), ("2023-03-05 spike", 1), ("Status:", None), (":sad:", None),
        ("Rolled back.", None), ("x", 2), ("", None)]


def test_a_folded_section_is_read_as_the_line_its_summary_shows(tmp_path):
    """"<details><summary>2024-03-12 — launch</summary>" over a day's notes is the line
    "2024-03-12 — launch" (its closing tag shows nothing); other raw HTML stays as written."""
    notes = tmp_path / "notes.md"
    notes.write_text("# mist-13b log\n\n<details><summary>2024-03-12 — launch</summary>\n\n"
                     "Started on 128 A100s.\n\n</details>\n\n<details><summary><b>2024-03-13</b>"
                     " — plateau</summary>\n\nLoss flat at 3.1.\n<br>\n\n</details>\n",
                     encoding="utf-8")
    entries = segment(read(notes))
    assert [(e.heading, e.date, e.text) for e in entries] == [
        ("2024-03-12 — launch", date(2024, 3, 12), "Started on 128 A100s."),
        ("2024-03-13 — plateau", date(2024, 3, 13), "Loss flat at 3.1.\n<br>")]


def test_a_folded_sections_entities_and_one_line_form_are_read(tmp_path):
    """A summary's "&mdash;" shows as "—"; a section folded on one line ("<details><summary>
    2024-03-12 — launch</summary>Launched …</details>") is its summary over its text."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Training log\n\n<details><summary>2024-03-12 — launch</summary>Launched "
                     "sparrow-3 on 64 nodes.</details>\n\n<details>\n<summary>2024-03-13 &mdash; "
                     "loss spike</summary>\n\nSpike at step 5200, rolled back.\n\n</details>\n",
                     encoding="utf-8")
    assert [(e.heading, e.date, e.text) for e in segment(read(notes))] == [
        ("2024-03-12 — launch", date(2024, 3, 12), "Launched sparrow-3 on 64 nodes."),
        ("2024-03-13 — loss spike", date(2024, 3, 13), "Spike at step 5200, rolled back.")]


def test_a_row_of_symbols_under_a_line_as_long_as_it_underlines_it(tmp_path):
    """A plain-text writer underlines a day's line with a row of any symbol ("~~~", "***",
    "+++"), as reStructuredText adorns a section: a heading, in Markdown (not a fence running
    to the next row of "~", a rule or a paragraph's line) and in text alike. A fence that
    follows no line of its own length stays code, and a short rule under a paragraph a rule."""
    notes = tmp_path / "notes.md"
    notes.write_text("Ops notes\n\nThursday 14 March 2024\n~~~~~~~~~~~~~~~~~~~~~~\nLaunched.\n\n"
                     "Friday 15 March 2024\n********************\n\nNCCL timeout.\n\n"
                     "Monday 18 March 2024\n++++++++++++++++++++\nLoss spike.\n\n"
                     "~~~\n## 2024-03-19 not a heading\n~~~\n\nRolled back.\n***\n",
                     encoding="utf-8")
    doc = read(notes)
    assert [(line.text, line.level) for line in doc.lines if line.level] == [
        ("Thursday 14 March 2024", 2), ("Friday 15 March 2024", 2), ("Monday 18 March 2024", 2)]
    assert [line.text for line in doc.lines if line.code] == ["## 2024-03-19 not a heading"]
    assert [(e.heading, e.date) for e in segment(doc) if e.date] == [
        ("Thursday 14 March 2024", date(2024, 3, 14)), ("Friday 15 March 2024", date(2024, 3, 15)),
        ("Monday 18 March 2024", date(2024, 3, 18))]
    text = tmp_path / "notes.txt"
    text.write_text("Thursday 14 March 2024\n**********************\nLaunched.\n\n"
                    "Friday 15 March 2024\n^^^^^^^^^^^^^^^^^^^^\nNCCL timeout.\n****\n",
                    encoding="utf-8")
    assert [(line.text, line.level) for line in read(text).lines if line.level] == [
        ("Thursday 14 March 2024", 2), ("Friday 15 March 2024", 2)]
