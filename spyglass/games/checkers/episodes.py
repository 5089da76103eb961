"""Checkers' EPIC episode function (Whitehouse 2014, §8.3.2, eq. 8.9).

E = {M1, M2}: e(s) = M_i if a non-chained capture is available in ``s`` and player i is
to move. A "non-chained" capture is one that does not continue a chain of captures (it
may start one). Captures being forced, that is: the actor's legal actions are jumps and
no chain is in progress. So an episode begins with the first jump of a capture and runs,
through its chain and the quiet moves after it, until a capture is next to be made.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.checkers.kernel import CHAIN, JUMP, LEGAL, N_LEGAL, TO_MOVE


@njit(cache=True)
def episode(s: np.ndarray, a: int) -> int:
    """The label (the seat to move) of the episode that starts in ``s``, reached by
    move ``a``, or -1 when ``s`` continues the current one."""
    if s[TO_MOVE] < 0 or s[CHAIN] >= 0 or s[N_LEGAL] == 0:
        return -1
    if s[LEGAL] & 1 == JUMP:
        return s[TO_MOVE]
    return -1
