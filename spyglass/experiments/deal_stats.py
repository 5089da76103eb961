"""Statistics for experiments that play several agents on the same deals (paired by deal).

When each deal is played several times by each agent, the unit of pairing is the deal,
not the game: games of one deal share its cards, so they are not independent pairs and
McNemar's test (one binary pair per unit) does not apply. The comparison here is on
per-deal win rates: the mean of the per-deal differences, a t interval over deals, and a
two-sided **paired sign-flip permutation test** (under the null hypothesis the two
agents' labels are exchangeable within each deal, so each deal's difference is equally
likely to have either sign). It assumes nothing about the distribution of the
differences, which here are few-valued and far from normal; with one game per deal it
is the exact sign test on the discordant deals, i.e. McNemar's exact test. Exact
enumeration when at most 20 deals differ, otherwise a seeded Monte Carlo of 100,000 sign
vectors (p computed as (1 + hits) / (1 + draws), never 0).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

EXACT_LIMIT = 20
RESAMPLES = 100_000


def sign_flip_p(diffs: Sequence[float], seed: int = 0, resamples: int = RESAMPLES) -> float:
    """Two-sided p-value of the paired sign-flip test that the mean difference is 0."""
    d = np.asarray(diffs, dtype=float)
    d = d[d != 0]
    if d.size == 0:
        return 1.0
    observed = abs(d.sum())
    tol = 1e-12 * max(1.0, observed)
    if d.size <= EXACT_LIMIT:
        signs = ((np.arange(2 ** d.size)[:, None] >> np.arange(d.size)) & 1) * 2 - 1
        sums = np.abs(signs @ d)
        return float(np.mean(sums >= observed - tol))
    rng = np.random.default_rng(seed)
    hits = 0
    left = resamples
    while left:
        k = min(left, 10_000)
        signs = rng.integers(0, 2, size=(k, d.size)) * 2 - 1
        hits += int(np.sum(np.abs(signs @ d) >= observed - tol))
        left -= k
    return (1 + hits) / (1 + resamples)


def paired_difference(a: Sequence[float], b: Sequence[float], seed: int = 0) -> dict:
    """Per-deal rates ``a`` and ``b`` of the same deals: mean difference a - b, its 95 %
    t interval over deals, the sign-flip p-value, and how many deals each agent won more."""
    from scipy.stats import t as student_t

    x = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    if x.size == 0:
        raise ValueError("no deals to compare")
    mean = float(x.mean())
    if x.size > 1:
        half = float(student_t.ppf(0.975, x.size - 1) * x.std(ddof=1) / math.sqrt(x.size))
    else:
        half = float("nan")
    return {"deals": int(x.size), "difference": mean, "low": mean - half, "high": mean + half,
            "a_better": int(np.sum(x > 0)), "b_better": int(np.sum(x < 0)),
            "p_sign_flip": sign_flip_p(x, seed)}


def wilson(wins: float, n: int) -> dict:
    """A win rate with its Wilson 95 % interval (``wins`` may be a whole-number float)."""
    from spyglass.arena.stats import rate_interval

    r = rate_interval(int(round(wins)), n, method="wilson")
    return {"wins": int(round(wins)), "games": n, "win_rate": r.rate, "low": r.low,
            "high": r.high}
