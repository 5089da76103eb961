"""Tests that match the design of an experiment: paired games, families, trends in budget.

Experiments that run every condition with the same seed play the same spy
configurations, first leaders and game seeds in every condition (common random
numbers), so game ``i`` of one condition is paired with game ``i`` of another. Paired
outcomes are compared on the *discordant* games only (won in one condition, lost in the
other): McNemar's exact test, a two-sided binomial test of those games against 1/2
(statsmodels). An unpaired two-proportion test ignores the pairing; it remains valid
for independent samples (different seeds).

A family of comparisons read together is corrected with Holm's step-down method
(statsmodels ``multipletests``), which controls the family-wise error rate under any
dependence between the tests. A claim that an effect "grows with the budget K" is
tested by logistic regression on log K (a binomial GLM; statsmodels).
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np


def paired_test(a: Mapping[Any, bool], b: Mapping[Any, bool]) -> dict:
    """Compare two conditions on the games both played (same index = same seed).

    Returns the number of pairs, the four cells (``both``, ``only_a``, ``only_b``,
    ``neither``), both rates on the pairs, their difference with a 95% Wald interval for
    paired proportions, its standardised statistic ``z`` (difference / standard error;
    0 when there is no discordant pair), and McNemar's exact two-sided p-value.
    """
    from statsmodels.stats.contingency_tables import mcnemar

    common = sorted(set(a) & set(b))
    if not common:
        raise ValueError("the two conditions have no game in common to pair")
    both = sum(a[i] and b[i] for i in common)
    only_a = sum(a[i] and not b[i] for i in common)
    only_b = sum(b[i] and not a[i] for i in common)
    neither = len(common) - both - only_a - only_b
    n = len(common)
    p = 1.0 if only_a + only_b == 0 else float(
        mcnemar([[both, only_a], [only_b, neither]], exact=True).pvalue
    )
    diff = (only_a - only_b) / n
    se = math.sqrt(max(0.0, (only_a + only_b) / n - diff**2) / n)
    return {
        "pairs": n, "both": both, "only_a": only_a, "only_b": only_b, "neither": neither,
        "rate_a": (both + only_a) / n, "rate_b": (both + only_b) / n,
        "difference": diff, "difference_low": diff - 1.96 * se,
        "difference_high": diff + 1.96 * se, "p_mcnemar": p,
        # every pair discordant one way: the Wald error is 0 and the statistic unbounded
        "z": diff / se if se > 0 else math.copysign(math.inf, diff) if diff else 0.0,
    }


def holm(pvalues: Sequence[float], alpha: float = 0.05) -> tuple[list[float], list[bool]]:
    """Holm-adjusted p-values of a family, and which are significant at ``alpha``."""
    from statsmodels.stats.multitest import multipletests

    if not len(pvalues):
        return [], []
    reject, adjusted, _, _ = multipletests(list(pvalues), alpha=alpha, method="holm")
    return [float(p) for p in adjusted], [bool(r) for r in reject]


def log_budget_trend(rows: Iterable[tuple[float, int, int, bool]]) -> dict:
    """Does a condition's advantage grow with the budget? Logistic regression on log K.

    ``rows``: ``(K, wins, games, treated)``, e.g. BLUFF (treated) and TRUEONLY spies'
    wins at several budgets K. Fits ``logit P(win) = b0 + b1·treated + b2·log K +
    b3·treated·log K`` (binomial GLM on the counts) and returns each coefficient's
    estimate and two-sided Wald p-value; ``interaction`` (b3 > 0: the treated
    condition's advantage, on the log-odds scale, grows with K) is the test of the claim.
    Needs at least two budgets.
    """
    import statsmodels.api as sm

    rows = list(rows)
    budgets = {float(k) for k, *_ in rows}
    if len(budgets) < 2:
        raise ValueError("a trend in K needs results at two budgets or more")
    endog = np.array([[w, n - w] for _, w, n, _ in rows], dtype=float)
    log_k = np.log([float(k) for k, *_ in rows])
    treated = np.array([float(bool(t)) for *_, t in rows])
    exog = np.column_stack([np.ones(len(rows)), treated, log_k, treated * log_k])
    with warnings.catch_warnings():
        # With two budgets the model is saturated (no residual degrees of freedom), which
        # statsmodels flags; the Wald tests of the coefficients are unaffected.
        warnings.simplefilter("ignore")
        fit = sm.GLM(endog, exog, family=sm.families.Binomial()).fit()
    names = ("intercept", "treated", "log_k", "interaction")
    return {
        name: {"estimate": float(fit.params[i]), "p": float(fit.pvalues[i])}
        for i, name in enumerate(names)
    }


def paired_trend(points: Mapping[float, Mapping[int, bool]]) -> dict:
    """Does the win rate move with a setting ``x``, game by game? Conditional logistic
    regression of the win on ``x`` with each game a stratum.

    ``points``: ``x`` -> game index -> won, for conditions played on the same seeded
    games (e.g. Fig. 2's T1 values). Only games played at every ``x`` are used; each
    game's own difficulty is conditioned out (the paired analogue of a logistic trend,
    as McNemar's test is of two proportions), so only games whose outcome differs
    between settings carry information. Returns the slope per unit of ``x`` (log-odds),
    its two-sided Wald p-value and the games used.
    """
    from statsmodels.discrete.conditional_models import ConditionalLogit

    if len(points) < 2:
        raise ValueError("a trend needs two settings or more")
    common = sorted(set.intersection(*(set(o) for o in points.values())))
    if not common:
        raise ValueError("no game was played at every setting")
    y = np.array([float(o[g]) for o in points.values() for g in common])
    x = np.array([float(k) for k in points for _ in common])
    groups = np.array([g for _ in points for g in common])
    informative = {g for g in common if len({bool(o[g]) for o in points.values()}) > 1}
    if not informative:
        return {"slope": 0.0, "p": 1.0, "games": len(common), "informative_games": 0}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # strata without variation: statsmodels notes them
        fit = ConditionalLogit(y, x[:, None], groups=groups).fit(disp=0)
    return {"slope": float(fit.params[0]), "p": float(fit.pvalues[0]), "games": len(common),
            "informative_games": len(informative)}


__all__ = ["holm", "log_budget_trend", "paired_test", "paired_trend"]
