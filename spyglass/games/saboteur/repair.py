"""Particle repair for Saboteur: make a particle explain a card played, drawn or seen.

A particle filter (:mod:`spyglass.search.particles`) rules a particle out when no move
in it gives the observation the player saw. In Saboteur nearly every move would: another
seat plays a card face up that the particle did not put in its hand, the player draws a
card the particle did not put on top of the stock, a map or a reached goal shows a goal
card the particle put elsewhere. :func:`repair` edits the particle *before* the move so
that the move explains the observation, and keeps every other hidden thing where the
particle put it, above all the roles, which the inference is about:

* **a card played face up by another seat** that its hand in the particle lacks: one copy
  of it, chosen uniformly among the copies the player has not seen (the stock, other
  hands, other seats' face-down discards), changes places with a uniformly chosen card
  of that seat's hand;
* **the player's own draw**: the drawn card, chosen likewise, changes places with the
  stock's top card;
* **a goal card shown** (the player's map, or a goal turned up by a tunnel): the goal
  cards are redrawn uniformly among the orders that agree with everything the player
  has seen of them.

Face-down discards and other seats' maps never contradict a particle.

**Weights**: the repair returns 1 and the module defines no ``kept_weight``, so neither
repaired nor kept particles are weighed by the cards or the goals: this is the reduction
Whitehouse (2014, §7.2, "a reduction was made by ignoring the cards held in each
player's hand") made for Saboteur -- the belief infers the roles, through the opponent
model's likelihood of each move, and treats hands, stock and goals as redrawn rather
than inferred. It is an approximation of the exact filter, named as such in
docs/inference.md.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.saboteur.kernel import (
    DISC,
    DISCARD,
    GOAL_CARD,
    GOAL_REV,
    HAND,
    HAND_N,
    MAP,
    N_TYPES,
    NO_DRAW,
    NO_PEEK,
    NO_REVEAL,
    NP,
    OBS_SPAN,
    PEEKED,
    STOCK,
    STOCK_N,
    TO_MOVE,
    card_of,
    draw_goal_order,
)
from spyglass.rng import rand_below


@njit(cache=True)
def _find_copy(s: np.ndarray, c: int, j: int, p: int, rng: np.ndarray) -> int:
    """A uniformly chosen unseen copy of card ``c`` outside seat ``p``'s hand, as a
    location: ``STOCK + i`` for a stock slot, ``HAND + q * N_TYPES + c`` or ``DISC + q *
    N_TYPES + c`` for a hand or a face-down pile (never ``j``'s); -1 if there is none."""
    n_players = s[NP]
    total = 0
    for i in range(s[STOCK_N]):
        if s[STOCK + i] == c:
            total += 1
    for q in range(n_players):
        if q != j:
            if q != p:
                total += s[HAND + q * N_TYPES + c]
            total += s[DISC + q * N_TYPES + c]
    if total == 0:
        return -1
    k = rand_below(rng, total)
    for i in range(s[STOCK_N]):
        if s[STOCK + i] == c:
            if k == 0:
                return STOCK + i
            k -= 1
    for q in range(n_players):
        if q == j:
            continue
        if q != p:
            k -= s[HAND + q * N_TYPES + c]
            if k < 0:
                return HAND + q * N_TYPES + c
        k -= s[DISC + q * N_TYPES + c]
        if k < 0:
            return DISC + q * N_TYPES + c
    return -1


@njit(cache=True)
def _put(s: np.ndarray, loc: int, c: int, x: int) -> None:
    """Replace the copy of ``c`` at ``loc`` (from :func:`_find_copy`) by a card ``x``."""
    if loc >= STOCK:
        s[loc] = x
    else:
        base = loc - c  # the start of that seat's counts
        s[base + c] -= 1
        s[base + x] += 1


@njit(cache=True)
def _fix_goals(s: np.ndarray, want: np.ndarray, j: int, rng: np.ndarray) -> bool:
    """Redraw the goal order among those giving ``want[g]`` (-1: any) and keeping every
    goal ``j`` knows (turned up, or seen through its maps); False if none does."""
    need = want.copy()
    for g in range(3):
        if s[GOAL_REV + g] != 0 or (s[PEEKED + j] >> g) & 1:
            if need[g] >= 0 and need[g] != s[GOAL_CARD + g]:
                return False
            need[g] = s[GOAL_CARD + g]
    return draw_goal_order(need, rng, s)


@njit(cache=True)
def repair(s: np.ndarray, obs: int, j: int, rng: np.ndarray) -> float:
    """Edit particle ``s`` (seat ``j``'s, before the move) so that the move can give ``j``
    the observation ``obs``; 1.0 on success, 0.0 when it cannot (module docstring)."""
    p = s[TO_MOVE]
    if p < 0 or obs < 1:
        return 0.0
    rest = (obs - 1) // OBS_SPAN
    shown = (obs - 1) % OBS_SPAN
    reveal = rest % 64
    rest //= 64
    peek = rest % 4
    drawn = rest // 4
    # Goal cards the move shows j.
    want = np.full(3, -1, dtype=np.int64)
    mismatch = False
    if reveal != NO_REVEAL:
        for g in range(3):
            digit = (reveal >> (2 * g)) & 3
            if digit != 3:
                want[g] = digit
    if peek != NO_PEEK and MAP <= shown < DISCARD:
        want[shown - MAP] = peek
    for g in range(3):
        if want[g] >= 0 and s[GOAL_CARD + g] != want[g]:
            mismatch = True
    if mismatch and not _fix_goals(s, want, j, rng):
        return 0.0
    # A card another seat played face up.
    if p != j and shown < DISCARD:
        c = card_of(shown)
        h = HAND + p * N_TYPES
        if s[h + c] == 0:
            loc = _find_copy(s, c, j, p, rng)
            if loc < 0 or s[HAND_N + p] == 0:
                return 0.0
            k = rand_below(rng, s[HAND_N + p])
            x = 0
            for t in range(N_TYPES):
                k -= s[h + t]
                if k < 0:
                    x = t
                    break
            s[h + x] -= 1
            s[h + c] += 1
            _put(s, loc, c, x)
    # The card j draws.
    if p == j and drawn != NO_DRAW:
        n = s[STOCK_N]
        if n == 0:
            return 0.0
        top = s[STOCK + n - 1]
        if top != drawn:
            s[STOCK + n - 1] = -1  # keep the top slot out of the search
            loc = _find_copy(s, drawn, j, -1, rng)
            s[STOCK + n - 1] = top
            if loc < 0:
                return 0.0
            _put(s, loc, drawn, top)
            s[STOCK + n - 1] = drawn
    return 1.0
