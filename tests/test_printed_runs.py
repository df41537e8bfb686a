"""A printed paragraph that is a run of notes reads as the notes it was written as.

A Markdown renderer joins lines with no blank line between them into one paragraph, so a chat
export, a notes file of dated lines or a mail's header prints as one; the segmenter breaks it
again where its author's lines broke (segment/unfold.py). Printed for real by Chromium:
tests/test_rendered_logbooks.py.
"""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from logbook_miner.models import Document, Line
from logbook_miner.read import read
from logbook_miner.segment.entries import segment


def _printed(*paragraphs: list[str], fmt: str = "pdf") -> Document:
    """Paragraphs of wrapped lines, a blank line between them, as a PDF reader gives them; a
    web page's or Word file's reader gives each paragraph as one line."""
    lines = [Line("Run notes", size=22.0, bold=True), Line("")]
    for paragraph in paragraphs:
        if fmt != "pdf":
            paragraph = [" ".join(paragraph)]
        lines += [Line(text, size=11.0, indent=30.0 if text.startswith("- ") else 0.0)
                  for text in paragraph] + [Line("")]
    return Document(path=Path(f"notes.{fmt}"), format=fmt, lines=lines)


def _read(doc: Document) -> list[tuple[str, date | None, str | None]]:
    return [(e.heading, e.date, e.time) for e in segment(doc) if e.date]


@pytest.mark.parametrize("fmt", ["pdf", "html", "docx"])
def test_dated_lines_run_into_one_paragraph_are_notes_again(fmt):
    """A stamp wrapped over two printed lines is one stamp; a date after "from" is a sentence's."""
    doc = _printed(["2024-05-02 14:10 launched on 16 nodes 2024-05-02 18:40 loss 3.21,",
                    "resumed from 2024-05-01 09:00 fine. May 3 09:12 node w-11 evicted at",
                    "03:20 2024-05-03",
                    "11:30 cordoned w-11"], fmt=fmt)
    assert _read(doc) == [
        ("2024-05-02 14:10 launched on 16 nodes", date(2024, 5, 2), "14:10"),
        ("2024-05-02 18:40 loss 3.21, resumed from 2024-05-01 09:00 fine.",
         date(2024, 5, 2), "18:40"),
        ("May 3 09:12 node w-11 evicted at 03:20", date(2024, 5, 3), "09:12"),
        ("2024-05-03 11:30 cordoned w-11", date(2024, 5, 3), "11:30")]


def test_a_line_break_in_a_web_page_is_the_authors():
    """A `<br>` inside a paragraph of notes ends a note: the line after it is text."""
    lines = [Line("2024-03-14 09:12 - restarted r3 - 2024-03-14 10:05 - loss back to 2.31"),
             Line("2024-03-14 11:30 - evals queued"),
             Line("Handover to Bo at noon, nothing pending."), Line("")]
    entries = segment(Document(path=Path("notes.html"), format="html", lines=lines))
    assert [(e.heading, e.text) for e in entries][-1] == (
        "2024-03-14 11:30 - evals queued", "Handover to Bo at noon, nothing pending.")


def test_a_prose_paragraph_led_by_its_stamp_keeps_a_clocked_date_it_names():
    doc = _printed(["2024-03-14 09:12 restarted r3 from step 18k. The previous attempt died with",
                    "its last heartbeat logged 2024-03-14 08:55 and nothing after it."])
    assert len(segment(doc)) == 1


def test_the_same_paragraph_in_markdown_is_read_as_written(tmp_path):
    """Markdown keeps its lines: one line with two stamps is one note."""
    notes = tmp_path / "notes.md"
    notes.write_text("# Run notes\n\n2024-05-02 14:10 - launched 2024-05-02 18:40 - loss 3.21\n",
                     encoding="utf-8")
    assert [e.heading for e in segment(read(notes))] == [
        "2024-05-02 14:10 - launched 2024-05-02 18:40 - loss 3.21"]


def test_chat_bylines_run_into_their_messages_head_them_again():
    """"nick — date time" bylines printed inline: a nick, or the capitalised words of a name."""
    doc = _printed(["mayaz — 03/14/2024 9:12 PM kicked off the 1.3B ablation, ETA ~30h Dana Kim",
                    "— 03/14/2024 9:40 PM nice, which mix? mayaz — 03/15/2024 7:05 AM step 9k,",
                    "loss 3.41"])
    assert _read(doc) == [("mayaz — 03/14/2024 9:12 PM", date(2024, 3, 14), "9:12 PM"),
                          ("Dana Kim — 03/14/2024 9:40 PM", date(2024, 3, 14), "9:40 PM"),
                          ("mayaz — 03/15/2024 7:05 AM", date(2024, 3, 15), "7:05 AM")]
    assert [e.text for e in segment(doc)][-1].endswith("step 9k, loss 3.41")


def test_a_mails_header_fields_printed_as_one_line_head_its_message():
    doc = _printed(["From: Priya Nair priya@example.org To: llm-train@example.org Date: Mon, 4",
                    "Mar 2024 18:02:10 +0100 Subject: run-42 launched"],
                   ["run-42 is up on pool A, 256 GPUs."],
                   ["From: Priya Nair priya@example.org Date: Tue, 5 Mar 2024 09:14:22 +0100",
                    "Subject: Re: run-42 launched"],
                   ["Lost node a-117 at 03:10 (PSU failure)."])
    assert _read(doc) == [("run-42 launched", date(2024, 3, 4), "18:02:10"),
                          ("Re: run-42 launched", date(2024, 3, 5), "09:14:22")]


def test_a_mail_clients_attribution_run_into_the_reply_heads_it():
    """Where a renderer set no gap between paragraphs, a reply runs on into the next one's
    attribution; "On call this week:" is no attribution."""
    doc = _printed(["On Tue, Apr 2, 2024 at 8:41 AM Priya Raman priya@lab.example wrote: Night",
                    "was rough: two NCCL timeouts on gx-14. On Wed, Apr 3, 2024 at 9:12 AM Tom",
                    "Becker tb@lab.example wrote: Burn-in passed."],
                   ["On call this week: Ana, who wrote: nothing new."])
    assert [(h[:40], d) for h, d, _ in _read(doc)] == [
        ("On Tue, Apr 2, 2024 at 8:41 AM Priya Ram", date(2024, 4, 2)),
        ("On Wed, Apr 3, 2024 at 9:12 AM Tom Becke", date(2024, 4, 3))]
    assert segment(doc)[-1].text.endswith("Burn-in passed.\n\nOn call this week: Ana, who wrote: "
                                          "nothing new.")


def test_a_message_run_into_a_list_item_above_it_is_at_the_margin():
    """The renderer runs a line under a list item into it (a lazy continuation)."""
    doc = _printed(["[04/04/2024 12:00] olek: notes from the sync:"],
                   ["- eval harness: need volunteers"],
                   ["- next sync thursday [05/04/2024 02:47] RunBot: job 88240 exited with",
                    "code 1 [05/04/2024 07:55] hazel: ECC error on rank 9"])
    assert [(h[:24], d) for h, d, _ in _read(doc)] == [
        ("[04/04/2024 12:00] olek:", date(2024, 4, 4)),
        ("[05/04/2024 02:47] RunBo", date(2024, 4, 5)),
        ("[05/04/2024 07:55] hazel", date(2024, 4, 5))]


def test_a_date_in_a_paragraph_is_no_note_where_no_note_is_stamped_so():
    """A report's paragraph that opens with its date, naming another date in it, is one entry."""
    doc = _printed(["2024-03-14 restarted from the ckpt of 2024-03-12 after the ECC storm;",
                    "we lost two days. 2024-03-15 looks clean so far."])
    assert [(e.date, e.text) for e in segment(doc)] == [
        (date(2024, 3, 14), "we lost two days. 2024-03-15 looks clean so far.")]


def test_a_ticket_comments_separator_line_run_into_its_comment_heads_it():
    """A renderer runs "--- comment by jdoe, 2024-03-14 09:12 ---" into the comment under it;
    a rule with no date in its frame ("--- see below ---") is the comment's text."""
    doc = _printed(["--- comment by jdoe, 2024-03-14 09:12 --- Run 7b-v2 crashed at step 12,400;",
                    "restarted from 12k. --- see below --- will watch."],
                   ["--- comment by mchen, 2024-03-14 11:47 --- Same node both times (gpu-c031),",
                    "requesting drain."])
    assert _read(doc) == [("--- comment by jdoe, 2024-03-14 09:12 ---", date(2024, 3, 14), "09:12"),
                          ("--- comment by mchen, 2024-03-14 11:47 ---", date(2024, 3, 14),
                           "11:47")]
    assert segment(doc)[0].text == (
        "Run 7b-v2 crashed at step 12,400; restarted from 12k. --- see below --- will watch.")


def test_bracketed_bylines_over_their_messages_run_into_one_paragraph_head_them_again():
    """A Teams copy's "[14/03/2024 09:12] Jane Doe" stood on its own line over the message; run
    into one printed paragraph, each byline's name is as long as the names that recur."""
    doc = _printed(["[14/03/2024 09:12] Jane Doe Run paused at step 22,400 for maintenance on the",
                    "storage cluster. [14/03/2024 14:47] Ken Nakamura Storage is back. Relaunched",
                    "from 22,000. [15/03/2024 08:03] Jane Doe Two nodes dropped overnight with Xid",
                    "79."])
    assert _read(doc) == [("[14/03/2024 09:12] Jane Doe", date(2024, 3, 14), "09:12"),
                          ("[14/03/2024 14:47] Ken Nakamura", date(2024, 3, 14), "14:47"),
                          ("[15/03/2024 08:03] Jane Doe", date(2024, 3, 15), "08:03")]
    assert segment(doc)[1].text == "Storage is back. Relaunched from 22,000."


def test_a_stamp_over_notes_that_open_with_capitalised_words_keeps_them_in_its_heading():
    """Not every note opens with a name: the stamps stood alone, and no name is cut off."""
    doc = _printed(["[11/03/2024 19:40] Vireo Slack says the job is up. [12/03/2024 03:15] PDU B",
                    "tripped in row 4. [13/03/2024 02:50] Vireo Slack reports a loss spike."])
    assert [h for h, _, _ in _read(doc)] == [
        "[11/03/2024 19:40] Vireo Slack says the job is up.",
        "[12/03/2024 03:15] PDU B tripped in row 4.",
        "[13/03/2024 02:50] Vireo Slack reports a loss spike."]


def test_a_line_underlined_by_a_row_of_symbols_run_into_its_paragraph_heads_it():
    """Markdown runs "Monday 25 March 2024" / "++++++++++++++++++++" / text into one paragraph;
    a row of another length is the text's ("loss ++++ fine")."""
    doc = _printed(["Monday 25 March 2024 ++++++++++++++++++++ Weekend run clean, 2 auto-restarts",
                    "(both ECC on gpu-a040)."],
                   ["Tuesday 26 March 2024 +++++ loss flat, all fine."])
    assert [(e.heading, e.date) for e in segment(doc)] == [
        ("Monday 25 March 2024", date(2024, 3, 25)),
        ("Tuesday 26 March 2024 +++++ loss flat, all fine.", date(2024, 3, 26))]
    assert segment(doc)[0].text.endswith(
        "Weekend run clean, 2 auto-restarts (both ECC on gpu-a040).")


def test_a_day_tag_run_into_its_note_heads_it_again():
    """A notes app's "#2024_07_01" over its note prints as the note's first word; a paragraph
    that names a tag later ("see #2024_07_03") stays whole."""
    doc = _printed(["#2024_07_01 #run/vision-lm-2b kicked off. 8 nodes, global batch 1024."],
                   ["#2024_07_02 Image-text loss plateaued at 1.8, restarted from scratch."],
                   ["Prefetch fixed the stalls, see #2024_07_03 for the numbers."])
    assert [(e.heading, e.date) for e in segment(doc)] == [
        ("#2024_07_01", date(2024, 7, 1)), ("#2024_07_02", date(2024, 7, 2))]
    assert segment(doc)[-1].text.endswith("see #2024_07_03 for the numbers.")


@pytest.mark.parametrize("fmt", ["pdf", "html"])
def test_a_title_over_its_stamp_run_into_the_note_heads_it_again(fmt):
    """A Keep export's title over "Mar 11, 2024, 8:02:17 AM" over the text prints as one
    paragraph; a sentence or a field that names a clocked date is no title ("Resumed on ...",
    "Time: ...")."""
    doc = _printed(["Run started Mar 11, 2024, 8:02:17 AM Launched 7b-base on 16 nodes. Loss 3.8",
                    "at step 1000."],
                   ["NCCL timeout Mar 12, 2024, 1:46:55 AM Job hung at step 5230."],
                   ["Resumed on Mar 12, 2024, 2:10:00 AM after the restart, fine since."],
                   ["Time: Mar 12, 2024, 9:00:00 AM Recorder: ops"], fmt=fmt)
    assert _read(doc) == [("Run started", date(2024, 3, 11), "8:02:17 AM"),
                          ("NCCL timeout", date(2024, 3, 12), "1:46:55 AM")]
    assert segment(doc)[-1].text.startswith("Job hung at step 5230.")


def test_an_org_heading_over_its_timestamp_printed_as_a_list_item_heads_its_note():
    """An Org outline pasted as Markdown: "* Restarted after ECC" over "<2024-03-14 Thu 09:12>"
    over the text prints as one list item."""
    doc = _printed(["- Launched code-15b on 48 nodes <2024-03-11 Mon 08:30> Loss 4.4, MFU 40%.",
                    "- Restarted after ECC <2024-03-14 Thu 09:12> Node g17 uncorrectable ECC."])
    assert _read(doc) == [("Launched code-15b on 48 nodes", date(2024, 3, 11), "08:30"),
                          ("Restarted after ECC", date(2024, 3, 14), "09:12")]
    assert segment(doc)[-1].text == "Node g17 uncorrectable ECC."


def test_a_bots_mail_header_without_a_date_printed_with_its_body_heads_it():
    """A bot's mail pasted as "Subject: ..." over "From: bot <addr>" over its body prints as one
    paragraph: the header ends after the sender's address, or after a Date's clock and zone."""
    doc = _printed(["Subject: [train-bot] Daily report 2024-03-11 From: train-bot",
                    "train-bot@cluster.internal step: 8000 loss: 2.96 restarts: 0"],
                   ["Subject: [train-bot] ALERT loss spike From: train-bot",
                    "train-bot@cluster.internal Date: Wed, 13 Mar 2024 02:17:44 +0000 loss 2.71",
                    "-> 3.92 over 30 steps."])
    entries = segment(doc)
    assert [(e.heading, e.date, e.time) for e in entries] == [
        ("[train-bot] Daily report 2024-03-11", date(2024, 3, 11), None),
        ("[train-bot] ALERT loss spike", date(2024, 3, 13), "02:17:44")]
    assert [e.text.splitlines()[-1] for e in entries] == [
        "step: 8000 loss: 2.96 restarts: 0", "loss 2.71 -> 3.92 over 30 steps."]
