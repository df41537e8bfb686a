"""The dev logbooks in ../shared, in all three renderings, against the gold (issue 2's floor)."""

from __future__ import annotations

import pytest
from helpers import score_logbooks

from logbook_miner.ingest import ingest
from logbook_miner.models import LabelledEntry

RENDERINGS = {"md": "md/{}.md", "chromium": "pdf/{}.pdf", "weasyprint": "pdf/{}.weasy.pdf"}


def no_labels(entries):
    return [LabelledEntry(e) for e in entries]


@pytest.fixture(scope="module", params=sorted(RENDERINGS))
def scored(request, shared, tmp_path_factory):
    """Ingest every dev logbook of one rendering, export, and run ../shared/eval/score.py."""
    names = sorted(p.stem for p in (shared / "logbooks/md").glob("*.md"))
    files = {name: shared / "logbooks" / RENDERINGS[request.param].format(name) for name in names}
    return score_logbooks(shared, tmp_path_factory.mktemp(request.param), files)


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
