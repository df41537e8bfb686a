"""Pattern helpers: regex expansion, text clues, the anchored ruler against span_ruler."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import spacy
import yaml
from spacy.language import Language

from logbook_miner.label import context
from logbook_miner.label.classifier import CONTEXT_PATH, TAXONOMY_PATH, normalise
from logbook_miner.label.ruler import anchor, clue, expand, optimise

SAMPLES = [
    "Excluded gpu-st-p4d-35 from the hostfile and requeued; NCCL timeout on rank 12 before that.",
    "scontrol update nodename=node17 state=drain reason=xid\nRuntimeError: CUDA error: unknown",
    "We rolled back to 31.2k, lowered the LR to 6e-5 and skipped the bad batches.",
    "# comment line in a script\nsbatch --exclude=node[12-14] train.slurm",
    "No ECC errors since the swap; maybe the 104B run had a loss spike? not ours.",
    "cudaErrorECCUncorrectable on a100-0001, the same bad machine again.",
]


@pytest.mark.parametrize(
    ("regex", "words"),
    [("^restart(ed|ing)?$", {"restart", "restarted", "restarting"}),
     ("^gpus?$", {"gpu", "gpus"}), ("^re-?queue$", {"requeue", "re-queue"}),
     ("^gpu\\w+$", None), ("restart", None)],
)
def test_expand_lists_only_small_anchored_sets(regex: str, words: set[str] | None) -> None:
    assert expand(regex) == words


@pytest.mark.parametrize(
    ("regex", "strings"),
    [(r"\blm\s+loss:\s*(?P<v>\d+)", {"loss:"}), (r"^cudaError\w+", {"cudaerror"}),
     (r"(?:A100|V100)s?", {"a100", "v100"}), (r"\d+\s*\w+", None)],
)
def test_clue_is_text_every_match_contains(regex: str, strings: set[str] | None) -> None:
    found = clue(regex)
    assert (set(found) if found else None) == strings


def test_clue_never_rejects_a_match() -> None:
    regex = r"\b(?:restart(?:ed)?|roll(?:ed)?\s*back)\s+(?:from|to)\s+\d+"
    for text in ("Restarted from 300", "ROLLED BACK to 12", "rollback to 5"):
        if re.search(regex, text, re.IGNORECASE):
            assert any(c in text.casefold() for c in clue(regex))


def test_anchor_prefers_a_rare_required_word() -> None:
    pattern = [{"LOWER": {"IN": ["the", "a"]}, "OP": "?"}, {"LOWER": "to"}, {"LOWER": "fp16"}]
    assert anchor(pattern) == (2, frozenset({"fp16"}), frozenset())
    assert anchor([{"LIKE_NUM": True}]) == (None, frozenset(), frozenset())


def _patterns() -> list[dict]:
    out = []
    for code, spec in yaml.safe_load(TAXONOMY_PATH.read_text(encoding="utf-8"))["codes"].items():
        for i, group in enumerate(spec.get("patterns", [])):
            for pattern in group.get("phrases", []) + group.get("tokens", []):
                out.append({"label": code, "pattern": optimise(pattern), "id": f"{code}#{i}"})
    return out + context.load_rules(CONTEXT_PATH)[1]


def _nlp(factory: str, config: dict) -> Language:
    nlp = spacy.blank("en")
    nlp.add_pipe("sentencizer")
    nlp.add_pipe("line_sentences")
    nlp.add_pipe(factory, config=config).add_patterns(_patterns())
    return nlp


def test_anchored_ruler_finds_what_span_ruler_finds() -> None:
    """Same spans, same order, for every pattern of the data files."""
    texts = [normalise(t)[0] for t in SAMPLES]
    shared = Path(__file__).resolve().parents[2] / "shared" / "logbooks" / "md"
    texts += [normalise(p.read_text(encoding="utf-8"))[0] for p in sorted(shared.glob("*.md"))]
    plain = _nlp("span_ruler", {"spans_key": "x", "phrase_matcher_attr": "LOWER", "validate": True})
    fast = _nlp("anchored_span_ruler", {"spans_key": "x"})
    for a, b in zip(plain.pipe(texts), fast.pipe(texts), strict=True):
        assert [(s.start, s.end, s.label_, s.id_) for s in a.spans["x"]] == [
            (s.start, s.end, s.label_, s.id_) for s in b.spans["x"]
        ]
