"""MT-ISMCTS over weighted particles (Cowling, Whitehouse & Powley 2015, §IV, Algorithm 1).

Many-tree ISMCTS keeps, for every player, *one tree per information set that player may
hold at the root*: each iteration takes a determinization ``d`` and, for each player
``i``, the tree whose root is ``[d]^i`` (looked up by ``kernel.info_key(d, i)`` in a
small open-addressed table per player, :func:`tree_root`). Below the roots it is
MO-ISMCTS (:mod:`.mo`; Whitehouse 2014, §6.3): tree ``i``'s edges are moves as ``i``
sees them (its own moves by move key, the others' by ``kernel.observe``), the acting
player's tree selects among the children legal in ``d`` (availability counts, eq. 5.1),
every other tree follows its owner's observation, each tree grows by at most one node
per iteration and holds its owner's rewards. So an opponent's decisions may depend on
what it knows at the root and the searcher does not (its hand, its role), which MO's
one tree per player cannot express (Cowling et al. 2015, §IV).

Where determinizations come from is the caller's choice (:class:`.mt_driver.MTSearch`):
weighted particles, full states (``cumw`` is their cumulative normalised weight). For
φ they are the particle-filter belief of :mod:`spyglass.search.particles` (states
consistent with the searcher's observations); for a self-determinizing phase (Cowling
et al. 2015, §VI; :mod:`spyglass.search.selfdet`) they are ψ, states consistent with the
public history only, so many lie outside the searcher's information set: such an
iteration reaches another of the searcher's trees and leaves the decision tree alone,
while the opponents' trees learn how they would play against each possible searcher
(the opponent model that bluffing exploits).

``fixed[p] = 1`` (TWOSTEP's second phase) freezes player ``p``'s trees: they are neither
updated nor grown (looked up without move-to-front, and a tree missing for an
information set is not made), and at ``p``'s nodes a child legal in the determinization
is drawn with probability proportional to its visits (its mixed policy from the first
phase); where ``p`` has no such child, or no tree, the iteration goes on to its playout.

The number of trees per player is capped (``max_trees``): an information set first met
when the cap is reached shares the player's *fallback* tree, MO-style (the paper's
"bucketing" for games whose information sets are too many, §IV). With particles the
opponents' root information sets are at most as many as the particles.

The loop is the multiple-tree loop of :mod:`.mo` (:func:`.mo.multiple_tree_loop`), written
once for MO- and MT-ISMCTS: this module gives it its MT hook, :func:`particle_roots` (the
particle draw and each player's tree by its information-set key), and its tree tables,
:class:`Forest`.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from spyglass.rng import rand_float
from spyglass.search.icarus.entry import no_episodes, no_records
from spyglass.search.sampled.mo import multiple_tree_loop
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
    """A particle index drawn with probability proportional to its weight."""
    x = rand_float(rng) * cumw[cumw.shape[0] - 1]
    lo, hi = 0, cumw.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if cumw[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(inline="always")  # inlined into the multiple-tree loop (a closure constant there)
def particle_roots(G, forest, rng, s, cur, path, plen, data, fdata, meta) -> bool:
    """MT's root step: draw a particle into ``s`` and start each player's descent at its
    tree for its information set in ``s`` (``G.info_key``); a frozen player's tree is only
    looked up (no tree: that player takes no part). False when the pool is full."""
    fixed = forest.fixed
    d = pick_particle(forest.cumw, rng)
    s[:] = forest.particles[d]
    for t in range(fixed.shape[0]):
        if fixed[t]:
            r = find_tree(forest.tkeys, forest.troots, forest.tcount, forest.max_trees,
                          forest.fallback, t, G.info_key(s, t))
            cur[t] = r
            path[t, 0] = r
            plen[t] = 1 if r >= 0 else 0
            continue
        r = tree_root(forest.tkeys, forest.troots, forest.tcount, forest.max_trees,
                      forest.fallback, t, G.info_key(s, t), data, fdata, meta)
        if r < 0:
            return False
        cur[t] = r
        path[t, 0] = r
        plen[t] = 1
    return True


def _particles(loop):
    """``loop`` (built with :func:`particle_roots`) with MT's signature."""

    def run(G, simultaneous, searcher, n_players, n_actions, state_size, particles, cumw,
            fixed, tkeys, troots, tcount, max_trees, fallback, data, fdata, meta, xs, kind, c,
            exp3, n_iter, rng, width):
        """Run up to ``n_iter`` MT-ISMCTS iterations; return how many ran.

        ``particles``: ``(N, state_size)`` full states, drawn by ``cumw``; ``fixed``: per
        player, 1 to freeze its trees (module docstring); the tree tables as in
        :func:`tree_root`; ``n_players`` trees per iteration (``fixed`` has one entry per
        player). Stops as :func:`.so.run` does (``meta`` flags).
        """
        cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta = no_records()
        forest = Forest(particles, cumw, fixed, tkeys, troots, tcount, max_trees, fallback)
        no_view = np.empty(0, dtype=np.int64)
        return loop(G, simultaneous, no_episodes, no_view, searcher, n_actions, state_size,
                    forest, data, fdata, meta, xs, kind, c, exp3, n_iter, rng, width, cfg, fcfg,
                    amaf, mast, lgr, hkeys, hstat, hmeta)

    return njit(inline="always")(run)


#: MT-ISMCTS: the multiple-tree loop with the particle root step, inlined into each game's
#: cached entry point (``mt_entry.py``).
run = _particles(multiple_tree_loop(particle_roots=particle_roots))
