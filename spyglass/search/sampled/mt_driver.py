"""The Python side of MT-ISMCTS (:mod:`.mt`): tree tables, budget phases, clear errors.

:class:`MTSearch` runs a game's compiled many-tree loop (``spyglass/games/<game>/
mt_entry.py``) over weighted particles in batches, growing the node pool between batches
as :class:`.driver.ISMCTSSearch` does. A search is one or more
:class:`~spyglass.search.selfdet.Phase` s (Cowling, Whitehouse & Powley 2015, §VI), each
drawing its determinizations from its own belief: φ (the searcher's particles) or ψ
(states consistent with the public history, a
:class:`~spyglass.search.particles.WeightedStates`), as
:func:`~spyglass.search.selfdet.plan_phases` lays them out for TRUEONLY, PURE, SPLIT,
TWOSTEP and BLUFF; TWOSTEP's second phase freezes the opponents' trees (:mod:`.mt`).
The decision tree is the searcher's tree for its information set under φ; a phase
whose states lie elsewhere reaches the searcher's other trees instead.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from spyglass.search.sampled.driver import (
    GameShape,
    SearchResult,
    SearchSettings,
    _budget,
    _check,
    _most_visited,
)
from spyglass.search.sampled.forest import tree_root
from spyglass.search.sampled.pool import (
    CHILD,
    FULL,
    KEY,
    SIBLING,
    SUMSQ,
    VISITS,
    Pool,
    decode_move_key,
)
from spyglass.search.selfdet import Phase


@dataclass
class MTSearchResult(SearchResult):
    """An MT-ISMCTS search's choice, with what BLUFF needs: the root statistics of every
    tree of the searcher (``merged_visits``: visits per action summed over them, from the
    phases that count the merged tree) and the iterations of each phase."""

    merged_visits: dict[int, int] = dataclasses.field(default_factory=dict)
    phase_iterations: tuple[int, ...] = ()

    def bluff_stats(self) -> dict[int, tuple[int, float, float]]:
        """Per expanded action id at the decision node: (visits, mean, std) (eq. 3)."""
        p = self.pool
        out = {}
        for ch in p.children(self.decision_node):
            n = p.visits(ch)
            mean = p.mean(ch)
            var = float(p.fdata[ch, SUMSQ]) / n - mean * mean if n else 0.0
            out[self.action_of(ch)] = (n, mean, math.sqrt(max(var, 0.0)))
        return dict(sorted(out.items()))


class MTSearch:
    """MT-ISMCTS for one game: ``run_mt`` is its compiled entry point (``mt_entry.MT``).

    ``max_trees``: the cap on trees per player (further information sets share the
    player's fallback tree). Reusable: each :meth:`search` starts fresh trees.
    """

    def __init__(self, run_mt: Callable, shape: GameShape,
                 settings: SearchSettings, max_trees: int = 256) -> None:
        if not isinstance(max_trees, int) or max_trees < 1:
            raise ValueError(f"max_trees must be a positive integer, not {max_trees!r}")
        self.run_mt = run_mt
        self.shape = shape
        self.settings = settings
        self.max_trees = max_trees
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
               rng: np.ndarray, phases: Sequence[Phase] | None = None) -> MTSearchResult:
        """Search ``searcher``'s decision from determinizations drawn from ``particles``
        by ``weights`` (φ: they fix the decision tree); or, with ``phases``, from each
        phase's belief in turn (None: φ), each with its own budget."""
        shape, st, pool = self.shape, self.settings, self.pool
        if not 0 <= searcher < shape.n_players:
            raise ValueError(f"searcher must be a seat 0-{shape.n_players - 1}, not {searcher}")
        phi = self._checked(particles, weights, "particles")
        if phases is None:
            phases = (Phase(None, st.iterations, st.seconds),)
        elif not phases or not all(isinstance(ph, Phase) for ph in phases):
            raise ValueError("phases must be a non-empty sequence of Phase objects")
        beliefs = [phi if ph.belief is None else self._checked(*ph.belief, "a phase belief")
                   for ph in phases]
        pool.reset()
        self.tkeys[:] = 0
        self.troots[:] = -1
        self.tcount[:] = 0
        n = shape.n_players
        fallback = pool.new_roots(n)
        pool.ensure(1)
        states, cumw = phi
        first = int(np.argmax(cumw > 0))  # a particle of positive weight
        key = int(self.kernel_info_key(states[first], searcher))
        decision = int(tree_root(self.tkeys, self.troots, self.tcount, self.max_trees,
                                 fallback, searcher, key, pool.data, pool.fdata, pool.meta))
        what = "MT-ISMCTS search"
        free = np.zeros(n, dtype=np.uint8)
        opponents = np.ones(n, dtype=np.uint8)
        opponents[searcher] = 0

        def batch(belief, fixed) -> Callable[[int], int]:
            parts, cumw = belief

            def run(todo: int) -> int:
                pool.ensure(todo * 2 * n + 1)  # per iteration: a root and a node per tree
                if self.xs.shape[0] < pool.capacity:
                    grown = np.zeros(pool.capacity, dtype=np.float64)
                    grown[: self.xs.shape[0]] = self.xs
                    self.xs = grown
                pool.meta[FULL] = 0
                got = self.run_mt(searcher, n, shape.n_actions, shape.state_size, parts,
                                  cumw, fixed, self.tkeys, self.troots, self.tcount,
                                  self.max_trees, fallback, pool.data, pool.fdata, pool.meta,
                                  self.xs, st.kind, float(st.c), st.exp3, todo, rng,
                                  shape.width)
                _check(pool.meta, shape, what)
                return got
            return run

        self.xs[:] = 0.0
        done, secs = 0, 0.0
        merged: dict[int, int] = {}
        per_phase = []
        for ph, belief in zip(phases, beliefs, strict=True):
            before = self.merged_visits(searcher, fallback) if ph.count_merged else None
            run = batch(belief, opponents if ph.fixed_opponents else free)
            d, s = _budget(dataclasses.replace(st, iterations=ph.iterations,
                                               seconds=ph.seconds), run)
            done, secs = done + d, secs + s
            per_phase.append(d)
            if before is not None:
                for a, v in self.merged_visits(searcher, fallback).items():
                    merged[a] = merged.get(a, 0) + v - before.get(a, 0)
        # A phase sampling mostly other information sets (PURE) may not have reached the
        # decision tree: go on from φ until its root has a child (as the enumerating
        # search does, spyglass.search.mtismcts).
        if pool.data[decision, CHILD] < 0:
            run = batch(phi, free)
            limit = done + max(10_000, 10 * done)
            while pool.data[decision, CHILD] < 0 and done < limit:
                done += run(16)
        return MTSearchResult(_most_visited(pool, decision, what, True), done, secs, decision,
                              fallback, self.pool, merged_visits=dict(sorted(merged.items())),
                              phase_iterations=tuple(per_phase))

    def _checked(self, particles: np.ndarray, weights: np.ndarray,
                 what: str) -> tuple[np.ndarray, np.ndarray]:
        """(states, cumulative normalised weights), or a ValueError naming ``what``."""
        particles = np.ascontiguousarray(particles, dtype=np.int64)
        w = np.asarray(weights, dtype=np.float64)
        if (particles.ndim != 2 or particles.shape[1] != self.shape.state_size
                or not len(particles)):
            raise ValueError(f"{what} must be a non-empty (N, state_size) array")
        if w.shape != (len(particles),) or not np.all(w >= 0) or w.sum() <= 0:
            raise ValueError(f"{what}: weights must be N non-negative numbers with a "
                             "positive sum")
        return particles, np.cumsum(w / w.sum())

    def merged_visits(self, searcher: int, fallback: np.ndarray) -> dict[int, int]:
        """Root visits of each of the searcher's actions, summed over all its trees."""
        pool = self.pool
        roots = [int(r) for r in self.troots[searcher] if r >= 0] + [int(fallback[searcher])]
        out: dict[int, int] = {}
        for r in roots:
            ch = int(pool.data[r, CHILD])
            while ch >= 0:
                k = int(pool.data[ch, KEY])
                if k < -1:
                    a, p = decode_move_key(k)
                    if p == searcher:
                        out[a] = out.get(a, 0) + int(pool.data[ch, VISITS])
                ch = int(pool.data[ch, SIBLING])
        return out

    def kernel_info_key(self, state: np.ndarray, seat: int) -> int:
        return int(self.shape.kernel.info_key(state, seat))

