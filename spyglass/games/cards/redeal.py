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
released this is a fresh draw, so it fails only when no deal exists at all. Its weight
``N_new / (N_old - N_new)`` (the released cards' deals that explain the move, over
those that do not, under the masks before it) treats the released set as fixed, which
it is not (it depends on the particle's conflicts): an approximation, used only by
Hearts' last pass now.

:func:`redeal_block` is the exactly weighted form the plays of Hearts and Spades use:
the cards re-dealt are the hidden cards of the groups the play speaks about, a block
fixed by the play rather than by the particle, so redrawing it uniformly among the
deals that explain the play is a Gibbs block update of the uniform deal, and
``N_new / N_old`` (:func:`block_weight`) weights every particle, repaired or not.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.bits import popcount
from spyglass.games.cards.deal import choose_subset, count_deals, deal_three

#: Random release choices tried for each number ``e`` of extra released cards.
RELEASE_TRIES = 3
#: Uniform proposals of each re-deal before it counts completions exactly.
DEAL_TRIES = 8


@njit(cache=True)
def redeal_keeping(hands: np.ndarray, fixed: np.ndarray, allowed: np.ndarray, owner: int,
                   need: int, groups: np.ndarray, rng: np.ndarray,
                   prior: np.ndarray) -> float:
    """Edit the three hidden ``hands`` (masks, in place) so that hand ``owner`` holds
    the cards ``need`` (a mask) and every hand lies within its ``allowed`` mask, keeping
    every card it can; return the importance correction of the re-deal (module
    docstring).

    ``fixed[i]``: cards known to be in hand ``i`` (never moved). ``allowed`` masks are
    unions of ``groups``; ``prior`` are the masks before the observation that showed
    ``need`` (the target the particle was drawn from). Returns 0.0 (``hands``
    unchanged) if no deal exists."""
    b = need
    conflict = np.zeros(3, dtype=np.int64)
    for i in range(3):
        if fixed[i] & ~allowed[i] or (i != owner and fixed[i] & b):
            return 0.0
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
                return _redeal_weight(pool, caps, allowed, rel, prior, groups)
            if pool == 0:
                break
    return 0.0


@njit(cache=True)
def _redeal_weight(pool: int, caps: np.ndarray, allowed: np.ndarray, rel: np.ndarray,
                   prior: np.ndarray, groups: np.ndarray) -> float:
    """``N_new / (N_old - N_new)``: ``N_old`` the deals of the released cards back to
    their hands (as many as each gave) under the ``prior`` masks, ``N_new`` those in
    which the owner holds the needed cards and every hand respects ``allowed``."""
    released = 0
    for i in range(3):
        released |= rel[i]
    n_new = count_deals(pool, caps[0], caps[1], caps[2], allowed[0], allowed[1],
                        allowed[2], groups)
    n_old = count_deals(released, popcount(rel[0]), popcount(rel[1]), popcount(rel[2]),
                        prior[0], prior[1], prior[2], groups)
    if n_old > n_new:
        return n_new / (n_old - n_new)
    return 1.0


@njit(cache=True, inline="always")
def _block_counts(hands: np.ndarray, fixed: np.ndarray, allowed: np.ndarray,
                  prior: np.ndarray, owner: int, need: int, block: int,
                  groups: np.ndarray, caps: np.ndarray) -> tuple[int, float, float]:
    """``(pool, N_old, N_new)`` of a block re-deal (:func:`redeal_block`); ``caps`` gets
    the new deal's hand sizes."""
    pool = 0
    for i in range(3):
        rel = hands[i] & block & ~fixed[i]
        caps[i] = popcount(rel)
        pool |= rel
    n_old = count_deals(pool, caps[0], caps[1], caps[2], prior[0], prior[1], prior[2],
                        groups)
    caps[owner] -= popcount(need & ~fixed[owner])
    pool &= ~need
    n_new = count_deals(pool, caps[0], caps[1], caps[2], allowed[0], allowed[1],
                        allowed[2], groups)
    return pool, n_old, n_new


@njit(cache=True, inline="always")
def _block_of(allowed: np.ndarray, prior: np.ndarray, owner: int, need: int,
              groups: np.ndarray) -> int:
    """The groups of ``need`` and those ``owner`` is newly shown not to hold."""
    block = 0
    for g in range(groups.shape[0]):
        if groups[g] & need or (prior[owner] ^ allowed[owner]) & groups[g]:
            block |= groups[g]
    return block


@njit(cache=True)
def block_weight(hands: np.ndarray, fixed: np.ndarray, allowed: np.ndarray,
                 prior: np.ndarray, owner: int, need: int, groups: np.ndarray) -> float:
    """``N_new / N_old`` of the block :func:`redeal_block` would re-deal in ``hands``:
    the chance, under the uniform deal the particle was drawn from, that the block's
    cards lie as the play requires given every card outside it. A particle that already
    explains the play is weighted by it too (module docstring of
    :mod:`spyglass.search.particles`)."""
    caps = np.zeros(3, dtype=np.int64)
    _, n_old, n_new = _block_counts(hands, fixed, allowed, prior, owner, need,
                                    _block_of(allowed, prior, owner, need, groups),
                                    groups, caps)
    return n_new / n_old if n_old > 0.0 else 0.0


@njit(cache=True)
def redeal_block(hands: np.ndarray, fixed: np.ndarray, allowed: np.ndarray,
                 prior: np.ndarray, owner: int, need: int, groups: np.ndarray,
                 rng: np.ndarray) -> float:
    """Re-deal the hidden cards of the groups a play speaks about; return the
    importance correction ``N_new / N_old`` (:func:`block_weight`).

    A play of the cards ``need`` by hand ``owner`` that turns the masks ``prior`` into
    ``allowed`` says something only about the *block*: the groups of ``need`` and the
    groups ``owner`` is newly shown not to hold. The block's cards that are not
    ``fixed`` are re-dealt uniformly among the deals in which ``owner`` holds ``need``
    and every hand respects ``allowed``, each hand getting back as many block cards as
    it held; every other card stays. This is a Gibbs block update of the uniform deal
    under the hard constraints the particle was drawn with: the block is fixed by the
    play, not by the particle, and whether a deal exists depends only on the cards it
    keeps, so the correction is exact under that target. Returns 0.0 (``hands``
    unchanged) when no such deal exists (e.g. the owner held no card of the block):
    the filter then rules the particle out, as it should (its weight is 0)."""
    block = _block_of(allowed, prior, owner, need, groups)
    for i in range(3):
        if fixed[i] & ~allowed[i] or (i != owner and fixed[i] & need):
            return 0.0
    caps = np.zeros(3, dtype=np.int64)
    pool, n_old, n_new = _block_counts(hands, fixed, allowed, prior, owner, need, block,
                                       groups, caps)
    if n_new <= 0.0 or n_old <= 0.0:
        return 0.0
    got, d0, d1, d2 = deal_three(pool, caps[0], caps[1], caps[2], allowed[0], allowed[1],
                                 allowed[2], groups, DEAL_TRIES, rng)
    if not got:
        return 0.0
    new = (d0, d1, d2)
    for i in range(3):
        hands[i] = (hands[i] & ~(block & ~fixed[i])) | new[i]
    hands[owner] |= need
    return n_new / n_old
