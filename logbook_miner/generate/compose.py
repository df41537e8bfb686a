"""Turn simulated incidents into notes: sentences, log excerpts and their labels.

The words come from data/generator/*.yaml. Every template carries the taxonomy
codes its own words support, and a note's labels are the union over the
templates used, so the truth follows from the text, not from the simulation.
Distractors (negations, plans, other projects) carry no code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date, datetime
from typing import Any

import numpy as np

from logbook_miner.generate.run import Incident, load_yaml

# The codes of TAXONOMY.md (the export contract); templates may use no others.
FAULT_CODES = frozenset(
    {
        "hardware.gpu",
        "hardware.memory",
        "hardware.node",
        "hardware.sdc",
        "network.interconnect",
        "storage.io",
        "software.crash",
        "software.hang",
        "software.bug",
        "software.dependency",
        "infra.provider",
        "infra.scheduler",
        "infra.maintenance",
        "numerics.loss_spike",
        "numerics.divergence",
        "numerics.overflow",
        "model.architecture",
        "data.quality",
        "performance.throughput",
    }
)
INTERVENTION_CODES = frozenset(
    {
        "restart",
        "rollback",
        "skip_data",
        "lr_change",
        "clip_change",
        "optimizer_change",
        "architecture_change",
        "precision_change",
        "hyperparameter_change",
        "parallelism_change",
        "node_replacement",
        "health_check",
        "checkpoint_policy",
        "code_fix",
        "dependency_change",
        "data_change",
        "automation",
    }
)
SPIKY = ("numerics.loss_spike", "numerics.divergence")


@dataclass(frozen=True, slots=True)
class Template:
    """A sentence and/or a pasted block, with the codes its words support."""

    text: str
    code: str
    faults: tuple[str, ...]
    interventions: tuple[str, ...]


@dataclass(slots=True)
class Block:
    """A paragraph of prose, or a verbatim log/code block when `code` is set."""

    text: str
    code: bool = False


@dataclass(slots=True)
class Note:
    """What one person wrote about one incident, with its true labels."""

    ts: datetime
    run_id: str
    author: str
    title: str
    blocks: list[Block]
    faults: set[str]
    interventions: set[str]
    events: list[dict[str, Any]]
    cache: dict[str, Any] = field(default_factory=dict)  # layouts a renderer computed


def load_pools(data: dict[str, Any], as_code: bool = False) -> dict[str, list[Template]]:
    """Templates by key; plain items are labelled with the key's own code."""
    pools = {}
    for key, items in data.items():
        base = key.rsplit("/", 1)[-1]
        dflt_f = (base,) if base in FAULT_CODES else ()
        dflt_i = (base,) if base in INTERVENTION_CODES else ()
        pool = []
        for item in items:
            spec = item if isinstance(item, dict) else {"text": item}
            text, code = (
                ("", spec["text"].rstrip("\n")) if as_code else (spec["text"], spec.get("code", ""))
            )
            faults = tuple(spec.get("faults", dflt_f))
            interventions = tuple(spec.get("interventions", dflt_i))
            unknown = (set(faults) - FAULT_CODES) | (set(interventions) - INTERVENTION_CODES)
            if unknown:
                raise ValueError(f"{key}: codes not in the taxonomy: {sorted(unknown)}")
            pool.append(Template(text, code, faults, interventions))
        pools[key] = pool
    return pools


class Composer:
    """Writes notes for incidents, drawing choices from one seeded Generator."""

    def __init__(self, seed: int) -> None:
        self.rng = np.random.default_rng([seed, 1])
        self.style = load_yaml("style.yaml")
        logs = load_yaml("logs.yaml")
        self.iteration_format = str(self.rng.choice(logs.pop("iteration")))
        self.comments = logs.pop("comments")
        self.faults = load_pools(load_yaml("faults.yaml"))
        self.actions = load_pools(load_yaml("actions.yaml"))
        self.logs = load_pools(logs, as_code=True)
        self.neutral = load_pools(
            {k: self.style[k] for k in ("status", "launch", "config", "outcome", "distractors")}
        )

    def pick(self, items: list[Any]) -> Any:
        return items[int(self.rng.integers(len(items)))]

    def note(self, inc: Incident) -> Note:
        """Compose the note about one incident."""
        r = self.rng.random(8)
        ctx, kind = inc.ctx, inc.kind
        parts: list[Template] = [self.pick(self.neutral[kind])] if kind in self.neutral else []
        parts += [self.pick(self.faults[c]) for c in [kind, *inc.also] if c in self.faults]
        if kind in self.logs and r[0] < 0.6:
            parts.append(self.pick(self.logs[kind]))
        if kind in SPIKY or kind == "status" or r[1] < 0.15:
            parts.append(Template("", self.iteration_log(ctx, peak=kind in SPIKY), (), ()))
        for action in inc.actions:
            parts.append(self.pick(self.actions.get(f"{kind}/{action}") or self.actions[action]))
        if inc.actions and r[2] < 0.4:
            parts.append(self.pick(self.neutral["outcome"]))
        if r[3] < 0.35:
            parts.insert(int(r[4] * (len(parts) + 1)), self.pick(self.neutral["distractors"]))
        faults = {c for t in parts for c in t.faults}
        interventions = {c for t in parts for c in t.interventions}
        return Note(
            inc.ts,
            ctx["new_run"],
            self.pick(self.style["authors"]),
            self.title(ctx, sorted(faults) + sorted(interventions), r[5]),
            self.blocks(parts, ctx, r[6]),
            faults,
            interventions,
            inc.events,
        )

    def title(self, ctx: dict[str, Any], codes: list[str], r: float) -> str:
        """A short title naming codes the note already has (so it adds no label)."""
        titles = self.style["titles"]
        named = [c for c in codes if c in titles]
        if not named:
            return self.pick(titles["none"]) if r < 0.3 else ""
        if r < 0.4:
            return ""
        count = 1 if r < 0.9 else min(3, len(named))
        chosen = [named[i] for i in sorted(self.rng.choice(len(named), count, replace=False))]
        return ", ".join(self.pick(titles[c]) for c in chosen).format_map(ctx)

    def blocks(self, parts: list[Template], ctx: dict[str, Any], r: float) -> list[Block]:
        """Sentences run together into paragraphs; pasted blocks stand alone."""
        out: list[Block] = []
        prose: list[str] = []
        breaks = self.rng.random(len(parts)) < 0.25 + 0.3 * r
        for part, brk in zip(parts, breaks, strict=True):
            if part.text:
                prose.append(part.text.format_map(ctx))
            if (part.code or brk) and prose:
                out.append(Block(" ".join(prose)))
                prose = []
            if part.code:
                comment = [self.pick(self.comments)] if self.rng.random() < 0.3 else []
                out.append(Block("\n".join([*comment, part.code.format_map(ctx)]), code=True))
        if prose:
            out.append(Block(" ".join(prose)))
        return out

    def iteration_log(self, ctx: dict[str, Any], peak: bool) -> str:
        """A few consecutive training-log lines; the last one spikes if `peak`."""
        n = 2 + int(self.rng.integers(4))
        noise = self.rng.normal(0, 0.01, n)
        lines = []
        for i in range(n):
            top = peak and i == n - 1
            loss = float(ctx["loss_peak"]) if top else ctx["loss_f"] + noise[i]
            gn = float(ctx["gn_peak"]) if top else float(ctx["gn"]) + noise[i]
            lines.append(
                self.iteration_format.format(
                    it=ctx["it"] - n + 1 + i,
                    total=ctx["total"],
                    sec=ctx["sec"],
                    lr=ctx["lr"],
                    loss=loss,
                    gn=gn,
                    ppl=2**loss,
                    wps=int(ctx["tflops"] * 900),
                )
            )
        return "\n".join(lines)


def truth_row(
    logbook: str,
    n: int,
    heading: str,
    day: str | None,
    faults: set[str],
    interventions: set[str],
    **extra: Any,
) -> dict[str, Any]:
    """One gold-format row (TAXONOMY.md) plus the extra keys the generator knows."""
    return {
        "logbook": logbook,
        "n": n,
        "heading": heading,
        "date": day,
        "faults": sorted(faults),
        "interventions": sorted(interventions),
        **extra,
    }


@dataclass(slots=True)
class Doc:
    """Everything a renderer needs: the notes and the logbook's own words."""

    name: str
    title: str
    intro: str
    notes: list[Note]
    seed: int
    first_day: date
    days: int
    subheadings: list[str]
    quiet: list[str]
