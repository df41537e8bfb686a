"""`logbook eval` gives exactly the figures of ../shared/eval/score.py."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from click.testing import CliRunner

from logbook_miner.cli import main
from logbook_miner.dataset.export import export
from logbook_miner.evaluate import format_report
from logbook_miner.ingest import ingest


def test_eval_matches_score_py_on_the_dev_gold(shared, tmp_path):
    db = tmp_path / "x.duckdb"
    for name in ("bloom-tr11-176b", "opt-175b-10_percent_update", "opt-175b-56_percent_update"):
        ingest([shared / f"logbooks/md/{name}.md"], db=db, name=name)
    export(tmp_path / "out", db=db)
    reference = subprocess.run(
        [sys.executable, str(shared / "eval/score.py"), "--gold", str(shared / "gold"),
         "--pred", str(tmp_path / "out/entries.jsonl"), "--json"],
        capture_output=True, text=True, check=True).stdout
    for flag in (["--json"], ["--format", "json"]):  # score.py's flag, and every command's
        ours = CliRunner().invoke(main, ["eval", "--db", str(db), "--gold", str(shared / "gold"),
                                         *flag])
        assert ours.exit_code == 0, ours.output
        assert json.loads(ours.output) == json.loads(reference)


def test_eval_text_report_and_a_missing_gold(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"logbook": "x", "n": 1, "heading": "2021-11-24", "date":
                                "2021-11-24", "faults": ["hardware.gpu"],
                                "interventions": []}) + "\n")
    (tmp_path / "x.md").write_text("# 2021-11-24\n\nA GPU fell off the bus; restarted.\n")
    db = tmp_path / "x.duckdb"
    ingest([tmp_path / "x.md"], db=db)
    result = CliRunner().invoke(main, ["eval", "--db", str(db), "--gold", str(gold)])
    assert "x: entries 1/1 found, 1 predicted; date acc 1.0" in result.output
    (tmp_path / "empty").mkdir()
    missing = CliRunner().invoke(main, ["eval", "--db", str(db), "--gold", str(tmp_path / "empty")])
    assert missing.exit_code == 1 and "no gold .jsonl files" in missing.output


def test_eval_warns_of_gold_logbooks_it_scores_as_missed(shared, tmp_path, caplog):
    """One logbook stored, ten in the gold: the figures stay score.py's (the nine others are
    missed), and a warning names them; with none stored there is nothing to score."""
    from logbook_miner import Store
    from logbook_miner.errors import ArgumentError

    store = Store(tmp_path / "x.duckdb")
    (tmp_path / "notes.md").write_text("# 2021-11-24\n\nA GPU fell off the bus.\n")
    store.ingest([tmp_path / "notes.md"])
    with pytest.raises(ArgumentError, match="none of the gold's logbooks is stored"):
        store.eval(shared / "gold")
    store.ingest([shared / "logbooks/md/opt-175b-10_percent_update.md"])
    report = store.eval(shared / "gold")
    [warning] = [r.getMessage() for r in caplog.records if r.levelname == "WARNING"]
    assert warning.startswith("warning: not stored, so scored as missed: bloom-tr1-13b, ")
    assert "opt-175b-10_percent_update" not in warning
    assert report["logbooks"]["bloom-tr1-13b"]["matched"] == 0
    assert "bloom-tr1-13b: entries 0/24 found, 0 predicted; date acc n/a (no entries stored);" in \
        format_report(report)
    assert store.eval(shared / "gold", ["opt-175b-10_percent_update"])["overall"][
        "entry_recall"] == 1.0
