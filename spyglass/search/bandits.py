"""Bandit formulas for selection at the acting player's node (seed 001 §3.1).

* UCB1 (Auer, Cesa-Bianchi & Fischer 2002; seed 001 eq. 3.1): ``mean_j + C·sqrt(ln n / n_j)``.
  The default constant is 0.7, the value the thesis found best for ISMCTS with rewards in
  [0, 1] (seed 001 §8, "c = 0.7 ... found to give the best performance"); it is also
  close to sqrt(2)/2, the constant that matches Auer et al.'s sqrt(2 ln n / n_j) bound
  when rewards lie in [0, 1].
* UCB-Tuned (same paper, "UCB1-Tuned"): ``mean_j + sqrt(ln n / n_j · min(1/4, V_j))`` with
  ``V_j = sumsq_j / n_j − mean_j² + sqrt(2 ln n / n_j)``, an upper confidence bound on the
  arm's variance. It has no constant to tune and is the default, as in seed 000 §IV.

``n`` is the visit count of the parent node and ``n_j`` that of child ``j``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.search.tree import CHILD, SIBLING, SUMSQ, TOTAL, VISITS

UCB1, UCB_TUNED = 0, 1
BANDITS = {"ucb1": UCB1, "ucbt": UCB_TUNED}
DEFAULT_BANDIT = "ucbt"
DEFAULT_C = 0.7


def bandit_code(name: str) -> int:
    """The compiled code's number for bandit ``name`` ("ucbt" or "ucb1")."""
    try:
        return BANDITS[str(name).lower()]
    except KeyError:
        raise ValueError(
            f"unknown bandit {name!r}; choose one of {', '.join(sorted(BANDITS))}"
        ) from None


@njit(cache=True)
def ucb1_value(total: float, n_j: int, log_n: float, c: float) -> float:
    """UCB1 index of an arm with ``n_j`` pulls and reward sum ``total``."""
    return total / n_j + c * math.sqrt(log_n / n_j)


@njit(cache=True)
def ucb_tuned_value(total: float, sumsq: float, n_j: int, log_n: float) -> float:
    """UCB-Tuned index of an arm with ``n_j`` pulls, reward sum and sum of squares."""
    mean = total / n_j
    v = sumsq / n_j - mean * mean + math.sqrt(2.0 * log_n / n_j)
    return mean + math.sqrt(log_n / n_j * min(0.25, v))


@njit(cache=True)
def select_child(data: np.ndarray, fdata: np.ndarray, u: int, kind: int, c: float) -> int:
    """The child of ``u`` maximising the bandit index (an unvisited child first).

    Ties go to the first child in ``u``'s list, so selection is deterministic.
    """
    n = data[u, VISITS]
    log_n = math.log(n) if n > 1 else 0.0
    best = -1
    best_v = -np.inf
    ch = data[u, CHILD]
    while ch >= 0:
        n_j = data[ch, VISITS]
        if n_j == 0:
            return ch
        if kind == UCB1:
            v = ucb1_value(float(fdata[ch, TOTAL]), n_j, log_n, c)
        else:
            v = ucb_tuned_value(float(fdata[ch, TOTAL]), float(fdata[ch, SUMSQ]), n_j, log_n)
        if v > best_v:
            best_v = v
            best = ch
        ch = data[ch, SIBLING]
    return best
