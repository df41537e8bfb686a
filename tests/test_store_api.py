"""The Python API: `Store(path).command(...)` returns what `logbook command` prints."""

from __future__ import annotations

import json
from dataclasses import asdict

import pandas as pd
import pytest
from click.testing import CliRunner

from logbook_miner import Store
from logbook_miner.cli import main
from logbook_miner.dataset.export import TABLES
from logbook_miner.errors import ArgumentError
from logbook_miner.present.cli_output import records
from logbook_miner.resources import DATA

SAMPLE = DATA / "samples" / "markdown" / "synth-markdown-s0.md"


@pytest.fixture(scope="module")
def store(tmp_path_factory) -> Store:
    store = Store(tmp_path_factory.mktemp("api") / "x.duckdb")
    [result] = store.ingest([SAMPLE], timezone="ET")
    assert result.status == "ingested"
    return store


def cli_json(*args) -> list[dict]:
    result = CliRunner().invoke(main, [*map(str, args), "--format", "json"],
                                catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_the_store_answers_as_the_commands_do(store: Store) -> None:
    db = store.path
    by_family = records(store.mtbf(by="family"))
    assert by_family and by_family == cli_json("mtbf", "--db", db, "--by", "family")
    assert records(store.query("incidents")) == cli_json("query", "incidents", "--db", db)
    statement = "SELECT code, count(*) AS n FROM labels GROUP BY code ORDER BY code"
    assert records(store.sql(statement)) == cli_json("sql", statement, "--db", db)
    estimate = store.simulate(2.0, 180, gpus=64, mtbf_hours=24, mttr_hours=2,
                              checkpoint_cost_seconds=60)
    assert records(pd.DataFrame([asdict(estimate)])) == cli_json(
        "simulate", "--usd-per-gpu-hour", 2.0, "--checkpoint-minutes", 180, "--gpus", 64,
        "--mtbf-hours", 24, "--mttr-hours", 2, "--checkpoint-cost-seconds", 60, "--db", db)


def test_ingest_again_is_a_no_op_and_classify_relabels(store: Store) -> None:
    [again] = store.ingest([SAMPLE], timezone="ET")
    assert again.status == "unchanged"
    labels = "SELECT kind, code, evidence FROM labels ORDER BY ALL"
    before = store.sql(labels)
    assert store.classify() == {"synth-markdown-s0": 13}
    assert store.sql(labels).equals(before)


def test_export_and_dashboard_write_their_files(store: Store, tmp_path) -> None:
    written = store.export(tmp_path / "out")
    assert set(written) == set(TABLES) and all(path.stat().st_size for path in written.values())
    page = store.dashboard(tmp_path / "dashboard", images=False)
    assert page == tmp_path / "dashboard" / "index.html" and "synth-markdown-s0" in page.read_text()


def test_errors_name_arguments_in_the_api_and_flags_in_the_cli(store: Store) -> None:
    with pytest.raises(ArgumentError, match="one of `out` or `apply`"):
        store.review()
    with pytest.raises(ArgumentError, match=r"give `gpus`, .* \(no `from_logbook`\)"):
        store.simulate(2.0, 180)
    result = CliRunner().invoke(main, ["simulate", "--usd-per-gpu-hour", "2",
                                       "--checkpoint-minutes", "180", "--db", str(store.path)])
    assert result.exit_code == 1
    assert ("error: give --gpus, --mtbf-hours, --mttr-hours, --checkpoint-cost-seconds"
            " (no --from-logbook)") in result.output
