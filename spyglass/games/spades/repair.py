"""Particle repair for Spades: make a particle explain a card an opponent played.

As in Hearts (:mod:`spyglass.games.hearts.repair`): a particle that gave the played card
to another hand, or left its player a card of a suit the play shows it is void in, has
those cards moved by :func:`spyglass.games.cards.redeal.redeal_keeping`; every other
hidden card stays put. The bids never contradict a particle (every bid is legal in
every hand). The last card of a round reveals the next deal (chance from the state's
generator): not repaired, the filter falls back to ruling the particle out.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.deal import bit
from spyglass.games.cards.redeal import redeal_keeping
from spyglass.games.spades.kernel import (
    ALL_CARDS,
    BROKEN,
    FORBID,
    HAND,
    LEADER,
    N_CARDS,
    N_PLAYED,
    OBS_CARD,
    PHASE,
    PLAYING,
    SPADES,
    SUIT_MASKS,
    TO_MOVE,
    TRICK,
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
    forbid = s[FORBID]
    suit = c // 13
    if s[N_PLAYED] % 4 == 0:
        if suit == SPADES and not s[BROKEN]:
            forbid |= 7 << (4 * p)  # led a spade unbroken: held only spades
    else:
        led = s[TRICK + s[LEADER]] // 13
        if suit != led:
            forbid |= 1 << (4 * p + led)
    hands = np.zeros(3, dtype=np.int64)
    fixed = np.zeros(3, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    owner = -1
    for k in range(3):
        q = k + (k >= j)
        hands[k] = s[HAND + q]
        m = ALL_CARDS
        for g in range(4):
            if (forbid >> (4 * q + g)) & 1:
                m &= ~SUIT_MASKS[g]
        allowed[k] = m
        if q == p:
            owner = k
    if not redeal_keeping(hands, fixed, allowed, owner, bit(c), SUIT_MASKS, rng):
        return False
    for k in range(3):
        s[HAND + k + (k >= j)] = hands[k]
    return True
