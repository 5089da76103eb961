"""Bandit formulas for selection at the acting player's node (Whitehouse 2014, §3.1).

* UCB1 (Auer, Cesa-Bianchi & Fischer 2002; Whitehouse 2014 eq. 3.1): ``mean_j + C·sqrt(ln n /
n_j)``.
  The default constant is 0.7, the value the thesis found best for ISMCTS with rewards in
  [0, 1] (Whitehouse 2014, §8, "c = 0.7 ... found to give the best performance"); it is also
  close to sqrt(2)/2, the constant that matches Auer et al.'s sqrt(2 ln n / n_j) bound
  when rewards lie in [0, 1].
* UCB-Tuned (same paper, "UCB1-Tuned"): ``mean_j + sqrt(ln n / n_j · min(1/4, V_j))`` with
  ``V_j = sumsq_j / n_j − mean_j² + sqrt(2 ln n / n_j)``, an upper confidence bound on the
  arm's variance. It has no constant to tune and is the default, as in Cowling et al. 2015, §IV.

``n`` is the visit count of the parent node and ``n_j`` that of child ``j``.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.search.tree import CHILD, SIBLING, TOTAL, VISIT_MASK, VISITS

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

    Ties go to the first child in ``u``'s list, so selection is deterministic. The sum
    of squares is the row's last column (TOTAL itself in a pool for 0/1 rewards). The
    UCB-Tuned index is computed inline to the bit as :func:`ucb_tuned_value` does
    (tested against it), skipping children that cannot beat the best so far.
    """
    sq = data.shape[1] - 1
    n = data[u, VISITS] & VISIT_MASK
    log_n = math.log(n) if n > 1 else 0.0
    best = -1
    best_v = -np.inf
    binary = sq == TOTAL
    ch = data[u, CHILD]
    while ch >= 0:
        n_j = data[ch, VISITS] & VISIT_MASK
        if n_j == 0:
            return ch
        if kind == UCB1:
            v = ucb1_value(float(fdata[ch, TOTAL]), n_j, log_n, c)
        else:
            # ucb_tuned_value, written so that it costs less and gives the same bits:
            # 2·log_n/n_j is 2·t exactly; with 0/1 rewards sumsq/n_j is the mean itself;
            # and the largest exploration term, sqrt(t/4), bounds the index from above
            # (IEEE rounding is monotone), so a child whose bound is no better than the
            # best so far cannot be chosen and is skipped (10-player roots: 120+ teams).
            mean = float(fdata[ch, TOTAL]) / n_j
            t = log_n / n_j
            top = math.sqrt(t * 0.25)
            if mean + top <= best_v:
                ch = data[ch, SIBLING]
                continue
            sq_mean = mean if binary else float(fdata[ch, sq]) / n_j
            var = sq_mean - mean * mean + math.sqrt(2.0 * t)
            v = mean + (top if var >= 0.25 else math.sqrt(t * var))
        if v > best_v:
            best_v = v
            best = ch
        ch = data[ch, SIBLING]
    return best


# --- Subset-armed selection and EXP3 (SO-/MO-ISMCTS family) -------------------------
#
# The UCB1 / UCB-Tuned branch below repeats the one in select_child on purpose: moving it
# into a shared inline helper gave identical trees but cost ~30% of MT-ISMCTS and SO-ISMCTS
# iterations per second (numba 0.68, measured with `spyglass bench`).
#
# When the legal actions depend on the determinization, only some children of a node are
# "available" on a given iteration. Whitehouse 2014, §5.2.1/§5.2.3 replaces the parent's visit
# count in the bandit by the child's availability count n′ (``avail``, an array beside
# the pool): how many times that child could have been chosen.


@njit(cache=True)
def select_available(data: np.ndarray, fdata: np.ndarray, avail: np.ndarray,
                     arms: np.ndarray, k: int, kind: int, c: float) -> int:
    """The node among ``arms[:k]`` maximising the bandit index with ``n′`` for ``n``.

    An unvisited arm is taken first; ties go to the first arm, so selection is
    deterministic.
    """
    sq = data.shape[1] - 1
    best = -1
    best_v = -np.inf
    for q in range(k):
        ch = arms[q]
        n_j = data[ch, VISITS] & VISIT_MASK
        if n_j == 0:
            return ch
        av = avail[ch]
        log_n = math.log(av) if av > 1 else 0.0
        if kind == UCB1:
            v = ucb1_value(float(fdata[ch, TOTAL]), n_j, log_n, c)
        else:
            v = ucb_tuned_value(float(fdata[ch, TOTAL]), float(fdata[ch, sq]), n_j, log_n)
        if v > best_v:
            best_v = v
            best = ch
    return best


@njit(cache=True)
def exp3_gamma(k: int, n: int) -> float:
    """EXP3's exploration rate, Whitehouse 2014 eq. 3.3: ``min(1, sqrt(K ln K / ((e − 1) n)))``.

    ``k`` arms, ``n`` trials (the node's visits; at least 1).
    """
    if k <= 1:
        return 1.0
    n = max(n, 1)
    return min(1.0, math.sqrt(k * math.log(k) / ((math.e - 1.0) * n)))


@njit(cache=True)
def exp3_probabilities(scores: np.ndarray, k: int, n: int, out: np.ndarray) -> None:
    """EXP3 arm probabilities, Whitehouse 2014 eq. 3.2 with γ from eq. 3.3 and η = γ/K (eq. 3.4).

    ``p(a) = γ/K + (1 − γ) / Σ_b exp((s(b) − s(a)) η)``, where ``scores[:k]`` are the
    ``s(a)``: each arm's rewards divided by its probability when chosen. Written into
    ``out[:k]``.
    """
    g = exp3_gamma(k, n)
    eta = g / k
    for a in range(k):
        tot = 0.0
        for b in range(k):
            tot += math.exp((scores[b] - scores[a]) * eta)
        out[a] = g / k + (1.0 - g) / tot
