"""Backgammon bound to the sampled searches (see :mod:`spyglass.search.sampled.entry`).

Each entry point inlines one search loop with this game's kernel, so the loop is compiled
for Backgammon alone and cached on disk. Backgammon has no simultaneous moves (EXP3 never
applies).
"""

from __future__ import annotations

from numba import njit

from spyglass.games.backgammon import kernel as K
from spyglass.games.backgammon.kernel import KERNEL
from spyglass.search.sampled import mo, pom, so, uct
from spyglass.search.sampled.entry import SearchEntry, flush_stale_caches, no_simultaneous


@njit(cache=True)
def run_so(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return so.run(KERNEL, no_simultaneous, view, seat, n_act, size, root, data, fdata, meta,
                  xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_pom(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return pom.run(KERNEL, no_simultaneous, view, seat, n_act, size, root, data, fdata, meta,
                   xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_mo(view, seat, n_act, size, roots, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return mo.run(KERNEL, no_simultaneous, view, seat, n_act, size, roots, data, fdata, meta,
                  xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_uct(state, n_act, root, data, fdata, meta, kind, c, n, rng, w):
    return uct.run(KERNEL, state, n_act, root, data, fdata, meta, kind, c, n, rng, w)


ENTRY = SearchEntry(so=run_so, pom=run_pom, mo=run_mo, uct=run_uct)
flush_stale_caches(ENTRY, (K,))

