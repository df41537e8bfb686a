"""Simulate a training run day by day: failures, recoveries, restarts, loss and LR.

Each day draws from its own Generator seeded with (seed, day), so simulating
more days never changes the days before; that is what lets `--pages` keep
adding days until a document is long enough. Parameters live in
data/generator/simulation.yaml so the truth can be checked against them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import numpy as np

from logbook_miner.generate.values import template_values
from logbook_miner.resources import DATA, read_yaml

GENERATOR = DATA / "generator"
HOUR = timedelta(hours=1)


def load_yaml(name: str) -> dict[str, Any]:
    """Read one of the generator's data files."""
    return read_yaml(GENERATOR / name)


def iso(ts: datetime) -> str:
    """UTC instant as ISO text with a Z, the form truth files use."""
    return ts.strftime("%Y-%m-%dT%H:%M:%SZ")


@dataclass(slots=True)
class Incident:
    """Something the team writes a note about, with what they did about it."""

    ts: datetime  # when the note is written (UTC)
    kind: str  # a fault code, "config", "status" or "launch"
    actions: list[str]  # intervention keys, in the order they were taken
    ctx: dict[str, Any]  # values the sentence templates may use
    also: list[str] = field(default_factory=list)  # further fault codes
    events: list[dict[str, Any]] = field(default_factory=list)  # failures and restarts


class Simulation:
    """The state of one training run, advanced one day at a time."""

    def __init__(self, seed: int, nodes: int, mtbf_hours: float) -> None:
        self.p = load_yaml("simulation.yaml")
        self.seed, self.nodes, self.mtbf_hours = seed, nodes, mtbf_hours
        rng = np.random.default_rng([seed, 0])
        self.start = datetime.fromisoformat(self.p["start"]) + timedelta(
            days=int(rng.integers(0, 61))
        )
        self.sec_per_it = float(rng.uniform(*self.p["seconds_per_iteration"]))
        self.tflops = float(rng.uniform(135, 155))
        self.host_format = str(rng.choice(self.p["hostnames"]))
        fams = self.p["families"]
        self.families = list(fams)
        self.shares = np.array([fams[f]["share"] for f in self.families])
        self.major, self.minor = int(self.p["lineage"]), 0
        self.it, self.clock, self.down_until = 0.0, self.start, self.start
        self.last_restart_note = self.start
        self.lr, self.clip = float(self.p["lr"]), float(self.p["clip"])
        self.failures: list[dict[str, Any]] = []
        self.restarts: list[dict[str, Any]] = []
        self.lr_cuts: list[dict[str, Any]] = []
        self.days = 0

    @property
    def run(self) -> str:
        return f"{self.major}.{self.minor:02d}"

    @property
    def ckpt(self) -> int:
        every = self.p["checkpoint_every"]
        return int(self.it // every * every)

    def loss(self, it: float) -> float:
        """A smooth power-law loss curve; noise and spikes are added by callers."""
        return 1.85 + 6.5 * (1 + it / 200) ** -0.35

    def day(self) -> list[Incident]:
        """Simulate the next day and return its incidents in time order."""
        d, self.days = self.days, self.days + 1
        rng = np.random.default_rng([self.seed, d + 1])
        t0 = self.start + timedelta(days=d)
        out: list[Incident] = []
        if self.it >= self.p["total_iterations"]:
            out.append(self._launch(rng, t0 + rng.uniform(1, 6) * HOUR))
        todo = [(h, "failure", (n, f)) for h, n, f in self._arrivals(rng)]
        for kind, rate in self.p["daily_rates"].items():
            todo += [(h, kind, ()) for h in rng.uniform(0, 24, rng.poisson(rate))]
        if not todo and rng.random() < self.p["status_probability"]:
            todo.append((rng.uniform(13, 24), "status", ()))
        for hour, kind, args in sorted(todo, key=lambda x: x[0]):
            t = t0 + hour * HOUR
            inc = self._failure(rng, t, *args) if kind == "failure" else self._other(rng, t, kind)
            if inc:
                out.append(inc)
        return out

    def _arrivals(self, rng: np.random.Generator) -> list[tuple[float, int, int]]:
        """Failure times (hours into the day), node and family: exponential per node."""
        scale = np.broadcast_to(
            self.mtbf_hours * self.nodes / self.shares, (self.nodes, len(self.shares))
        )
        t = rng.exponential(scale)
        found = []
        while (due := t < 24).any():
            found += [(float(t[n, f]), int(n), int(f)) for n, f in np.argwhere(due)]
            t[due] += rng.exponential(scale[due])
        return found

    def _advance(self, t: datetime) -> None:
        """Count the iterations done while the job was up, up to t."""
        up_from = max(self.clock, self.down_until)
        if t > up_from:
            self.it += (t - up_from).total_seconds() / self.sec_per_it
        self.clock = max(self.clock, t)

    def _restart(self, at: datetime, reason: str) -> dict[str, Any]:
        old = self.run
        self.minor += 1
        self.down_until = max(self.down_until, at)
        ev = {
            "kind": "restart",
            "ts_utc": iso(at),
            "from_run": old,
            "to_run": self.run,
            "iteration": int(self.it),
            "reason": reason,
        }
        self.restarts.append(ev)
        return ev

    def _restart_note(self, ts: datetime) -> datetime:
        """When the note on a restart is written: not before the note on the restart before it
        (people write them up in order, so run ids in the headings only ever increase)."""
        self.last_restart_note = max(ts, self.last_restart_note + timedelta(minutes=1))
        return self.last_restart_note

    def _failure(self, rng: np.random.Generator, t: datetime, node: int, f: int) -> Incident:
        fam, prm, after = (
            self.families[f],
            self.p["families"][self.families[f]],
            self.p["after_failure"],
        )
        self._advance(t)
        lost = 0
        if t >= self.down_until:
            lost, self.it = int(self.it - self.ckpt), float(self.ckpt)
        hours = float(rng.lognormal(np.log(prm["median_h"]), prm["sigma"]))
        u = rng.random(5)
        actions = ["node_replacement"] if u[0] < prm["replace"] else []
        also = ["infra.provider"] if actions and u[1] < after["provider_delay"] else []
        hours += float(rng.uniform(2, 8)) if also else 0.0
        actions += ["health_check"] if u[2] < after["health_check"] else []
        actions += ["automation" if u[3] < after["automation"] else "restart"]
        if u[4] < after["retry"]:
            actions.append("retry")
        ctx = template_values(self, rng, t, node, lost=lost, hours=hours)
        failure = {
            "kind": "failure",
            "family": fam.split(".")[0],
            "code": fam,
            "node": node,
            "host": ctx["host"],
            "ts_utc": iso(t),
            "recovery_hours": round(hours, 3),
        }
        self.failures.append(failure)
        at = max(t, self.down_until) + hours * HOUR
        events = [failure] + [
            self._restart(at + i * 0.2 * HOUR, fam) for i in range(1 + ("retry" in actions))
        ]
        ctx["new_run"] = self.run
        return Incident(
            self._restart_note(at + rng.uniform(5, 90) * timedelta(minutes=1)), fam, actions,
            ctx, also, events,
        )

    def _other(self, rng: np.random.Generator, t: datetime, kind: str) -> Incident | None:
        """Numerics, performance, operations and status incidents; None while the job is down."""
        if t < self.down_until:
            return None
        self._advance(t)
        u = rng.random(4)
        plans = {
            "numerics.loss_spike": [[], [], ["rollback", "skip_data"], ["lr_change", "restart"]],
            "numerics.divergence": [
                ["rollback", "lr_change"]
                + (["clip_change"] if u[1] < 0.35 else [])
                + (["skip_data"] if u[2] < 0.3 else [])
            ],
            "numerics.overflow": [["precision_change", "restart"], ["rollback", "lr_change"]],
            "performance.throughput": [
                ["health_check"],
                ["health_check", "node_replacement", "restart"],
            ],
            "infra.maintenance": [["restart"]],
            "infra.scheduler": [["restart"]],
            "software.bug": [["code_fix", "restart"]],
            "data.quality": [["data_change", "restart"], ["skip_data", "restart"]],
            "config": [[a, "restart"] for a in self.p["config_changes"]],
            "status": [[]],
        }[kind]
        actions = plans[int(u[0] * len(plans))]
        also = ["software.dependency"] if "dependency_change" in actions and u[3] < 0.3 else []
        ctx = template_values(
            self,
            rng,
            t,
            int(rng.integers(self.nodes)),
            lost=0,
            hours=float(rng.lognormal(np.log(3.0 if kind.startswith("infra") else 0.6), 0.5)),
        )
        events = []
        if "rollback" in actions:
            back = int(rng.integers(2, 7)) * self.p["checkpoint_every"]
            ctx["lost"], self.it = (
                int(self.it) - max(0, self.ckpt - back),
                float(max(0, self.ckpt - back)),
            )
        elif "restart" in actions:
            ctx["lost"], self.it = int(self.it - self.ckpt), float(self.ckpt)
        if "lr_change" in actions:
            old, self.lr = self.lr, self.lr * float(rng.choice(self.p["lr_cut_factors"]))
            ctx |= {
                "lr_old": f"{old:.2e}",
                "lr_new": f"{self.lr:.2e}",
                "lr_pct": round(100 * (1 - self.lr / old)),
            }
            self.lr_cuts.append(
                {"ts_utc": iso(t), "run": self.run, "lr_old": old, "lr_new": self.lr}
            )
        if "clip_change" in actions:
            self.clip = round(self.clip * 0.5, 2)
        ctx |= {
            "ckpt": self.ckpt,
            "ckpt_k": f"{self.ckpt / 1000:g}k",
            "clip_new": self.clip,
            "skip_from": self.ckpt + 1,
            "skip_to": self.ckpt + ctx["lost"] + 50,
        }
        at = t + ctx["hours_f"] * HOUR
        if "restart" in actions or "rollback" in actions:
            events.append(self._restart(at, kind))
        ctx["new_run"] = self.run
        note_at = at if events else t + rng.uniform(0.3, 3) * HOUR
        written = note_at + rng.uniform(5, 60) * timedelta(minutes=1)
        return Incident(self._restart_note(written) if events else written, kind, actions, ctx,
                        also, events)

    def _launch(self, rng: np.random.Generator, t: datetime) -> Incident:
        """Start the next lineage (13.00 after 12.xx) from scratch."""
        self._advance(t)
        self.major, self.minor, self.it, self.lr = self.major + 1, 0, 0.0, float(self.p["lr"])
        ctx = template_values(self, rng, t, 0, lost=0, hours=0.0)
        ctx["new_run"] = self.run
        return Incident(t, "launch", [], ctx)

    def summary(self) -> dict[str, Any]:
        """What generation.json records: parameters and the true event times."""
        hours = self.days * 24
        return {
            "seed": self.seed,
            "nodes": self.nodes,
            "mtbf_hours": self.mtbf_hours,
            "days": self.days,
            "start_utc": iso(self.start),
            "seconds_per_iteration": round(self.sec_per_it, 3),
            "parameters": self.p,
            "expected_failures": hours / self.mtbf_hours,
            "failures": self.failures,
            "restarts": self.restarts,
            "lr_cuts": self.lr_cuts,
        }
