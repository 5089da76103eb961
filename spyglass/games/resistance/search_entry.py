"""The Resistance bound to the sampled searches (see :mod:`spyglass.search.sampled.entry`).

Each entry point inlines one search loop with the game-general Resistance kernel
(:mod:`spyglass.games.resistance.protocol`), so the loop is compiled for this game alone
and cached on disk. Votes and mission cards are simultaneous moves (hidden until the last
one of the round reveals them), so EXP3 (``exp3=True``) applies there.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance import protocol as P
from spyglass.games.resistance import tables
from spyglass.games.resistance.protocol import KERNEL
from spyglass.search.sampled import mo, pom, so, uct
from spyglass.search.sampled.entry import SearchEntry, flush_stale_caches


@njit(cache=True)
def simultaneous(s: np.ndarray) -> bool:
    """Votes and mission cards are simultaneous in the real game."""
    return s[K.PHASE] == K.VOTE or s[K.PHASE] == K.MISSION_PHASE


@njit(cache=True)
def run_so(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return so.run(KERNEL, simultaneous, view, seat, n_act, size, root, data, fdata, meta,
                  xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_pom(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return pom.run(KERNEL, simultaneous, view, seat, n_act, size, root, data, fdata, meta,
                   xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_mo(view, seat, n_act, size, roots, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return mo.run(KERNEL, simultaneous, view, seat, n_act, size, roots, data, fdata, meta,
                  xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_uct(state, n_act, root, data, fdata, meta, kind, c, n, rng, w):
    return uct.run(KERNEL, state, n_act, root, data, fdata, meta, kind, c, n, rng, w)


ENTRY = SearchEntry(so=run_so, pom=run_pom, mo=run_mo, uct=run_uct)
flush_stale_caches(ENTRY, (K, P, tables))
