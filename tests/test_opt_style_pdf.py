"""An OPT-style logbook PDF built here: TOC first, newest first, ET/PT, wrapped titles, a typo."""

from __future__ import annotations

from datetime import date, datetime

import pytest
from fpdf import FPDF
from pdfbuild import Note, write_logbook

from logbook_miner.read import read
from logbook_miner.segment.entries import segment

LONG_TITLE = ("2021-11-30 10:10am PT: 12.36 restart from 37k, SGD mimicking "
              "[WARNING: See 2021-12-02 17:16 ET: Debrief on why it may not be SGD]")
NOTES = [
    Note("2021-12-02 17:16 ET [Stephen]: Debrief on 12.36",
         ["Looked again at the optimizer state after the restart."]),
    Note(LONG_TITLE, ["Relaunched from checkpoint 37k with the SGD-like settings.",
                      "The date 2021-11-01 in this sentence starts no entry."]),
    Note("2021-11-20 4:00pm ET [Susan]: Run 12.35",  # typo: written between two 11-30 entries
         ["Loss scale collapsed again; lowered LR."]),
    Note("2021-11-30 9:00am ET [Myle]: Run 12.34",
         ["Lost a node to ECC errors, requeued.", "Page 3 of 9 is not a footer here."],
         code=["RuntimeError: CUDA error: unknown error",
               "2021-11-30 08:59:12 | INFO | iteration 37120 | loss 2.61",
               "  File \"train.py\", line 42, in step"]),
    Note("2021-11-27 11:39 ET [Stephen]: Run 12.26", ["NCCL timeout on 3 hosts."]),
    Note("2021-11-24 1:00pm ET [Susan]: Run 12.17", ["Started Run 12.17."]),
    Note("2021-11-21 3pm [Myle]: Run 12.13", ["Run 12.13 up."]),
    Note("[Undated] Run 2", ["Notes from the first attempt."]),
]


@pytest.fixture(scope="module")
def entries(tmp_path_factory):
    path = write_logbook(tmp_path_factory.mktemp("opt") / "opt-logbook.pdf",
                         "OPT-style logbook", NOTES)
    return segment(read(path), default_timezone="ET")


def test_toc_lines_are_not_entries_and_every_note_is(entries):
    assert [e.heading for e in entries] == [n.heading for n in NOTES]


def test_wrapped_title_is_joined_and_inner_date_starts_nothing(entries):
    long = entries[1]
    assert long.heading == LONG_TITLE
    assert long.date == date(2021, 11, 30)
    assert "2021-11-01 in this sentence" in long.text


def test_times_zones_authors_run_ids(entries):
    by_run = {e.run_id: e for e in entries}
    assert by_run["12.17"].time == "1:00pm" and by_run["12.17"].timezone == "ET"
    assert by_run["12.17"].author == "Susan"
    assert by_run["12.17"].ts_utc == datetime(2021, 11, 24, 18, 0)  # EST = UTC-5
    assert by_run["12.26"].ts_utc == datetime(2021, 11, 27, 16, 39)
    assert by_run["12.36"].timezone == "PT"
    assert by_run["12.36"].ts_utc == datetime(2021, 11, 30, 18, 10)  # PST = UTC-8
    # "3pm" with no zone takes the --timezone default
    assert by_run["12.13"].ts_utc == datetime(2021, 11, 21, 20, 0)


def test_undated_entry_keeps_null_date(entries):
    last = entries[-1]
    assert last.heading == "[Undated] Run 2" and last.date is None and last.author is None


def test_typo_date_is_kept_and_flagged(entries):
    flagged = [e.heading for e in entries if e.chronology_anomaly]
    assert flagged == ["2021-11-20 4:00pm ET [Susan]: Run 12.35"]
    assert entries[2].date == date(2021, 11, 20)


def test_page_furniture_removed_and_code_kept(entries):
    text = "\n".join(e.text for e in entries)
    assert "11/29/26" not in text and "file:///" not in text
    assert "Page 3 of 9 is not a footer here." in text  # furniture only at page edges
    code = entries[3].text
    assert "RuntimeError: CUDA error: unknown error\n2021-11-30 08:59:12" in code
    assert '\n  File "train.py"' in code  # code indentation restored from x positions


def test_pages_recorded(entries):
    assert all(e.page_start and e.page_end and e.page_start <= e.page_end for e in entries)
    assert entries[0].page_start == 1


def test_an_indented_toc_under_an_intro_is_dropped_too(tmp_path):
    """Google Docs indents its TOC links; the title keeps only its own text."""
    path = write_logbook(tmp_path / "indented.pdf", "OPT-style logbook", NOTES, toc_indent=8,
                         intro="Notes of the on-call team, newest first.")
    got = segment(read(path), default_timezone="ET")
    assert [e.heading for e in got] == ["OPT-style logbook"] + [n.heading for n in NOTES]
    assert got[0].text == "Notes of the on-call team, newest first."


def test_a_document_that_is_only_headers_is_a_list_of_entries(tmp_path):
    headers = [Note(n.heading) for n in NOTES[:4]]
    path = write_logbook(tmp_path / "headers.pdf", "Headers only", headers, toc=False,
                         footer_style="page")
    got = [e.heading for e in segment(read(path))]
    assert got == [n.heading for n in headers]


# Incident titles that put the date last, long enough to wrap: the date's line is the
# heading's second, as a browser prints Markdown's "## INC-412: ... (2023-09-04)".
DATED_LAST = [
    Note("INC-412: Training crashes at step 1840 with an illegal memory access on two "
         "ranks (2023-09-04)", ["Rank 3 and rank 11 died with the same trace, twice in an hour; "
                                "the job was requeued from the 1800 checkpoint each time."]),
    Note("INC-418: The data loader raises UnicodeDecodeError on shard 0173 of the web "
         "mix (2023-09-06)", ["Shard 0173 holds Latin-1 text that the tokenizer job missed; "
                              "it is skipped until the data team writes it again."]),
    Note("INC-427: quiet day (2023-09-11)", ["Nothing to report: loss 2.31, no restarts, "
                                             "throughput as usual on all 64 nodes."]),
]


def test_a_wrapped_title_with_its_date_last_is_one_dated_heading(tmp_path):
    path = write_logbook(tmp_path / "incidents.pdf", "Incident log", DATED_LAST, toc=False)
    entries = segment(read(path))
    assert [(e.heading, e.date) for e in entries] == [
        (n.heading, date.fromisoformat(n.heading[-11:-1])) for n in DATED_LAST]
    assert " ".join(entries[0].text.split()) == DATED_LAST[0].paragraphs[0]  # (wrapped)



def test_two_short_headings_one_under_the_other_stay_two(tmp_path):
    """Headings set close (Word's Heading 2: 1.31 sizes apart), an empty day over the next:
    the first ends far from the right edge, so the second is no wrap of it."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    body = "Relaunched from the 37k checkpoint after the node swap; loss back on trend. " * 3
    notes = [("2024-01-05 restart", body), ("2024-01-06 holiday, nothing logged", ""),
             ("2024-01-07 restart", body)]
    for heading, text in notes:
        pdf.set_font("Helvetica", "B", 14)
        pdf.cell(0, 14 * 1.31 / 72 * 25.4, heading, new_x="LMARGIN", new_y="NEXT")
        if text:
            pdf.set_font("Helvetica", size=11)
            pdf.multi_cell(0, 5.5, text, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(tmp_path / "close.pdf"))
    entries = segment(read(tmp_path / "close.pdf"))
    assert [e.heading for e in entries] == [heading for heading, _ in notes]


def test_a_heading_wrapped_early_goes_on_in_lower_case(tmp_path):
    """WeasyPrint wraps a long heading before a word that would have fitted: the first line
    ends far from the right edge, but the next one goes on in lower case, which no heading
    opens with, so the two are one heading (and its second date no second entry)."""
    pdf = FPDF(format="letter")
    pdf.add_page()
    body = "The gpu partition is down for the Lustre client upgrade; jobs are held. " * 3
    for heading in (["[gpu-users] 2024-01-29 Re: Scheduled", "maintenance 30 Jan – 1 Feb 2024"],
                    ["[gpu-users] 2024-02-02 Aurelia back in service"]):
        pdf.set_font("Helvetica", "B", 16)
        for line in heading:
            pdf.cell(0, 16 * 1.16 / 72 * 25.4, line.replace("–", "-"), new_x="LMARGIN",
                     new_y="NEXT")
        pdf.set_font("Helvetica", size=11)
        pdf.multi_cell(0, 5.5, body, new_x="LMARGIN", new_y="NEXT")
        pdf.ln(6)
    pdf.output(str(tmp_path / "list.pdf"))
    entries = segment(read(tmp_path / "list.pdf"))
    assert [(e.heading, str(e.date)) for e in entries] == [
        ("[gpu-users] 2024-01-29 Re: Scheduled maintenance 30 Jan - 1 Feb 2024", "2024-01-29"),
        ("[gpu-users] 2024-02-02 Aurelia back in service", "2024-02-02")]
