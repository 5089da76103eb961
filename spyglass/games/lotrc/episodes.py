"""LOTR:C's EPIC episode function (Whitehouse 2014, §8.3.2, eq. 8.8).

E = {M1, M2}: an episode begins when a player moves a piece with no combat in progress;
a move that starts no combat ends its episode at once, otherwise the episode runs until
the combat is resolved. Called after the move (as the ICARUS loops do): when the state
after ``a`` is a fresh movement turn, the next episode starts, labelled by the seat to
move (0: Dark's M, 1: Light's M); any move inside a combat continues the episode.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.lotrc.kernel import P_MOVE, PHASE, TURN


@njit(cache=True)
def episode(s: np.ndarray, a: int) -> int:
    """The label of the episode ``a`` starts (the mover, at a fresh turn), else -1."""
    if s[PHASE] != P_MOVE:
        return -1
    return s[TURN]
