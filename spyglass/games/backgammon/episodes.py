"""Backgammon's EPIC episode function (Whitehouse 2014, §8.3.2, eq. 8.11).

"The compound turns of Backgammon give a natural episode structure": E = {R} and an
episode begins when the dice are about to be rolled, so an episode is a full turn, the
roll and the two or four checker moves after it. Called after the move (as the ICARUS
loops do), so the move ``a`` that ended a turn, and with it the roll that followed, starts
the next episode, labelled 0 (R); any other move continues the episode.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.backgammon.kernel import MOVED, TO_MOVE

#: The one label of E = {R}.
ROLL = 0


@njit(cache=True)
def episode(s: np.ndarray, a: int) -> int:
    """``ROLL`` if the move ``a`` just played ended the turn (``s`` is the state after it,
    at a fresh roll), else -1."""
    if s[TO_MOVE] < 0 or s[MOVED] != 0:
        return -1
    return ROLL
