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

The loop is the multiple-tree loop of :mod:`.mo`, written once for MO- and MT-ISMCTS:
:func:`.mo.multiple_tree_loop` with ``particles`` (a closure constant, like ``enhanced``)
draws each determinization from the particles and finds each player's tree by its
information-set key in the tables of :mod:`.forest`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.search.icarus.entry import no_episodes, no_records
from spyglass.search.sampled.forest import Forest
from spyglass.search.sampled.mo import multiple_tree_loop


def _particles(loop):
    """``loop`` (built with ``particles``) with MT's signature."""

    def run(G, simultaneous, searcher, n_players, n_actions, state_size, particles, cumw,
            fixed, tkeys, troots, tcount, max_trees, fallback, data, fdata, meta, xs, kind, c,
            exp3, n_iter, rng, width):
        """Run up to ``n_iter`` MT-ISMCTS iterations; return how many ran.

        ``particles``: ``(N, state_size)`` full states, drawn by ``cumw``; ``fixed``: per
        player, 1 to freeze its trees (module docstring); the tree tables as in
        :func:`.forest.tree_root`; ``n_players`` trees per iteration (``fixed`` has one entry per
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
run = _particles(multiple_tree_loop(particles=True))
