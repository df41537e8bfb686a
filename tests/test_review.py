"""`logbook review`: the CSV out, a person's decisions back in, and their lasting effect."""

from __future__ import annotations

import csv
import json
import logging
import re
from pathlib import Path

import duckdb
import pytest
from analytics_fixtures import real_classify
from click.testing import CliRunner
from dataset_fixtures import OPS, build, rows
from helpers import snapshot

from logbook_miner.cli import main
from logbook_miner.dataset.export import export
from logbook_miner.ingest import ingest
from logbook_miner.label.relabel import relabel, relabel_stored
from logbook_miner.label.review import apply_review, write_review


@pytest.fixture
def db(tmp_path) -> Path:
    return build(tmp_path, {"ops": OPS})


@pytest.fixture(scope="module")
def real_db(shared, tmp_path_factory) -> Path:
    """cpm-live (daily notes, most with nothing to label, one date out of order) and the OPT
    56% update (low-confidence labels, undated sections)."""
    db = tmp_path_factory.mktemp("real") / "real.duckdb"
    ingest([shared / "logbooks/md/cpm-live.md",
            shared / "logbooks/md/opt-175b-56_percent_update.md"], db=db, classify=real_classify())
    return db


def read_csv(path: Path) -> list[dict]:
    with path.open(newline="", encoding="utf-8") as fh:
        return list(csv.DictReader(fh))


def write_csv(path: Path, records: list[dict]) -> Path:
    with path.open("w", newline="", encoding="utf-8") as fh:
        writer = csv.DictWriter(fh, fieldnames=list(records[0]))
        writer.writeheader()
        writer.writerows(records)
    return path


def decide(db: Path, tmp_path: Path) -> Path:
    """Review at 0.92 and decide: rollback -> restart, reject the hang, accept the NCCL
    timeout, and add hardware.node (node-7 was the bad node) where the rules see none."""
    out = tmp_path / "review.csv"
    write_review(out, db=db, below=0.92)
    records = read_csv(out)
    for r in records:
        r["decision"] = {"rollback": "restart", "software.hang": "reject",
                         "network.interconnect": "accept"}.get(r["code"], "")
    added = dict(records[0], seq="2", heading="", date="", code="hardware.node",
                 evidence="NCCL timeout on node-7", decision="add")
    return write_csv(out, [*records, added])


def needs_review(db: Path, *params: str) -> list[dict]:
    """`logbook query needs_review` as its JSON records."""
    args = [a for p in params for a in ("-p", p)]
    result = CliRunner().invoke(main, ["query", "needs_review", "--db", str(db), *args,
                                       "--format", "json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def per_entry_from_csv(records: list[dict]) -> dict[tuple[str, int], tuple[set, set]]:
    """(logbook, seq) -> (reasons, low-confidence codes) of the review CSV's rows."""
    out: dict[tuple[str, int], tuple[set, set]] = {}
    for r in records:
        reasons, low = out.setdefault((r["logbook"], int(r["seq"])), (set(), set()))
        reasons.update(r["reason"].split("; "))
        if "low confidence" in r["reason"].split("; "):
            low.add(r["code"])
    return out


def per_entry_from_query(rows: list[dict]) -> dict[tuple[str, int], tuple[set, set]]:
    """(logbook, seq) -> (reasons, low-confidence codes) of needs_review's rows."""
    out = {}
    for r in rows:
        parts = r["reasons"].split("; ")
        low = next((p for p in parts if p.startswith("low confidence: ")), "")
        out[r["logbook"], r["seq"]] = ({p.split(":")[0] for p in parts},
                                       set(re.findall(r"([\w.]+) \(", low)))
    return out


def labels_of(db: Path, tmp_path: Path) -> dict[tuple[int, str], dict]:
    export(tmp_path / "export", db=db, fmt="jsonl")
    return {(r["seq"], r["code"]): r for r in rows(tmp_path / "export" / "labels.jsonl")}


def test_review_lists_labels_worth_a_look_with_an_empty_decision(db, tmp_path):
    out = tmp_path / "review.csv"
    result = CliRunner().invoke(main, ["review", "--db", str(db), "--out", str(out),
                                       "--below-confidence", "0.92"])
    assert result.exit_code == 0, result.output
    records = read_csv(out)
    assert list(records[0])[-1] == "decision" and all(r["decision"] == "" for r in records)
    assert {(r["seq"], r["code"], r["reason"]) for r in records} >= {
        ("1", "rollback", "low confidence"), ("4", "", "no label")}
    assert all(r["evidence"] for r in records if r["code"])
    assert "software.crash" not in {r["code"] for r in records}  # 0.95: confident enough


@pytest.mark.parametrize("below", [None, "0.9"])
def test_needs_review_shows_per_entry_the_candidates_review_writes(real_db, tmp_path, below):
    """One definition of what a person should check (queries/views/review_candidates.sql):
    `query needs_review` lists the entries of the `review --out` CSV, with the same reasons
    and the same low-confidence codes, at the default threshold and at a given one."""
    out = tmp_path / "review.csv"
    threshold = ["--below-confidence", below] if below else []
    result = CliRunner().invoke(main, ["review", "--db", str(real_db), "--out", str(out),
                                       *threshold])
    assert result.exit_code == 0, result.output
    written = per_entry_from_csv(read_csv(out))
    shown = needs_review(real_db, *([f"below={below}"] if below else []))
    assert [(r["logbook"], r["seq"]) for r in shown] == sorted(written)
    assert per_entry_from_query(shown) == written
    reasons = {k: why for k, (why, _) in written.items()}
    assert "date out of order" in reasons["cpm-live", 172]  # November 24 among December's
    assert sum(why == {"no label"} for why in reasons.values()) > 200  # quiet days
    assert any(low for _, low in written.values())
    assert not any("year inferred" in why for why in reasons.values())  # all written in full


def test_decisions_win_and_are_exported_as_verified(db, tmp_path):
    result = CliRunner().invoke(main, ["review", "--db", str(db), "--apply",
                                       str(decide(db, tmp_path))])
    # a code the entry did not carry is told apart from one accepted (both were "accept")
    assert (result.exit_code, result.output) == (
        0, "accepted 1, added 1, rejected 1, replaced 1; relabelled ops\n")
    labels = labels_of(db, tmp_path)
    assert (2, "software.hang") not in labels and (1, "rollback") not in labels
    restart = labels[1, "restart"]
    assert restart["verified"] and restart["evidence"] == "Rolled back to an earlier"
    assert labels[2, "network.interconnect"]["verified"]
    added = labels[2, "hardware.node"]
    assert added["verified"] and added["source"] == "review"
    assert added["evidence"] == "NCCL timeout on node-7" and added["field"] == "text"
    assert not labels[1, "software.crash"]["verified"]
    write_review(tmp_path / "again.csv", db=db, below=0.92)
    again = {(r["seq"], r["code"]) for r in read_csv(tmp_path / "again.csv")}
    assert ("2", "restart") in again  # still undecided
    assert not again & {("1", "restart"), ("2", "network.interconnect"), ("2", "hardware.node")}


def test_what_a_person_decided_leaves_both_lists(db, tmp_path):
    """Past decisions are out of `review --out` and `query needs_review` alike; the query's
    decided=1 shows them again, for reading."""
    apply_review(decide(db, tmp_path), db=db, classify=real_classify())
    write_review(tmp_path / "again.csv", db=db, below=1.01)
    written = per_entry_from_csv(read_csv(tmp_path / "again.csv"))
    shown = per_entry_from_query(needs_review(db, "below=1.01"))
    assert shown == written
    assert shown["ops", 1][1] == {"software.crash"}  # rollback -> restart was decided
    assert shown["ops", 2][1] == {"node_replacement", "restart"}
    assert shown["ops", 4] == ({"no label"}, set())
    everything = per_entry_from_query(needs_review(db, "below=1.01", "decided=1"))
    assert everything["ops", 1][1] == {"software.crash", "restart"}
    assert everything["ops", 2][1] == {"node_replacement", "restart", "network.interconnect",
                                       "hardware.node"}


def test_decisions_survive_classify_and_re_ingest(db, tmp_path):
    apply_review(decide(db, tmp_path), db=db, classify=real_classify())
    decided = labels_of(db, tmp_path / "0")
    result = CliRunner().invoke(main, ["classify", "--db", str(db)])
    assert result.exit_code == 0 and "ops: 4 entries relabelled" in result.output
    assert labels_of(db, tmp_path / "1") == decided
    relabel(db, ["ops"], classify=real_classify())
    build(tmp_path, {"ops": OPS})  # unchanged file: nothing to do
    build(tmp_path, {"ops": OPS}, force=True)  # re-read from scratch
    assert labels_of(db, tmp_path / "2") == decided


def test_a_changed_file_keeps_matching_decisions_and_warns_about_the_rest(db, tmp_path, caplog):
    apply_review(decide(db, tmp_path), db=db, classify=real_classify())
    without_nccl = OPS.replace(OPS[OPS.index("## 2021-11-25"):OPS.index("## 2021-11-26")], "")
    (tmp_path / "ops.md").write_text(without_nccl, encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="logbook_miner.label.corrections"):
        ingest([tmp_path / "ops.md"], db=db, classify=real_classify())
    warnings = [r.getMessage() for r in caplog.records]
    assert any("'2021-11-25 09:00 UTC'" in w and "hardware.node" in w for w in warnings)
    labels = labels_of(db, tmp_path)
    assert labels[1, "restart"]["verified"] and (1, "rollback") not in labels
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM corrections").fetchone() == (4,)


@pytest.mark.parametrize("failure", [KeyboardInterrupt, RuntimeError])
def test_an_interrupted_relabel_stores_neither_the_decisions_nor_labels(db, tmp_path,
                                                                       monkeypatch, failure):
    """Apply and relabel commit together: a failure after the relabel wrote its labels
    leaves the store as it was, not decided but unlabelled (issue 16, item 7)."""
    from logbook_miner.label import review

    def relabel_then_fail(*args, **kwargs):
        relabelled = relabel_stored(*args, **kwargs)
        assert relabelled == {"ops": 4}
        raise failure

    before = snapshot(db)
    decisions = decide(db, tmp_path)
    monkeypatch.setattr(review, "relabel_stored", relabel_then_fail)
    with pytest.raises(failure):
        apply_review(decisions, db=db, classify=real_classify())
    assert snapshot(db) == before
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM corrections").fetchone() == (0,)
    monkeypatch.undo()
    apply_review(decisions, db=db, classify=real_classify())  # the same file, once more
    assert (2, "software.hang") not in labels_of(db, tmp_path)


def test_a_file_without_decisions_relabels_nothing(db, tmp_path):
    out = tmp_path / "review.csv"
    write_review(out, db=db, below=0.92)
    before = snapshot(db)
    applied = apply_review(out, db=db, classify=lambda entries: pytest.fail("relabelled"))
    assert applied.summary() == "no decisions; relabelled nothing"
    assert snapshot(db) == before


def test_unknown_codes_are_refused_with_the_row_named(db, tmp_path):
    out = tmp_path / "review.csv"
    write_review(out, db=db, below=0.92)
    records = read_csv(out)
    records[0]["decision"], records[1]["decision"] = "accept", "hardware.gpus"
    result = CliRunner().invoke(main, ["review", "--db", str(db), "--apply",
                                       str(write_csv(out, records))])
    assert result.exit_code == 1
    assert result.output.strip().count("\n") == 0
    assert "row 3" in result.output and "unknown code 'hardware.gpus'" in result.output
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM corrections").fetchone() == (0,)


@pytest.mark.parametrize(("content", "reason"), [
    (b"", "empty"),
    (b"logbook;seq;code;decision\nops;1;restart;reject\n", "separated by ';'"),
    (b"logbook,seq,label,verdict\nops,1,restart,reject\n", "missing column(s) code, decision"),
    (b"logbook,code,decision\nops,restart,reject\n", "missing column(s) seq (or heading"),
    ("logbook,seq,code,decision\nops,1,restart,r\u00e9ject\n".encode("latin-1"), "not UTF-8"),
])
def test_a_file_it_cannot_use_is_refused_before_anything_is_stored(db, tmp_path, content,
                                                                    reason):
    path = tmp_path / "decisions.csv"
    path.write_bytes(content)
    result = CliRunner().invoke(main, ["review", "--db", str(db), "--apply", str(path)])
    assert result.exit_code == 1
    [line] = result.output.strip().splitlines()
    assert line.startswith(f"error: {path}: ") and reason in line
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM corrections").fetchone() == (0,)


def test_a_decision_keeps_the_rates_the_entry_states(tmp_path):
    """Applying a decision to an entry keeps the rest of what it found: the rate it states
    ("9 restarts since ...") still feeds `mtbf`'s reported MTBF."""
    from logbook_miner import Store

    notes = tmp_path / "notes.md"
    notes.write_text("# Run notes\n\n## 2024-03-10\n\nThe job crashed again with an NCCL "
                     "timeout; that makes 9 restarts since 2024-03-01.\n", encoding="utf-8")
    store = Store(tmp_path / "x.duckdb")
    store.ingest([notes])
    before = store.mtbf().to_dict("records")
    assert before[0]["reported_mtbf_hours"] > 0
    store.review(tmp_path / "review.csv", below=1.01)
    records = read_csv(tmp_path / "review.csv")
    records[0]["decision"] = "reject"
    store.review(apply=write_csv(tmp_path / "review.csv", records))
    after = store.mtbf().to_dict("records")
    assert after[0]["reported_mtbf_hours"] == before[0]["reported_mtbf_hours"]


def test_review_out_will_not_write_over_a_persons_decisions(db, tmp_path):
    """A slip of the shell's history (`review --out` again) would lose them all."""
    decided = decide(db, tmp_path)
    before = decided.read_bytes()
    result = CliRunner().invoke(main, ["review", "--db", str(db), "--out", str(decided)])
    assert (result.exit_code, result.output) == (1, (
        f"error: {decided}: holds 4 decisions not applied; apply them first (`logbook review "
        f"--apply {decided}`) or write the review elsewhere\n"))
    assert decided.read_bytes() == before
    semicolons = tmp_path / "semicolons.csv"  # as a spreadsheet may save it: not readable here
    semicolons.write_text(before.decode().replace(",", ";"))
    with pytest.raises(ValueError, match="exists and cannot be read as an applied review"):
        write_review(semicolons, db=db, below=0.92)
    write_review(tmp_path / "fresh.csv", db=db, below=0.92)  # a file without decisions is fine
    write_review(tmp_path / "fresh.csv", db=db, below=0.92)
    apply_review(decided, db=db, classify=real_classify())  # the next round, once applied
    write_review(decided, db=db, below=0.92)
    assert not any(row["decision"] for row in read_csv(decided))


def test_applying_a_file_twice_changes_nothing_the_second_time(db, tmp_path):
    decided = decide(db, tmp_path)
    first = apply_review(decided, db=db, classify=real_classify())
    with duckdb.connect(str(db), read_only=True) as con:
        when = con.execute("SELECT list(decided_at ORDER BY code) FROM corrections").fetchone()
    again = apply_review(decided, db=db, classify=lambda entries: pytest.fail("relabelled"))
    assert first.summary() == "accepted 1, added 1, rejected 1, replaced 1; relabelled ops"
    assert again.summary() == "4 already stored; relabelled nothing"
    with duckdb.connect(str(db), read_only=True) as con:  # when each was decided is kept
        assert con.execute("SELECT list(decided_at ORDER BY code) FROM corrections").fetchone() \
            == when


def added(db: Path, out: Path, *extra: dict) -> Path:
    """A review CSV at `out` holding only the rows given (fields over an empty row's)."""
    write_review(out, db=db, below=0.92)
    blank = dict(read_csv(out)[0], heading="", date="", evidence="", decision="")
    return write_csv(out, [dict(blank, **row) for row in extra])


def test_evidence_may_span_lines_and_must_be_in_the_entry(db, tmp_path):
    """A spreadsheet keeps a line break inside a quoted field; the reader used to drop it,
    and words not in the entry were stored as a label with no evidence."""
    path = added(db, tmp_path / "one.csv", {"seq": "2", "code": "hardware.node", "decision": "add",
                                "evidence": "NCCL timeout\non node-7"})
    apply_review(path, db=db, classify=real_classify())
    label = labels_of(db, tmp_path)[2, "hardware.node"]
    assert (label["evidence"], label["source"]) == ("NCCL timeout on node-7", "review")
    path = added(db, tmp_path / "two.csv", {"seq": "3", "code": "hardware.gpu", "decision": "add",
                                "evidence": "GPU fell off the bus"})
    result = CliRunner().invoke(main, ["review", "--db", str(db), "--apply", str(path)])
    assert (result.exit_code, result.output) == (1, (
        f"error: {path}: row 2: evidence 'GPU fell off the bus' is not in entry 3's heading or "
        "text; copy words from it, or leave evidence empty\n"))


def test_two_rows_deciding_one_label_differently_refuse_the_file(db, tmp_path):
    row = {"seq": "2", "code": "network.interconnect", "kind": "fault"}
    path = added(db, tmp_path / "r.csv", dict(row, decision="accept"), dict(row, decision="reject"))
    result = CliRunner().invoke(main, ["review", "--db", str(db), "--apply", str(path)])
    assert (result.exit_code, result.output) == (1, (
        f"error: {path}: rows 2 and 3 decide network.interconnect of '2021-11-25 09:00 UTC' "
        "differently; keep one\n"))
    with duckdb.connect(str(db), read_only=True) as con:
        assert con.execute("SELECT count(*) FROM corrections").fetchone() == (0,)
