"""The Resistance bound to the ISMCTS-family searches (SO/POM/MO-ISMCTS, PIMC).

The rules are the kernel's and the game binding is :data:`search_kernel.KERNEL`; this
module adds only what these searches need besides it:

* :func:`simultaneous` — votes and mission cards are simultaneous moves (EXP3 nodes);
* the cached entry points (the generic loops bound to the kernel, as in
  :mod:`spyglass.search.mtismcts`): :func:`run_so_pom` and :func:`run_mo` (behind
  :func:`run_ismcts`, which picks one by mode) and :func:`run_pimc` (uniform random
  playouts).

Marsh's opponent model and its PIMC entry point (``run_searchagent``) are a bot's, so
they live with the bot: :mod:`spyglass.resistance.bots.marsh_model`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.search_kernel import KERNEL
from spyglass.rng import rand_below
from spyglass.search import mo_ismcts, so_ismcts
from spyglass.search.cache import flush_stale_caches
from spyglass.search.sampled import uct


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


@njit(cache=True)
def run_so_pom(root, n_players, dets, cum, mode, searcher, pre, tree_root, data, fdata, meta,
               xs, avail, kind, c, exp3, n_iter, rng, max_actions, max_depth):
    """:func:`spyglass.search.so_ismcts.run_iterations` for The Resistance (cached)."""
    return so_ismcts.run_iterations(
        KERNEL, simultaneous, root, n_players, dets, cum, mode, searcher, pre, tree_root,
        data, fdata, meta, xs, avail, kind, c, exp3, n_iter, rng, max_actions, max_depth,
    )


@njit(cache=True)
def run_mo(root, n_players, dets, cum, searcher, pre, tree_root, data, fdata, meta, xs, avail,
           kind, c, exp3, n_iter, rng, max_actions, max_depth):
    """:func:`spyglass.search.mo_ismcts.run_iterations` for The Resistance (cached)."""
    return mo_ismcts.run_iterations(
        KERNEL, simultaneous, root, n_players, dets, cum, searcher, pre, tree_root,
        data, fdata, meta, xs, avail, kind, c, exp3, n_iter, rng, max_actions, max_depth,
    )


def run_ismcts(root, n_players, dets, cum, mode, searcher, pre, tree_root, data, fdata, meta,
               xs, avail, kind, c, exp3, n_iter, rng, max_actions, max_depth):
    """The entry point :class:`~spyglass.search.so_ismcts.ISMCTS` calls per batch: MO
    (``mode``) runs :func:`run_mo`, SO and POM :func:`run_so_pom`. Two compiled entry
    points, so that each loop is compiled on its own as before the split."""
    if mode == so_ismcts.MO:
        return run_mo(root, n_players, dets, cum, searcher, pre, tree_root, data, fdata, meta,
                      xs, avail, kind, c, exp3, n_iter, rng, max_actions, max_depth)
    return run_so_pom(root, n_players, dets, cum, mode, searcher, pre, tree_root, data, fdata,
                      meta, xs, avail, kind, c, exp3, n_iter, rng, max_actions, max_depth)


@njit(cache=True)
def run_pimc(cfg, w, root, root_node, data, fdata, meta, kind, c, n_iter, rng, max_actions,
             max_depth):
    """The UCT loop over the compact pool (:data:`spyglass.search.sampled.uct.run_compact`)
    with uniform playouts (cached)."""
    return uct.run_compact(KERNEL, random_playout, cfg, w, root, root_node, data, fdata, meta,
                           kind, c, n_iter, rng, max_actions, max_depth)


# Numba checks only this file's timestamp; these entry points inline the rules kernel and
# the search loops: flush them when any source reachable by import changes.
flush_stale_caches((run_so_pom, run_mo, run_pimc))
