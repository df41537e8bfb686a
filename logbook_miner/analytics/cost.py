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

import math
from dataclasses import dataclass, replace

import numpy as np


def young_daly(mtbf_hours: float, checkpoint_cost_seconds: float) -> float:
    """Optimum compute time between checkpoints, in hours, by Daly's higher-order formula.

    Daly, "A higher order estimate of the optimum checkpoint interval for
    restart dumps", FGCS 22 (2006), with M the MTBF and C the checkpoint cost:

        tau = sqrt(2CM) [1 + sqrt(C/2M)/3 + (C/2M)/9] - C    if C < 2M
        tau = M                                              otherwise

    Its leading term sqrt(2CM) is Young's (CACM 17, 1974) first-order optimum.
    """
    if not (math.isfinite(mtbf_hours) and mtbf_hours > 0):
        raise ValueError("mtbf_hours must be finite and > 0")
    if not (math.isfinite(checkpoint_cost_seconds) and checkpoint_cost_seconds >= 0):
        raise ValueError("checkpoint_cost_seconds must be finite and >= 0")
    cost = checkpoint_cost_seconds / 3600
    if cost >= 2 * mtbf_hours:
        return mtbf_hours
    ratio = cost / (2 * mtbf_hours)
    return math.sqrt(2 * cost * mtbf_hours) * (1 + math.sqrt(ratio) / 3 + ratio / 9) - cost


def expected_lost_work(
    failures: float, checkpoint_interval_hours: float, checkpoint_cost_seconds: float = 0.0
) -> float:
    """Hours of work redone after `failures` failures: each loses half a checkpoint cycle.

    A failure lands uniformly within a cycle of tau + C, so on average it
    throws away (tau + C) / 2 of work since the last complete checkpoint.
    """
    if failures < 0 or checkpoint_interval_hours <= 0 or checkpoint_cost_seconds < 0:
        raise ValueError("failures and checkpoint cost must be >= 0, the interval > 0")
    return failures * (checkpoint_interval_hours + checkpoint_cost_seconds / 3600) / 2


def goodput(wall_hours: float, downtime_hours: float, checkpoint_hours: float = 0.0) -> float:
    """Share of wall-clock time that advanced training: (wall - downtime - checkpoints) / wall.

    `downtime_hours` is everything lost to failures (repairs and redone work),
    e.g. measured from a logbook; the result is clipped to [0, 1].
    """
    if wall_hours <= 0 or downtime_hours < 0 or checkpoint_hours < 0:
        raise ValueError("wall_hours must be > 0, downtime and checkpoint hours >= 0")
    return max(0.0, wall_hours - downtime_hours - checkpoint_hours) / wall_hours


_MAX_DRAWS = 5e7  # about 400 MB of lost-work draws


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
    _check_inputs(gpus, usd_per_gpu_hour, mtbf_hours, mttr_hours, checkpoint_minutes,
                  checkpoint_cost_seconds, days, runs)
    wall = days * 24
    interval, cost = checkpoint_minutes / 60, checkpoint_cost_seconds / 3600
    failures = wall / mtbf_hours
    repair = failures * mttr_hours
    rework = expected_lost_work(failures, interval, checkpoint_cost_seconds)
    checkpoint = max(wall - repair, 0.0) * cost / (interval + cost)
    share = goodput(wall, repair + rework, checkpoint)
    lost = gpus * wall * (1 - share)
    estimate = CostEstimate(
        gpus=gpus, usd_per_gpu_hour=float(usd_per_gpu_hour), mtbf_hours=float(mtbf_hours),
        mttr_hours=float(mttr_hours), checkpoint_minutes=float(checkpoint_minutes),
        checkpoint_cost_seconds=float(checkpoint_cost_seconds), days=float(days),
        wall_hours=float(wall),
        expected_failures=failures, repair_hours=repair, rework_hours=rework,
        checkpoint_hours=checkpoint, useful_hours=share * wall, goodput=share,
        lost_gpu_hours=lost, lost_usd=lost * usd_per_gpu_hour,
        total_usd=gpus * wall * usd_per_gpu_hour,
        daly_checkpoint_minutes=young_daly(mtbf_hours, checkpoint_cost_seconds) * 60,
        runs=runs, seed=seed,
    )
    if runs == 0:
        return estimate
    if failures * runs > _MAX_DRAWS:
        raise ValueError(f"about {failures * runs:.3g} failures to draw; use fewer runs")
    rng = np.random.default_rng(seed)
    counts = rng.poisson(failures, size=runs)
    repair_mc = rng.gamma(counts, mttr_hours)  # sum of `count` exponentials
    losses = rng.uniform(0, interval + cost, size=int(counts.sum()))
    rework_mc = np.bincount(np.repeat(np.arange(runs), counts), losses, minlength=runs)
    checkpoint_mc = np.maximum(wall - repair_mc, 0) * cost / (interval + cost)
    share_mc = np.clip(wall - repair_mc - rework_mc - checkpoint_mc, 0, None) / wall
    lost_usd_mc = gpus * wall * (1 - share_mc) * usd_per_gpu_hour
    return _with_monte_carlo(estimate, counts, share_mc, lost_usd_mc)


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


def _check_inputs(
    gpus: int, usd_per_gpu_hour: float, mtbf_hours: float, mttr_hours: float,
    checkpoint_minutes: float, checkpoint_cost_seconds: float, days: float, runs: int,
) -> None:
    numbers = (usd_per_gpu_hour, mtbf_hours, mttr_hours, checkpoint_minutes,
               checkpoint_cost_seconds, days)
    if not all(math.isfinite(x) for x in numbers):
        raise ValueError("simulation inputs must be finite")
    if gpus < 1 or runs < 0:
        raise ValueError("gpus must be >= 1 and runs >= 0")
    if mtbf_hours <= 0 or checkpoint_minutes <= 0 or days <= 0:
        raise ValueError("mtbf_hours, checkpoint_minutes and days must be > 0")
    if usd_per_gpu_hour < 0 or mttr_hours < 0 or checkpoint_cost_seconds < 0:
        raise ValueError("usd_per_gpu_hour, mttr_hours and checkpoint_cost_seconds must be >= 0")
