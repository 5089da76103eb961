"""Othello's EPIC episode function (Whitehouse 2014, §8.3.2, eq. 8.10).

An episode begins on the turn after a player places a disc on one of the 28 edge
squares: e(s) = M_i if the previous move was on the edge and player i is to move.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.othello.kernel import PASS, TO_MOVE


@njit(cache=True)
def episode(s: np.ndarray, a: int) -> int:
    """The label (the seat to move) of the episode move ``a`` starts in ``s``, or -1."""
    if a == PASS or s[TO_MOVE] < 0:
        return -1
    r = a >> 3
    c = a & 7
    if r == 0 or r == 7 or c == 0 or c == 7:
        return s[TO_MOVE]
    return -1
