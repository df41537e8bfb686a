"""Counts and rates stated in prose become rates (TAXONOMY rule 14, issue 12)."""

from __future__ import annotations

from datetime import date

import pytest

from logbook_miner.label.rates import mine_rates
from logbook_miner.models import Entry
from logbook_miner.read import read
from logbook_miner.segment.entries import segment


def rates_in(shared, logbook: str, phrase: str):
    """The rates of the entry of a real logbook that holds `phrase`."""
    [entry] = [e for e in segment(read(shared / "logbooks" / "md" / f"{logbook}.md"))
               if phrase in e.text]
    return [r for r in mine_rates(entry) if phrase in r.evidence]


def test_a_count_since_a_date_in_the_sentence_before(shared):
    [rate] = rates_in(shared, "opt-175b-27_percent_update", "40+ restarts")
    assert (rate.code, rate.events, rate.bound) == ("restart", 40, ">=")
    assert (rate.period_start, rate.period_end) == (date(2021, 11, 17), date(2021, 12, 3))
    assert rate.mtbf_hours == pytest.approx(384 / 40)


@pytest.mark.parametrize("rendering", ["pdf/{}.pdf", "pdf/{}.weasy.pdf"])
def test_a_count_over_a_line_the_pdf_wrapped(shared, rendering):
    """The PDFs wrap "we've had 40+" / "restarts in the 175B experiment": one sentence, and
    the evidence is the text as stored, line end and all."""
    path = shared / "logbooks" / rendering.format("opt-175b-27_percent_update")
    [entry] = segment(read(path))
    [rate] = mine_rates(entry)
    assert (rate.code, rate.events, rate.period_start) == ("restart", 40, date(2021, 11, 17))
    assert "40+\nrestarts" in rate.evidence or "40+ restarts" in rate.evidence
    assert entry.text[rate.start:rate.end] == rate.evidence


def test_a_frequency_in_parentheses(shared):
    [rate] = rates_in(shared, "opt-175b-final_update", "~2 machines go down every day")
    assert (rate.code, rate.events, rate.bound, rate.hours) == ("hardware.node", 2, "~", 24)
    assert rate.mtbf_hours == 12


def test_every_week_or_so_one_of_the_gpus_dies(shared):
    [rate] = rates_in(shared, "bloom-tr11-176b", "one of the gpus dies")
    assert (rate.code, rate.events, rate.bound, rate.hours) == ("hardware.gpu", 1, "~", 168)


@pytest.mark.parametrize(("text", "expected"), [
    ("We had 35 manual restarts in the last two weeks.", ("restart", 35, "=", 336)),
    ("About 3 nodes went down every day.", ("hardware.node", 3, "~", 24)),
    ("A GPU fell off the bus every 12 hours.", None),  # no number before the event
    ("If 3 nodes go down every day we lose a day a week.", None),  # hypothetical
    ("We had 40 restarts.", None),  # a count with no period is no rate
])
def test_sentences(text, expected):
    found = [(r.code, r.events, r.bound, r.hours)
             for r in mine_rates(Entry(seq=1, heading="x", text=text, date=date(2022, 1, 6)))]
    assert found == ([expected] if expected else [])


def test_mtbf_reports_what_the_notes_state_beside_the_entries(shared, tmp_path):
    """The four OPT-175B notes merged: entries show a handful of stops over two months, the
    notes say 40+ restarts in 16 days; `mtbf` gives both and says which bounds the truth."""
    from logbook_miner import Store

    store = Store(tmp_path / "x.duckdb")
    store.ingest(sorted((shared / "logbooks" / "md").glob("opt-175b-*.md")), as_one="opt-175b")
    [row] = store.mtbf().to_dict("records")
    assert 6 <= row["reported_mtbf_hours"] <= 24
    assert "40+ restarts" in row["reported_evidence"]
    assert row["mtbf_hours"] > 10 * row["reported_mtbf_hours"]
    assert "the entry-based MTBF is an upper bound" in row["note"]


def test_bloom_hardware_rate_is_about_one_a_week(shared, tmp_path):
    from logbook_miner import Store

    store = Store(tmp_path / "x.duckdb")
    store.ingest([shared / "logbooks" / "pdf" / "bloom-tr11-176b.pdf"])
    rows = {r["family"]: r for r in store.mtbf(by="family").to_dict("records")}
    assert 84 <= rows["hardware"]["reported_mtbf_hours"] <= 336


def test_mtbf_of_notes_that_never_name_their_cluster(tmp_path):
    """No node or GPU count in the notes: `mtbf` still answers, without per-node columns."""
    from logbook_miner import Store

    notes = tmp_path / "notes.md"
    notes.write_text("# Run notes\n\n## 2024-03-10\n\nThe job crashed with an NCCL timeout; "
                     "that makes 9 restarts since 2024-03-01.\n", encoding="utf-8")
    store = Store(tmp_path / "x.duckdb")
    store.ingest([notes])
    [row] = store.mtbf().to_dict("records")
    assert row["reported_events"] == 9 and row["reported_mtbf_hours"] == 24
    assert "nodes" not in row and "node_mtbf_hours" not in row


def test_event_regexes_see_nothing_past_their_words_but_word_boundaries():
    """rates._found_events searches the whole text once and reads sentences only for the
    events found: exact only while no event regex anchors at a line or string edge or looks
    around its match (a lookaround or '^' could match in a sentence and not in the text)."""
    from re import _constants as sre
    from re import _parser as sre_parse

    from logbook_miner.label.rates import _vocabulary

    def looks_around(nodes) -> bool:
        for op, av in nodes:
            if op in (sre.ASSERT, sre.ASSERT_NOT):
                return True
            if op is sre.AT and av not in (sre.AT_BOUNDARY, sre.AT_NON_BOUNDARY):
                return True
            parts = av if isinstance(av, list | tuple) else ()
            subs = [p for part in parts for p in (part if isinstance(part, list) else [part])
                    if isinstance(p, sre_parse.SubPattern)]
            if any(looks_around(sub) for sub in subs):
                return True
        return False

    events = _vocabulary().events
    assert events
    assert [code for code, pattern in events
            if looks_around(sre_parse.parse(pattern.pattern, pattern.flags))] == []
    assert not looks_around(sre_parse.parse(r"\bnode\b fail")), "the check itself"
    assert looks_around(sre_parse.parse(r"(?:a|(?<=x)b)")), "the check itself"
