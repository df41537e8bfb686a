"""The learned layer (label/learned.py): codes a linear model is sure of, added to the rules',
and the rules' codes it is sure are wrong, withdrawn."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

import pytest

from logbook_miner.label.classifier import Classifier
from logbook_miner.models import Entry
from logbook_miner.read import read
from logbook_miner.segment.entries import segment

BENCHMARKS = Path(__file__).resolve().parents[1] / "benchmarks"
WRITTEN = BENCHMARKS / "written_logbooks"


@pytest.fixture(scope="module")
def classifier() -> Classifier:
    return Classifier()


@pytest.fixture(scope="module")
def rules_alone() -> Classifier:
    return Classifier(layer_path=None)


def _check_logbooks() -> tuple[str, ...]:
    spec = importlib.util.spec_from_file_location("labels", BENCHMARKS / "labels.py")
    labels = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(labels)
    return labels.CHECK


@pytest.mark.parametrize("name", ["synth-tpu-v5e-jax-log", "synth-hackathon-sprint"])
def test_the_layer_adds_codes_the_rules_missed_and_withdraws_codes_they_gave_wrongly(
    name: str, classifier: Classifier, rules_alone: Classifier
) -> None:
    """On written tune logbooks (the layer's training text), what it adds is in the gold and
    stands on the entry's own words, what it withdraws is not in the gold, and the rules'
    labels it keeps are theirs unchanged."""
    gold = [json.loads(line) for line in (WRITTEN / f"{name}.jsonl").open(encoding="utf-8")]
    gold_codes = {g["heading"].strip(): set(g["faults"]) | set(g["interventions"]) for g in gold}
    entries = segment(read(WRITTEN / f"{name}.md"))
    added, withdrawn = [], []
    for with_layer, alone in zip(classifier.classify(entries), rules_alone.classify(entries),
                                 strict=True):
        heading = with_layer.entry.heading.strip()
        kept_codes = {label.code for label in with_layer.labels}
        for label in set(alone.labels) - set(with_layer.labels):
            assert label.code not in kept_codes
            withdrawn.append((heading, label.code))
        for label in set(with_layer.labels) - set(alone.labels):
            assert label.source == "learned:layer"
            assert label.code not in {lb.code for lb in alone.labels}
            assert getattr(with_layer.entry, label.field)[label.start:label.end] == label.evidence
            assert label.confidence > 0.5
            added.append((heading, label.code))
    assert len(added) >= 8
    assert withdrawn
    assert all(code in gold_codes[heading] for heading, code in added)
    assert not any(code in gold_codes[heading] for heading, code in withdrawn)


def test_the_layers_evidence_is_the_sentence_that_speaks_for_its_code(
        classifier: Classifier) -> None:
    """Not the sentence richest in words every code shares: in a Matrix room's day where the
    provider took six hosts back, the provider code stands on that line, not on the bot's
    "job is down" or the re-layout that followed."""
    entries = segment(read(WRITTEN / "synth-matrix-room-export.md"))
    [day] = [labelled for labelled in classifier.classify(entries)
             if labelled.entry.heading.startswith("2024-02-29")]
    [provider] = [label for label in day.labels if label.code == "infra.provider"]
    assert provider.source == "learned:layer"
    assert provider.evidence == "Corvid took the six back"


def test_the_shipped_layer_was_trained_on_the_written_tune_logbooks(
        classifier: Classifier) -> None:
    """benchmarks/learned_layer.py --write must be run again when the tune logbooks change."""
    check = set(_check_logbooks())
    tune = [path for path in WRITTEN.glob("*.jsonl") if path.stem not in check]
    entries = sum(1 for path in tune for _ in path.open(encoding="utf-8"))
    trained_on = classifier.layer.trained_on
    assert (trained_on["logbooks"], trained_on["entries"]) == (len(tune), entries)


def test_a_codes_typical_cue_among_a_runs_everyday_words_is_not_withdrawn(
        shared: Path, classifier: Classifier, rules_alone: Classifier) -> None:
    """Words most entries hold ("step", "checkpoint", "loss") do not withdraw a code: each of
    TAXONOMY.md's typical cues the rules label in such an entry keeps its code with the layer
    ("Node 12 went down at step 3000; resumed from the step 2500 checkpoint, loss fine")."""
    withdrawn = []
    for line in (shared / "TAXONOMY.md").read_text(encoding="utf-8").splitlines():
        row = re.match(r"\| `([a-z_.]+)` \| [^|]+ \| ([^|]+) \|", line)
        for cue in (c.strip() for c in row.group(2).split(",")) if row else ():
            entry = [Entry(seq=1, heading="x", text=f"{cue} at step 3000; resumed from the step "
                                                    "2500 checkpoint, loss fine.")]
            alone = {lb.code for lb in rules_alone.classify(entry)[0].labels}
            kept = {lb.code for lb in classifier.classify(entry)[0].labels}
            if row.group(1) in alone - kept:
                withdrawn.append((row.group(1), cue))
    assert not withdrawn
