"""Reliability statistics: interval coverage by simulation, worked values, edge cases."""

from __future__ import annotations

import json
import math
from dataclasses import asdict

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import optimize, stats

from logbook_miner.analytics.cost import evaluate, goodput, simulate_cost
from logbook_miner.analytics.reliability import mtbf, mttr, weibull


def _exponential_failures(rng, mtbf_hours: float, window: float, reps: int) -> list[np.ndarray]:
    """Failure times of `reps` Poisson processes: cumulative exponential gaps inside the window."""
    mean_count = window / mtbf_hours
    width = int(mean_count + 10 * math.sqrt(mean_count) + 20)
    times = np.cumsum(rng.exponential(mtbf_hours, size=(reps, width)), axis=1)
    assert np.all(times[:, -1] > window)  # wide enough that no process was truncated
    return [row[row <= window] for row in times]


def _mtbf_coverage(mean_failures: float, reps: int, seed: int) -> float:
    true_mtbf, rng = 10.0, np.random.default_rng(seed)
    window = true_mtbf * mean_failures
    hits = 0
    for times in _exponential_failures(rng, true_mtbf, window, reps):
        est = mtbf(times, window)
        high = math.inf if est.mtbf_ci_high_hours is None else est.mtbf_ci_high_hours
        hits += est.mtbf_ci_low_hours <= true_mtbf <= high
    return hits / reps


def test_mtbf_interval_covers_true_mtbf_95_percent_of_the_time():
    # Exact (Garwood) coverage at 25 expected failures is 95.5%; 1000 reps give SE 0.7%.
    assert 0.92 <= _mtbf_coverage(mean_failures=25, reps=1000, seed=1) <= 0.98


def test_mtbf_interval_is_conservative_with_few_failures():
    # With ~3 failures the discrete Poisson count makes the interval over-cover (exact 98.8%).
    assert _mtbf_coverage(mean_failures=3, reps=1000, seed=2) >= 0.95


def test_mtbf_worked_example():
    est = mtbf([10.0, 30.0, 35.0, 80.0], observed_hours=100.0)
    assert est.failures == 4
    assert est.mtbf_hours == 25.0
    assert est.mtbf_ci_low_hours == pytest.approx(200 / stats.chi2.ppf(0.975, 10))
    assert est.mtbf_ci_high_hours == pytest.approx(200 / stats.chi2.ppf(0.025, 8))
    assert est.median_tbf_hours == 15.0  # gaps 10, 20, 5, 45


def test_mtbf_zero_failures_gives_only_a_lower_bound():
    est = mtbf([], observed_hours=100.0)
    assert (est.mtbf_hours, est.mtbf_ci_high_hours, est.median_tbf_hours) == (None, None, None)
    assert est.mtbf_ci_low_hours == pytest.approx(200 / stats.chi2.ppf(0.975, 2))  # 27.1 h


def test_mtbf_per_node_and_per_gpu_scale_the_cluster_figure():
    est = mtbf([10.0, 30.0], observed_hours=60.0)
    node = est.per_node(128)
    assert (node.per, node.units, node.observed_hours) == ("node", 128, 60.0)
    assert node.mtbf_hours == 30.0 * 128
    assert node.mtbf_ci_low_hours == est.mtbf_ci_low_hours * 128
    assert est.per_gpu(1024).median_tbf_hours == 15.0 * 1024
    with pytest.raises(ValueError):
        node.per_gpu(8)


def test_mtbf_rejects_failures_outside_the_window():
    with pytest.raises(ValueError):
        mtbf([5.0, 120.0], observed_hours=100.0)
    with pytest.raises(ValueError):
        mtbf([-1.0], observed_hours=100.0)


def test_mttr_reports_skew_and_an_interval_for_the_mean():
    repairs = np.random.default_rng(3).lognormal(mean=0.0, sigma=1.0, size=60)
    est = mttr(repairs)
    assert est.repairs == 60
    assert est.median_hours < est.mean_hours  # right skew
    assert est.mean_ci_low_hours < est.mean_hours < est.mean_ci_high_hours
    assert mttr(repairs) == est  # seeded bootstrap is reproducible


def test_mttr_bootstrap_covers_a_lognormal_mean_most_of_the_time():
    rng, sigma, reps = np.random.default_rng(4), 0.8, 100
    true_mean = math.exp(sigma**2 / 2)
    hits = 0
    for seed in range(reps):
        est = mttr(rng.lognormal(0.0, sigma, size=40), seed=seed)
        hits += est.mean_ci_low_hours <= true_mean <= est.mean_ci_high_hours
    assert hits / reps >= 0.85  # BCa is a little optimistic at n = 40


def _weibull_sample(rng, shape: float, n: int) -> tuple[np.ndarray, np.ndarray]:
    """n Weibull(shape, scale 10) intervals, about a quarter right-censored at random times."""
    life = stats.weibull_min.rvs(shape, scale=10.0, size=n, random_state=rng)
    cutoff = rng.uniform(0, 40.0, size=n)
    return life[life <= cutoff], cutoff[life > cutoff]


@pytest.mark.parametrize("shape", [0.7, 1.5])
def test_weibull_recovers_a_known_shape_within_its_interval(shape):
    # Profile-likelihood coverage at n = 50 is about 94% (1000-rep check); SE here 1.3%.
    rng, reps, hits, shapes = np.random.default_rng(5), 300, 0, []
    for _ in range(reps):
        fit = weibull(*_weibull_sample(rng, shape, n=50))
        hits += fit.shape_ci_low <= shape <= fit.shape_ci_high
        shapes.append(fit.shape)
    assert 0.90 <= hits / reps <= 0.99
    assert np.median(shapes) == pytest.approx(shape, rel=0.05)


def test_weibull_matches_scipy_fit_and_reads_the_hazard():
    events, censored = _weibull_sample(np.random.default_rng(6), 0.6, n=200)
    fit = weibull(events, censored)
    data = stats.CensoredData(uncensored=events, right=censored)
    shape, _, scale = stats.weibull_min.fit(data, floc=0)
    assert fit.shape == pytest.approx(shape, rel=1e-3)
    assert fit.scale_hours == pytest.approx(scale, rel=1e-3)
    assert (fit.events, fit.censored) == (events.size, censored.size)
    assert fit.hazard_trend == "decreasing"


def test_weibull_without_an_identifiable_fit():
    assert weibull([]).shape is None
    assert weibull([], censored_hours=[5.0]).shape is None
    assert weibull([4.0, 4.0, 4.0]).shape is None  # identical gaps: shape -> infinity
    assert weibull([4.0], censored_hours=[9.0]).shape is not None  # a longer censored spell
    with pytest.raises(ValueError):
        weibull([0.0, 3.0])


def young_daly(mtbf_hours: float, checkpoint_cost_seconds: float) -> float:
    """The cost model's Daly interval, in hours."""
    values = {"mtbf_hours": mtbf_hours, "checkpoint_cost_seconds": checkpoint_cost_seconds}
    return evaluate(["daly_hours"], values)["daly_hours"]


def test_young_daly_worked_value():
    # M = 24 h, C = 300 s = 1/12 h: sqrt(2CM) = 2 h, C/2M = 1/576,
    # tau = 2 * (1 + 1/72 + 1/5184) - 1/12 = 1.944830 h (Young alone: 2 h).
    assert young_daly(24.0, 300.0) == pytest.approx(1.9448302469, rel=1e-9)
    assert young_daly(1.0, 3 * 3600) == 1.0  # C >= 2M: checkpoint once per MTBF


@pytest.mark.parametrize(("mtbf_hours", "cost_seconds"), [(24, 300), (2, 600), (1, 1800)])
def test_daly_is_near_the_exact_optimum_of_his_exponential_model(mtbf_hours, cost_seconds):
    cost = cost_seconds / 3600  # minimise wall time ~ (exp((tau + C) / M) - 1) / tau
    exact = optimize.minimize_scalar(
        lambda tau: math.expm1((tau + cost) / mtbf_hours) / tau,
        bounds=(1e-6, 10 * mtbf_hours), method="bounded", options={"xatol": 1e-12},
    ).x
    assert young_daly(mtbf_hours, cost_seconds) == pytest.approx(exact, rel=0.01)


def test_lost_work_and_goodput_formulas():
    rework = evaluate(["rework_hours"], {"expected_failures": 10, "interval_hours": 1.0,
                                         "checkpoint_cost_seconds": 360})["rework_hours"]
    assert rework == pytest.approx(10 * 1.1 / 2)
    assert goodput(100.0, 20.0, 5.0) == 0.75
    assert goodput(100.0, 150.0) == 0.0


def test_monte_carlo_mean_agrees_with_the_analytic_expectation():
    est = simulate_cost(1024, 2.0, mtbf_hours=12, mttr_hours=2, checkpoint_minutes=60,
                        checkpoint_cost_seconds=300, days=30, runs=20_000, seed=7)
    assert est.mc_failures_mean == pytest.approx(est.expected_failures, rel=0.01)
    assert est.mc_goodput_mean == pytest.approx(est.goodput, rel=0.005)
    assert est.mc_lost_usd_mean == pytest.approx(est.lost_usd, rel=0.01)
    assert est.mc_lost_usd_p05 < est.lost_usd < est.mc_lost_usd_p95
    parts = est.repair_hours + est.rework_hours + est.checkpoint_hours + est.useful_hours
    assert parts == pytest.approx(est.wall_hours)
    assert est.lost_usd == pytest.approx(est.lost_gpu_hours * 2.0)


def test_daly_interval_beats_halving_or_doubling_it():
    base = dict(gpus=8, usd_per_gpu_hour=2.0, mtbf_hours=10.0, mttr_hours=0.5,
                checkpoint_cost_seconds=600, days=10)
    best = simulate_cost(checkpoint_minutes=60, **base).daly_checkpoint_minutes
    at = {f: simulate_cost(checkpoint_minutes=best * f, **base).goodput for f in (0.5, 1, 2)}
    assert at[1] > max(at[0.5], at[2])


def test_results_flatten_to_json():
    results = [mtbf([1.0], 5.0), mtbf([], 5.0).per_gpu(8), mttr([1.0, 3.0]), mttr([]),
               weibull([1.0, 2.0, 5.0]), weibull([]),
               simulate_cost(8, 2.0, 10.0, 1.0, 30, 60, 1, runs=50)]
    for result in results:
        flat = asdict(result)
        assert all(isinstance(v, str | int | float | None) for v in flat.values())
        json.dumps(flat, allow_nan=False)


# Property tests: edge cases (no failure, one failure, identical times) never crash.

_times = st.lists(st.one_of(st.sampled_from([0.0, 1.0, 5.0]), st.floats(0, 1e4)), max_size=30)
_positive = st.lists(st.one_of(st.just(3.0), st.floats(1e-3, 1e5)), max_size=30)


@given(_times, st.floats(1e-3, 1e5), st.floats(0.5, 0.99))
def test_mtbf_never_crashes(times, extra, confidence):
    est = mtbf(times, max(times, default=0.0) + extra, confidence)
    assert est.failures == len(times)
    if times:
        assert est.mtbf_ci_low_hours <= est.mtbf_hours <= est.mtbf_ci_high_hours
        assert est.median_tbf_hours >= 0
    else:
        assert est.mtbf_hours is None and est.mtbf_ci_low_hours > 0


@settings(max_examples=50, deadline=None)
@given(_times)
def test_mttr_never_crashes(repairs):
    est = mttr(repairs)
    assert est.repairs == len(repairs)
    if est.mean_ci_low_hours is not None:
        assert min(repairs) <= est.mean_ci_low_hours <= est.mean_ci_high_hours <= max(repairs)


@settings(max_examples=50, deadline=None)
@given(_positive, _positive)
def test_weibull_never_crashes(events, censored):
    fit = weibull(events, censored)
    if fit.shape is not None:
        assert fit.scale_hours > 0
        assert (fit.shape_ci_low or 0) <= fit.shape <= (fit.shape_ci_high or math.inf)


@settings(deadline=None)
@given(st.integers(1, 4096), st.floats(0.1, 1e3), st.floats(0, 48), st.floats(1, 600),
       st.floats(0, 3600), st.floats(0.1, 365), st.integers(0, 20))
def test_simulate_cost_never_crashes(gpus, mtbf_hours, mttr_hours, minutes, cost, days, runs):
    est = simulate_cost(gpus, 2.0, mtbf_hours, mttr_hours, minutes, cost, days, runs, seed=1)
    assert 0 <= est.goodput <= 1
    assert (est.mc_goodput_mean is None) == (runs == 0)
    if runs:
        assert 0 <= est.mc_goodput_p05 <= est.mc_goodput_p95 <= 1
