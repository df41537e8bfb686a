"""What failures cost a training run: checkpoint interval, lost work, goodput, dollars.

A first-order model, valid when MTBF is much longer than MTTR plus a
checkpoint interval. Failures arrive as a Poisson process at 1/MTBF per
wall-clock hour (MTBF of the whole job, i.e. any failure that stops training,
as `reliability.mtbf` measures it from a logbook). Each failure costs its
repair (time to training resumed) plus the work since the last checkpoint;
while up, the job spends C / (tau + C) of its time writing checkpoints, with
tau the compute time between checkpoints and C the time one takes (Daly 2006).
"""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields, replace
from functools import cache
from typing import Any

import numpy as np

from ..errors import ArgumentError

# The model, once. Each quantity is a formula of the inputs (gpus, usd_per_gpu_hour,
# mtbf_hours, mttr_hours, checkpoint_minutes, checkpoint_cost_seconds, days) and of the
# quantities before it, in hours unless named otherwise, written in the small part of
# Python's expression syntax `evaluate` reads (+ - * / **, max, min, sqrt, `a if c else b`).
# `simulate_cost` evaluates it; the dashboard's simulator runs the same formulas in the
# browser, translated to Vega expressions (`present.charts_training`).
MODEL = {
    "wall_hours": "days * 24",
    "interval_hours": "checkpoint_minutes / 60",  # tau: compute time between checkpoints
    "cost_hours": "checkpoint_cost_seconds / 3600",  # C: the time one checkpoint takes
    "expected_failures": "wall_hours / mtbf_hours",
    "repair_hours": "expected_failures * mttr_hours",
    # a failure lands uniformly within a cycle of tau + C: it loses half a cycle of work
    "rework_hours": "expected_failures * (interval_hours + cost_hours) / 2",
    "checkpoint_hours": "max(wall_hours - repair_hours, 0) * cost_hours "
                        "/ (interval_hours + cost_hours)",
    "goodput": "max(0, wall_hours - (repair_hours + rework_hours) - checkpoint_hours) "
               "/ wall_hours",
    "useful_hours": "goodput * wall_hours",
    "lost_gpu_hours": "gpus * wall_hours * (1 - goodput)",
    "lost_usd": "lost_gpu_hours * usd_per_gpu_hour",
    "total_usd": "gpus * wall_hours * usd_per_gpu_hour",
    # Daly, "A higher order estimate of the optimum checkpoint interval for restart dumps",
    # FGCS 22 (2006), with M the MTBF and C the checkpoint cost:
    #   tau = sqrt(2CM) [1 + sqrt(C/2M)/3 + (C/2M)/9] - C    if C < 2M
    #   tau = M                                              otherwise
    # Its leading term sqrt(2CM) is Young's (CACM 17, 1974) first-order optimum.
    "daly_ratio": "cost_hours / (2 * mtbf_hours)",
    "daly_hours": "mtbf_hours if cost_hours >= 2 * mtbf_hours else sqrt(2 * cost_hours "
                  "* mtbf_hours) * (1 + sqrt(daly_ratio) / 3 + daly_ratio / 9) - cost_hours",
    "daly_checkpoint_minutes": "daly_hours * 60",
}
_OPERATORS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.Pow: operator.pow, ast.Lt: operator.lt,
    ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
}
_SCALAR = {"max": max, "min": min, "sqrt": math.sqrt}
_ARRAY = {"max": np.maximum, "min": np.minimum, "sqrt": np.sqrt}


@cache
def formula(name: str) -> ast.expr:
    """MODEL[name] parsed."""
    return ast.parse(MODEL[name], mode="eval").body


def evaluate(names: list[str], values: Mapping[str, Any]) -> dict[str, Any]:
    """The named quantities of MODEL from `values` (inputs, or quantities already known).

    Values may be numbers or numpy arrays (then max, min and sqrt work element-wise).
    """
    known = dict(values)
    functions = _ARRAY if any(isinstance(v, np.ndarray) for v in known.values()) else _SCALAR

    def value(node: ast.expr) -> Any:
        match node:
            case ast.Constant(value=number):
                return number
            case ast.Name(id=name):
                if name not in known:
                    if name not in MODEL:
                        raise ValueError(f"the cost model needs {name}")
                    known[name] = value(formula(name))
                return known[name]
            case ast.BinOp(left=left, op=op, right=right):
                return _OPERATORS[type(op)](value(left), value(right))
            case ast.UnaryOp(op=ast.USub(), operand=operand):
                return -value(operand)
            case ast.Compare(left=left, ops=[op], comparators=[right]):
                return _OPERATORS[type(op)](value(left), value(right))
            case ast.IfExp(test=test, body=body, orelse=orelse):
                return value(body) if value(test) else value(orelse)
            case ast.Call(func=ast.Name(id=function), args=args):
                return functions[function](*map(value, args))
        raise ValueError(f"the cost model cannot read {ast.unparse(node)!r}")

    return {name: value(ast.Name(id=name)) for name in names}


def goodput(wall_hours: float, downtime_hours: float, checkpoint_hours: float = 0.0) -> float:
    """Share of wall-clock time that advanced training: (wall - downtime - checkpoints) / wall.

    `downtime_hours` is everything lost to failures (repairs and redone work),
    e.g. measured from a logbook; the result is clipped to [0, 1].
    """
    if wall_hours <= 0 or downtime_hours < 0 or checkpoint_hours < 0:
        raise ValueError("wall_hours must be > 0, downtime and checkpoint hours >= 0")
    return evaluate(["goodput"], {"wall_hours": wall_hours, "repair_hours": downtime_hours,
                                  "rework_hours": 0.0,
                                  "checkpoint_hours": checkpoint_hours})["goodput"]


_MAX_DRAWS = 5e7  # about 400 MB of lost-work draws
# each input's least value, and whether it may be that value (a run takes some time)
_LEAST = {"gpus": (1, True), "usd_per_gpu_hour": (0, True), "mtbf_hours": (0, False),
          "mttr_hours": (0, True), "checkpoint_minutes": (0, False),
          "checkpoint_cost_seconds": (0, True), "days": (0, False), "runs": (0, True)}


@dataclass(frozen=True, slots=True)
class CostEstimate:
    """Expected cost of failures over a campaign; `mc_*` fields are None unless runs > 0.

    Hours are wall-clock hours of the whole job; repair + rework + checkpoint +
    useful = wall unless failures eat the whole campaign (useful is clipped at
    0). `lost_*` counts everything but useful work. The Monte Carlo intervals
    are the 5th and 95th percentiles over runs (a 90% interval).
    """

    gpus: int
    usd_per_gpu_hour: float
    mtbf_hours: float
    mttr_hours: float
    checkpoint_minutes: float
    checkpoint_cost_seconds: float
    days: float
    wall_hours: float
    expected_failures: float
    repair_hours: float
    rework_hours: float
    checkpoint_hours: float
    useful_hours: float
    goodput: float
    lost_gpu_hours: float
    lost_usd: float
    total_usd: float
    daly_checkpoint_minutes: float
    runs: int
    seed: int
    mc_failures_mean: float | None = None
    mc_goodput_mean: float | None = None
    mc_goodput_p05: float | None = None
    mc_goodput_p95: float | None = None
    mc_lost_usd_mean: float | None = None
    mc_lost_usd_p05: float | None = None
    mc_lost_usd_p95: float | None = None
    # where each input came from: given, measured (dated entries), reported (the notes'
    # stated rate) or assumed (data/cost_assumptions.yaml)
    sources: dict[str, str] | None = None


_ESTIMATED = tuple(f.name for f in fields(CostEstimate) if f.name in MODEL)


def simulate_cost(
    gpus: int,
    usd_per_gpu_hour: float,
    mtbf_hours: float,
    mttr_hours: float,
    checkpoint_minutes: float,
    checkpoint_cost_seconds: float,
    days: float,
    runs: int = 0,
    seed: int = 0,
) -> CostEstimate:
    """Expected downtime, goodput and dollars lost to failures and checkpoints.

    Analytic expectation (see the module docstring): with N = wall / MTBF
    failures, repair = N * MTTR, rework = N * (tau + C) / 2, checkpoints =
    (wall - repair) * C / (tau + C), and lost GPU-hours = gpus * (wall - useful).
    `checkpoint_minutes` is tau, so `daly_checkpoint_minutes` compares with it.
    With runs > 0 the same model is drawn `runs` times (numpy Generator seeded
    by `seed`): N ~ Poisson(wall / MTBF), each repair ~ Exponential(MTTR) (the
    maximum-entropy law given only a mean), each loss ~ Uniform(0, tau + C).
    """
    _check_inputs(gpus=gpus, usd_per_gpu_hour=usd_per_gpu_hour, mtbf_hours=mtbf_hours,
                  mttr_hours=mttr_hours, checkpoint_minutes=checkpoint_minutes,
                  checkpoint_cost_seconds=checkpoint_cost_seconds, days=days, runs=runs)
    inputs = {"gpus": gpus, "usd_per_gpu_hour": float(usd_per_gpu_hour),
              "mtbf_hours": float(mtbf_hours), "mttr_hours": float(mttr_hours),
              "checkpoint_minutes": float(checkpoint_minutes),
              "checkpoint_cost_seconds": float(checkpoint_cost_seconds), "days": float(days)}
    model = evaluate([*_ESTIMATED, "interval_hours", "cost_hours"], inputs)
    estimate = CostEstimate(**inputs, **{k: float(model[k]) for k in _ESTIMATED},
                            runs=runs, seed=seed)
    failures = model["expected_failures"]
    if runs == 0:
        return estimate
    if failures * runs > _MAX_DRAWS:
        raise ValueError(f"about {failures * runs:.3g} failures to draw; use fewer runs")
    rng = np.random.default_rng(seed)
    counts = rng.poisson(failures, size=runs)
    repair = rng.gamma(counts, mttr_hours)  # sum of `count` exponentials
    cycle = model["interval_hours"] + model["cost_hours"]
    losses = rng.uniform(0, cycle, size=int(counts.sum()))
    rework = np.bincount(np.repeat(np.arange(runs), counts), losses, minlength=runs)
    drawn = evaluate(["goodput", "lost_usd"], inputs | {
        name: model[name] for name in ("wall_hours", "interval_hours", "cost_hours")} | {
        "repair_hours": repair, "rework_hours": rework})
    return _with_monte_carlo(estimate, counts, drawn["goodput"], drawn["lost_usd"])


def _with_monte_carlo(
    estimate: CostEstimate, counts: np.ndarray, share: np.ndarray, lost_usd: np.ndarray
) -> CostEstimate:
    p05, p95 = np.percentile(share, [5, 95])
    usd05, usd95 = np.percentile(lost_usd, [5, 95])
    return replace(
        estimate, mc_failures_mean=float(counts.mean()), mc_goodput_mean=float(share.mean()),
        mc_goodput_p05=float(p05), mc_goodput_p95=float(p95),
        mc_lost_usd_mean=float(lost_usd.mean()), mc_lost_usd_p05=float(usd05),
        mc_lost_usd_p95=float(usd95),
    )


def _check_inputs(**inputs: float) -> None:
    """Refuse the first input out of its range, naming it (the CLI names its flag)."""
    for name, value in inputs.items():
        least, may_equal = _LEAST[name]
        if not math.isfinite(value):
            raise ArgumentError(f"`{name}` must be a finite number, not {value}")
        if value < least or (value == least and not may_equal):
            bound = f"at least {least}" if may_equal else f"more than {least}"
            raise ArgumentError(f"`{name}` must be {bound}, not {value:g}")
