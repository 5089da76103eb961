"""Particle repair for Hearts: make a particle explain a card an opponent played.

Every card played is public, so a particle that gave the card to someone else, or that
left the player holding a card of the suit it just showed it is void in, cannot explain
the move and would be ruled out. :func:`repair` re-deals the hidden cards of the groups
the play speaks about (the card's group, and those the play shows its player cannot
hold) among the hidden hands, each keeping as many as it held, uniformly among the
deals that explain the play (:func:`spyglass.games.cards.redeal.redeal_block`); every
other hidden card stays where the particle put it, and so do the cards known to be in a
hand (what the viewer passed, 2♣). Every particle, repaired or not
(:func:`kept_weight`), is weighted by ``N_new / N_old``, the share of the block's deals
that explain the play: exact for the uniform deal under the voids, except that the
particle's hidden passes are then mended (each passed card is in its receiver's hand
or played, so that every player's view of the repaired particle is a possible one)
without a weight.

The last pass of a deal shows the viewer the cards it receives (and who holds 2♣):
the passer's thirteen cards are made to hold them the same way, its passed cards
become them, and the other hidden passers keep the passed cards they still hold (the
rest redrawn from their hands), with :func:`redeal_keeping`'s approximate weight
``N_new / (N_old - N_new)`` (the cards it releases depend on the particle). Not
repaired (the filter falls back to ruling the particle out): the last card of a deal,
which reveals the next deal (chance drawn from the state's generator, which a repair
cannot steer; nothing of the old deal matters after it).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.bits import lowest_index, popcount
from spyglass.games.cards.deal import bit, choose_subset
from spyglass.games.cards.redeal import block_weight, redeal_block, redeal_keeping
from spyglass.games.hearts.kernel import (
    ALL_CARDS,
    FIRST_LEADER,
    FORBID,
    GROUP_MASKS,
    HAND,
    N_CARDS,
    N_PLAYED,
    OBS_CARD,
    PASS_DIR,
    PASS_N,
    PASSED,
    PHASE,
    PLAYED,
    PLAYING,
    REVEAL_PASS,
    TO_MOVE,
    _allowed,
    _infer,
    _is_last_pass,
    _other,
    observe,
)

#: Attempts of the last-pass repair (each a fresh choice of what to move) before giving up.
PASS_TRIES = 8


@njit(cache=True)
def _repair_pass(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> float:
    received = obs & ALL_CARDS
    d = s[PASS_DIR]
    giver = (j - d + 4) % 4
    mine = s[HAND + j] | s[PASSED + j]
    if received & mine or popcount(received) != PASS_N:
        return 0.0
    hold = np.zeros(3, dtype=np.int64)
    fixed = np.zeros(3, dtype=np.int64)
    allowed = np.full(3, ALL_CARDS, dtype=np.int64)
    owner = -1
    t = s.copy()
    for _ in range(PASS_TRIES):
        s[:] = t
        for k in range(3):
            q = _other(j, k)
            hold[k] = s[HAND + q] | s[PASSED + q]
            if q == giver:
                owner = k
        fix = redeal_keeping(hold, fixed, allowed, owner, received, GROUP_MASKS, rng,
                             allowed)
        if fix <= 0.0:
            return 0.0
        for k in range(3):
            q = _other(j, k)
            if q == giver:
                # the actor (seat 3) has passed two cards and passes the third now
                n_passed = popcount(s[PASSED + q])
                passed = received
                if n_passed < PASS_N:
                    passed &= ~choose_subset(received, PASS_N - n_passed, rng)
            else:
                passed = s[PASSED + q] & hold[k]
                short = popcount(s[PASSED + q]) - popcount(passed)
                passed |= choose_subset(hold[k] & ~passed, short, rng)
            s[PASSED + q] = passed
            s[HAND + q] = hold[k] & ~passed
        n = s[HAND + 3]
        while n:
            a = lowest_index(n)
            if observe(s, a, j) == obs:
                return fix
            n &= n - 1
    return 0.0


@njit(cache=True)
def _mend_passes(s: np.ndarray, j: int, rng: np.ndarray) -> None:
    """Keep the particle's hidden passes possible after cards moved between hands: each
    card a hidden player passed must still be in its receiver's hand or played there
    (every player's own view says so); a pass that lost a card gets one of the
    receiver's other cards instead."""
    d = s[PASS_DIR]
    for x in range(4):
        r = (x + d) % 4
        if x == j or r == j:
            continue  # j's own pass and what j received are known, never moved
        keep = s[PASSED + x] & (s[HAND + r] | s[PLAYED + r])
        short = PASS_N - popcount(keep)
        if short > 0:
            spare = s[HAND + r] & ~keep
            if r == (j + d) % 4:
                spare &= ~s[PASSED + j]
            keep |= choose_subset(spare, short, rng)
        s[PASSED + x] = keep


@njit(cache=True, inline="always")
def _block_play(s: np.ndarray, obs: int, j: int, hands: np.ndarray, fixed: np.ndarray,
                allowed: np.ndarray, prior: np.ndarray) -> tuple[int, int]:
    """``(owner, card)`` of a card play ``obs`` by an opponent, filling the three hidden
    hands, the cards known to be in them, and their masks after (``allowed``) and
    before (``prior``) the play; owner -1 if ``obs`` is not such a play."""
    p = s[TO_MOVE]
    if p < 0 or p == j or s[PHASE] != PLAYING or s[N_PLAYED] >= N_CARDS - 1:
        return -1, -1
    c = obs - OBS_CARD
    if c < 0 or c >= N_CARDS:
        return -1, -1
    t = s.copy()
    _infer(t, p, c)  # the voids the play shows, as the rules will record them
    forbid = t[FORBID]
    played = 0
    for q in range(4):
        played |= s[PLAYED + q]
    d = s[PASS_DIR]
    receiver = (j + d) % 4 if d != 0 else -1
    received_fixed = s[PASSED + j] & ~played if d != 0 else 0
    owner = -1
    for k in range(3):
        q = _other(j, k)
        hands[k] = s[HAND + q]
        fixed[k] = 0
        if q == receiver:
            fixed[k] |= received_fixed
        if q == s[FIRST_LEADER] and not played & 1:
            fixed[k] |= 1
        allowed[k] = _allowed(forbid, q)
        prior[k] = _allowed(s[FORBID], q)
        if q == p:
            owner = k
    return owner, c


@njit(cache=True)
def repair(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> float:
    """Edit particle ``s`` (seat ``j``'s, before the actor's move) so that the actor can
    play the card ``obs`` shows, or pass the last card of the passes ``obs`` reveals,
    and return the importance correction of its weight; 0.0 if ``obs`` is not a move
    this repairs."""
    p = s[TO_MOVE]
    if p >= 0 and obs & REVEAL_PASS and _is_last_pass(s):
        return _repair_pass(s, obs, j, rng)
    hands = np.zeros(3, dtype=np.int64)
    fixed = np.zeros(3, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    prior = np.zeros(3, dtype=np.int64)
    owner, c = _block_play(s, obs, j, hands, fixed, allowed, prior)
    if owner < 0:
        return 0.0
    fix = redeal_block(hands, fixed, allowed, prior, owner, bit(c), GROUP_MASKS, rng)
    if fix <= 0.0:
        return 0.0
    for k in range(3):
        s[HAND + _other(j, k)] = hands[k]
    if s[PASS_DIR] != 0:
        _mend_passes(s, j, rng)
    return fix


@njit(cache=True)
def kept_weight(s: np.ndarray, obs: int, j: int) -> float:
    """The importance correction of a particle ``s`` that already explains ``obs``: the
    block likelihood ``N_new / N_old`` a repair returns (1.0 for other moves)."""
    hands = np.zeros(3, dtype=np.int64)
    fixed = np.zeros(3, dtype=np.int64)
    allowed = np.zeros(3, dtype=np.int64)
    prior = np.zeros(3, dtype=np.int64)
    if s[TO_MOVE] >= 0 and obs & REVEAL_PASS:
        return 1.0
    owner, c = _block_play(s, obs, j, hands, fixed, allowed, prior)
    if owner < 0:
        return 1.0
    return block_weight(hands, fixed, allowed, prior, owner, bit(c), GROUP_MASKS)
