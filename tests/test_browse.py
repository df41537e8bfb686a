"""Looking things up on the real logbooks: logbooks, show, search, forget (issue 15)."""

from __future__ import annotations

import hashlib
import json

import pytest
from helpers import logbook_in_process

from logbook_miner import Store

NAMES = ("bloom-tr11-176b", "opt-175b-27_percent_update", "opt-175b-56_percent_update")


@pytest.fixture(scope="module")
def store(shared, tmp_path_factory) -> Store:
    store = Store(tmp_path_factory.mktemp("browse") / "x.duckdb")
    store.ingest([shared / "logbooks" / "md" / f"{name}.md" for name in NAMES])
    return store


def test_logbooks_lists_what_is_stored(store, shared, monkeypatch):
    rows = {r["logbook"]: r for r in store.logbooks().to_dict("records")}
    assert set(rows) == set(NAMES)
    assert rows["bloom-tr11-176b"]["entries"] == 21
    assert str(rows["bloom-tr11-176b"]["first_date"]) == "2022-03-11"
    source = shared / "logbooks" / "md" / "bloom-tr11-176b.md"
    digest = hashlib.sha256(source.read_bytes()).hexdigest()
    assert rows["bloom-tr11-176b"]["sha256"] == digest  # the whole hash, to check a file by
    monkeypatch.setenv("COLUMNS", "200")  # wide enough for every column
    table = logbook_in_process("logbooks", "--db", store.path).stdout
    assert digest[:12] in table and digest not in table  # a table shows 12 digits


def test_show_gives_the_note_its_labels_and_evidence(store):
    view = store.show("opt-175b-27_percent_update", 1)
    assert view.entry["heading"] == "Update on 175B Training Run: 27% through"
    assert "40+ restarts" in view.entry["text"]
    labels = {r["code"]: r["evidence"] for r in view.labels.to_dict("records")}
    assert "restart" in labels and labels["restart"] in view.entry["text"]
    run = logbook_in_process("show", "opt-175b-27_percent_update", "1", "--db", store.path)
    assert run.returncode == 0
    assert run.stdout.startswith("opt-175b-27_percent_update #1: Update on 175B Training Run")
    assert "\nlabels:\n" in run.stdout
    shown = json.loads(logbook_in_process("show", "opt-175b-27_percent_update", "1", "--db",
                                          store.path, "--format", "json").stdout)
    assert {lb["code"] for lb in shown["labels"]} == set(labels)


def test_show_of_a_missing_entry_is_one_line(store):
    run = logbook_in_process("show", "opt-175b-27_percent_update", "99", "--db", store.path)
    assert run.returncode == 1
    assert run.stderr.strip().splitlines() == [
        "error: no entry 99 in logbook 'opt-175b-27_percent_update' (see `logbooks` for what "
        "is stored)"]


@pytest.mark.parametrize("args", [("show", "nosuch", "1"),
                                  ("search", "ECC", "--logbook", "nosuch")])
def test_a_logbook_that_is_not_stored_is_named_not_an_empty_answer(store, args):
    run = logbook_in_process(*args, "--db", store.path)
    assert (run.returncode, run.stderr.strip()) == (
        1, "error: no such logbook: nosuch (see `logbooks` for what is stored)")


def test_an_unknown_code_is_named_with_the_nearest_codes(store):
    run = logbook_in_process("search", "ECC", "--code", "hardware.mem", "--db", store.path)
    assert (run.returncode, run.stderr.strip()) == (1, (
        "error: unknown code 'hardware.mem' (did you mean hardware.memory or hardware.node or "
        "hardware.sdc?)"))


@pytest.mark.parametrize("command", [("mtbf",), ("search", "ECC"), ("review", "--out", "r.csv")])
def test_a_repeated_logbook_is_refused_where_one_is_read(store, command):
    """mtbf, search and review read one logbook: a second --logbook was dropped quietly."""
    run = logbook_in_process(*command, "--logbook", "bloom-tr11-176b", "--logbook", "x",
                             "--db", store.path)
    assert run.returncode == 1 and run.stderr.strip().endswith(
        "Error: Invalid value for '--logbook': takes one logbook here, not 2 "
        "(bloom-tr11-176b, x)")


def test_search_ranks_entries_with_every_word_first_and_filters(store):
    found = store.search("ECC errors")
    assert {(r["logbook"], r["seq"]) for r in found.head(2).to_dict("records")} == {
        ("opt-175b-27_percent_update", 1), ("opt-175b-56_percent_update", 3)}
    assert all("ECC" in s for s in found.head(2)["snippet"])
    texts = {(r["logbook"], r["seq"]): " ".join(r["text"].split())
             for r in store.sql("SELECT logbook, seq, text FROM entries").to_dict("records")}
    for row in found.to_dict("records"):  # whole words, never a word cut in two
        assert f" {row['snippet']} " in f" {texts[row['logbook'], row['seq']]} ", row
    only = store.search("ECC errors", logbook="opt-175b-27_percent_update")
    assert set(only["logbook"]) == {"opt-175b-27_percent_update"}
    dated = store.search("loss", since="2022-04-01", until="2022-12-31")
    assert not dated.empty and all(str(d) >= "2022-04-01" for d in dated["date"])
    coded = store.search("loss", code="numerics.loss_spike")
    assert not coded.empty
    assert store.search("zzzqqq").empty


def test_a_snippet_stays_short_beside_a_pasted_blob(tmp_path):
    notes = tmp_path / "notes.md"
    blob = "x" * 4000
    notes.write_text(f"# 2024-03-10 dump\n\nthe dump: {blob} then NCCL timeout, restarted.\n\n"
                     f"# 2024-03-11 heading names NCCL only\n\n{blob} and more words here\n")
    store = Store(tmp_path / "x.duckdb")
    store.ingest([notes], label=False)
    found = {row["seq"]: row["snippet"] for row in store.search("NCCL").to_dict("records")}
    assert found[1] == "then NCCL timeout, restarted."
    assert found[2] == ""  # the text opens with the blob: no whole words to show


def test_forget_removes_one_logbook_in_one_go(store):
    run = logbook_in_process("forget", "nosuch", "--db", store.path)
    assert (run.returncode, run.stderr.strip()) == (
        1, "error: no such logbook: nosuch (see `logbooks` for what is stored)")
    run = logbook_in_process("forget", "opt-175b-56_percent_update", "--db", store.path)
    assert run.returncode == 0 and "forgot opt-175b-56_percent_update" in run.stdout
    assert set(store.logbooks()["logbook"]) == {"bloom-tr11-176b", "opt-175b-27_percent_update"}
    assert store.sql("SELECT count(*) AS n FROM labels WHERE logbook = "
                     "'opt-175b-56_percent_update'")["n"].item() == 0


@pytest.mark.parametrize("args", [("mtbf", "--format", "xml"), ("mtbf", "--db", ""),
                                  ("nosuch-command",), ("sql",)])
def test_usage_errors_exit_1_not_2_which_means_database_in_use(args):
    run = logbook_in_process(*args)
    assert run.returncode == 1
