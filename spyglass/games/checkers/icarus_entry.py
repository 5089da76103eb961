"""Checkers bound to the ICARUS searches (:mod:`spyglass.search.icarus.entry`).

The enhanced UCT and MO-ISMCTS loops inlined with Checkers' kernel and its EPIC episode
function, compiled for Checkers alone and cached on disk. The unenhanced searches use
:mod:`spyglass.games.checkers.search_entry`.
The SO-ISMCTS loop (:mod:`spyglass.search.icarus.so`) is bound the same way.
"""

from __future__ import annotations

from numba import njit

from spyglass.games.checkers import episodes as E
from spyglass.games.checkers import kernel as K
from spyglass.games.checkers.episodes import episode
from spyglass.games.checkers.kernel import KERNEL
from spyglass.search.icarus import mo as icarus_mo
from spyglass.search.icarus import so as icarus_so
from spyglass.search.icarus import uct as icarus_uct
from spyglass.search.icarus.entry import IcarusEntry, icarus_modules
from spyglass.search.sampled.entry import flush_stale_caches, no_simultaneous


@njit(cache=True)
def run_uct_icarus(state, n_act, n_pl, root, data, fdata, meta, kind, c, n, rng, w, cfg, fcfg,
                   amaf, mast, lgr, hkeys, hstat, hmeta):
    return icarus_uct.run(KERNEL, episode, state, n_act, n_pl, root, data, fdata, meta, kind,
                          c, n, rng, w, cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta)


@njit(cache=True)
def run_mo_icarus(view, seat, n_act, size, roots, data, fdata, meta, xs, kind, c, exp3, n, rng,
                  w, cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta):
    return icarus_mo.run(KERNEL, no_simultaneous, episode, view, seat, n_act, size, roots, data,
                         fdata, meta, xs, kind, c, exp3, n, rng, w, cfg, fcfg, amaf, mast, lgr,
                         hkeys, hstat, hmeta)


@njit(cache=True)
def run_so_icarus(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w,
                  n_pl, cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta):
    return icarus_so.run(KERNEL, no_simultaneous, episode, view, seat, n_act, size, root, data,
                         fdata, meta, xs, kind, c, exp3, n, rng, w, n_pl, cfg, fcfg, amaf, mast,
                         lgr, hkeys, hstat, hmeta)


ICARUS = IcarusEntry(uct=run_uct_icarus, mo=run_mo_icarus, has_episodes=True,
                     so=run_so_icarus)
flush_stale_caches((run_uct_icarus, run_mo_icarus, run_so_icarus),
                   (K, E, *icarus_modules()))
