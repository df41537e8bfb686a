"""The dev logbooks in ../shared, in all three renderings, against the gold (issue 2's floor)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from logbook_miner.dataset.export import export
from logbook_miner.ingest import ingest
from logbook_miner.models import LabelledEntry

RENDERINGS = {"md": "md/{}.md", "chromium": "pdf/{}.pdf", "weasyprint": "pdf/{}.weasy.pdf"}


def no_labels(entries):
    return [LabelledEntry(e) for e in entries]


@pytest.fixture(scope="module", params=sorted(RENDERINGS))
def scored(request, shared, tmp_path_factory):
    """Ingest every dev logbook of one rendering, export, and run ../shared/eval/score.py."""
    tmp = tmp_path_factory.mktemp(request.param)
    names = sorted(p.stem for p in (shared / "logbooks/md").glob("*.md"))
    for name in names:
        path = shared / "logbooks" / RENDERINGS[request.param].format(name)
        [result] = ingest([path], db=tmp / "x.duckdb", name=name, classify=no_labels)
        assert result.status == "ingested", result.summary()
    export(tmp / "out", db=tmp / "x.duckdb")
    out = subprocess.run(
        [sys.executable, str(shared / "eval/score.py"), "--gold", str(shared / "gold"),
         "--pred", str(tmp / "out/entries.jsonl"), "--json"],
        capture_output=True, text=True, check=True).stdout
    return json.loads(out)["logbooks"]


def test_entry_recall_precision_and_dates_meet_the_floor(scored):
    for logbook, figures in scored.items():
        assert figures["entry_recall"] >= 0.95, logbook
        assert figures["entry_precision"] >= 0.90, logbook
        assert figures["date_accuracy"] is None or figures["date_accuracy"] >= 0.98, logbook


def test_pdf_page_furniture_never_reaches_entries(shared, tmp_path):
    db = tmp_path / "x.duckdb"
    for suffix in (".pdf", ".weasy.pdf"):
        path = shared / f"logbooks/pdf/opt-175b-56_percent_update{suffix}"
        ingest([path], db=db, name=f"opt{suffix}", classify=no_labels)
    import duckdb

    with duckdb.connect(str(db), read_only=True) as con:
        texts = [row[0] for row in con.execute("SELECT heading || text FROM entries").fetchall()]
    joined = "\n".join(texts)
    assert "11/29/26" not in joined and "localhost:" not in joined
    assert "Page 1 of" not in joined
