"""MT-ISMCTS's trees (:mod:`.mt`): per player, one tree per root information set.

:class:`Forest` is what the multiple-tree loop (:func:`.mo.multiple_tree_loop` with
``particles``) reads in place of MO's fixed roots: the weighted particles each iteration's
determinization is drawn from (:func:`pick_particle`), the players whose trees are frozen,
and a small open-addressed table per player from information-set key
(``kernel.info_key``) to tree root (:func:`tree_root`, :func:`find_tree`), capped at
``max_trees`` trees per player with a fallback tree beyond.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from spyglass.rng import rand_float
from spyglass.search.sampled.pool import new_node

Forest = namedtuple("Forest", ["particles", "cumw", "fixed", "tkeys", "troots", "tcount",
                               "max_trees", "fallback"])
Forest.__doc__ = """MT-ISMCTS's trees and where its determinizations come from, as the
multiple-tree loop reads them: ``particles`` ``(N, state_size)`` full states drawn by
``cumw`` (cumulative normalised weights); ``fixed[p] = 1`` freezes player ``p``'s trees;
``tkeys``/``troots``/``tcount``/``max_trees``/``fallback``: the per-player tables of
:func:`tree_root`."""


@njit(cache=True)
def tree_slot(tkeys: np.ndarray, troots: np.ndarray, p: int, key: int) -> int:
    """The slot of player ``p``'s table holding information-set ``key``, or the free
    slot where it would go (``troots[p, slot] < 0``).

    ``tkeys``/``troots`` are ``(players, cap)`` open-addressed tables, ``cap`` a power of
    two larger than ``max_trees`` (so a free slot always ends a probe).
    """
    mask = tkeys.shape[1] - 1
    i = (key ^ (key >> 17) ^ (key >> 41)) & mask
    while troots[p, i] >= 0 and tkeys[p, i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def tree_root(tkeys: np.ndarray, troots: np.ndarray, tcount: np.ndarray, max_trees: int,
              fallback: np.ndarray, p: int, key: int, data: np.ndarray, fdata: np.ndarray,
              meta: np.ndarray) -> int:
    """Player ``p``'s tree for information-set ``key`` (made on first use); the fallback
    tree once ``p`` has ``max_trees`` trees; -1 when the pool is full."""
    i = tree_slot(tkeys, troots, p, key)
    if troots[p, i] >= 0:
        return troots[p, i]
    if tcount[p] >= max_trees:
        return fallback[p]
    r = new_node(data, fdata, meta, -1)
    if r < 0:
        return -1
    tkeys[p, i] = key
    troots[p, i] = r
    tcount[p] += 1
    return r


@njit(cache=True)
def find_tree(tkeys: np.ndarray, troots: np.ndarray, tcount: np.ndarray, max_trees: int,
              fallback: np.ndarray, p: int, key: int) -> int:
    """Player ``p``'s existing tree for information-set ``key`` (as :func:`tree_root`,
    never making one): -1 when ``p`` has none for it."""
    i = tree_slot(tkeys, troots, p, key)
    if troots[p, i] >= 0:
        return troots[p, i]
    return fallback[p] if tcount[p] >= max_trees else -1


@njit(cache=True)
def pick_particle(cumw: np.ndarray, rng: np.ndarray) -> int:
    """An index ``k`` drawn with probability proportional to ``cumw[k] - cumw[k-1]`` (a
    particle by its weight; also an enumerated belief's configuration by its chance)."""
    x = rand_float(rng) * cumw[cumw.shape[0] - 1]
    lo, hi = 0, cumw.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if cumw[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo
