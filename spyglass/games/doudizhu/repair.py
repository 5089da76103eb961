"""Particle repair for Dou Di Zhu: make a particle explain a play or the shown kitty.

Every move is public, so a particle whose player lacks the cards of a play it saw, or
whose kitty is not the one the end of the auction showed, cannot explain the move.
:func:`repair` moves just the missing cards: for a play, each missing card of the
play's ranks comes from the other hidden hand, which gets a random card of the player's
(not of the play's ranks) back; for the kitty, each card the shown kitty lacks comes
from a hidden hand, which gets one of the particle's wrong kitty cards back. Cards the
viewer knows a hand holds (the landlord's unplayed kitty cards, the first bidder's
face-up rank) never move, and every other card stays where the particle put it.

Not weighted: a repaired particle keeps its weight (the hook returns 1.0), so the
filter is not an exact importance sampler on Dou Di Zhu. The Gibbs block update that
weights Hearts and Spades exactly (:func:`spyglass.games.cards.redeal.redeal_block`)
does not carry over: re-dealing just the played ranks between the two hidden hands
keeps each hand's count of those ranks, and the player almost never holds as many of
them as it played in a particle that needs repair (tried: 1 repair in 100 succeeded);
the exact weight of these minimal swaps needs a sum over the particles that could
have led to the repaired one, which is left to do.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.doudizhu.kernel import (
    BIDDING,
    CACHE_N,
    FACEUP,
    FIRST_BIDDER,
    HAND,
    KITTY,
    LANDLORD,
    PHASE,
    PLAYED,
    TO_MOVE,
)
from spyglass.games.doudizhu.tables import (
    A_CAT,
    A_HEAD,
    A_LEN,
    A_WIDTH,
    BLACK_JOKER,
    KICK_PAIR0,
    KICK_SOLO0,
    N_ACTIONS,
    N_BASE,
    N_RANKS,
    PASS,
    RED_JOKER,
    ROCKET,
)
from spyglass.rng import pick_weighted, rand_below


@njit(cache=True, inline="always")
def _pins(s: np.ndarray, q: int, pin: np.ndarray) -> None:
    """The cards of each rank seat ``q`` is known to hold (see :func:`repair`)."""
    for r in range(N_RANKS):
        pin[r] = 0
    shown = s[LANDLORD] >= 0 and s[PHASE] != BIDDING
    if shown and q == s[LANDLORD]:
        for r in range(N_RANKS):
            pin[r] = max(0, s[KITTY + r] - s[PLAYED + N_RANKS * q + r])
    if q == s[FIRST_BIDDER] and s[FIRST_BIDDER] >= 0:
        r = s[FACEUP]
        need = 1 - s[PLAYED + N_RANKS * q + r]
        if shown and q == s[LANDLORD]:
            need += s[KITTY + r]
        pin[r] = max(pin[r], need)


@njit(cache=True, inline="always")
def _draw_rank(counts: np.ndarray, rng: np.ndarray) -> int:
    total = 0
    for r in range(N_RANKS):
        total += counts[r]
    return pick_weighted(counts, total, rng)


@njit(cache=True)
def _repair_play(s: np.ndarray, a: int, j: int, rng: np.ndarray) -> float:
    p = s[TO_MOVE]
    if p == j or a == PASS:
        return 0.0
    need = np.zeros(N_RANKS, dtype=np.int64)
    if a >= KICK_PAIR0:
        need[a - KICK_PAIR0] = 2
    elif a >= KICK_SOLO0:
        need[a - KICK_SOLO0] = 1
    elif a < N_BASE:
        if A_CAT[a] == ROCKET:
            need[BLACK_JOKER] = 1
            need[RED_JOKER] = 1
        else:
            for r in range(A_HEAD[a], A_HEAD[a] + A_LEN[a]):
                need[r] = A_WIDTH[a]
    else:
        return 0.0
    q = 3 - j - p  # the other hidden hand
    pin_p = np.zeros(N_RANKS, dtype=np.int64)
    pin_q = np.zeros(N_RANKS, dtype=np.int64)
    _pins(s, p, pin_p)
    _pins(s, q, pin_q)
    spare = np.zeros(N_RANKS, dtype=np.int64)  # p's cards it can give back
    for r in range(N_RANKS):
        if need[r] == 0:
            spare[r] = max(0, s[HAND + N_RANKS * p + r] - pin_p[r])
    for r in range(N_RANKS):
        d = need[r] - s[HAND + N_RANKS * p + r]
        if d <= 0:
            continue
        if s[HAND + N_RANKS * q + r] - pin_q[r] < d:
            return 0.0
        for _ in range(d):
            x = _draw_rank(spare, rng)
            if x < 0:
                return 0.0
            spare[x] -= 1
            s[HAND + N_RANKS * p + x] -= 1
            s[HAND + N_RANKS * q + x] += 1
            s[HAND + N_RANKS * q + r] -= 1
            s[HAND + N_RANKS * p + r] += 1
    s[CACHE_N] = 0  # the actor's cached legal actions
    return 1.0


@njit(cache=True)
def _repair_kitty(s: np.ndarray, code: int, j: int, rng: np.ndarray) -> float:
    want = np.zeros(N_RANKS, dtype=np.int64)
    for _ in range(3):
        want[code % N_RANKS] += 1
        code //= N_RANKS
    back = np.zeros(N_RANKS, dtype=np.int64)  # the particle's wrong kitty cards
    for r in range(N_RANKS):
        back[r] = max(0, s[KITTY + r] - want[r])
    pin = np.zeros((2, N_RANKS), dtype=np.int64)
    seats = np.zeros(2, dtype=np.int64)
    k = 0
    for q in range(3):
        if q != j:
            seats[k] = q
            _pins(s, q, pin[k])
            k += 1
    avail = np.zeros(2, dtype=np.int64)
    for r in range(N_RANKS):
        d = want[r] - s[KITTY + r]
        for _ in range(d):
            for k in range(2):
                avail[k] = max(0, s[HAND + N_RANKS * seats[k] + r] - pin[k, r])
            if avail[0] + avail[1] == 0:
                return 0.0
            k = 0 if rand_below(rng, avail[0] + avail[1]) < avail[0] else 1
            x = _draw_rank(back, rng)
            back[x] -= 1
            s[HAND + N_RANKS * seats[k] + r] -= 1
            s[HAND + N_RANKS * seats[k] + x] += 1
            s[KITTY + r] += 1
            s[KITTY + x] -= 1
    s[CACHE_N] = 0
    return 1.0


@njit(cache=True)
def repair(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> float:
    """Edit particle ``s`` (seat ``j``'s, before the actor's move) so that a legal move
    gives ``j`` the observation ``obs`` and return 1.0 (not weighted: see the module
    docstring); 0.0 if this observation cannot be repaired here (``s`` is then
    unspecified)."""
    if s[TO_MOVE] < 0 or obs < 1:
        return 0.0
    a = (obs - 1) % N_ACTIONS
    if s[PHASE] == BIDDING:
        kitty = (obs - 1) // N_ACTIONS - 1
        if kitty < 0:
            return 0.0
        return _repair_kitty(s, kitty, j, rng)
    return _repair_play(s, a, j, rng)
