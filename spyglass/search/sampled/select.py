"""Bandit selection on the sampled searches' pool (Whitehouse 2014, §3.1 and §5.2.1).

* :func:`select_child` -- UCT at a node whose children are all legal whenever the node is
  reached (plain UCT on a full state): UCB1 or UCB-Tuned with the parent's visits ``n``.
* the subset-armed bandit of ISMCTS (eq. 5.1) -- only the children legal in this
  iteration's determinization are arms, and each arm's availability count ``n'`` (how
  often it could have been chosen) replaces ``n`` -- is written out in each ISMCTS loop
  (:mod:`.so`, :mod:`.pom`, :mod:`.mo`): as a called function it cost 6-10% of MO-ISMCTS's
  iterations/s on Phantom 4,4,4 (as an ``inline="always"`` helper, 2-7%), measured side
  by side in CPU time. It uses :data:`LOG_TABLE` below.

The index formulas are :func:`spyglass.search.bandits.ucb1_value` and
:func:`~spyglass.search.bandits.ucb_tuned_value` (UCB1's default ``c`` is 0.7, the
thesis's value, §8). Ties go to the first arm, so selection is deterministic.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.search.bandits import UCB1, ucb1_value, ucb_tuned_value
from spyglass.search.sampled.pool import CHILD, SIBLING, SUMSQ, TOTAL, VISITS

#: ln(n) for n < 4096 (ln 0 and ln 1 as 0): availability counts differ per arm, so the
#: subset-armed bandit takes one logarithm per arm; a table lookup made MO-ISMCTS 10-25%
#: faster on Phantom 4,4,4 (measured side by side in one process on a loaded machine).
LOG_TABLE = np.log(np.maximum(np.arange(1 << 12, dtype=np.float64), 1.0))
LOG_TABLE_SIZE = 1 << 12


@njit(cache=True)
def select_child(data: np.ndarray, fdata: np.ndarray, u: int, kind: int, c: float) -> int:
    """The child of ``u`` maximising the bandit index (an unvisited child first)."""
    n = data[u, VISITS]
    log_n = LOG_TABLE[n] if n < LOG_TABLE_SIZE else math.log(n)
    best = -1
    best_v = -np.inf
    ch = data[u, CHILD]
    while ch >= 0:
        n_j = data[ch, VISITS]
        if n_j == 0:
            return ch
        if kind == UCB1:
            v = ucb1_value(fdata[ch, TOTAL], n_j, log_n, c)
        else:
            v = ucb_tuned_value(fdata[ch, TOTAL], fdata[ch, SUMSQ], n_j, log_n)
        if v > best_v:
            best_v = v
            best = ch
        ch = data[ch, SIBLING]
    return best
