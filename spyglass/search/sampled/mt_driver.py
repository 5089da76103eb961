"""The Python side of MT-ISMCTS (:mod:`.mt`): tree tables, budget phases, clear errors.

:class:`MTSearch` runs a game's compiled many-tree loop (``spyglass/games/<game>/
mt_entry.py``) over weighted particles in batches, growing the node pool between batches
as :class:`.driver.ISMCTSSearch` does. With ``selfdet > 0`` the budget is split as in
the SPLIT method of Cowling, Whitehouse & Powley (2015, §VI): the first ``selfdet``
fraction of iterations uses self-determinizations only (seeding the opponents' trees
with play against every hand or role the searcher might hold in their eyes), the rest
true determinizations only, so the decision tree is searched from states in the
searcher's information set and benefits from the pre-seeded opponent trees.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

import numpy as np

from spyglass.search.sampled.driver import (
    GameShape,
    SearchResult,
    SearchSettings,
    _budget,
    _check,
    _most_visited,
)
from spyglass.search.sampled.mt import tree_root
from spyglass.search.sampled.pool import FULL, Pool


class MTSearch:
    """MT-ISMCTS for one game: ``run_mt`` is its compiled entry point (``mt_entry.MT``).

    ``max_trees``: the cap on trees per player (further information sets share the
    player's fallback tree). Reusable: each :meth:`search` starts fresh trees.
    """

    def __init__(self, run_mt: Callable, shape: GameShape, view_size: int,
                 settings: SearchSettings, max_trees: int = 256) -> None:
        if not isinstance(max_trees, int) or max_trees < 1:
            raise ValueError(f"max_trees must be a positive integer, not {max_trees!r}")
        self.run_mt = run_mt
        self.shape = shape
        self.settings = settings
        self.max_trees = max_trees
        self.dview = np.zeros(int(view_size), dtype=np.int64)
        cap = 1
        while cap <= 2 * max_trees:
            cap *= 2
        n = shape.n_players
        self.tkeys = np.zeros((n, cap), dtype=np.int64)
        self.troots = np.full((n, cap), -1, dtype=np.int64)
        self.tcount = np.zeros(n, dtype=np.int64)
        self.pool = Pool(max_nodes=settings.max_nodes)
        self.xs = np.zeros(self.pool.capacity, dtype=np.float64)

    def trees_per_player(self) -> list[int]:
        """How many information-set trees each player got in the last search."""
        return [int(x) for x in self.tcount]

    def search(self, particles: np.ndarray, weights: np.ndarray, searcher: int,
               rng: np.ndarray, selfdet: float = 0.0) -> SearchResult:
        """Search ``searcher``'s decision; determinizations drawn from ``particles`` by
        ``weights`` (and, for a ``selfdet`` fraction of the budget, self-determinized)."""
        shape, st, pool = self.shape, self.settings, self.pool
        if not 0 <= searcher < shape.n_players:
            raise ValueError(f"searcher must be a seat 0-{shape.n_players - 1}, not {searcher}")
        if not 0.0 <= selfdet < 1.0:
            raise ValueError(f"selfdet must lie in [0, 1), not {selfdet!r}")
        particles = np.ascontiguousarray(particles, dtype=np.int64)
        w = np.asarray(weights, dtype=np.float64)
        if particles.ndim != 2 or particles.shape[1] != shape.state_size or not len(particles):
            raise ValueError("particles must be a non-empty (N, state_size) array")
        if w.shape != (len(particles),) or not np.all(w >= 0) or w.sum() <= 0:
            raise ValueError("weights must be N non-negative numbers with a positive sum")
        cumw = np.cumsum(w / w.sum())
        pool.reset()
        self.tkeys[:] = 0
        self.troots[:] = -1
        self.tcount[:] = 0
        n = shape.n_players
        fallback = pool.new_roots(n)
        pool.ensure(1)
        key = int(self.kernel_info_key(particles[int(np.argmax(w > 0))], searcher))
        decision = int(tree_root(self.tkeys, self.troots, self.tcount, self.max_trees,
                                 fallback, searcher, key, pool.data, pool.fdata, pool.meta))
        what = "MT-ISMCTS search"

        def batch(sd: float) -> Callable[[int], int]:
            def run(todo: int) -> int:
                pool.ensure(todo * 2 * n + 1)  # per iteration: a root and a node per tree
                if self.xs.shape[0] < pool.capacity:
                    grown = np.zeros(pool.capacity, dtype=np.float64)
                    grown[: self.xs.shape[0]] = self.xs
                    self.xs = grown
                pool.meta[FULL] = 0
                got = self.run_mt(searcher, n, shape.n_actions, shape.state_size, particles,
                                  cumw, sd, self.dview, self.tkeys, self.troots, self.tcount,
                                  self.max_trees, fallback, pool.data, pool.fdata, pool.meta,
                                  self.xs, st.kind, float(st.c), st.exp3, todo, rng,
                                  shape.width)
                _check(pool.meta, shape, what)
                return got
            return run

        self.xs[:] = 0.0
        done, secs = 0, 0.0
        if selfdet > 0.0:
            first = _phase(st, selfdet)
            d1, s1 = _budget(first, batch(1.0))
            rest = _phase(st, 1.0 - selfdet)
            d2, s2 = _budget(rest, batch(0.0))
            done, secs = d1 + d2, s1 + s2
        else:
            done, secs = _budget(st, batch(0.0))
        return SearchResult(_most_visited(pool, decision, what, True), done, secs, decision,
                            fallback, pool)

    def kernel_info_key(self, state: np.ndarray, seat: int) -> int:
        return int(self.shape.kernel.info_key(state, seat))


def _phase(st: SearchSettings, share: float) -> SearchSettings:
    """``st`` with ``share`` of its budget (iterations or seconds; at least one iteration)."""
    if st.iterations is not None:
        return dataclasses.replace(st, iterations=max(int(round(st.iterations * share)), 1))
    return dataclasses.replace(st, seconds=max(st.seconds * share, 1e-6))
