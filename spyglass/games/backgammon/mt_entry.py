"""Backgammon bound to MT-ISMCTS (:mod:`spyglass.search.sampled.mt`).

The many-tree loop inlined with this game's kernel, compiled for Backgammon alone and
cached on disk (the pattern of :mod:`spyglass.search.sampled.entry`). Used by the
``mtismcts_pf`` agent (:mod:`spyglass.agents.mt_ismcts`).
"""

from __future__ import annotations

from numba import njit

from spyglass.games.backgammon import kernel as K
from spyglass.games.backgammon.kernel import KERNEL
from spyglass.search.sampled import mt
from spyglass.search.sampled.entry import flush_stale_caches, no_simultaneous


@njit(cache=True)
def run_mt(seat, n_pl, n_act, size, parts, cumw, selfdet, dview, tkeys, troots, tcount,
           max_trees, fallback, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return mt.run(KERNEL, no_simultaneous, seat, n_pl, n_act, size, parts, cumw, selfdet, dview,
                  tkeys, troots, tcount, max_trees, fallback, data, fdata, meta, xs, kind, c,
                  exp3, n, rng, w)


MT = run_mt
flush_stale_caches((run_mt,), (K, mt))
