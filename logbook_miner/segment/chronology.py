"""Which dated entries are out of place: likely typos whose dates are not to be trusted.

A logbook runs one way (oldest- or newest-first; same-day steps say nothing). The
entries kept are a longest chain of dates in that order; the dated entries outside
it, between two dated neighbours, are flagged. Among chains of equal length, the one
keeping the entries whose date agrees with the other entries of their run wins: the
typo is the entry its own run id contradicts, not its correct neighbour. (Times are
not used: a time written "11am" for 11:06 makes same-day order unreliable.)
"""

from __future__ import annotations

import itertools
from collections import Counter, defaultdict
from collections.abc import Sequence
from datetime import date


def chronology_anomalies(dates: Sequence[date | None],
                         runs: Sequence[str | None] | None = None) -> list[bool]:
    """Per entry: is its date out of place? `runs` are the entries' run ids, if any."""
    runs = runs if runs is not None else [None] * len(dates)
    dated = [i for i, d in enumerate(dates) if d is not None]
    days = [dates[i].toordinal() for i in dated]
    steps = [b - a for a, b in itertools.pairwise(days)]
    sign = -1 if sum(s < 0 for s in steps) > sum(s > 0 for s in steps) else 1
    agrees = _agrees_with_run(dated, dates, runs)
    weights = [len(dated) + 1 + a for a in agrees]  # length first, run agreement breaks ties
    kept = _heaviest_chain([sign * d for d in days], weights)
    flags = [False] * len(dates)
    for k, i in enumerate(dated[1:-1], 1):  # out of place between two dated neighbours
        flags[i] = k not in kept
    return flags


def _agrees_with_run(dated: list[int], dates: Sequence[date | None],
                     runs: Sequence[str | None]) -> list[int]:
    """1 where an entry's date lies within the days the other entries of its run were written."""
    by_run: dict[str, Counter] = defaultdict(Counter)
    for i in dated:
        if runs[i]:
            by_run[runs[i]][dates[i]] += 1
    span = {run: (sorted(days)[:2], sorted(days)[-2:]) for run, days in by_run.items()}
    out = []
    for i in dated:
        run, day = runs[i], dates[i]
        if not run or sum(by_run[run].values()) < 2:
            out.append(0)
            continue
        alone = by_run[run][day] == 1  # the run's other entries may not reach this day
        (first, *second), (*penultimate, last) = span[run]
        low = second[0] if alone and day == first and second else first
        high = penultimate[0] if alone and day == last and penultimate else last
        out.append(int(low <= day <= high))
    return out


def _heaviest_chain(keys: list[int], weights: list[int]) -> set[int]:
    """Indices of a heaviest non-decreasing subsequence of `keys` (Fenwick tree, O(n log n))."""
    rank = {k: r for r, k in enumerate(sorted(set(keys)), 1)}
    size = len(rank)
    tree: list[tuple[int, int]] = [(0, -1)] * (size + 1)  # (best weight, its last index)
    parent = [-1] * len(keys)
    best = (0, -1)
    for i, key in enumerate(keys):
        r, top = rank[key], (0, -1)
        while r > 0:  # heaviest chain ending at a key <= this one
            top = max(top, tree[r])
            r -= r & -r
        parent[i] = top[1]
        here = (top[0] + weights[i], i)
        best = max(best, here)
        r = rank[key]
        while r <= size:
            tree[r] = max(tree[r], here)
            r += r & -r
    keep, i = set(), best[1]
    while i != -1:
        keep.add(i)
        i = parent[i]
    return keep
