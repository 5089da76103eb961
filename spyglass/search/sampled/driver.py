"""The Python side of the sampled searches: budgets, batches, pool growth, clear errors.

:class:`ISMCTSSearch` runs SO-ISMCTS, SO-ISMCTS+POM or MO-ISMCTS from a player's view;
:class:`UCTSearch` runs UCT on a full state (and :mod:`.ensemble` builds on it). Both
call a game's compiled entry points (:class:`.entry.SearchEntry`) in batches: before
each batch the pool is grown so that the batch fits (each tree gains at most one node
per iteration), so compiled code never runs out of room mid-iteration; a path longer
than the game's declared ``max_moves`` (plus one revelation level per move) or a sampler
that keeps failing is a RuntimeError naming the problem, never a silent truncation.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any, NamedTuple

import numpy as np

from spyglass.search.bandits import bandit_code
from spyglass.search.sampled.entry import SearchEntry
from spyglass.search.sampled.pool import (
    AVAIL,
    DEPTH,
    FULL,
    MAX_SAMPLE_TRIES,
    SAMPLE_FAILED,
    Pool,
    decode_move_key,
)

ALGORITHMS = ("so", "pom", "mo")


class GameShape(NamedTuple):
    """The sizes a search needs from a game (read from any object with these attributes,
    e.g. a :class:`~spyglass.games.base.Game`)."""

    kernel: Any
    n_players: int
    n_actions: int
    state_size: int
    max_moves: int

    @classmethod
    def of(cls, game: Any) -> GameShape:
        return cls(game.kernel, int(game.n_players), int(game.n_actions),
                   int(game.state_size), int(game.max_moves))

    @property
    def width(self) -> int:
        """Longest path a tree may hold: the root, then a choice and a revelation per move."""
        return 2 * self.max_moves + 3


@dataclass(frozen=True)
class SearchSettings:
    """A search's budget and bandit (one budget: ``iterations`` or ``seconds``).

    ``bandit``: "ucb1" (constant ``c``) or "ucbt" (UCB-Tuned); ``exp3``: EXP3 at
    simultaneous-move nodes; ``max_nodes``: the cap on the node pool.
    """

    iterations: int | None = 1000
    seconds: float | None = None
    bandit: str = "ucb1"
    c: float = 0.7
    exp3: bool = False
    max_nodes: int = 1 << 25
    kind: int = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if (self.iterations is None) == (self.seconds is None):
            raise ValueError("give exactly one budget: iterations or seconds")
        if self.iterations is not None and (
                not isinstance(self.iterations, (int, np.integer)) or self.iterations < 1):
            raise ValueError(f"iterations must be a positive integer, not {self.iterations!r}")
        if self.seconds is not None and not (
                isinstance(self.seconds, (int, float)) and self.seconds > 0):
            raise ValueError(f"seconds must be a positive number, not {self.seconds!r}")
        if not (isinstance(self.c, (int, float)) and math.isfinite(self.c) and self.c >= 0):
            raise ValueError(f"the exploration constant c must be a number >= 0, not {self.c!r}")
        object.__setattr__(self, "kind", bandit_code(self.bandit))


@dataclass
class SearchResult:
    """A search's choice; the trees stay valid until the searcher's next search."""

    action: int
    iterations: int
    seconds: float
    decision_node: int
    roots: np.ndarray
    pool: Pool
    move_keys: bool = True

    def action_of(self, node: int) -> int:
        """The action id of the edge into ``node`` (a child of the decision node)."""
        key = self.pool.key(node)
        return decode_move_key(key)[0] if self.move_keys else key

    def action_stats(self) -> dict[int, tuple[int, int, float]]:
        """Per expanded action id at the decision node: (visits, availability, mean reward)."""
        p = self.pool
        out = {self.action_of(ch): (p.visits(ch), int(p.data[ch, AVAIL]), p.mean(ch))
               for ch in p.children(self.decision_node)}
        return dict(sorted(out.items()))


def _check(meta: np.ndarray, shape: GameShape, what: str) -> None:
    if meta[DEPTH]:
        raise RuntimeError(
            f"{what}: a search path grew past {shape.width} nodes, more than the game's "
            f"max_moves={shape.max_moves} allows (the game's max_moves is too small)")
    if meta[SAMPLE_FAILED]:
        raise RuntimeError(
            f"{what}: the game's sampler found no state consistent with the view in "
            f"{MAX_SAMPLE_TRIES} tries (kernel.sample kept returning False)")


def _most_visited(pool: Pool, node: int, what: str, move_keys: bool) -> int:
    """The most visited child's action id (ties: the lower id)."""
    children = pool.children(node)
    if not children:
        raise RuntimeError(f"{what}: the search never expanded its decision node")
    acts = {ch: decode_move_key(pool.key(ch))[0] if move_keys else pool.key(ch)
            for ch in children}
    return acts[max(children, key=lambda ch: (pool.visits(ch), -acts[ch]))]


def _budget(settings: SearchSettings, run) -> tuple[int, float]:
    """Call ``run(todo)`` until the settings' budget is spent; (iterations, seconds)."""
    t0 = time.perf_counter()
    done = 0
    if settings.iterations is not None:
        while done < settings.iterations:
            done += run(min(4096, settings.iterations - done))
    else:
        step = 64
        while True:
            done += run(step)
            spent = time.perf_counter() - t0
            if spent >= settings.seconds:
                break
            step = int(min(max(64, done / max(spent, 1e-6) * settings.seconds / 20), 1 << 16))
    return done, time.perf_counter() - t0


class ISMCTSSearch:
    """SO-ISMCTS, SO-ISMCTS+POM or MO-ISMCTS (``algorithm``) for one game.

    ``entry``: the game's :class:`.entry.SearchEntry`; ``shape``: its sizes
    (:meth:`GameShape.of` a game). Reusable: each :meth:`search` starts fresh trees in
    the same pool.
    """

    def __init__(self, entry: SearchEntry, shape: GameShape, algorithm: str,
                 settings: SearchSettings) -> None:
        if algorithm not in ALGORITHMS:
            raise ValueError(f"unknown algorithm {algorithm!r}; choose one of "
                             f"{', '.join(ALGORITHMS)}")
        self.entry = entry
        self.shape = shape
        self.algorithm = algorithm
        self.settings = settings
        self.run = getattr(entry, algorithm)
        self.n_trees = shape.n_players if algorithm == "mo" else 1
        self.pool = Pool(max_nodes=settings.max_nodes)
        self.xs = np.zeros(self.pool.capacity, dtype=np.float64)

    def search(self, view: np.ndarray, searcher: int, rng: np.ndarray) -> SearchResult:
        """Search ``searcher``'s decision from its ``view``; the most visited action id."""
        shape, st, pool = self.shape, self.settings, self.pool
        if not 0 <= searcher < shape.n_players:
            raise ValueError(f"searcher must be a seat 0-{shape.n_players - 1}, not {searcher}")
        view = np.ascontiguousarray(view, dtype=np.int64)
        pool.reset()
        roots = pool.new_roots(self.n_trees)
        mo = self.algorithm == "mo"
        node = int(roots[searcher] if mo else roots[0])
        root_arg = roots if mo else node
        what = f"{self.algorithm} search"

        def run(todo: int) -> int:
            pool.ensure(todo * self.n_trees + 1)
            if self.xs.shape[0] < pool.capacity:  # EXP3 sums, one per node: keep them
                grown = np.zeros(pool.capacity, dtype=np.float64)
                grown[: self.xs.shape[0]] = self.xs
                self.xs = grown
            pool.meta[FULL] = 0
            got = self.run(view, searcher, shape.n_actions, shape.state_size, root_arg,
                           pool.data, pool.fdata, pool.meta, self.xs, st.kind, float(st.c),
                           st.exp3, todo, rng, shape.width)
            _check(pool.meta, shape, what)
            return got

        self.xs[:] = 0.0
        done, secs = _budget(st, run)
        return SearchResult(_most_visited(pool, node, what, True), done, secs, node, roots,
                            pool)


class UCTSearch:
    """UCT on a full state (perfect information, one determinization, or the truth)."""

    def __init__(self, entry: SearchEntry, shape: GameShape, settings: SearchSettings) -> None:
        self.entry = entry
        self.shape = shape
        self.settings = settings
        self.pool = Pool(max_nodes=settings.max_nodes)

    def grow(self, state: np.ndarray, root: int, rng: np.ndarray, settings: SearchSettings,
             ) -> tuple[int, float]:
        """Add ``settings``' budget of iterations to the tree at ``root``."""
        shape, pool = self.shape, self.pool
        state = np.ascontiguousarray(state, dtype=np.int64)

        def run(todo: int) -> int:
            pool.ensure(todo + 1)
            pool.meta[FULL] = 0
            got = self.entry.uct(state, shape.n_actions, root, pool.data, pool.fdata,
                                 pool.meta, settings.kind, float(settings.c), todo, rng,
                                 shape.width)
            _check(pool.meta, shape, "UCT search")
            return got

        return _budget(settings, run)

    def search(self, state: np.ndarray, rng: np.ndarray) -> SearchResult:
        """One tree from ``state``; the most visited action id."""
        self.pool.reset()
        roots = self.pool.new_roots(1)
        node = int(roots[0])
        done, secs = self.grow(state, node, rng, self.settings)
        return SearchResult(_most_visited(self.pool, node, "UCT search", False), done, secs,
                            node, roots, self.pool, move_keys=False)
