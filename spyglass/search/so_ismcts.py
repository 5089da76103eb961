"""SO-ISMCTS, SO-ISMCTS+POM and MO-ISMCTS over enumerated determinizations: the driver.

The Resistance bots' ISMCTS searches (``spyglass bots``: ``soismcts_enum``,
``soismcts_pom_enum``, ``moismcts_enum``) keep their belief as a weight per spy
configuration. SO-ISMCTS (Whitehouse 2014, §5.2, Algorithms 2-3) and SO-ISMCTS+POM (§6.2)
run on the game-general single-tree loop
(:func:`spyglass.search.sampled.so.single_tree_loop`, over a compact pool) with the game's
kernel over enumerated beliefs
(:func:`spyglass.search.sampled.enumerated.enumerated_kernel`): its root sampler draws a
configuration by weight and plays the ``pre`` hidden earlier moves of the searcher's round
at random, and its action ids are the kernel's action indices. The conventions (move
keys, two levels for a ``move_reveals`` move, availability counts, one new node per tree
per iteration, EXP3 at ``simultaneous`` nodes) are the loop's; see :mod:`.sampled.so`.
MO-ISMCTS (§6.3, Algorithms 4-5) still runs its own loop, :mod:`spyglass.search.mo_ismcts`,
on the pool of :mod:`spyglass.search.tree`.

:class:`ISMCTS` below is the Python side: budgets, batches, pool growth, the searcher's
decision node, and results keyed by action index. ``mode="so"``/``"pom"`` search from the
searcher's decision (``pre`` hidden moves after ``root``); ``mode="mo"`` from the start of
the round, the decision node reached through ``chain`` (the searcher's observation keys of
the earlier movers), as in MT-ISMCTS.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np

from spyglass.search.bandits import (
    DEFAULT_BANDIT,
    DEFAULT_C,
    bandit_code,
)
from spyglass.search.sampled.entry import SearchEntry
from spyglass.search.sampled.enumerated import EnumeratedBelief
from spyglass.search.sampled.pool import (
    C_AVAIL,
    C_TOTAL,
    CHILD,
    DEPTH,
    FULL,
    Pool,
)
from spyglass.search.tree import NodePool
from spyglass.search.tree import add_child as tree_add_child

#: Longest search a driver allows (iterations): the enumerated searches' historical cap.
MAX_VISITS = (1 << 23) - 1
MODES = ("so", "pom", "mo")


class IndexPool(Pool):
    """The sampled searches' pool in its compact form (24-byte nodes: the Resistance's
    keys fit 32 bits and its rewards are 0/1), inspected with the Resistance searches'
    labels: a decision child's :meth:`key` is its action index (the move key's action id),
    an observation child's its observation key."""

    def __init__(self, capacity: int = 1 << 15) -> None:
        super().__init__(capacity, compact=True)

    def key(self, u: int) -> int:
        k = int(self.data[u, 0])
        return (-2 - k) >> 8 if k < -1 else k

    def reward_sums(self, u: int) -> tuple[float, float]:
        """Node ``u``'s sum of rewards and sum of squared rewards (equal: 0/1 rewards)."""
        total = float(self.fdata[u, C_TOTAL])
        return total, total

    def stats(self, u: int) -> tuple[int, float, float]:
        """Visits, mean reward and reward variance of node ``u`` (0/1 rewards: the
        variance of a Bernoulli with that mean)."""
        mean = self.mean(u)
        return self.visits(u), mean, mean * (1.0 - mean)


@dataclass
class ISMCTSResult:
    """The outcome of one search; the trees are valid until the searcher's next search."""

    action_index: int
    iterations: int
    seconds: float
    decision_node: int
    tree_roots: np.ndarray
    pool: IndexPool | NodePool
    xs: np.ndarray
    avail: np.ndarray  # availability counts, one per node

    def action_stats(self) -> dict[int, tuple[int, int, float]]:
        """For each expanded action index at the decision node: (visits, availability, mean)."""
        out = {}
        for ch in self.pool.children(self.decision_node):
            n, mean, _ = self.pool.stats(ch)
            out[self.pool.key(ch)] = (n, int(self.avail[ch]), mean)
        return dict(sorted(out.items()))


class ISMCTS:
    """A reusable SO-ISMCTS / SO-ISMCTS+POM / MO-ISMCTS searcher over enumerated beliefs.

    ``run``: the game's cached entry points (:class:`~.sampled.entry.SearchEntry`: ``so``,
    ``pom`` and ``mo``, the shared loops bound to its kernel over enumerated beliefs and
    its ``simultaneous`` predicate). ``dets``: the determinizations, one row each.
    ``mode``: "so", "pom" or "mo". ``bandit``: "ucbt" or "ucb1" (constant ``c``); ``exp3``:
    EXP3 at simultaneous-move nodes. ``max_depth``: the longest game, in moves.
    """

    def __init__(self, run: SearchEntry, n_players: int, dets: np.ndarray, *,
                 mode: str = "so", bandit: str = DEFAULT_BANDIT, c: float = DEFAULT_C,
                 exp3: bool = False, max_actions: int, max_depth: int,
                 capacity: int = 1 << 15) -> None:
        if str(mode).lower() not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose one of so, pom, mo")
        if not (isinstance(c, (int, float)) and math.isfinite(c) and c >= 0):
            raise ValueError(f"the exploration constant c must be a number >= 0, not {c!r}")
        self.mode = str(mode).lower()
        self.run = getattr(run, self.mode)
        self.n_players = int(n_players)
        self.dets = np.ascontiguousarray(dets, dtype=np.int64)
        self.kind = bandit_code(bandit)
        self.c = float(c)
        self.exp3 = bool(exp3)
        self.max_actions = int(max_actions)
        self.max_depth = int(max_depth)
        self.width = 2 * self.max_depth + 3  # the root, a choice and a revelation per move
        if self.mode == "mo":  # MO-ISMCTS's own loop, on the Resistance searches' pool
            self.pool = NodePool(capacity, binary_rewards=True)  # 0/1 rewards: 20-byte nodes
            self.avail = np.zeros(self.pool.capacity, dtype=np.int32)
        else:
            self.pool = IndexPool(capacity)
        self.xs = np.zeros(self.pool.capacity, dtype=np.float64)

    def search(self, root: np.ndarray, belief: np.ndarray, rng: np.ndarray, *,
               searcher: int, pre: int = 0, chain: tuple[int, ...] | list[int] = (),
               iterations: int | None = None, seconds: float | None = None,
               batch: int = 4096) -> ISMCTSResult:
        """Search for ``searcher``'s decision; return the most visited action index.

        SO/POM: the decision is ``pre`` hidden moves after ``root`` (they are played at
        random per iteration: in these trees hidden earlier moves belong to the
        determinization). MO: ``root`` is the start of the round and ``chain`` the
        searcher's observation keys from it to its decision node, as in MT-ISMCTS.
        """
        if (iterations is None) == (seconds is None):
            raise ValueError("give exactly one budget: iterations or seconds")
        if iterations is not None and (not isinstance(iterations, (int, np.integer))
                                       or iterations < 1):
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
            raise ValueError(f"seconds must be a positive number, not {seconds!r}")
        belief = np.asarray(belief, dtype=np.float64)
        if belief.shape != (len(self.dets),) or not np.all(belief >= 0) or belief.sum() <= 0:
            raise ValueError(f"belief must be {len(self.dets)} non-negative weights "
                             "with a positive sum")
        if not 0 <= searcher < self.n_players:
            raise ValueError(f"searcher must be a seat 0-{self.n_players - 1}")
        mo = self.mode == "mo"
        if not mo and chain:
            raise ValueError("SO/POM searches start at the decision: give pre, not chain")
        root = np.ascontiguousarray(root, dtype=np.int64)
        cum = np.cumsum(belief)
        view = EnumeratedBelief(root, self.dets, cum, int(pre))
        pool = self.pool
        pool.reset()
        tree_roots = pool.new_roots(self.n_players if mo else 1)
        node = int(tree_roots[searcher if mo else 0])
        pool.ensure(len(chain) + 1)
        for key in chain:
            ch = pool.child(node, key)
            if ch < 0:
                ch = int(tree_add_child(pool.data, pool.fdata, pool.meta, node, int(key)))
            node = ch
        dec_node = node
        start = tree_roots if mo else int(tree_roots[0])
        per_iter = len(tree_roots) + 1

        def run(todo: int) -> int:
            pool.ensure(todo * per_iter + 1)
            if self.xs.shape[0] < pool.capacity:
                grown = np.zeros(pool.capacity, dtype=np.float64)
                grown[: self.xs.shape[0]] = self.xs
                self.xs = grown
            pool.meta[FULL] = 0
            if mo:
                if self.avail.shape[0] < pool.capacity:
                    avail = np.zeros(pool.capacity, dtype=np.int32)
                    avail[: self.avail.shape[0]] = self.avail
                    self.avail = avail
                ran = self.run(root, self.n_players, self.dets, cum, searcher, int(pre),
                               tree_roots, pool.data, pool.fdata, pool.meta, self.xs,
                               self.avail, self.kind, self.c, self.exp3, todo, rng,
                               self.max_actions, self.max_depth)
                pool.check_rewards()
                return ran
            ran = self.run(view, searcher, self.max_actions, root.shape[0], start, pool.data,
                           pool.fdata, pool.meta, self.xs, self.kind, self.c, self.exp3, todo,
                           rng, self.width)
            if pool.meta[DEPTH]:
                raise RuntimeError(f"a path passed the game's {self.max_depth} moves")
            return ran

        if iterations is not None and iterations > MAX_VISITS:
            raise ValueError(f"a search is limited to {MAX_VISITS:,} iterations")
        done = 0
        self.xs[:] = 0.0
        if mo:
            self.avail[:] = 0
        t0 = time.perf_counter()
        if iterations is not None:
            while done < iterations:
                done += run(min(batch, iterations - done))
        else:
            step = 128
            while True:
                done += run(step)
                spent = time.perf_counter() - t0
                if spent >= seconds or done + step >= MAX_VISITS:
                    break
                step = int(min(max(64, done / max(spent, 1e-6) * seconds / 20), 1 << 16))
        limit = min(done + max(10_000, 10 * done), MAX_VISITS - 16)
        while pool.data[dec_node, CHILD] < 0 and done < limit:
            done += run(16)
        elapsed = time.perf_counter() - t0
        children = pool.children(dec_node)
        if not children:
            raise RuntimeError("the search never reached its decision node")
        best = max(children, key=lambda ch: (pool.visits(ch), -pool.key(ch)))
        avail = self.avail if mo else pool.data[:, C_AVAIL]
        return ISMCTSResult(pool.key(best), done, elapsed, dec_node, tree_roots, pool, self.xs,
                            avail)
