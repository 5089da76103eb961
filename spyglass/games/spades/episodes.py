"""Spades' EPIC episode function, defined here as the thesis defines Hearts'.

Whitehouse 2014 gives no episode function for Spades (§8.3.2 defines Dou Di Zhu's,
Hearts', Lord of the Rings', Checkers', Othello's and Backgammon's). Spades is a
trick-taking game of the same shape as Hearts, so its episodes follow Hearts' (eq. 8.7):
E = {D, L1..L4}; D when a new round has just been dealt (the deal and the bidding are
the first episode of a round), L_i when player i is about to lead a trick (each later
episode is one trick).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.spades.kernel import BIDDING, BIDS, N_PLAYED, N_PLAYERS, PHASE, PLAYING, TO_MOVE

DEAL = 0


@njit(cache=True)
def episode(s: np.ndarray, a: int) -> int:
    """The label of the episode the move just played (``a``) starts in ``s``, or -1."""
    if s[TO_MOVE] < 0:
        return -1
    if s[PHASE] == BIDDING:
        for p in range(N_PLAYERS):
            if s[BIDS + p] >= 0:
                return -1
        return DEAL
    if s[PHASE] == PLAYING and s[N_PLAYED] % N_PLAYERS == 0:
        return 1 + s[TO_MOVE]
    return -1
