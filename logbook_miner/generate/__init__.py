"""Synthetic training logbooks with known truth, for tests, demos and benchmarks.

`generate()` simulates a run (simulate.py), writes a note per incident
(compose.py) and renders them in one of three styles (opt.py, markdown.py,
daily.py), next to `truth.jsonl` (gold format of TAXONOMY.md, document order)
and `generation.json` (parameters and the true failure and restart times).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from logbook_miner.generate import daily, markdown, opt
from logbook_miner.generate.compose import Composer, Doc
from logbook_miner.generate.opt import HOME, ZONES
from logbook_miner.generate.run import Simulation

RENDERERS = {"opt": opt, "markdown": markdown, "daily": daily}


@dataclass(slots=True)
class GeneratedLogbook:
    """What generate() wrote, and the truth rows it wrote to `truth`."""

    logbook: str  # the logbook id in the truth rows
    document: Path  # NAME.pdf, NAME.md, or the folder NAME/ of daily reports
    truth: Path
    generation: Path
    rows: list[dict[str, Any]]
    pages: int
    days: int


def generate(
    out: Path,
    seed: int = 0,
    style: str = "opt",
    days: int = 30,
    nodes: int = 128,
    mtbf_hours: float = 24.0,
    pages: int | None = None,
) -> GeneratedLogbook:
    """Write a synthetic logbook and its truth into `out`.

    With `pages`, days are added until the document has about that many pages
    (`days` is then ignored); a page of Markdown or text is 55 lines.
    """
    if style not in RENDERERS:
        raise ValueError(f"unknown style {style!r}; expected one of {sorted(RENDERERS)}")
    if days < 1 or nodes < 1 or mtbf_hours <= 0 or (pages is not None and pages < 1):
        raise ValueError("days, nodes and pages must be positive, mtbf_hours above zero")
    renderer = RENDERERS[style]
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    sim, composer = Simulation(seed, nodes, mtbf_hours), Composer(seed)
    notes, size = [], 0.0
    while sim.days < days if pages is None else size < pages:
        new = [composer.note(inc) for inc in sim.day()]
        notes += new
        size += renderer.measure(new)
    doc = _doc(seed, style, sim, composer, notes)
    document, rows, rendered = renderer.render(out, doc)
    truth = out / "truth.jsonl"
    truth.write_text(
        "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8"
    )
    generation = out / "generation.json"
    meta = {
        "logbook": doc.name,
        "style": style,
        "document": document.name,
        "pages_requested": pages,
        "pages": rendered,
        "entries": len(rows),
        "home_timezone": str(ZONES[HOME]),
        **sim.summary(),
    }
    generation.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return GeneratedLogbook(doc.name, document, truth, generation, rows, rendered, sim.days)


def _doc(seed: int, style: str, sim: Simulation, composer: Composer, notes: list) -> Doc:
    """The logbook's name, title and intro, chosen from style.yaml by the seed."""
    rng = np.random.default_rng([seed, 5])
    words = composer.style
    values = {
        "model": str(rng.choice(words["models"])),
        "lineage": sim.p["lineage"],
        "nodes": sim.nodes,
        "gpus": sim.nodes * sim.p["gpus_per_node"],
    }
    return Doc(
        name=f"synth-{style}-s{seed}",
        title=str(rng.choice(words["logbook_titles"])).format_map(values),
        intro=str(rng.choice(words["intros"])).format_map(values),
        notes=notes,
        seed=seed,
        first_day=sim.start.astimezone(ZONES[HOME]).date(),
        days=sim.days,
        subheadings=words["subheadings"],
        quiet=words["quiet"],
    )
