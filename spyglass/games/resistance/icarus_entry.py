"""The Resistance bound to the ICARUS searches (:mod:`spyglass.search.icarus.entry`).

The enhanced MO-ISMCTS loop (and the UCT one, for completeness: a hidden-role game is
searched with MO-ISMCTS) inlined with the game-general Resistance kernel
(:mod:`spyglass.games.resistance.protocol`, the kernel the generic ``moismcts`` runs on)
and its EPIC episode function (a mission per episode, :mod:`.episodes`), compiled for
The Resistance alone and cached on disk. The unenhanced searches, and the Resistance's
own bots and MT-ISMCTS, are untouched (:mod:`spyglass.games.resistance.search_entry`).
The SO-ISMCTS loop (:mod:`spyglass.search.icarus.so`) is bound the same way.
"""

from __future__ import annotations

from numba import njit

from spyglass.games.resistance import episodes as E
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance import protocol as P
from spyglass.games.resistance import search_entry as SE
from spyglass.games.resistance import search_kernel as SK
from spyglass.games.resistance import tables
from spyglass.games.resistance.episodes import episode
from spyglass.games.resistance.protocol import KERNEL
from spyglass.games.resistance.search_entry import simultaneous
from spyglass.search.icarus import mo as icarus_mo
from spyglass.search.icarus import so as icarus_so
from spyglass.search.icarus import uct as icarus_uct
from spyglass.search.icarus.entry import IcarusEntry, icarus_modules
from spyglass.search.sampled.entry import flush_stale_caches


@njit(cache=True)
def run_uct_icarus(state, n_act, n_pl, root, data, fdata, meta, kind, c, n, rng, w, cfg, fcfg,
                   amaf, mast, lgr, hkeys, hstat, hmeta):
    return icarus_uct.run(KERNEL, episode, state, n_act, n_pl, root, data, fdata, meta, kind,
                          c, n, rng, w, cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta)


@njit(cache=True)
def run_mo_icarus(view, seat, n_act, size, roots, data, fdata, meta, xs, kind, c, exp3, n, rng,
                  w, cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta):
    return icarus_mo.run(KERNEL, simultaneous, episode, view, seat, n_act, size, roots, data,
                         fdata, meta, xs, kind, c, exp3, n, rng, w, cfg, fcfg, amaf, mast, lgr,
                         hkeys, hstat, hmeta)


@njit(cache=True)
def run_so_icarus(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w,
                  n_pl, cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta):
    return icarus_so.run(KERNEL, simultaneous, episode, view, seat, n_act, size, root, data,
                         fdata, meta, xs, kind, c, exp3, n, rng, w, n_pl, cfg, fcfg, amaf, mast,
                         lgr, hkeys, hstat, hmeta)


ICARUS = IcarusEntry(uct=run_uct_icarus, mo=run_mo_icarus, has_episodes=True,
                     so=run_so_icarus)
flush_stale_caches((run_uct_icarus, run_mo_icarus, run_so_icarus),
                   (K, P, SE, SK, E, tables, *icarus_modules()))
