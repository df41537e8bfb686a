"""Failure and repair statistics: MTBF, MTTR, Weibull hazard.

Inputs are plain numbers in hours (the SQL views turn logbook entries into
failure times, repair durations and intervals); results are frozen dataclasses
whose `dataclasses.asdict` is a flat dict with stable snake_case keys, so the
CLI can print them as a table, CSV or JSON. An unbounded or undefined figure is
None rather than inf or NaN, which JSON cannot carry.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np


def _hours(values: Sequence[float], name: str) -> np.ndarray:
    """Values as a 1-D float array, refusing NaN, inf and negatives."""
    array = np.asarray(values, dtype=float).reshape(-1)
    if not np.all(np.isfinite(array)) or np.any(array < 0):
        raise ValueError(f"{name} must be finite and >= 0")
    return array


def _check_confidence(confidence: float) -> float:
    if not 0 < confidence < 1:
        raise ValueError("confidence must be between 0 and 1")
    return confidence


@dataclass(frozen=True, slots=True)
class MTBFEstimate:
    """Mean time between failures over an observation window.

    `per` says what one MTBF is counted against: "cluster" (the job as a
    whole), "node" or "gpu"; `units` is how many of those the cluster had.
    `observed_hours` always stays wall-clock time.
    """

    failures: int
    observed_hours: float
    mtbf_hours: float | None  # None when no failure was seen
    mtbf_ci_low_hours: float
    mtbf_ci_high_hours: float | None  # None when no failure was seen (unbounded)
    median_tbf_hours: float | None
    confidence: float
    per: str = "cluster"
    units: int = 1

    def per_node(self, nodes: int) -> MTBFEstimate:
        """MTBF of one node: with n nodes failing independently, M_node = n * M_cluster."""
        return self._scaled("node", nodes)

    def per_gpu(self, gpus: int) -> MTBFEstimate:
        """MTBF of one GPU: M_gpu = gpus * M_cluster."""
        return self._scaled("gpu", gpus)

    def _scaled(self, per: str, units: int) -> MTBFEstimate:
        if self.per != "cluster":
            raise ValueError(f"already normalised per {self.per}")
        if units < 1:
            raise ValueError(f"{per} count must be >= 1")

        def scale(value: float | None) -> float | None:
            return None if value is None else value * units

        return replace(
            self, per=per, units=units, mtbf_hours=scale(self.mtbf_hours),
            mtbf_ci_low_hours=self.mtbf_ci_low_hours * units,
            mtbf_ci_high_hours=scale(self.mtbf_ci_high_hours),
            median_tbf_hours=scale(self.median_tbf_hours),
        )


def mtbf(
    failure_times_hours: Sequence[float], observed_hours: float, confidence: float = 0.95
) -> MTBFEstimate:
    """Exponential MTBF with the chi-square interval of a time-terminated test.

    `failure_times_hours` are hours since the window opened; the window is
    `observed_hours` long and ends at an arbitrary time, not at a failure, hence
    time-terminated. With r failures in total time T and a = 1 - confidence
    (NIST/SEMATECH e-Handbook 8.1.7.1; Epstein 1960):

        MTBF  = T / r                               (maximum likelihood)
        lower = 2T / chi2.ppf(1 - a/2, 2r + 2)
        upper = 2T / chi2.ppf(a/2, 2r)

    With r = 0 there is no point estimate and no upper bound; the lower bound is
    the same formula (a one-sided bound at 1 - a/2). The median time between
    failures is that of the completed gaps (window start to first failure, then
    failure to failure); a median well below the MTBF means failures cluster.
    """
    _check_confidence(confidence)
    if not math.isfinite(observed_hours) or observed_hours <= 0:
        raise ValueError("observed_hours must be finite and > 0")
    times = np.sort(_hours(failure_times_hours, "failure_times_hours"))
    if times.size and times[-1] > observed_hours:
        raise ValueError("a failure time lies after the observation window")
    r, total, alpha = int(times.size), float(observed_hours), 1 - confidence
    lower = 2 * total / _chi2_ppf(1 - alpha / 2, 2 * r + 2)
    if r == 0:
        return MTBFEstimate(0, total, None, float(lower), None, None, confidence)
    upper = 2 * total / _chi2_ppf(alpha / 2, 2 * r)
    gaps = np.diff(times, prepend=0.0)
    return MTBFEstimate(
        r, total, total / r, float(lower), float(upper), float(np.median(gaps)), confidence
    )


def _chi2_ppf(q: float, df: int) -> float:
    """scipy.stats.chi2.ppf, as scipy computes it, without importing scipy.stats (0.6 s of
    `logbook mtbf`, which needs nothing else from it)."""
    from scipy.special import gammaincinv

    return 2 * float(gammaincinv(df / 2, q))


@dataclass(frozen=True, slots=True)
class MTTREstimate:
    """Mean and median time to repair, with a confidence interval for the mean."""

    repairs: int
    mean_hours: float | None
    median_hours: float | None
    mean_ci_low_hours: float | None
    mean_ci_high_hours: float | None
    confidence: float
    method: str = "BCa bootstrap"


def mttr(repair_hours: Sequence[float], confidence: float = 0.95, seed: int = 0) -> MTTREstimate:
    """Mean time to repair, its median, and a BCa bootstrap interval for the mean.

    Why a bootstrap: expected downtime is failures x *mean* repair, so the
    interval must be for the arithmetic mean; a t-interval on log-durations
    would bound the geometric mean (the median of a lognormal) instead. BCa
    (scipy.stats.bootstrap, Efron 1987) corrects the percentile interval for the
    right skew of repair times without assuming their distribution. It is
    optimistic with fewer than ~10 repairs; with fewer than two, or when every
    repair took the same time, there is nothing to resample and the interval is
    None or the single value. `seed` makes the interval reproducible.
    """
    _check_confidence(confidence)
    durations = _hours(repair_hours, "repair_hours")
    n = int(durations.size)
    if n == 0:
        return MTTREstimate(0, None, None, None, None, confidence)
    mean, median = float(durations.mean()), float(np.median(durations))
    if n == 1:
        return MTTREstimate(1, mean, median, None, None, confidence)
    if np.ptp(durations) == 0:  # the value itself: summing n copies can round up by an ulp
        return MTTREstimate(n, median, median, median, median, confidence)
    from scipy import stats

    result = stats.bootstrap(
        (durations,), np.mean, confidence_level=confidence, method="BCa",
        rng=np.random.default_rng(seed),
    )
    low, high = (float(v) for v in (result.confidence_interval.low,
                                    result.confidence_interval.high))
    if not (math.isfinite(low) and math.isfinite(high)):
        return MTTREstimate(n, mean, median, None, None, confidence)  # BCa undefined: tiny sample
    # A mean lies within the data's range; resampling arithmetic can overshoot it by an ulp.
    low, high = (min(max(v, float(durations.min())), float(durations.max())) for v in (low, high))
    return MTTREstimate(n, mean, median, low, high, confidence)


@dataclass(frozen=True, slots=True)
class WeibullFit:
    """Weibull fit of times between failures; shape < 1 means a decreasing hazard.

    `hazard_trend` is "decreasing" or "increasing" when the shape interval
    excludes 1, else "inconclusive". Fields are None when the data cannot
    identify the fit (no failure, or all failures at one time with no longer
    censored time).
    """

    events: int
    censored: int
    shape: float | None
    shape_ci_low: float | None  # None: not bounded above 0.02
    shape_ci_high: float | None  # None: not bounded below 1000
    scale_hours: float | None
    mean_hours: float | None
    confidence: float
    hazard_trend: str | None
    method: str = "profile likelihood"


_LOG_SHAPE_BOUNDS = (math.log(0.02), math.log(1000.0))  # beyond: not failure data


def weibull(
    intervals_hours: Sequence[float],
    censored_hours: Sequence[float] = (),
    confidence: float = 0.95,
) -> WeibullFit:
    """Maximum-likelihood Weibull (location 0) with right-censoring and a profile CI for shape.

    `intervals_hours` are completed times between failures; `censored_hours`
    are spells that ended without a failure (e.g. the last failure to the end
    of the logbook). For a fixed shape k the scale has a closed-form maximum,
    lambda(k)^k = sum(t^k over all times) / r with r failures, which leaves
    the profile log-likelihood (Lawless 2003, 5.2)

        l_p(k) = r log k + (k - 1) sum(log t over failures) - r log lambda(k)^k - r

    maximised over log k by scipy.optimize (the same optimum as
    scipy.stats.weibull_min.fit on CensoredData, but in log space, so it cannot
    overflow, and 1-D, so it is fast). The shape interval is the profile
    likelihood one, {k : 2 (l_p(k_hat) - l_p(k)) <= chi2.ppf(confidence, 1)}
    (Meeker & Escobar 1998, 8.2), found by brentq: unlike a Wald interval it
    stays positive and follows the likelihood's skew in small samples. Shapes
    are searched in [0.02, 1000]; a bound is None if the data do not reach it.
    """
    from scipy import optimize, special, stats

    _check_confidence(confidence)
    events = _hours(intervals_hours, "intervals_hours")
    censored = _hours(censored_hours, "censored_hours")
    if np.any(events == 0) or np.any(censored == 0):
        raise ValueError("Weibull intervals must be > 0 (merge failures logged at one time)")
    r, c = int(events.size), int(censored.size)
    unfitted = WeibullFit(r, c, None, None, None, None, None, confidence, None)
    if r == 0 or (np.ptp(events) == 0 and (c == 0 or censored.max() <= events[0])):
        return unfitted  # the likelihood grows without bound
    top = max(events.max(), censored.max(initial=0.0))
    log_all = np.log(np.concatenate([events, censored]) / top)  # rescaled: t**k <= 1
    sum_log_events = float(log_all[:r].sum())

    def log_scale_power(k: float) -> float:  # k * log(lambda(k)), i.e. log(lambda**k)
        return special.logsumexp(k * log_all) - math.log(r)

    def profile(log_k: float) -> float:  # r log k + (k-1) sum log t_e - r k log lambda - r
        k = math.exp(log_k)
        return r * log_k + (k - 1) * sum_log_events - r * log_scale_power(k) - r

    best = optimize.minimize_scalar(
        lambda u: -profile(u), bounds=_LOG_SHAPE_BOUNDS, method="bounded",
        options={"xatol": 1e-9},
    )
    if min(abs(best.x - b) for b in _LOG_SHAPE_BOUNDS) < 1e-6:
        return unfitted
    drop = stats.chi2.ppf(confidence, 1) / 2

    def crossing(bound: float) -> float | None:
        def gap(u: float) -> float:
            return profile(u) + best.fun + drop  # zero where l_p = l_max - drop

        if gap(bound) > 0:
            return None
        return math.exp(optimize.brentq(gap, bound, best.x, xtol=1e-10))

    shape = math.exp(best.x)
    low, high = crossing(_LOG_SHAPE_BOUNDS[0]), crossing(_LOG_SHAPE_BOUNDS[1])
    scale = float(top * math.exp(log_scale_power(shape) / shape))
    if high is not None and high < 1:
        trend = "decreasing"
    elif low is not None and low > 1:
        trend = "increasing"
    else:
        trend = "inconclusive"
    mean = float(stats.weibull_min.mean(shape, scale=scale))
    return WeibullFit(r, c, shape, low, high, scale, mean, confidence, trend)
