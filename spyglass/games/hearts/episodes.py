"""Hearts' EPIC episode function (Whitehouse 2014, §8.3.2, eq. 8.7).

E = {D, L1..L4}: D when a new deal has just been dealt (the deal and the passing are
the first episode of a round), L_i when player i is about to lead a trick (each later
episode is one trick). A deal without passing goes straight to its first trick (L_i).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.hearts.kernel import (
    N_PLAYED,
    N_PLAYERS,
    PASSED,
    PASSING,
    PHASE,
    PLAYING,
    TO_MOVE,
)

DEAL = 0


@njit(cache=True)
def episode(s: np.ndarray, a: int) -> int:
    """The label of the episode the move just played (``a``) starts in ``s``, or -1."""
    if s[TO_MOVE] < 0:
        return -1
    if s[PHASE] == PASSING:
        for p in range(N_PLAYERS):
            if s[PASSED + p] != 0:
                return -1
        return DEAL
    if s[PHASE] == PLAYING and s[N_PLAYED] % N_PLAYERS == 0:
        return 1 + s[TO_MOVE]
    return -1
