"""Mini Dou Di Zhu's EPIC episode function (Whitehouse 2014, §8.3.2, eq. 8.6).

The thesis defines it for Dou Di Zhu: E = {L1, L2, L3}, e(s) = L_i when player i makes
a leading play from s; an episode is the stream of plays from one leading play to the
next. Mini Dou Di Zhu (§4.2.2) has the same round structure with two players, so
E = {L1, L2}: a player leads when there is no play to answer (``LAST_SIZE`` 0: the
start of the game, or after a pass ended the round).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.minidoudizhu.kernel import LAST_SIZE, TO_MOVE


@njit(cache=True)
def episode(s: np.ndarray, a: int) -> int:
    """The label (the seat to lead) of the episode move ``a`` starts in ``s``, or -1."""
    if s[TO_MOVE] < 0 or s[LAST_SIZE] != 0:
        return -1
    return s[TO_MOVE]
