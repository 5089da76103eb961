"""Interval estimates and tests for tournament figures: one job, the statistics.

Counting games is elsewhere (:mod:`spyglass.arena.game_stats` for every game,
:mod:`spyglass.resistance.arena.counts` for The Resistance's 2012 behaviour columns);
this module turns counts into rates with intervals and compares two rates.

Intervals (95 %): a win rate is a binomial proportion. Its default interval is Wilson's
score interval (Wilson 1927), which keeps close to its nominal coverage for small ``n``
and rates near 0 or 1, where the normal (Wald) interval fails (Brown, Cai & DasGupta
2001). The 2012 competition (Taylor 2014, §5, "59.3% (e=0.88 n=12000)") reported the
Agresti–Coull estimate ``(w+1.92)/(n+3.84)`` with half-width
``1.96·sqrt(p(1-p)/(n+3.84))``, kept as :data:`INTERVAL_2012` (The Resistance's default,
to compare with the published tables); any method of statsmodels' ``proportion_confint``
(``wilson``, ``beta``, ``jeffreys``, ...) may be chosen instead. A mean of scores that are
not all 0 or 1 (draws scored ½, rewards in [0, 1]) gets the normal interval of a mean,
``x̄ ± 1.96 s/√n`` (:func:`mean_interval`).

Two independent samples (two tournaments) are compared by a two-proportion z-test and
Fisher's exact test (:func:`compare_proportions`); paired designs and families of tests
are :mod:`spyglass.arena.paired`'s (McNemar; Holm).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import numpy as np

# scipy.stats and statsmodels are imported inside the functions that need them: together
# they take 1-2 s to import, which every command line start (``spyglass game`` included,
# through the tournament modules) would otherwise pay for nothing.

INTERVAL_2012 = "agresti-coull-2012"
INTERVAL_METHODS = (INTERVAL_2012, "wilson", "agresti_coull", "beta", "jeffreys", "normal")
Z95 = 1.959963984540054


# --- intervals -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rate:
    """A proportion with its interval; ``estimate`` is the point the method reports."""

    wins: int
    n: int
    rate: float  # wins / n
    estimate: float  # (w+1.92)/(n+3.84) for the 2012 method, else wins / n
    low: float
    high: float
    method: str
    half_width: float  # the 2012 "e"; half the interval's width for other methods

    def to_dict(self) -> dict:
        return asdict(self)


def rate_interval(wins: int, n: int, method: str = INTERVAL_2012, alpha: float = 0.05) -> Rate:
    """Win rate ``wins/n`` with a (1-alpha) interval; ``method`` as in :data:`INTERVAL_METHODS`."""
    if method not in INTERVAL_METHODS:
        raise ValueError(f"unknown interval method {method!r}; choose one of "
                         + ", ".join(INTERVAL_METHODS))
    wins, n = int(wins), int(n)
    if n == 0:
        nan = float("nan")
        return Rate(wins, n, nan, nan, nan, nan, method, nan)
    rate = wins / n
    if method == INTERVAL_2012:
        if alpha != 0.05:
            raise ValueError("the 2012 Agresti–Coull interval is defined for 95% only")
        est = (wins + 1.92) / (n + 3.84)
        e = 1.96 * math.sqrt(est * (1 - est) / (n + 3.84))
        return Rate(wins, n, rate, est, max(0.0, est - e), min(1.0, est + e), method, e)
    from statsmodels.stats.proportion import proportion_confint

    low, high = proportion_confint(wins, n, alpha=alpha, method=method)
    low, high = float(low), float(high)
    return Rate(wins, n, rate, rate, low, high, method, (high - low) / 2)


def mean_interval(total: float, total_sq: float, n: int) -> Rate:
    """The mean of ``n`` values in [0, 1] from their sum and sum of squares, with a normal
    95 % interval, labelled ``normal-mean``."""
    if n == 0:
        nan = float("nan")
        return Rate(0, 0, nan, nan, nan, nan, "normal-mean", nan)
    mean = total / n
    var = max(0.0, total_sq / n - mean * mean) * (n / (n - 1) if n > 1 else 0.0)
    e = Z95 * math.sqrt(var / n)
    return Rate(int(round(total)), n, mean, mean, max(0.0, mean - e), min(1.0, mean + e),
                "normal-mean", e)


def compare_proportions(wins1: int, n1: int, wins2: int, n2: int) -> dict:
    """Test whether two win rates differ: two-proportion z-test and Fisher's exact test.

    Returns both rates, their difference with a 95% (Newcombe/Wilson) interval, the
    z statistic and its two-sided p-value, and Fisher's exact two-sided p-value.
    """
    for w, n in ((wins1, n1), (wins2, n2)):
        if n <= 0 or not 0 <= w <= n:
            raise ValueError(f"cannot compare {w} wins out of {n} games")
    from scipy.stats import fisher_exact
    from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest

    z, p_z = proportions_ztest([wins1, wins2], [n1, n2])
    low, high = confint_proportions_2indep(wins1, n1, wins2, n2, method="newcomb")
    _, p_f = fisher_exact([[wins1, n1 - wins1], [wins2, n2 - wins2]])
    return {
        "rate1": wins1 / n1, "n1": n1, "wins1": wins1,
        "rate2": wins2 / n2, "n2": n2, "wins2": wins2,
        "difference": wins1 / n1 - wins2 / n2,
        "difference_low": float(low), "difference_high": float(high),
        "z": float(np.nan_to_num(z)), "p_ztest": float(np.nan_to_num(p_z, nan=1.0)),
        "p_fisher": float(p_f),
    }
