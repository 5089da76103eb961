"""Dou Di Zhu's EPIC episode function (Whitehouse 2014, §8.3.2, eq. 8.6).

E = {L1, L2, L3}: L_i when player i is about to make a leading play, so an episode is
the stream of plays from one leading play to the next (a round). Labels are the seats
0, 1, 2. The auction is not an episode of its own: the landlord's first lead starts one.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.doudizhu.kernel import K_LEFT, LAST_ACTION, PHASE, PLAYING, TO_MOVE


@njit(cache=True)
def episode(s: np.ndarray, a: int) -> int:
    """The label of the episode the move just played (``a``) starts in ``s``, or -1."""
    if s[TO_MOVE] < 0 or s[PHASE] != PLAYING:
        return -1
    if s[LAST_ACTION] < 0 and s[K_LEFT] == 0:
        return s[TO_MOVE]
    return -1
