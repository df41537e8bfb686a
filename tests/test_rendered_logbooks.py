"""Written logbooks printed to PDF by Chromium read as their Markdown does.

A browser wraps a long heading (its date on the second line) and draws a table's
cells apart; the PDF reader puts both back (benchmarks/renderings.py measures every
written logbook this way). Chromium runs for real, as a user prints a page.
"""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path

import pytest

from logbook_miner.label.classifier import Classifier
from logbook_miner.read import PDF_BACKENDS, read
from logbook_miner.segment.entries import segment

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
WRITTEN = BENCHMARKS / "written_logbooks"
# incident titles that wrap with their date last; weekly tables of counters, most at zero;
# mail subjects that wrap inside a date range ("30 Jan –" over "1 Feb 2024"); a bold
# heading alone at the foot of a page, its text on the next; bold numbered titles over
# bulleted plans ("**3. Next plan**"), one at a page's top
LOGBOOKS = ["synth-incident-timeline", "synth-weekly-kpi-sheet", "synth-hpc-mailing-list",
            "synth-annotated-shell-history", "synth-translated-weekly-report"]

pytestmark = pytest.mark.skipif(shutil.which("chromium") is None,
                                reason="needs Debian's chromium")


def _render(markdown: Path, folder: Path) -> Path:
    """benchmarks/renderings.py's printing: Markdown -> HTML -> Chromium -> PDF."""
    spec = importlib.util.spec_from_file_location("renderings", BENCHMARKS / "renderings.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.render(markdown, folder)


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


@pytest.mark.parametrize("backend", PDF_BACKENDS)
@pytest.mark.parametrize("name", LOGBOOKS)
def test_a_printed_logbook_has_its_markdowns_entries_and_labels(tmp_path, classifier, name,
                                                                backend):
    markdown = WRITTEN / f"{name}.md"
    pdf = _render(markdown, tmp_path)
    printed, written = (classifier.classify(segment(read(path, backend)))
                        for path in (pdf, markdown))
    assert [(e.entry.heading, e.entry.date) for e in printed] == [
        (e.entry.heading, e.entry.date) for e in written]
    assert [sorted(label.code for label in e.labels) for e in printed] == [
        sorted(label.code for label in e.labels) for e in written]


# a Discord export and a notes file of dated lines with no blank line between messages:
# Chromium prints each as paragraphs of many messages, which the segmenter breaks again
RUNS = ["synth-discord-bracket-export", "synth-no-blank-line-notes"]


@pytest.mark.parametrize("backend", PDF_BACKENDS)
@pytest.mark.parametrize("name", RUNS)
def test_a_printed_run_of_notes_has_its_markdowns_entries_and_labels(tmp_path, classifier, name,
                                                                     backend):
    markdown = WRITTEN / f"{name}.md"
    printed, written = (classifier.classify(segment(read(path, backend)))
                        for path in (_render(markdown, tmp_path), markdown))
    assert [(e.entry.heading[:16], e.entry.date, e.entry.time) for e in printed] == [
        (e.entry.heading[:16], e.entry.date, e.entry.time) for e in written]
    assert [sorted(label.code for label in e.labels) for e in printed] == [
        sorted(label.code for label in e.labels) for e in written]
