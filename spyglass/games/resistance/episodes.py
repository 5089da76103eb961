"""The Resistance's EPIC episode function: one mission is one episode.

Whitehouse 2014 gives no episode function for The Resistance (§8.3.2 covers Dou Di
Zhu, Hearts, LOTR:C, Checkers, Othello and Backgammon), so this one follows the
thesis's idea (§8.3.1: an episode is a run of consecutive turns, somewhat independent of
its context, whose root label says what kind of subgame it is) and the game's own turn
structure (Whitehouse 2014, §4.2.11, Algorithm 1): each pass of the outer loop, a
mission, is an episode -- its team proposals, their votes, and the mission cards of the
team that goes. E = {L_0, ..., L_9}: L_i when seat i is about to propose the first team
of a new mission, the analogue of Hearts' L_i for the player leading a trick (eq. 8.7).
So EPIC shares what it learns about a leader's first proposal, the votes on a team, a
rejected team's successor and a spy's mission card between missions (positions-in-
episode with the same moves since the mission began). The mission number is not in
the label: missions of equal team size share their statistics, as Hearts' tricks do.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.resistance.kernel import ATTEMPT, LEADER, PHASE, PROPOSE


@njit(cache=True)
def episode(s: np.ndarray, a: int) -> int:
    """``L_i`` (= ``i``) when the move ``a`` just played ended a mission and seat ``i``
    proposes the next mission's first team in ``s``; -1 (the mission continues)."""
    if s[PHASE] == PROPOSE and s[ATTEMPT] == 0:
        return s[LEADER]
    return -1
