"""The Resistance bound to the ISMCTS-family searches (SO/POM/MO-ISMCTS, PIMC).

The rules are the kernel's and the game binding is :data:`search_kernel.KERNEL`; this
module adds only what these searches need besides it:

* :func:`simultaneous` — votes and mission cards are simultaneous moves (EXP3 nodes);
* the cached entry points: the shared single-tree loop over the enumerated belief
  (:data:`ENUMERATED`; :func:`run_so`, :func:`run_pom`), MO-ISMCTS's own loop
  (:func:`run_mo`), gathered in :data:`run_ismcts`, and :func:`run_pimc` (the UCT loop,
  uniform random playouts).

Marsh's opponent model and its PIMC entry point (``run_searchagent``) are a bot's, so
they live with the bot: :mod:`spyglass.resistance.bots.marsh_model`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.search_kernel import KERNEL
from spyglass.rng import rand_below
from spyglass.search import mo_ismcts
from spyglass.search.cache import flush_stale_caches
from spyglass.search.sampled import enumerated, uct
from spyglass.search.sampled.entry import SearchEntry
from spyglass.search.sampled.enumerated import enumerated_kernel


@njit(cache=True)
def simultaneous(s: np.ndarray) -> bool:
    """Votes and mission cards are simultaneous in the real game."""
    return s[K.PHASE] == K.VOTE or s[K.PHASE] == K.MISSION_PHASE


@njit(cache=True)
def random_playout(s: np.ndarray, rng: np.ndarray, cfg: np.ndarray, w: np.ndarray) -> None:
    """The kernel's uniform playout, in the signature the UCT loop takes."""
    K.playout(s, rng)


@njit(cache=True)
def advance_random(s: np.ndarray, moves: int, rng: np.ndarray) -> None:
    """Play ``moves`` uniformly random legal moves (hidden earlier moves of a round)."""
    for _ in range(moves):
        if K.is_terminal(s):
            return
        K.apply(s, K.legal_action(s, rand_below(rng, K.n_legal(s))))


# --- cached entry points --------------------------------------------------------------

#: The kernel over enumerated beliefs (spy configurations): the shared loops' root sampler
#: and action indices as ids (:func:`spyglass.search.sampled.enumerated.enumerated_kernel`).
ENUMERATED = enumerated_kernel(KERNEL)


@njit(cache=True)
def run_so(belief, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    """SO-ISMCTS (the single-tree loop) over an enumerated belief, compact pool (cached)."""
    return enumerated.run_so(ENUMERATED, simultaneous, belief, seat, n_act, size, root, data,
                             fdata, meta, xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_pom(belief, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    """SO-ISMCTS+POM (the single-tree loop, observation edges) over an enumerated belief,
    compact pool (cached)."""
    return enumerated.run_pom(ENUMERATED, simultaneous, belief, seat, n_act, size, root, data,
                              fdata, meta, xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_mo(root, n_players, dets, cum, searcher, pre, tree_root, data, fdata, meta, xs, avail,
           kind, c, exp3, n_iter, rng, max_actions, max_depth):
    """:func:`spyglass.search.mo_ismcts.run_iterations` for The Resistance (cached)."""
    return mo_ismcts.run_iterations(
        KERNEL, simultaneous, root, n_players, dets, cum, searcher, pre, tree_root,
        data, fdata, meta, xs, avail, kind, c, exp3, n_iter, rng, max_actions, max_depth,
    )


#: The entry points :class:`~spyglass.search.so_ismcts.ISMCTS` calls, by mode.
run_ismcts = SearchEntry(so=run_so, pom=run_pom, mo=run_mo, uct=None)


@njit(cache=True)
def run_pimc(cfg, w, root, root_node, data, fdata, meta, kind, c, n_iter, rng, max_actions,
             max_depth):
    """The UCT loop over the compact pool (:data:`spyglass.search.sampled.uct.run_compact`)
    with uniform playouts (cached)."""
    return uct.run_compact(KERNEL, random_playout, cfg, w, root, root_node, data, fdata, meta,
                           kind, c, n_iter, rng, max_actions, max_depth)


# Numba checks only this file's timestamp; these entry points inline the rules kernel and
# the search loops: flush them when any source reachable by import changes.
flush_stale_caches((run_so, run_pom, run_mo, run_pimc))
