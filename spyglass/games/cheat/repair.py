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
* **a call** (either player's): the opponent's hand stays; its pile cards become the
  revealed ones, the rest of the unseen cards outside its hand the deck (reshuffled);
  the last claim's cards are drawn from the revealed pile to match the revealed truth.
  A particle whose opponent hand holds cards the revealed pile needs (or lacks cards
  the player knows it holds) cannot be repaired this way and is ruled out.

Everything else (the opponent's claims, Take-a-Card) never contradicts a particle.

**Weights** (importance sampling, :mod:`spyglass.search.particles`; target: the
uniform deal under what the player knows, the opponent's known cards in its hand):

* own draw of rank ``r``, deck of ``n`` cards holding ``m`` of rank ``r``: the deck's
  order given its cards is the block, so a particle that needed no repair is weighted
  by ``a = m / n`` (the chance of the draw), and so is a repaired one whose deck held an
  ``r``. A particle can also be reached by the swap (the opponent gave an ``r`` for a
  deck card of rank ``t``) when ``m = 1``; summing over those predecessors gives
  ``(1 - a) a / (1 - a + B)`` with ``B = sum over t != r of (H_t - k_t) / ((H_r + 1 -
  k_r) n)`` (``H`` the opponent's hand, ``k`` its known cards not on the pile).
  Exact for the uniform target (:func:`_take_weight`).
* a call: the block is the split of the unseen cards outside the opponent's hand
  between its pile and the deck (and the last claim's cards within the pile). Given the
  hand, its pile is a uniform draw from those cards (holding the known cards the hand
  lacks), so every particle, repaired or not, is weighted by the chance ``c`` of the
  revealed pile, times (its own last claim) the chance of the revealed truth
  (:func:`_call_block`). Exact for the uniform target.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.deal import binom
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
#: When a call's block re-deal cannot explain the pile (the opponent's hand holds cards
#: the pile needs), fall back to moving those cards (approximately weighted) instead of
#: ruling the particle out.
CALL_FALLBACK = True


@njit(cache=True, inline="always")
def _shuffle_deck(s: np.ndarray, rng: np.ndarray) -> None:
    n = s[DECK_N]
    for i in range(n - 1, 0, -1):
        k = rand_below(rng, i + 1)
        t = s[DECK + i]
        s[DECK + i] = s[DECK + k]
        s[DECK + k] = t


@njit(cache=True)
def _take_weight(s: np.ndarray, r: int, j: int) -> float:
    """The importance correction of a repaired Take-a-Card particle ``s`` (its deck's top
    is now an ``r``): ``(1 - a) gamma(s) / sum of gamma(x) K(x -> s)`` over the particles
    ``x`` the repair would have turned into ``s``, with ``a = m / n`` the weight of a
    particle that needed no repair (see the module docstring)."""
    o = 1 - j
    n = s[DECK_N]
    m = 0
    for i in range(n):
        if s[DECK + i] == r:
            m += 1
    share = m / n  # the chance the deck of this hand gives an r on top
    other = 0.0
    if m == 1:
        # predecessors whose opponent held this r and a card of rank t now in the deck
        kr = max(0, s[KNOWN + 13 * j + r] - s[PBY + 13 * o + r])
        for t in range(N_RANKS):
            if t != r:
                kt = max(0, s[KNOWN + 13 * j + t] - s[PBY + 13 * o + t])
                other += max(0, s[HAND + 13 * o + t] - kt)
        other /= (s[HAND + 13 * o + r] + 1 - kr) * n
    rest = 1.0 - share + other
    return (1.0 - share) * share / rest if rest > 0.0 else 0.0


@njit(cache=True)
def _repair_take(s: np.ndarray, r: int, j: int, rng: np.ndarray) -> float:
    o = 1 - j
    n = s[DECK_N]
    if n <= 0:
        return 0.0
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
            return 0.0
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
    return _take_weight(s, r, j)


@njit(cache=True)
def _call_block(s: np.ndarray, obs: int, j: int, pile: np.ndarray, free: np.ndarray) -> float:
    """The weight of a call in particle ``s``: the chance, given the opponent's hand,
    that its pile (a uniformly random draw of its size from the unseen cards outside
    that hand, holding the cards the player knows the opponent has and its hand lacks)
    is the revealed one, and (the opponent's own claim) that its last claim's cards
    have the revealed truth. Fills ``pile`` (the revealed opponent pile) and ``free``
    (the unseen cards outside the opponent's hand); 0.0 if none is possible."""
    o = 1 - j
    truth = (obs >> 52) & 1
    m = 0
    for r in range(N_RANKS):
        pile[r] = ((obs >> (3 * r)) & 7) - s[PBY + 13 * j + r]
        if pile[r] < 0:
            return 0.0
        m += pile[r]
        free[r] = s[PBY + 13 * o + r]
    m_opp = 0
    for r in range(N_RANKS):
        m_opp += s[PBY + 13 * o + r]
    if m != m_opp:  # the opponent's public pile count differs
        return 0.0
    for i in range(s[DECK_N]):
        free[s[DECK + i]] += 1
    c = 1.0
    n_free = 0
    n_known = 0
    for r in range(N_RANKS):
        known = max(0, s[KNOWN + 13 * j + r] - s[HAND + 13 * o + r])
        if pile[r] < known or pile[r] > free[r]:
            return 0.0
        c *= binom(free[r] - known, pile[r] - known)
        n_free += free[r] - known
        n_known += known
    c /= binom(n_free, m - n_known)
    if s[LAST_BY] == o:
        k = s[LAST_K]
        t = binom(pile[s[REF]], k) / binom(m, k)
        c *= t if truth == 1 else 1.0 - t
    elif (1 if s[LASTC + s[REF]] == s[LAST_K] else 0) != truth:
        return 0.0
    return c


@njit(cache=True)
def _repair_call_moving(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> bool:
    """The first version's call repair (a fallback): the opponent's hand keeps every card
    the unseen cards allow and exchanges with the deck what it must."""
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
def _repair_call(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> float:
    o = 1 - j
    truth = (obs >> 52) & 1
    pile = np.zeros(N_RANKS, dtype=np.int64)   # the opponent's revealed pile cards
    free = np.zeros(N_RANKS, dtype=np.int64)   # unseen cards outside its hand
    c = _call_block(s, obs, j, pile, free)
    if c <= 0.0:
        # the opponent's hand holds cards the revealed pile needs: move them (the
        # first version's repair) and weight by the same chance given the new hand,
        # an approximation (the moved cards' probability is not counted)
        if not CALL_FALLBACK or not _repair_call_moving(s, obs, j, rng):
            return 0.0
        return _call_block(s, obs, j, pile, free)
    m = 0
    for r in range(N_RANKS):
        m += pile[r]
    # the last claim's cards, consistent with the revealed truth
    lastc = np.zeros(N_RANKS, dtype=np.int64)
    ref = s[REF]
    k = s[LAST_K]
    if s[LAST_BY] == o:
        if truth == 1:
            lastc[ref] = k
        else:
            left = np.empty(N_RANKS, dtype=np.int64)
            found = False
            for _ in range(CLAIM_TRIES):
                total = m
                for r in range(N_RANKS):
                    left[r] = pile[r]
                    lastc[r] = 0
                for _q in range(k):
                    r = pick_weighted(left, total, rng)
                    left[r] -= 1
                    lastc[r] += 1
                    total -= 1
                if lastc[ref] != k:
                    found = True
                    break
            if not found:
                return 0.0
    else:
        for r in range(N_RANKS):
            lastc[r] = s[LASTC + r]
    # the opponent's hand stays; its pile is the revealed one, the rest is the deck
    i = 0
    for r in range(N_RANKS):
        s[PBY + 13 * o + r] = pile[r]
        s[LASTC + r] = lastc[r]
        for _ in range(free[r] - pile[r]):
            s[DECK + i] = r
            i += 1
    if i != s[DECK_N]:
        return 0.0
    _shuffle_deck(s, rng)
    return c


@njit(cache=True)
def repair(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> float:
    """Edit particle ``s`` (seat ``j``'s, before the actor's move) so that a legal move
    gives ``j`` the observation ``obs``, and return the importance correction of its
    weight (> 0); 0.0 if this observation cannot be repaired here (``s`` is then
    unspecified). See the module docstring."""
    p = s[TO_MOVE]
    if p < 0:
        return 0.0
    if obs >= OBS_CALL:
        if not can_call(s):
            return 0.0
        return _repair_call(s, obs, j, rng)
    if p == j and OBS_TAKE_OWN <= obs < OBS_TAKE_OPP:
        if not can_take(s):
            return 0.0
        return _repair_take(s, obs - OBS_TAKE_OWN, j, rng)
    return 0.0


@njit(cache=True)
def kept_weight(s: np.ndarray, obs: int, j: int) -> float:
    """The importance correction of a particle ``s`` that already explains ``obs``: the
    chance of the card drawn given the deck's cards (``m / n``), or of the revealed
    pile given the opponent's hand (:func:`_call_block`); 1.0 for every other move."""
    p = s[TO_MOVE]
    if p < 0:
        return 1.0
    if obs >= OBS_CALL:
        return _call_block(s, obs, j, np.zeros(N_RANKS, dtype=np.int64),
                           np.zeros(N_RANKS, dtype=np.int64))
    if p == j and OBS_TAKE_OWN <= obs < OBS_TAKE_OPP:
        r = obs - OBS_TAKE_OWN
        n = s[DECK_N]
        m = 0
        for i in range(n):
            if s[DECK + i] == r:
                m += 1
        return m / n if n > 0 else 1.0
    return 1.0
