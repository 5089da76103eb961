"""Repairing a sampled deal: move as few hidden cards as a revealed card requires.

A particle of a trick-taking game (:mod:`spyglass.search.particles`) is a deal of the
cards the viewer has not seen among three hidden hands. When a player plays a card the
particle gave to someone else, or a play shows a void the particle's hand does not
have, the particle cannot explain the move. :func:`redeal_keeping` fixes that while
keeping the rest of the deal: the played card (or any set of cards a hand is shown to
hold) goes to its player, the cards a hand may
no longer hold are released, and so are ``e`` more random cards of each hand
(``e = 0, 1, 2, ...`` until it works); the released cards are re-dealt with
:func:`spyglass.games.cards.deal.deal_three` (uniformly among the deals that respect
the allowed masks), each hand getting back as many as it gave. With every card
released this is a fresh draw, so it fails only when no deal exists at all.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.bits import popcount
from spyglass.games.cards.deal import choose_subset, deal_three

#: Random release choices tried for each number ``e`` of extra released cards.
RELEASE_TRIES = 3
#: Uniform proposals of each re-deal before it counts completions exactly.
DEAL_TRIES = 8


@njit(cache=True)
def redeal_keeping(hands: np.ndarray, fixed: np.ndarray, allowed: np.ndarray, owner: int,
                   need: int, groups: np.ndarray, rng: np.ndarray) -> bool:
    """Edit the three hidden ``hands`` (masks, in place) so that hand ``owner`` holds
    the cards ``need`` (a mask) and every hand lies within its ``allowed`` mask, keeping
    every card it can.

    ``fixed[i]``: cards known to be in hand ``i`` (never moved). ``allowed`` masks are
    unions of ``groups``. Returns False (``hands`` unchanged) if no deal exists."""
    b = need
    conflict = np.zeros(3, dtype=np.int64)
    for i in range(3):
        if fixed[i] & ~allowed[i] or (i != owner and fixed[i] & b):
            return False
        conflict[i] = hands[i] & ~allowed[i]
        if i != owner:
            conflict[i] |= hands[i] & b
    if b & ~allowed[owner]:
        return False
    new = np.zeros(3, dtype=np.int64)
    rel = np.zeros(3, dtype=np.int64)
    caps = np.zeros(3, dtype=np.int64)
    most = 0
    for i in range(3):
        most = max(most, popcount(hands[i]))
    for e in range(most + 1):
        for _ in range(RELEASE_TRIES):
            pool = 0
            ok = True
            for i in range(3):
                keepable = hands[i] & ~conflict[i] & ~fixed[i]
                if i == owner:
                    keepable &= ~b
                extra = min(e, popcount(keepable))
                rel[i] = conflict[i] | choose_subset(keepable, extra, rng)
                caps[i] = popcount(rel[i])
                pool |= rel[i]
            pool &= ~b
            caps[owner] -= popcount(b & ~hands[owner])
            for i in range(3):
                if caps[i] < 0:
                    ok = False
            if not ok:
                break  # more releases are needed: try a larger e
            got, d0, d1, d2 = deal_three(pool, caps[0], caps[1], caps[2], allowed[0],
                                         allowed[1], allowed[2], groups, DEAL_TRIES, rng)
            if got:
                new[0] = d0
                new[1] = d1
                new[2] = d2
                for i in range(3):
                    hands[i] = (hands[i] & ~rel[i] & ~b) | new[i]
                hands[owner] |= b
                return True
            if pool == 0:
                break
    return False
