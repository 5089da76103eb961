"""SO-ISMCTS with partially observable moves (Whitehouse 2014, §6.2, SO-ISMCTS+POM).

The single-tree loop of :mod:`.so` with POM's edge keys (``observed``): another player's
move is an edge labelled by the searcher's observation of it, an observation class chosen
by the bandit is played by a uniformly random action of the class, and a move the
searcher does not perceive at all is no edge (see :func:`.so.single_tree_loop`). This is
the game-general successor of ``mode="pom"`` in :mod:`spyglass.search.so_ismcts`.
"""

from __future__ import annotations

from spyglass.search.sampled.so import baseline, single_tree_loop

__all__ = ["run", "run_plain"]

#: SO-ISMCTS+POM's loop, inlined into each game's cached entry point; ``run_plain`` as Python.
run = baseline(single_tree_loop(observed=True))
run_plain = baseline(single_tree_loop(observed=True, jit=False), jit=False)
