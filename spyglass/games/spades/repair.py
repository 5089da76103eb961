"""Particle repair for Spades: make a particle explain a card an opponent played.

A particle that gave the played card to another hand, or left its player a card of a
suit the play shows it is void in, cannot explain the play. :func:`repair` re-deals the
hidden cards of the suits the play speaks about (the card's suit, and the led suit
when the player is shown void in it) among the three hidden hands, each keeping as many
of them as it held, uniformly among the deals that explain the play
(:func:`spyglass.games.cards.redeal.redeal_block`); every other card stays. Every
particle, repaired or not (:func:`kept_weight`), is weighted by ``N_new / N_old``: the
share of the block's deals that explain the play. This is exact for the uniform deal
under the voids (a Gibbs block update; checked against an exact posterior in
``tests/test_repair_weights.py``). A particle whose player held no card of the block
has no such deal and is ruled out (its weight is 0 anyway). The bids never contradict
a particle. The last card of a round reveals the next deal (chance from the state's
generator): not repaired, the filter falls back to ruling the particle out.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.deal import bit
from spyglass.games.cards.redeal import block_weight, redeal_block
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


@njit(cache=True, inline="always")
def _mask(forbid: int, q: int) -> int:
    """The cards seat ``q`` may hold under the void bits ``forbid``."""
    m = ALL_CARDS
    for g in range(4):
        if (forbid >> (4 * q + g)) & 1:
            m &= ~SUIT_MASKS[g]
    return m


@njit(cache=True, inline="always")
def _block_play(s: np.ndarray, obs: int, j: int, hands: np.ndarray, allowed: np.ndarray,
                prior: np.ndarray) -> tuple[int, int]:
    """``(owner, card)`` of a play ``obs`` this module weights, filling the three hidden
    hands and their masks after (``allowed``) and before (``prior``) it; owner -1 if
    ``obs`` is not such a play."""
    p = s[TO_MOVE]
    if p < 0 or p == j or s[PHASE] != PLAYING or s[N_PLAYED] >= N_CARDS - 1:
        return -1, -1
    c = obs - OBS_CARD
    if c < 0 or c >= N_CARDS:
        return -1, -1
    forbid = s[FORBID]
    suit = c // 13
    if s[N_PLAYED] % 4 == 0:
        if suit == SPADES and not s[BROKEN]:
            forbid |= 7 << (4 * p)  # led a spade unbroken: held only spades
    else:
        led = s[TRICK + s[LEADER]] // 13
        if suit != led:
            forbid |= 1 << (4 * p + led)
    owner = -1
    for k in range(3):
        q = k + (k >= j)
        hands[k] = s[HAND + q]
        allowed[k] = _mask(forbid, q)
        prior[k] = _mask(s[FORBID], q)
        if q == p:
            owner = k
    return owner, c


@njit(cache=True)
def repair(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> float:
    """Edit particle ``s`` (seat ``j``'s, before the actor's move) so that the actor can
    play the card ``obs`` shows, and return the importance correction of its weight
    (:func:`spyglass.games.cards.redeal.redeal_block`); 0.0 if ``obs`` is not a play
    this repairs or no re-deal explains it."""
    hands = np.zeros(3, dtype=np.int64)
    fixed = np.zeros(3, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    prior = np.zeros(3, dtype=np.int64)
    owner, c = _block_play(s, obs, j, hands, allowed, prior)
    if owner < 0:
        return 0.0
    fix = redeal_block(hands, fixed, allowed, prior, owner, bit(c), SUIT_MASKS, rng)
    if fix <= 0.0:
        return 0.0
    for k in range(3):
        s[HAND + k + (k >= j)] = hands[k]
    return fix


@njit(cache=True)
def kept_weight(s: np.ndarray, obs: int, j: int) -> float:
    """The importance correction of a particle ``s`` that already explains ``obs``:
    the same ``N_new / N_old`` a repair returns (1.0 for a move this does not weight)."""
    hands = np.zeros(3, dtype=np.int64)
    fixed = np.zeros(3, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    prior = np.zeros(3, dtype=np.int64)
    owner, c = _block_play(s, obs, j, hands, allowed, prior)
    if owner < 0:
        return 1.0
    return block_weight(hands, fixed, allowed, prior, owner, bit(c), SUIT_MASKS)
