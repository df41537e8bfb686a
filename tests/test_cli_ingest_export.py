"""`logbook ingest` and `logbook export` as a user runs them: real files, a real DuckDB."""

from __future__ import annotations

import json
import shlex
import subprocess
from datetime import date

import duckdb
import pytest
from click.testing import CliRunner
from helpers import CLI, ROOT, entry_counts, logbook

from logbook_miner.cli import main
from logbook_miner.ingest import ingest, no_labels
from logbook_miner.label.relabel import relabel

DAY_ONE = "# 2021-11-24\n\nRun 12.17 started.\n"
DAY_TWO = "# 2021-11-25\n\nRun 12.18 after a restart.\n"


@pytest.fixture
def run():
    runner = CliRunner()

    def invoke(*args):
        return runner.invoke(main, [str(a) for a in args], catch_exceptions=False)
    return invoke


@pytest.fixture
def notes(tmp_path):
    folder = tmp_path / "daily"
    folder.mkdir()
    (folder / "2021-11-25.md").write_text(DAY_TWO)
    (folder / "2021-11-24.md").write_text(DAY_ONE)
    return folder


def stored(db, sql):
    with duckdb.connect(str(db), read_only=True) as con:
        return con.execute(sql).fetchall()


def test_ingest_is_idempotent_and_replaces_a_changed_file(run, tmp_path, notes):
    db = tmp_path / "x.duckdb"
    first = run("ingest", notes / "2021-11-24.md", "--db", db, "--name", "ops")
    assert first.exit_code == 0 and "ops: 1 entry, 1 dated" in first.output
    again = run("ingest", notes / "2021-11-24.md", "--db", db, "--name", "ops")
    assert again.exit_code == 0 and "unchanged" in again.output
    (notes / "2021-11-24.md").write_text(DAY_ONE + "\n# 2021-11-26\n\nMore.\n")
    changed = run("ingest", notes / "2021-11-24.md", "--db", db, "--name", "ops")
    assert "ops: 2 entries" in changed.output
    assert stored(db, "SELECT count(*) FROM entries WHERE logbook = 'ops'") == [(2,)]


def test_folder_is_one_logbook_per_file_or_merged_with_as_one(run, tmp_path, notes):
    db = tmp_path / "x.duckdb"
    run("ingest", notes, "--db", db)
    assert stored(db, "SELECT id FROM logbooks ORDER BY id") == [("2021-11-24",), ("2021-11-25",)]
    merged = run("ingest", notes, "--db", db, "--as-one", "daily")
    assert merged.exit_code == 0
    assert stored(db, "SELECT seq, heading FROM entries WHERE logbook = 'daily' ORDER BY seq") == [
        (1, "2021-11-24"), (2, "2021-11-25")]  # file-name order


def test_merged_daily_notes_undated_inside_are_dated_by_their_names(run, tmp_path):
    days = tmp_path / "days"
    days.mkdir()
    (days / "2023-03-04.org").write_text("* Notes\nNCCL timeout, restarted.\n")
    (days / "2023-03-05.md").write_text("# Notes\n\nLoss spike, recovered.\n")
    (days / "2023-03-06.md").write_text("# 2023-03-07 late write-up\n\nAll healthy.\n")
    (days / "zz-contacts.md").write_text("# Contacts\n\nOn-call: kim.\n")
    db = tmp_path / "x.duckdb"
    assert run("ingest", days, "--db", db, "--as-one", "days").exit_code == 0
    assert stored(db, "SELECT date, heading, text FROM entries ORDER BY seq") == [
        (date(2023, 3, 4), "2023-03-04 Notes", "NCCL timeout, restarted."),
        (date(2023, 3, 5), "2023-03-05 Notes", "Loss spike, recovered."),
        (date(2023, 3, 7), "2023-03-07 late write-up", "All healthy."),  # its own date counts
        (None, "Contacts", "On-call: kim.")]  # no date in its name: a note of its own


def test_a_bad_file_fails_alone(run, tmp_path, notes):
    db = tmp_path / "x.duckdb"
    junk = tmp_path / "junk.pdf"
    junk.write_bytes(b"this is not a pdf")
    result = run("ingest", junk, notes / "2021-11-24.md", "--db", db)
    assert result.exit_code == 1
    assert f"error: {junk}: not a PDF" in result.output
    assert stored(db, "SELECT id FROM logbooks") == [("2021-11-24",)]


def test_export_jsonl_has_the_contract_fields(run, tmp_path, notes):
    db = tmp_path / "x.duckdb"
    run("ingest", notes, "--db", db, "--as-one", "daily", "--timezone", "ET")
    result = run("export", "--db", db, "--out", tmp_path / "out")
    assert result.exit_code == 0
    rows = [json.loads(line) for line in (tmp_path / "out/entries.jsonl").read_text().splitlines()]
    assert {"logbook", "seq", "heading", "date", "time", "timezone", "ts_utc", "author", "run_id",
            "page_start", "page_end", "chronology_anomaly", "text", "faults",
            "interventions"} <= set(rows[0])
    assert rows[0]["date"] == "2021-11-24" and isinstance(rows[0]["faults"], list)
    assert (tmp_path / "out/logbooks.jsonl").exists()


@pytest.mark.parametrize("fmt", ["csv", "parquet"])
def test_export_other_formats_read_back(run, tmp_path, notes, fmt):
    db = tmp_path / "x.duckdb"
    run("ingest", notes, "--db", db)
    run("export", "--db", db, "--out", tmp_path / "out", "--format", fmt)
    reader = "read_csv_auto" if fmt == "csv" else "read_parquet"
    with duckdb.connect() as con:
        path = tmp_path / f"out/entries.{fmt}"
        assert con.execute(f"SELECT count(*) FROM {reader}('{path}')").fetchone() == (2,)


@pytest.mark.parametrize("args", [("classify",), ("forget", "x"), ("review", "--apply", "{r}")])
def test_a_write_command_on_a_missing_database_creates_none(run, tmp_path, args):
    """Only ingest makes a database: `classify --db typo.duckdb` said nothing, exited 0 and
    left an empty database for the read commands to answer '(no rows)' from."""
    (tmp_path / "r.csv").write_text("logbook,seq,code,decision\n")
    db = tmp_path / "typo.duckdb"
    result = run(*(arg.format(r=tmp_path / "r.csv") for arg in args), "--db", db)
    assert result.exit_code == 1 and not db.exists()
    assert result.output.strip() == f"error: {db}: no such database (run `logbook ingest` first)"


def test_a_data_file_given_as_the_database_is_refused_untouched(run, tmp_path, notes):
    """DuckDB opens an existing CSV as a database in memory: the ingest 'succeeded' and stored
    nothing. It is one error line now, and the CSV is as it was."""
    csv = tmp_path / "review.csv"
    csv.write_text("logbook,seq\nops,1\n")
    result = run("ingest", notes, "--db", csv, "--no-label")
    assert result.exit_code == 1 and csv.read_text() == "logbook,seq\nops,1\n"
    assert result.output.strip() == (f"error: {csv}: not a database file (DuckDB would keep it "
                                      "in memory); name the store *.duckdb")


def test_an_export_over_another_format_says_what_it_removed(run, tmp_path, notes):
    db, out = tmp_path / "x.duckdb", tmp_path / "out"
    run("ingest", notes, "--db", db, "--no-label")
    first = run("export", "--db", db, "--out", out)
    assert "removed" not in first.output
    again = run("export", "--db", db, "--out", out, "--format", "csv")
    assert again.exit_code == 0 and again.output.splitlines()[-1] == (
        "removed the earlier export's 7 files: entries.jsonl, incidents.jsonl, "
        "interventions.jsonl and 4 more")
    assert not list(out.glob("*.jsonl"))


@pytest.mark.parametrize(("args", "error"), [
    (("--name", ""), "error: --name is empty; give a logbook id, or leave it out"),
    (("--as-one", " "), "error: --as-one is empty; give a logbook id, or leave it out"),
])
def test_an_empty_logbook_id_is_refused(run, tmp_path, notes, args, error):
    """--name '' was taken as no name: the file's stem, without a word."""
    result = run("ingest", notes / "2021-11-24.md", "--db", tmp_path / "x.duckdb", *args)
    assert (result.exit_code, result.output) == (1, error + "\n")
    assert not (tmp_path / "x.duckdb").exists()


def test_a_path_that_does_not_exist_is_named_without_python_s_errno(run, tmp_path, notes):
    db = tmp_path / "x.duckdb"
    run("ingest", notes, "--db", db, "--no-label")
    result = run("review", "--db", db, "--out", tmp_path / "no" / "r.csv")
    assert (result.exit_code, result.output) == (
        1, f"error: {tmp_path / 'no' / 'r.csv'}: No such file or directory\n")


def test_export_without_a_database_says_so(run, tmp_path):
    result = run("export", "--db", tmp_path / "none.duckdb", "--out", tmp_path / "out")
    assert result.exit_code == 1 and "no such database" in result.output
    assert not (tmp_path / "out").exists()  # a failed export leaves no empty folder


def test_an_unknown_logbook_is_named_by_export_and_review(run, tmp_path, notes):
    db = tmp_path / "x.duckdb"
    run("ingest", notes, "--db", db, "--no-label")
    result = run("export", "--db", db, "--out", tmp_path / "out", "--logbook", "nosuch")
    assert (result.exit_code, result.output) == (
        1, "error: no such logbook: nosuch (see `logbooks` for what is stored)\n")
    assert not (tmp_path / "out").exists()
    result = run("review", "--db", db, "--out", tmp_path / "r.csv", "--logbook", "nosuch")
    assert (result.exit_code, result.output) == (
        1, "error: no such logbook: nosuch (see `logbooks` for what is stored)\n")
    assert not (tmp_path / "r.csv").exists()


class Heard:
    """A `Progress` that writes down what an ingest tells it."""

    def __init__(self) -> None:
        self.events: list[tuple] = []
        self.results: list = []

    def start(self, files: int) -> None:
        self.events.append(("start", files))

    def page(self, read: int, total: int) -> None:
        self.events.append(("page", read, total))

    def file_done(self, result) -> None:
        self.events.append(("file",))
        self.results.append(result)


def test_ingest_reports_files_and_the_pages_of_a_pdf_read_in_process(tmp_path, notes):
    from logbook_miner import Store
    from logbook_miner.resources import DATA

    pdf = DATA / "samples" / "opt" / "synth-opt-s7.pdf"
    heard = Heard()
    Store(tmp_path / "p.duckdb").ingest([pdf, notes], label=False, workers=1, progress=heard)
    pages = [e for e in heard.events if e[0] == "page"]
    assert heard.events[0] == ("start", 3) and heard.events.count(("file",)) == 3
    assert pages == [("page", n, 7) for n in range(1, 8)]
    assert heard.events.index(pages[-1]) < heard.events.index(("file",))  # pages come first
    assert [r.status for r in heard.results] == ["ingested"] * 3  # each final when told
    assert all(r.entries > 0 for r in heard.results)


def test_quiet_ingest_prints_no_bar(run, tmp_path, notes):
    result = run("ingest", notes, "--db", tmp_path / "q.duckdb", "--quiet", "--no-label")
    assert result.exit_code == 0 and "it/s" not in result.output and "file/s" not in result.output


def test_an_unchanged_file_stored_without_labels_says_how_to_label_it(tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# 2024-03-10\n\nNCCL timeout on node 7; restarted from the last save.\n")
    db = tmp_path / "x.duckdb"
    ingest([notes], db=db, classify=no_labels)
    [again] = ingest([notes], db=db)
    assert again.summary() == (f"notes: unchanged ({notes}), nothing to do; it has no labels: "
                               "`logbook classify --logbook notes` labels it")
    relabel(db)
    [labelled] = ingest([notes], db=db)
    assert labelled.summary() == f"notes: unchanged ({notes}), nothing to do"


def test_a_one_entry_logbook_is_counted_in_the_singular(run, tmp_path):
    notes = tmp_path / "notes.md"
    notes.write_text("# 2024-03-10\n\nNCCL timeout on node 7; restarted from the last save.\n")
    db = tmp_path / "one.duckdb"
    [stored] = ingest([notes], db=db, classify=no_labels)
    assert stored.summary().startswith("notes: 1 entry, 1 dated, ")
    result = run("classify", "--db", db)
    assert result.exit_code == 0 and result.output == "notes: 1 entry relabelled\n"


def test_ingest_piped_into_head_still_stores_every_file(tmp_path):
    """Each file's line is printed as it is stored; once `head` has closed the pipe, the
    rest of the batch is stored unheard (it used to stop at the first closed-pipe write)."""
    folder = tmp_path / "notes"
    folder.mkdir()
    for i in range(5):
        (folder / f"run{i}.md").write_text(logbook(3 + i, body=f"run {i} lost a GPU on node {i}"))
    db = tmp_path / "x.duckdb"
    command = " ".join(map(shlex.quote, [*CLI, "ingest", str(folder), "--db", str(db),
                                         "--no-label"]))
    done = subprocess.run(f"{command} | head -1", shell=True, cwd=ROOT, capture_output=True,
                          text=True, timeout=120)
    assert done.stdout.startswith("run0: 3 entries")
    assert entry_counts(db) == {f"run{i}": 3 + i for i in range(5)}
