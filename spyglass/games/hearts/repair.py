"""Particle repair for Hearts: make a particle explain a card an opponent played.

Every card played is public, so a particle that gave the card to someone else, or that
left the player holding a card of the suit it just showed it is void in, cannot explain
the move and would be ruled out. :func:`repair` moves just those cards
(:func:`spyglass.games.cards.redeal.redeal_keeping`): the played card to its player, the
cards the play shows it cannot hold to the other hidden hands, and as few others as the
voids leave room for; every other hidden card stays where the particle put it.

Not repaired (the filter falls back to ruling the particle out): the passes (hidden
choices, revealed all at once at the last pass) and the last card of a deal, which
reveals the next deal (chance drawn from the state's generator, which a repair cannot
steer; nothing of the old deal matters after it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.redeal import redeal_keeping
from spyglass.games.hearts.kernel import (
    FIRST_LEADER,
    FORBID,
    GROUP_MASKS,
    HAND,
    N_CARDS,
    N_PLAYED,
    OBS_CARD,
    PASS_DIR,
    PASSED,
    PHASE,
    PLAYED,
    PLAYING,
    TO_MOVE,
    _allowed,
    _infer,
    _other,
)


@njit(cache=True)
def repair(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> bool:
    """Edit particle ``s`` (seat ``j``'s, before the actor's move) so that the actor can
    play the card ``obs`` shows; False if ``obs`` is not a play this repairs."""
    p = s[TO_MOVE]
    if p < 0 or p == j or s[PHASE] != PLAYING or s[N_PLAYED] >= N_CARDS - 1:
        return False
    c = obs - OBS_CARD
    if c < 0 or c >= N_CARDS:
        return False
    t = s.copy()
    _infer(t, p, c)  # the voids the play shows, as the rules will record them
    forbid = t[FORBID]
    played = 0
    for q in range(4):
        played |= s[PLAYED + q]
    d = s[PASS_DIR]
    receiver = (j + d) % 4 if d != 0 else -1
    received_fixed = s[PASSED + j] & ~played if d != 0 else 0
    hands = np.zeros(3, dtype=np.int64)
    fixed = np.zeros(3, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    owner = -1
    for k in range(3):
        q = _other(j, k)
        hands[k] = s[HAND + q]
        if q == receiver:
            fixed[k] |= received_fixed
        if q == s[FIRST_LEADER] and not played & 1:
            fixed[k] |= 1
        allowed[k] = _allowed(forbid, q)
        if q == p:
            owner = k
    if not redeal_keeping(hands, fixed, allowed, owner, c, GROUP_MASKS, rng):
        return False
    for k in range(3):
        s[HAND + _other(j, k)] = hands[k]
    return True
