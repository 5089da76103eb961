"""SO-ISMCTS and SO-ISMCTS+POM over enumerated determinizations, on the shared node pool.

The Resistance bots' single-observer searches (``spyglass bots``: ``soismcts``,
``soismcts_pom``); one compiled loop, two tree structures (``mode``):

* ``SO`` — SO-ISMCTS (Whitehouse 2014, §5.2, Algorithms 2-3): one tree, the searcher's; every
  move of every player is an edge labelled by its action index. Each iteration samples a
  determinization from the searcher's belief and only the children compatible with it
  (their action is legal in it) can be chosen; each such child's availability count n′
  grows by one, and the bandit uses n′ in place of the parent's visit count (the
  subset-armed bandit of §5.2.1). A child's statistics are those of the player who made
  its move, under the iteration's determinization (the tree is maxⁿ, §5.2.4).
* ``POM`` — SO-ISMCTS+POM (Whitehouse 2014, §6.3): as SO, but another player's move is an edge
  labelled by the searcher's *observation* of it; the search chooses among observation
  children compatible with the determinization and then plays an action of that class,
  uniformly (the tree stores nothing to choose better).

MO-ISMCTS (``MO``, one tree per player) has its own loop in
:mod:`spyglass.search.mo_ismcts`; the Python driver :class:`ISMCTS` below runs all three
(a game's cached entry point dispatches on ``mode``).

Conventions shared with :mod:`spyglass.search.mtismcts` and the MO loop: a move whose
own observation reveals others' hidden moves (``move_reveals``) is stored as two levels,
the choice and the revelation (in SO/POM trees, for every mover, because the revelation
is what the searcher sees); a tree that creates a node stops descending there, so every
tree grows by at most one node per iteration; selection ends when the acting player's
tree has stopped. The thesis's pseudocode adds nodes deeper (FindOrCreateChild at every
step); such nodes would hold single-visit statistics, and stopping bounds memory.

Compatibility of own-move children relies on a property of the game's action indexing
(true of The Resistance): an index means the same action under every determinization and
the actions legal in a state are the first ``n_legal`` indices, so a child is compatible
exactly when its index is below ``n_legal``.

EXP3 (Whitehouse 2014, §3.2.4, eqs. 3.2-3.4), ``exp3=True``: at nodes where the game's
``simultaneous(s)`` is true (Resistance: votes and mission cards), after every legal arm
has been tried once, the choice is drawn from EXP3's probabilities instead of the UCB
maximum, with ``n`` = the node's visits. The reward-over-probability sums ``s(a)`` EXP3
needs are kept per node in ``xs`` (a float64 array beside the pool, indexed by node).
Nodes elsewhere keep UCB, as in Teytaud and Flory's scheme the thesis follows.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float
from spyglass.search.bandits import (
    DEFAULT_BANDIT,
    DEFAULT_C,
    bandit_code,
    exp3_probabilities,
    select_available,
)
from spyglass.search.mtismcts import sample_index
from spyglass.search.tree import (
    CHILD,
    FULL,
    KEY,
    MAX_VISITS,
    SIBLING,
    VISIT_MASK,
    VISITS,
    NodePool,
    add_child,
    backpropagate,
    find_child_mtf,
)

SO, POM, MO = 0, 1, 2
MODES = {"so": SO, "pom": POM, "mo": MO}


@njit(cache=True)
def _bsearch(arr: np.ndarray, k: int, key: int) -> int:
    """Index of ``key`` in the sorted ``arr[:k]``, or -1."""
    lo = 0
    hi = k
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < k and arr[lo] == key:
        return lo
    return -1


@njit(inline="always")  # inlined into each game's cached entry point (see mtismcts.py)
def run_iterations(G, simultaneous, root, n_players, dets, cum, mode, searcher, pre,
                   tree_root, data, fdata, meta, xs, avail, kind, c, exp3, n_iter, rng,
                   max_actions, max_depth):
    """Run up to ``n_iter`` iterations of SO-ISMCTS or SO-ISMCTS+POM; return how many ran.

    ``tree_root``: ``[root]``, the searcher's one tree.
    ``pre``: moves played uniformly at random after determinizing, before the trees are
    entered (the hidden earlier moves of the searcher's round, SO/POM). ``xs``: EXP3's
    reward sums and ``avail``: availability counts, one per node. Stops early
    (after a whole iteration) when the pool fills, so Python can grow it and call again.
    """
    s = np.empty_like(root)
    n_trees = tree_root.shape[0]
    cur = np.empty(n_trees, dtype=np.int32)
    plen = np.empty(n_trees, dtype=np.int32)
    width = 2 * max_depth + 2
    path = np.empty((n_trees, width), dtype=np.int32)
    who = np.empty((n_trees, width), dtype=np.int32)
    arms = np.empty(max_actions, dtype=np.int32)
    probs = np.empty(max_actions, dtype=np.float64)
    scores = np.empty(max_actions, dtype=np.float64)
    tried = np.zeros(max_actions, dtype=np.bool_)
    okeys = np.empty(max_actions, dtype=np.int64)
    ukeys = np.empty(max_actions, dtype=np.int64)
    x_node = np.empty(width, dtype=np.int32)
    x_prob = np.empty(width, dtype=np.float64)
    x_who = np.empty(width, dtype=np.int32)
    done = 0
    for _ in range(n_iter):
        if meta[FULL]:
            break
        k = sample_index(cum, rng)
        s[:] = root
        G.determinize(s, dets[k], rng)
        for _q in range(pre):
            if G.is_terminal(s):
                break
            G.apply(s, G.legal_action(s, rand_below(rng, G.n_legal(s))))
        for t in range(n_trees):
            cur[t] = tree_root[t]
            path[t, 0] = tree_root[t]
            who[t, 0] = searcher
            plen[t] = 1
        nx = 0

        while not G.is_terminal(s):
            p = G.actor(s)
            t_act = 0
            u = cur[t_act]
            if u < 0:
                break
            nl = G.n_legal(s)
            by_obs = mode == POM and p != searcher
            # Gather the children compatible with the determinization.
            n_arms = 0
            nd = nl
            if by_obs:
                for i in range(nl):
                    okeys[i] = G.observe(s, G.legal_action(s, i), searcher)
                ukeys[:nl] = okeys[:nl]
                ukeys[:nl].sort()
                nd = 0
                for i in range(nl):
                    if nd == 0 or ukeys[i] != ukeys[nd - 1]:
                        ukeys[nd] = ukeys[i]
                        nd += 1
            ch = data[u, CHILD]
            while ch >= 0:
                if by_obs:
                    pos = _bsearch(ukeys, nd, data[ch, KEY])
                else:
                    pos = data[ch, KEY] if data[ch, KEY] < nl else -1
                if pos >= 0:
                    tried[pos] = True
                    arms[n_arms] = ch
                    n_arms += 1
                ch = data[ch, SIBLING]
            expanding = n_arms < nd
            chosen = -1
            if expanding:
                r = rand_below(rng, nd - n_arms)
                pick = -1
                for i in range(nd):
                    if not tried[i]:
                        if r == 0:
                            pick = i
                            break
                        r -= 1
            elif exp3 and nd > 1 and simultaneous(s):
                for q in range(n_arms):
                    scores[q] = xs[arms[q]]
                exp3_probabilities(scores, n_arms, max(data[u, VISITS] & VISIT_MASK, 1), probs)
                r = rand_float(rng)
                q = 0
                while q < n_arms - 1 and r >= probs[q]:
                    r -= probs[q]
                    q += 1
                chosen = arms[q]
                x_node[nx] = chosen
                x_prob[nx] = probs[q]
                x_who[nx] = p
                nx += 1
            else:
                chosen = select_available(data, fdata, avail, arms, n_arms, kind, c)
            for i in range(nd):
                tried[i] = False
            if by_obs:
                key_act = ukeys[pick] if expanding else data[chosen, KEY]
                # An action of the chosen observation class, uniformly.
                m = 0
                for i in range(nl):
                    if okeys[i] == key_act:
                        m += 1
                r = rand_below(rng, m)
                i_act = -1
                for i in range(nl):
                    if okeys[i] == key_act:
                        if r == 0:
                            i_act = i
                            break
                        r -= 1
            else:
                i_act = pick if expanding else data[chosen, KEY]
                key_act = i_act
            a = G.legal_action(s, i_act)
            reveals = G.move_reveals(s)
            if expanding:
                chosen = add_child(data, fdata, meta, u, key_act)
            # Availability: every compatible child (the chosen one included) was available.
            for q in range(n_arms):
                avail[arms[q]] += 1
            if expanding and chosen >= 0:
                avail[chosen] += 1

            # Descend every tree.
            for t in range(n_trees):
                v = cur[t]
                if v < 0:
                    continue
                owner = p
                if t == t_act:
                    ch = chosen
                    created = expanding
                else:
                    key = G.observe(s, a, t)
                    ch = find_child_mtf(data, v, key)
                    created = ch < 0
                    if created:
                        ch = add_child(data, fdata, meta, v, key)
                if ch >= 0 and not created and t == t_act and reveals and (
                        mode != POM or p == searcher):
                    # The choice node exists: descend to what the move revealed.
                    if plen[t] < width:
                        path[t, plen[t]] = ch
                        who[t, plen[t]] = owner
                        plen[t] += 1
                    v = ch
                    key = G.observe(s, a, searcher)
                    ch = find_child_mtf(data, v, key)
                    created = ch < 0
                    if created:
                        ch = add_child(data, fdata, meta, v, key)
                if ch >= 0 and plen[t] < width:
                    path[t, plen[t]] = ch
                    who[t, plen[t]] = owner
                    plen[t] += 1
                    cur[t] = -1 if created else ch
                else:
                    cur[t] = -1
            G.apply(s, a)
            if expanding:
                break

        G.playout(s, rng)

        for t in range(n_trees):
            for q in range(plen[t]):
                backpropagate(data, fdata, meta, path[t, q], G.reward(s, who[t, q]))
        for q in range(nx):
            xs[x_node[q]] += G.reward(s, x_who[q]) / x_prob[q]
        done += 1
    return done


@dataclass
class ISMCTSResult:
    """The outcome of one search; the trees are valid until the searcher's next search."""

    action_index: int
    iterations: int
    seconds: float
    decision_node: int
    tree_roots: np.ndarray
    pool: NodePool
    xs: np.ndarray
    avail: np.ndarray

    def action_stats(self) -> dict[int, tuple[int, int, float]]:
        """For each expanded action index at the decision node: (visits, availability, mean)."""
        out = {}
        for ch in self.pool.children(self.decision_node):
            n, mean, _ = self.pool.stats(ch)
            out[self.pool.key(ch)] = (n, int(self.avail[ch]), mean)
        return dict(sorted(out.items()))


class ISMCTS:
    """A reusable SO-ISMCTS / SO-ISMCTS+POM / MO-ISMCTS searcher for one game.

    ``run``: the game's cached entry point binding :func:`run_iterations` to its kernel
    and its ``simultaneous`` predicate (all arguments but those two). ``mode``: "so",
    "pom" or "mo". ``bandit``: "ucbt" or "ucb1" (constant ``c``); ``exp3``: EXP3 at
    simultaneous-move nodes.
    """

    def __init__(self, run, n_players: int, dets: np.ndarray, *, mode: str = "so",
                 bandit: str = DEFAULT_BANDIT, c: float = DEFAULT_C, exp3: bool = False,
                 max_actions: int, max_depth: int, capacity: int = 1 << 15,
                 binary_rewards: bool = False) -> None:
        if str(mode).lower() not in MODES:
            raise ValueError(f"unknown mode {mode!r}; choose one of so, pom, mo")
        if not (isinstance(c, (int, float)) and math.isfinite(c) and c >= 0):
            raise ValueError(f"the exploration constant c must be a number >= 0, not {c!r}")
        self.run = run
        self.n_players = int(n_players)
        self.dets = np.ascontiguousarray(dets, dtype=np.int64)
        self.mode = MODES[str(mode).lower()]
        self.kind = bandit_code(bandit)
        self.c = float(c)
        self.exp3 = bool(exp3)
        self.max_actions = int(max_actions)
        self.max_depth = int(max_depth)
        self.pool = NodePool(capacity, binary_rewards=binary_rewards)
        self.xs = np.zeros(self.pool.capacity, dtype=np.float64)
        self.avail = np.zeros(self.pool.capacity, dtype=np.int32)

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
        if self.mode != MO and chain:
            raise ValueError("SO/POM searches start at the decision: give pre, not chain")
        root = np.ascontiguousarray(root, dtype=np.int64)
        cum = np.cumsum(belief)
        pool = self.pool
        pool.reset()
        tree_roots = pool.new_roots(self.n_players if self.mode == MO else 1)
        node = int(tree_roots[searcher if self.mode == MO else 0])
        pool.ensure(len(chain) + 1)
        for key in chain:
            ch = pool.child(node, key)
            if ch < 0:
                ch = int(add_child(pool.data, pool.fdata, pool.meta, node, int(key)))
            node = ch
        dec_node = node
        per_iter = len(tree_roots) + 1

        def run(todo: int) -> int:
            pool.ensure(todo * per_iter + 1)
            if self.xs.shape[0] < pool.capacity:
                grown = np.zeros(pool.capacity, dtype=np.float64)
                grown[: self.xs.shape[0]] = self.xs
                self.xs = grown
                avail = np.zeros(pool.capacity, dtype=np.int32)
                avail[: self.avail.shape[0]] = self.avail
                self.avail = avail
            pool.meta[FULL] = 0
            ran = self.run(root, self.n_players, self.dets, cum, self.mode, searcher,
                           int(pre), tree_roots, pool.data, pool.fdata, pool.meta,
                           self.xs, self.avail, self.kind, self.c, self.exp3, todo, rng,
                           self.max_actions, self.max_depth)
            pool.check_rewards()
            return ran

        if iterations is not None and iterations > MAX_VISITS:
            raise ValueError(f"a search is limited to {MAX_VISITS:,} iterations")
        done = 0
        self.xs[:] = 0.0
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
        return ISMCTSResult(pool.key(best), done, elapsed, dec_node, tree_roots, pool,
                            self.xs, self.avail)
