"""`logbook demo`, the README's first command, on the samples the generator wrote."""

from __future__ import annotations

import json

from click.testing import CliRunner

from logbook_miner.cli import main
from logbook_miner.demo import sample_documents
from logbook_miner.resources import DATA


def test_samples_are_generated_not_copied():
    docs = sample_documents()
    assert {d.suffix for d in docs} == {".pdf", ".md"}
    for doc in docs:
        meta = json.loads((doc.parent / "generation.json").read_text())
        assert meta["document"] == doc.name and doc.is_relative_to(DATA / "samples")


def test_demo_runs_the_whole_pipeline(tmp_path):
    result = CliRunner().invoke(main, ["demo", "--out", str(tmp_path / "demo")])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    summary = {line.split(":")[0]: line for line in lines}
    assert summary["entries"].startswith("entries: 45 in 2 logbooks")
    assert "failures:" in summary["restarts"]
    assert "95% CI" in summary["MTBF"]
    assert summary["top faults"].count("(") == 3
    assert "held" in summary["top interventions"]
    page = tmp_path / "demo/dashboard/index.html"
    assert page.exists() and "<svg" not in page.read_text()[:200]
    assert (tmp_path / "demo/demo.duckdb").exists()
    again = CliRunner().invoke(main, ["demo", "--out", str(tmp_path / "demo")])
    assert again.exit_code == 0 and again.output.splitlines()[2:] == lines[2:]  # fresh each time
