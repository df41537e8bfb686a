"""The synthetic logbook generator: deterministic, self-consistent truth, honest rates."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pdfplumber
import pytest

from logbook_miner.generate import generate
from logbook_miner.generate.compose import FAULT_CODES, INTERVENTION_CODES, Composer
from logbook_miner.generate.run import Simulation, load_yaml
from logbook_miner.generate.samples import SAMPLES, write_samples

STYLES = ("opt", "markdown", "daily")


def files(folder: Path) -> dict[str, bytes]:
    found = sorted(p for p in folder.rglob("*") if p.is_file())
    return {str(p.relative_to(folder)): p.read_bytes() for p in found}


@pytest.mark.parametrize("style", STYLES)
def test_same_seed_same_bytes(tmp_path: Path, style: str) -> None:
    generate(tmp_path / "a", seed=5, style=style, days=10)
    generate(tmp_path / "b", seed=5, style=style, days=10)
    generate(tmp_path / "c", seed=6, style=style, days=10)
    assert files(tmp_path / "a") == files(tmp_path / "b")
    assert files(tmp_path / "a") != files(tmp_path / "c")


def test_committed_samples_are_current(tmp_path: Path) -> None:
    """data/samples/ is what write_samples() makes; rerun it after changing the generator."""
    write_samples(tmp_path)
    assert files(tmp_path) == files(SAMPLES)


@pytest.mark.parametrize("style", STYLES)
def test_truth_scores_one_against_itself(tmp_path: Path, shared: Path, style: str) -> None:
    made = generate(tmp_path, seed=2, style=style, days=20)
    out = subprocess.run(
        [
            sys.executable,
            str(shared / "eval" / "score.py"),
            "--json",
            "--gold",
            str(made.truth),
            "--pred",
            str(made.truth),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    overall = json.loads(out.stdout)["overall"]
    assert overall["entry_recall"] == overall["entry_precision"] == 1.0
    assert overall["faults"]["f1"] == overall["interventions"]["f1"] == 1.0


@pytest.mark.parametrize("style", STYLES)
def test_truth_rows_follow_the_gold_format(tmp_path: Path, style: str) -> None:
    made = generate(tmp_path, seed=4, style=style, days=15)
    rows = [json.loads(line) for line in made.truth.read_text().splitlines()]
    assert rows == made.rows
    assert [r["n"] for r in rows] == list(range(1, len(rows) + 1))
    for row in rows:
        assert row["logbook"] == made.logbook and "\n" not in row["heading"]
        assert row["date"] is None or re.fullmatch(r"\d{4}-\d{2}-\d{2}", row["date"])
        assert set(row["faults"]) <= FAULT_CODES and set(row["interventions"]) <= INTERVENTION_CODES
    meta = json.loads(made.generation.read_text())
    reported = [e for r in rows for e in r.get("events", []) if e["kind"] == "failure"]
    assert len(reported) == len(meta["failures"])  # every failure is written up somewhere


def test_taxonomy_codes_match_the_contract(shared: Path) -> None:
    text = (shared / "TAXONOMY.md").read_text()
    head, interventions = text.split("## Intervention codes")
    assert set(re.findall(r"^\| `([\w.]+)` \|", head, re.M)) == FAULT_CODES
    assert set(re.findall(r"^\| `([\w.]+)` \|", interventions, re.M)) == INTERVENTION_CODES


def test_every_template_fills_from_the_simulated_values() -> None:
    """A template naming a value the simulation doesn't provide would fail mid-run."""
    sim, composer = Simulation(0, 16, 24.0), Composer(0)
    incident = next(i for _ in range(30) for i in sim.day())
    pools = [composer.faults, composer.actions, composer.logs, composer.neutral]
    for pool in pools:
        for key, templates in pool.items():
            for t in templates:
                assert (t.text + t.code).format_map(incident.ctx), key
    assert all(c in composer.faults for c in load_yaml("simulation.yaml")["families"])


def test_failure_count_matches_the_rate() -> None:
    """Cluster MTBF is mtbf_hours: the mean count over seeds is days*24/mtbf within 4 SE."""
    days, mtbf = 20, 12.0
    counts = []
    for seed in range(150):
        sim = Simulation(seed, nodes=32, mtbf_hours=mtbf)
        for _ in range(days):
            sim.day()
        counts.append(len(sim.failures))
    expected = days * 24 / mtbf
    se = np.std(counts, ddof=1) / np.sqrt(len(counts))
    assert abs(np.mean(counts) - expected) < 4 * se
    assert np.var(counts, ddof=1) == pytest.approx(expected, rel=0.35)  # Poisson: variance = mean


def test_pdf_has_toc_then_entries_newest_first(tmp_path: Path) -> None:
    made = generate(tmp_path, seed=8, style="opt", days=12)
    headings = [r["heading"] for r in made.rows[1:]]
    with pdfplumber.open(made.document) as pdf:
        assert len(pdf.pages) == made.pages
        bold, toc = [], []
        for page in pdf.pages:
            lines = page.extract_text_lines(return_chars=True)
            assert lines[0]["text"].endswith(made.logbook)  # browser header
            assert lines[-1]["text"].startswith(f"file:///tmp/{made.logbook}.html")
            for line in lines:
                size, font = line["chars"][0]["size"], line["chars"][0]["fontname"]
                if "Bold" in font and round(size) == 13:
                    bold.append(line["text"])
                elif round(size) == 10 and line["x0"] > 60 and "Courier" not in font and not bold:
                    toc.append(line["text"])
    assert " ".join(toc) == " ".join(headings)  # the TOC lists every heading, in order
    assert " ".join(bold) == " ".join(headings)  # wrapped headings continue on the next line
    dated = [r for r in made.rows[1:] if not r["chronology_anomaly"]]
    assert [r["ts_utc"] for r in dated] == sorted((r["ts_utc"] for r in dated), reverse=True)


@pytest.mark.parametrize(("style", "pages"), [("opt", 40), ("markdown", 30), ("daily", 30)])
def test_pages_option_reaches_about_that_many(tmp_path: Path, style: str, pages: int) -> None:
    made = generate(tmp_path, seed=1, style=style, pages=pages)
    assert pages * 0.85 <= made.pages <= pages * 1.15
