"""Logbooks for the analytics tests, ingested through the real ingest path.

The fixtures go through `logbook_miner.ingest.ingest` with the real taxonomy
classifier (built once per session). `keyword_classify` is a cheap stand-in
with a handful of cues for the 400-logbook coverage test, where spaCy would
only add time; it still mines metrics with the real `logbook_miner.label.numbers.mine`.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from logbook_miner.ingest import ingest
from logbook_miner.label.numbers import mine
from logbook_miner.models import FAULT, INTERVENTION, Entry, Label, LabelledEntry

CUES = [
    (FAULT, "hardware.memory", r"ECC error"),
    (FAULT, "hardware.gpu", r"lost a GPU"),
    (FAULT, "network.interconnect", r"NCCL timeout"),
    (FAULT, "software.crash", r"job crashed"),
    (FAULT, "numerics.loss_spike", r"loss spike"),
    (INTERVENTION, "restart", r"\b(?:restarted|relaunched)\b"),
    (INTERVENTION, "node_replacement", r"spare node"),
    (INTERVENTION, "lr_change", r"lowered the LR"),
]

# OPT-style: newest entry first, "date time zone [author]: Run N" headers.
OPT_STYLE = """\
OPT-style logbook, newest first

2021-11-30 11:00am ET [Naman]: Run 12.20
ECC error on node-3 again, job crashed.

2021-11-28 9:00am ET [Naman]: Run 12.20
Throughput normal on 124 nodes, loss 2.25.

2021-11-27 9:00am ET [Susan]: Run 12.19
Lowered the LR by 10% and relaunched.

2021-11-26 3:30am ET [Stephen]: Run 12.18
Restarted from checkpoint 20500, checkpoint saved in 95 seconds.

2021-11-26 1:00am ET [Stephen]: Run 12.17
NCCL timeout again, replaced node-7 with a spare node.

2021-11-25 11:00pm ET [Stephen]: Run 12.17
NCCL timeout on node-7, job hanging.

2021-11-25 10:00am ET [Stephen]: Run 12.17
Small loss spike at step 18000, recovered by itself.

2021-11-24 1:00pm ET [Susan]: Run 12.17
ECC error on node-3, job crashed. Restarted from the last checkpoint.

2021-11-24 8:00am ET [Susan]: Run 12.16
First notes for run 12.16, training on 124 nodes.
"""

# Oldest first, dates without times, one undated section (its day comes from its neighbour).
DATE_ONLY = """\
# Training notes

## 2022-03-11

Started the run on 48 nodes.

## 2022-03-14

Lost a GPU on node 12, job crashed. Restarted.

## Notes on stability

The job hit an ECC error and crashed again.

## 2022-03-18

All good.
"""


def keyword_classify(entries: Sequence[Entry]) -> list[LabelledEntry]:
    """Label each entry with the CUES found in its text (first match, confidence 0.9)."""
    out = []
    for entry in entries:
        labels = []
        for kind, code, pattern in CUES:
            m = re.search(pattern, entry.text, re.IGNORECASE)
            if m:
                labels.append(Label(kind, code, m.group(), "text", m.start(), m.end(),
                                    "test:keyword", 0.9))
        out.append(LabelledEntry(entry, labels, mine(entry)))
    return out


@cache
def real_classify() -> Callable[[Sequence[Entry]], list[LabelledEntry]]:
    """The taxonomy classifier, built once (spaCy takes a second to load)."""
    from logbook_miner.label.classifier import Classifier

    return Classifier().classify


def ingest_texts(folder: Path, texts: dict[str, str], db: Path | None = None,
                 classify: Callable | None = None) -> Path:
    """Write each text as NAME (NAME.txt when it has no suffix) and ingest all in one call."""
    db = db or folder / "test.duckdb"
    paths = []
    for name, text in texts.items():
        path = folder / (name if "." in name else f"{name}.txt")
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    results = ingest(paths, db=db, classify=classify or real_classify())
    errors = [r.summary() for r in results if r.status == "error"]
    assert not errors, errors
    return db
