"""A small Markdown logbook ingested through the real path (default taxonomy classifier)."""

from __future__ import annotations

import json
from pathlib import Path

from analytics_fixtures import real_classify

from logbook_miner.ingest import ingest

OPS = """\
# Ops logbook

## 2021-11-24 13:00 UTC

The job crashed with a CUDA error on node-3. Rolled back to an earlier checkpoint.

## 2021-11-25 09:00 UTC

NCCL timeout on node-7, the job was hanging. We excluded node-7 and restarted.

## 2021-11-26 10:00 UTC

Small loss spike at step 18000, we lowered the LR by 10%.

## 2021-11-27 08:00 UTC

Quiet day, throughput 150 TFLOPs on 124 nodes.
"""

OTHER = """\
# 2022-03-01

GPU fell off the bus on node-12; the job died and we relaunched it.

# 2022-03-02

ECC errors on two nodes, we replaced them.
"""


def build(folder: Path, texts: dict[str, str] | None = None, force: bool = False) -> Path:
    """Write NAME.md for each text and ingest them into folder/test.duckdb."""
    db = folder / "test.duckdb"
    paths = []
    for name, text in (texts or {"ops": OPS, "bloom-mini": OTHER}).items():
        path = folder / f"{name}.md"
        path.write_text(text, encoding="utf-8")
        paths.append(path)
    results = ingest(paths, db=db, classify=real_classify(), force=force)
    assert all(r.status != "error" for r in results), [r.summary() for r in results]
    return db


def rows(path: Path) -> list[dict]:
    """The rows of an exported JSONL file."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
