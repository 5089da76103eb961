"""Particle repair for Cheat: make a particle explain a revealed card or pile.

A particle filter (:mod:`spyglass.search.particles`) rules a particle out when no move
in it gives the observation the player saw. In Cheat two observations reveal what a
particle only guessed: the card the player draws (the deck's order is chance) and the
pile turned up by a call (the opponent's face-down cards). :func:`repair` edits the
particle *before* the move so that the move explains the observation, and keeps every
other hidden card where the particle put it:

* **own Take-a-Card** showing rank ``r``: the deck is reshuffled (its order was never
  seen, so it is chance, redrawn) with a card of rank ``r`` on top. If the particle's
  deck holds no ``r``, one ``r`` of the opponent's hand changes places with a random
  deck card (the opponent then holds one card the particle did not give it).
* **a call** (either player's): the opponent's pile cards become the revealed ones. Its
  hand keeps every card the unseen cards still allow; cards it must lose, or gain to
  hold what the player knows it holds (``KNOWN``) and its public hand size, are
  exchanged with the deck, uniformly; the deck is reshuffled; the last claim's cards
  are drawn from the opponent's revealed pile cards to match the revealed truth.

Everything else (the opponent's claims, Take-a-Card) never contradicts a particle.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cheat.kernel import (
    DECK,
    DECK_N,
    HAND,
    KNOWN,
    LAST_BY,
    LAST_K,
    LASTC,
    N_RANKS,
    OBS_CALL,
    OBS_TAKE_OPP,
    OBS_TAKE_OWN,
    PBY,
    REF,
    TO_MOVE,
    can_call,
    can_take,
)
from spyglass.rng import pick_weighted, rand_below

#: Draws of the last claim's cards before a false-claim repair gives up.
CLAIM_TRIES = 64


@njit(cache=True, inline="always")
def _shuffle_deck(s: np.ndarray, rng: np.ndarray) -> None:
    n = s[DECK_N]
    for i in range(n - 1, 0, -1):
        k = rand_below(rng, i + 1)
        t = s[DECK + i]
        s[DECK + i] = s[DECK + k]
        s[DECK + k] = t


@njit(cache=True)
def _repair_take(s: np.ndarray, r: int, j: int, rng: np.ndarray) -> bool:
    o = 1 - j
    n = s[DECK_N]
    if n <= 0:
        return False
    has = False
    for i in range(n):
        if s[DECK + i] == r:
            has = True
            break
    if not has:
        # the particle's opponent holds every unseen r: give one back for a deck card,
        # unless what the player knows of the opponent needs it
        held = s[HAND + 13 * o + r] + s[PBY + 13 * o + r]
        if s[HAND + 13 * o + r] == 0 or held - 1 < s[KNOWN + 13 * j + r]:
            return False
        i = rand_below(rng, n)
        x = s[DECK + i]
        s[DECK + i] = r
        s[HAND + 13 * o + r] -= 1
        s[HAND + 13 * o + x] += 1
    _shuffle_deck(s, rng)
    m = 0
    for i in range(n):
        if s[DECK + i] == r:
            m += 1
    t = rand_below(rng, m)
    for i in range(n):
        if s[DECK + i] == r:
            if t == 0:
                s[DECK + i] = s[DECK + n - 1]
                s[DECK + n - 1] = r
                break
            t -= 1
    return True


@njit(cache=True)
def _repair_call(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> bool:
    o = 1 - j
    truth = (obs >> 52) & 1
    n = s[DECK_N]
    pile = np.zeros(N_RANKS, dtype=np.int64)   # the opponent's revealed pile cards
    hand = np.zeros(N_RANKS, dtype=np.int64)   # its hand, kept where possible
    free = np.zeros(N_RANKS, dtype=np.int64)   # unseen cards left for the deck
    n_pile = 0
    n_hand = 0
    for r in range(N_RANKS):
        pile[r] = ((obs >> (3 * r)) & 7) - s[PBY + 13 * j + r]
        if pile[r] < 0:
            return False
        n_pile += pile[r]
        n_hand += s[HAND + 13 * o + r]
    for r in range(N_RANKS):
        n_opp_pile = s[PBY + 13 * o + r]
        n_pile -= n_opp_pile
    if n_pile != 0:  # the opponent's public pile count differs
        return False
    for i in range(n):
        free[s[DECK + i]] += 1
    n_free = 0
    for r in range(N_RANKS):
        unseen = free[r] + s[HAND + 13 * o + r] + s[PBY + 13 * o + r]
        room = unseen - pile[r]
        if room < 0:
            return False
        hand[r] = min(s[HAND + 13 * o + r], room)
        need = s[KNOWN + 13 * j + r] - pile[r]
        if hand[r] < need:
            if room < need:
                return False
            hand[r] = need
        free[r] = room - hand[r]
        n_free += free[r]
    kept = 0
    for r in range(N_RANKS):
        kept += hand[r]
    while kept < n_hand:  # fill the hand from the unseen cards
        if n_free == 0:
            return False
        r = pick_weighted(free, n_free, rng)
        free[r] -= 1
        n_free -= 1
        hand[r] += 1
        kept += 1
    while kept > n_hand:  # give back cards the player's knowledge does not pin down
        spare = np.zeros(N_RANKS, dtype=np.int64)
        n_spare = 0
        for r in range(N_RANKS):
            spare[r] = max(0, min(hand[r], hand[r] + pile[r] - s[KNOWN + 13 * j + r]))
            n_spare += spare[r]
        if n_spare == 0:
            return False
        r = pick_weighted(spare, n_spare, rng)
        hand[r] -= 1
        free[r] += 1
        n_free += 1
        kept -= 1
    if n_free != n:
        return False
    # the last claim's cards, consistent with the revealed truth
    lastc = np.zeros(N_RANKS, dtype=np.int64)
    ref = s[REF]
    k = s[LAST_K]
    if s[LAST_BY] == o:
        if truth == 1:
            if pile[ref] < k:
                return False
            lastc[ref] = k
        else:
            left = np.empty(N_RANKS, dtype=np.int64)
            found = False
            for _ in range(CLAIM_TRIES):
                total = 0
                for r in range(N_RANKS):
                    left[r] = pile[r]
                    lastc[r] = 0
                    total += pile[r]
                for _q in range(k):
                    r = pick_weighted(left, total, rng)
                    left[r] -= 1
                    lastc[r] += 1
                    total -= 1
                if lastc[ref] != k:
                    found = True
                    break
            if not found:
                return False
    else:
        if (1 if s[LASTC + ref] == k else 0) != truth:
            return False
        for r in range(N_RANKS):
            lastc[r] = s[LASTC + r]
    # write the repaired particle: hand, pile, last claim, then a reshuffled deck
    i = 0
    for r in range(N_RANKS):
        s[HAND + 13 * o + r] = hand[r]
        s[PBY + 13 * o + r] = pile[r]
        s[LASTC + r] = lastc[r]
        for _ in range(free[r]):
            s[DECK + i] = r
            i += 1
    _shuffle_deck(s, rng)
    return True


@njit(cache=True)
def repair(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> bool:
    """Edit particle ``s`` (seat ``j``'s, before the actor's move) so that a legal move
    gives ``j`` the observation ``obs``; False if this observation cannot be repaired
    here (``s`` is then unspecified). See the module docstring."""
    p = s[TO_MOVE]
    if p < 0:
        return False
    if obs >= OBS_CALL:
        if not can_call(s):
            return False
        return _repair_call(s, obs, j, rng)
    if p == j and OBS_TAKE_OWN <= obs < OBS_TAKE_OPP:
        if not can_take(s):
            return False
        return _repair_take(s, obs - OBS_TAKE_OWN, j, rng)
    return False
