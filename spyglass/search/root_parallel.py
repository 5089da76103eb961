"""Root-parallel MT-ISMCTS: one decision searched by several independent searches at once.

Root parallelisation (Chaslot, Winands & van den Herik 2008; for ISMCTS, Whitehouse
2014, §8.3 discusses parallel determinized search): ``workers`` copies of
:class:`~spyglass.search.mtismcts.MTISMCTS`, each with its own node pool (the
cache-friendly layout of :mod:`spyglass.search.tree` is untouched) and its own random
stream, each search a share of the budget in its own thread (the compiled entry point
releases the GIL), and their decision-node statistics are merged: the move is the action
with the most visits *summed over the workers* (ties to the lowest action index).

Determinism: worker ``k``'s generator is seeded from the caller's generator (one draw
per worker, in worker order), and worker ``k`` runs ``iterations // workers`` of every
phase, the remainders handed round-robin (see :func:`_shares`), so results depend only
on the seed and the worker count, not on thread timing. ``workers=1`` is not the plain
search (its stream is re-seeded); use :class:`MTISMCTS` itself for that.

Beliefs: particle-filter inference (Cowling, Whitehouse & Powley 2015, §V, eq. 2) treats
the workers' trees as one tree of all their iterations: along an observed path, ``n(v)``,
``c(v, d)`` and the decision node's ``N`` are summed over the workers' corresponding
nodes (a worker whose tree lacks the node contributes nothing), exactly as the merged
tree of §VI sums a player's trees. :class:`ParallelTreeWalk` and
:class:`ParallelMergedTreeWalk` do this for φ and ψ.
"""

from __future__ import annotations

import math
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace

import numpy as np

from spyglass.rng import make_rng, next_u64
from spyglass.search.inference import Belief, MergedTreeWalk, TreeWalk
from spyglass.search.mtismcts import MTISMCTS, Phase, SearchResult
from spyglass.search.protocol import SearchSpec

MAX_WORKERS = 64


def _shares(phases, workers: int) -> list[list[Phase]]:
    """Each worker's phases: every iteration budget split as evenly as possible, the
    remainders handed round-robin across phases (so that every worker gets at least
    one iteration when the total is at least ``workers``); empty phases are dropped."""
    out: list[list[Phase]] = [[] for _ in range(workers)]
    offset = 0
    for ph in phases:
        if ph.iterations is None:
            for mine in out:
                mine.append(ph)
            continue
        base, rem = divmod(int(ph.iterations), workers)
        for k in range(workers):
            n = base + (1 if (k - offset) % workers < rem else 0)
            if n:
                out[k].append(replace(ph, iterations=n))
        offset += rem
    return out


@dataclass
class ParallelSearchResult:
    """The merged outcome of a root-parallel search; ``parts`` are the workers' results."""

    action_index: int
    iterations: int
    seconds: float
    parts: tuple[SearchResult, ...]

    @property
    def stale(self) -> bool:
        return any(p.stale for p in self.parts)

    def decision_visits(self) -> int:
        """Visits to the decision node, summed over the workers."""
        return sum(p.decision_visits() for p in self.parts)

    def action_stats(self) -> dict[int, tuple[int, float, float]]:
        """Per expanded action: (visits, mean, std) of the workers' children pooled."""
        acc: dict[int, list[float]] = {}
        for p in self.parts:
            for a, (n, mean, std) in p.action_stats().items():
                cell = acc.setdefault(a, [0, 0.0, 0.0])
                cell[0] += n
                cell[1] += n * mean
                cell[2] += n * (std * std + mean * mean)
        out = {}
        for a, (n, s, s2) in sorted(acc.items()):
            mean = s / n if n else 0.0
            out[a] = (int(n), mean, math.sqrt(max(s2 / n - mean * mean, 0.0)) if n else 0.0)
        return out

    def merged_action_visits(self) -> dict[int, int]:
        """Root visits of each action over all the searcher's trees and all workers."""
        out: dict[int, int] = {}
        for p in self.parts:
            for a, n in p.merged_action_visits().items():
                out[a] = out.get(a, 0) + n
        return dict(sorted(out.items()))


class RootParallelMTISMCTS:
    """``workers`` independent MT-ISMCTS searches per decision, merged at the root.

    Same constructor arguments as :class:`MTISMCTS` (given to every worker) and the same
    :meth:`search` signature; returns a :class:`ParallelSearchResult`.
    """

    def __init__(self, spec: SearchSpec, *, workers: int = 2, **kwargs) -> None:
        if type(workers) is not int or not 1 <= workers <= MAX_WORKERS:
            raise ValueError(f"workers must be an integer from 1 to {MAX_WORKERS}, "
                             f"not {workers!r}")
        self.spec = spec
        self.workers = workers
        self.searchers = [MTISMCTS(spec, **kwargs) for _ in range(workers)]
        self._pool = ThreadPoolExecutor(workers, thread_name_prefix="mtismcts")

    def search(self, root: np.ndarray, belief: np.ndarray, rng: np.ndarray, *,
               iterations: int | None = None, seconds: float | None = None,
               phases: list[Phase] | tuple[Phase, ...] | None = None,
               **kwargs) -> ParallelSearchResult:
        """Search with every worker (see :meth:`MTISMCTS.search`) and merge the roots."""
        w = self.workers
        if phases is None:
            if (iterations is None) == (seconds is None):
                raise ValueError("give exactly one budget: iterations or seconds")
            phases = (Phase(None, iterations, seconds),)
        elif iterations is not None or seconds is not None:
            raise ValueError("give the budget in the phases, not as iterations/seconds")
        for ph in phases:
            if not isinstance(ph, Phase):
                raise ValueError(f"phases must be Phase objects, not {ph!r}")
        shares = _shares(phases, w)
        if any(not mine for mine in shares):
            total = sum(ph.iterations or 0 for ph in phases)
            raise ValueError(f"a root-parallel search needs at least one iteration per "
                             f"worker ({w}), not {total}")
        seeds = [int(next_u64(rng)) for _ in range(w)]

        def one(k: int) -> SearchResult:
            return self.searchers[k].search(root, belief, make_rng(seeds[k]),
                                            phases=shares[k], **kwargs)

        parts = tuple(self._pool.map(one, range(w)))
        visits: dict[int, int] = {}
        for p in parts:
            for a, (n, _, _) in p.action_stats().items():
                visits[a] = visits.get(a, 0) + n
        best = max(visits, key=lambda a: (visits[a], -a))
        return ParallelSearchResult(best, sum(p.iterations for p in parts),
                                    max(p.seconds for p in parts), parts)

    def close(self) -> None:
        self._pool.shutdown(wait=False)


class ParallelTreeWalk:
    """:class:`~spyglass.search.inference.TreeWalk` over every worker's decision tree at
    once: eq. 2 with ``n(v)``, ``c(v, d)`` and ``N`` summed over the workers."""

    def __init__(self, result: ParallelSearchResult) -> None:
        self.walks = [TreeWalk(p) for p in result.parts]
        self.n_total = sum(wk.n_total for wk in self.walks)
        self.updates = 0

    @property
    def in_tree(self) -> bool:
        return any(wk.in_tree for wk in self.walks)

    def step(self, step: tuple, belief: Belief | None) -> None:
        live = [wk for wk in self.walks if wk.in_tree]
        for wk in live:
            wk.step(step, None)  # descend only; the update below uses the sums
        if step[0] == "own" or not step[2] or belief is None:
            return
        n_v, c_v = 0, None
        for wk in live:
            if wk.node < 0:
                continue
            c = wk.result.counts_of(wk.node)
            if c is None:
                continue
            n_v += wk.result.pool.visits(wk.node)
            c_v = c if c_v is None else c_v + c
        if n_v == 0 or c_v is None or self.n_total == 0:
            return
        belief.update(n_v, self.n_total, c_v)
        self.updates += 1

    def walk(self, steps, belief: Belief | None) -> None:
        for st in steps:
            self.step(st, belief)


class ParallelMergedTreeWalk:
    """:class:`~spyglass.search.inference.MergedTreeWalk` over every worker (ψ): the
    frontier counts of all workers summed."""

    def __init__(self, result: ParallelSearchResult) -> None:
        self.walks = [MergedTreeWalk(p) for p in result.parts]
        self.n_total = sum(wk.n_total for wk in self.walks)
        self.updates = 0

    @property
    def in_tree(self) -> bool:
        return any(wk.in_tree for wk in self.walks)

    def step(self, step: tuple, belief: Belief | None) -> None:
        live = [wk for wk in self.walks if wk.in_tree]
        for wk in live:
            wk.step(step, None)
        if step[0] == "own":
            informative = len(step) > 2 and bool(step[2])
        else:
            informative = bool(step[2])
        if not informative or belief is None:
            return
        n_v, c_v = 0, None
        for wk in live:
            if not wk.frontier:
                continue
            n, c = wk._merged(wk.frontier)
            if c is not None:
                n_v += n
                c_v = c if c_v is None else c_v + c
        if n_v == 0 or c_v is None or self.n_total == 0:
            return
        belief.update(n_v, self.n_total, c_v)
        self.updates += 1

    def walk(self, steps, belief: Belief | None) -> None:
        for st in steps:
            self.step(st, belief)
