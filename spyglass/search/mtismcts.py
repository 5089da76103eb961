"""Many-tree ISMCTS (MT-ISMCTS), Cowling et al. 2015, §IV Algorithm 1 / Whitehouse 2014, §7.2
Algorithm 6.

One tree per player per information set that player could hold at the root. Each
iteration samples a determinization ``d`` from the searcher's belief, picks every
player's tree for ``[d]^j`` and walks all of them down together:

* at the acting player's node: if it has a child for every legal action, the bandit
  chooses among them; otherwise a random untried action is expanded and the iteration
  goes on to the playout (Algorithm 1, lines 12-23);
* every other player ``j`` moves to (or creates) the child keyed by its observation
  ``observe(s, a, j)``; the acting player moves to the child keyed by the action index
  (plus, when ``move_reveals``, a second level keyed by its observation);
* a tree that had to create a node this iteration stops descending, so each tree grows
  by at most one node per iteration and memory stays bounded; selection also ends when
  the acting player's tree has stopped;
* a random playout finishes the game and every visited node of every tree receives its
  player's reward (visits, sum, sum of squares).

Particle-filter counts (Cowling et al. 2015, §V): for iterations whose determinization is in the
searcher's own information set, ``c(v, d)`` is counted for the nodes of the decision
tree from the decision node down to (and including) the searcher's next real decision;
those are the only nodes its next observations can reach before it searches again.
Counts live in a table of slots; a slot is given to a node on its first counted visit
(which is its creation, so every visit of a tracked node is counted). The table grows
between batches, up to ``max_count_bytes``; if the slots run out, new nodes are simply
not tracked (``SearchResult.slots_full`` says so) and the inference step skips updates
from them, as from a node the search never visited.

Compilation and caching: :func:`run_iterations` takes the game's kernel functions as a
:class:`~spyglass.search.protocol.GameKernel` argument, so numba compiles it for each
game. Numba cannot usefully cache a function whose signature holds compiled functions
(its cache keys keep weak references that die between processes: lookups always miss,
and saving can fail with "underlying object has vanished"), nor one that passes such a
tuple as a value (the functions become "dynamic globals"). So each game binds the loop
in a small cached entry point whose arguments are plain arrays and numbers
(``SearchSpec.run``, e.g. ``search_kernel.run_iterations``), and the loop is
``inline="always"``: inlined there, its calls through the tuple become static calls and
the entry point, whole loop included, is cached.

Self-determinization (Cowling et al. 2015, §VI): a search is a sequence of :class:`Phase` s, each
with its own sampling belief, so a first phase can sample from ψ (spread over several of
the searcher's information sets) and a second from φ. An iteration whose determinization
lies outside the searcher's information set uses the searcher's tree for that other
information set, so it never descends or updates the decision tree, but it does update
the opponents' trees. Such phases can also count ``c(v, d)`` in *every* tree of the
searcher, from each tree's copy of the decision node down (the "merged tree" that ψ is
updated from; kept in separate columns of the count table).

Per-tree flags: ``tree_update`` (0: frozen, the tree is neither updated nor grown; it is
descended only where it already has nodes) and ``tree_policy`` (0: the bandit chooses at
the tree owner's nodes; 1: a child is drawn with probability proportional to its visits,
and where no child has visits the iteration goes on to its playout). TWOSTEP's second
phase sets both for every opponent tree.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from spyglass.rng import rand_below
from spyglass.search.bandits import DEFAULT_BANDIT, DEFAULT_C, bandit_code, select_child
from spyglass.search.protocol import SearchSpec
from spyglass.search.sampled.forest import pick_particle as sample_index
from spyglass.search.selfdet import Phase
from spyglass.search.tree import (
    CHILD,
    FULL,
    INDEX_FROM,
    INDEXED,
    KEY,
    MAX_VISITS,
    SIBLING,
    VISIT_MASK,
    VISITS,
    NodePool,
    add_child,
    backpropagate,
    find_child,
    find_child_indexed,
    find_child_mtf,
    index_new_child,
    n_children,
    prefetch_node,
)

# Slot-table bookkeeping: smeta[SLOTS_USED], smeta[SLOTS_FULL].
SLOTS_USED, SLOTS_FULL = 0, 1
_HASH_MUL = 2654435761


@njit(cache=True)
def slot_of(keys: np.ndarray, vals: np.ndarray, smeta: np.ndarray, max_slots: int,
            node: int, assign: bool) -> int:
    """The count slot of ``node`` (open addressing); a new one if ``assign``; -1 if none."""
    mask = keys.shape[0] - 1
    h = (np.int64(node) * _HASH_MUL) & mask
    while True:
        k = keys[h]
        if k == node:
            return vals[h]
        if k < 0:
            if not assign:
                return -1
            if smeta[SLOTS_USED] >= max_slots:
                smeta[SLOTS_FULL] = 1
                return -1
            keys[h] = node
            vals[h] = smeta[SLOTS_USED]
            smeta[SLOTS_USED] += 1
            return vals[h]
        h = (h + 1) & mask


@njit(cache=True)
def rehash(old_keys: np.ndarray, old_vals: np.ndarray, keys: np.ndarray, vals: np.ndarray):
    """Insert every entry of one slot hash into a larger, empty one."""
    mask = keys.shape[0] - 1
    for i in range(old_keys.shape[0]):
        node = old_keys[i]
        if node >= 0:
            h = (np.int64(node) * _HASH_MUL) & mask
            while keys[h] >= 0:
                h = (h + 1) & mask
            keys[h] = node
            vals[h] = old_vals[i]


@njit(cache=True)
def untried_action(data: np.ndarray, u: int, nl: int, tried: np.ndarray, rng: np.ndarray) -> int:
    """A uniformly random action index in ``0..nl-1`` without a decision child at ``u``."""
    c = data[u, CHILD]
    while c >= 0:
        tried[data[c, KEY]] = True
        c = data[c, SIBLING]
    r = rand_below(rng, nl - n_children(data, u))
    pick = -1
    for i in range(nl):
        if not tried[i]:
            if r == 0:
                pick = i
                break
            r -= 1
    c = data[u, CHILD]
    while c >= 0:
        tried[data[c, KEY]] = False
        c = data[c, SIBLING]
    return pick


@njit(cache=True)
def sample_by_visits(data: np.ndarray, u: int, rng: np.ndarray) -> int:
    """A child of ``u`` drawn with probability proportional to its visits; -1 if none has any."""
    total = 0
    ch = data[u, CHILD]
    while ch >= 0:
        total += data[ch, VISITS] & VISIT_MASK
        ch = data[ch, SIBLING]
    if total <= 0:
        return -1
    r = rand_below(rng, total)
    ch = data[u, CHILD]
    while ch >= 0:
        r -= data[ch, VISITS] & VISIT_MASK
        if r < 0:
            return ch
        ch = data[ch, SIBLING]
    return -1


@njit(inline="always")  # inlined into each game's cached entry point: see the docstring
def run_iterations(G, root, n_players, dets, cum, tree_of, tree_root, tree_update,
                   tree_policy, data, fdata, meta, index, searcher, dec_tree, dec_nodes, det_slot,
                   count_phi, psi_col, slot_keys, slot_vals, smeta, counts, kind, c,
                   n_iter, rng, max_actions, max_depth):
    """Run up to ``n_iter`` MT-ISMCTS iterations; return how many ran.

    Stops early (after a whole iteration) if the node pool fills up, or the child index
    (``index``, :mod:`spyglass.search.tree`) passes its load, so that Python can grow
    them and call again. ``dec_nodes[t]``: the searcher's decision node in its
    tree ``t`` (-1: not counted there). ``count_phi``: count ``c(v, d)`` (column
    ``det_slot[d]``) in the decision tree ``dec_tree``; ``psi_col >= 0``: also count
    every iteration, in whichever tree of the searcher it uses, in column
    ``psi_col + det_slot[d]``. ``searcher < 0`` disables counting.
    """
    s = np.empty_like(root)
    cur = np.empty(n_players, dtype=np.int32)
    plen = np.empty(n_players, dtype=np.int32)
    width = 2 * max_depth + 2
    path = np.empty((n_players, width), dtype=np.int32)
    tried = np.zeros(max_actions, dtype=np.bool_)
    max_slots = counts.shape[0]
    done = 0
    for _ in range(n_iter):
        if meta[FULL]:
            break
        k = sample_index(cum, rng)
        s[:] = root
        G.determinize(s, dets[k], rng)
        dec_node = -1
        cphi = False
        if searcher >= 0 and det_slot[k] >= 0:
            ts = tree_of[k, searcher]
            cphi = count_phi and ts == dec_tree
            if cphi or psi_col >= 0:
                dec_node = dec_nodes[ts]
        counting = dec_node >= 0
        trk_lo = -1
        trk_hi = -1
        for j in range(n_players):
            u = tree_root[tree_of[k, j]]
            cur[j] = u
            path[j, 0] = u
            plen[j] = 1
        if counting and cur[searcher] == dec_node:
            trk_lo = 0

        # Selection and expansion.
        while not G.is_terminal(s):
            p = G.actor(s)
            u = cur[p]
            if u < 0:
                break
            nl = G.n_legal(s)
            if p == searcher and trk_lo >= 0 and trk_hi < 0 and u != dec_node and nl > 1:
                trk_hi = plen[p]  # the searcher's next decision: count it, not below it
            chosen = -1
            if tree_policy[tree_of[k, p]]:
                # A fixed opponent model: its mixed policy, out of the tree where it has none.
                chosen = sample_by_visits(data, u, rng)
                if chosen < 0:
                    break
                expanding = False
                i = data[chosen, KEY]
            else:
                expanding = n_children(data, u) < nl
                if expanding:
                    i = untried_action(data, u, nl, tried, rng)
                else:
                    chosen = select_child(data, fdata, u, kind, c)
                    i = data[chosen, KEY]
            a = G.legal_action(s, i)
            reveals = G.move_reveals(s)
            for j in range(n_players):
                v = cur[j]
                if v < 0:
                    continue
                # A frozen tree is left exactly as it is: no new nodes, no reordering.
                # (This find-or-add step also stands in so_ismcts.py; a shared inline
                # helper cost ~40% of the iterations per second, so it stays written out.)
                frozen = tree_update[tree_of[k, j]] == 0
                if j == p:
                    key = i
                    ch = chosen
                else:
                    key = G.observe(s, a, j)
                    if n_children(data, v) >= INDEX_FROM:
                        ch = find_child_indexed(data, index, v, key)
                    else:
                        ch = find_child(data, v, key) if frozen else find_child_mtf(data, v, key)
                if ch < 0 and frozen:
                    cur[j] = -1
                    continue
                created = ch < 0
                if created:
                    ch = add_child(data, fdata, meta, v, key)
                    if j != p and ch >= 0 and n_children(data, v) >= INDEX_FROM:
                        index_new_child(data, index, meta, v, ch)
                elif j == p and reveals:
                    # The choice node exists: descend to what the move revealed.
                    if plen[j] < width:
                        path[j, plen[j]] = ch
                        plen[j] += 1
                    key = G.observe(s, a, j)
                    v = ch
                    if n_children(data, v) >= INDEX_FROM:
                        ch = find_child_indexed(data, index, v, key)
                    else:
                        ch = find_child(data, v, key) if frozen else find_child_mtf(data, v, key)
                    if ch < 0 and frozen:
                        cur[j] = -1
                        continue
                    created = ch < 0
                    if created:
                        ch = add_child(data, fdata, meta, v, key)
                        if ch >= 0 and n_children(data, v) >= INDEX_FROM:
                            index_new_child(data, index, meta, v, ch)
                if ch >= 0 and plen[j] < width:
                    path[j, plen[j]] = ch
                    plen[j] += 1
                    cur[j] = -1 if created else ch
                    if not created and data[ch, CHILD] >= 0:
                        # The tree's next lookup starts at this first child: ask for it
                        # now, so that the trees' cache misses overlap instead of queueing
                        # (no result depends on it).
                        prefetch_node(data, data[ch, CHILD])
                    if counting and j == searcher and ch == dec_node:
                        trk_lo = plen[j] - 1
                else:
                    cur[j] = -1
            G.apply(s, a)
            if expanding:
                break

        # Simulation.
        G.playout(s, rng)

        # Backpropagation.
        for j in range(n_players):
            if not tree_update[tree_of[k, j]]:
                continue
            r = G.reward(s, j)
            for q in range(plen[j]):
                backpropagate(data, fdata, meta, path[j, q], r)
        if trk_lo >= 0:
            hi = trk_hi if trk_hi >= 0 else plen[searcher]
            col = det_slot[k]
            for q in range(trk_lo, hi):
                sl = slot_of(slot_keys, slot_vals, smeta, max_slots, path[searcher, q], True)
                if sl >= 0:
                    if cphi:
                        counts[sl, col] += 1
                    if psi_col >= 0:
                        counts[sl, psi_col + col] += 1
        done += 1
    return done


@dataclass
class SearchResult:
    """The outcome of one search: the move, and the trees for inference and inspection.

    The trees live in the searcher's node pool and are valid until its next search
    (``stale`` says when they have been overwritten). ``decision_nodes[t]`` is the
    searcher's decision node in each of its trees ``t`` (-1 for other players' trees).
    """

    action_index: int
    iterations: int
    seconds: float
    decision_node: int
    decision_tree: int
    tree_roots: np.ndarray
    pool: NodePool
    det_slot: np.ndarray
    counts: np.ndarray
    slot_map: dict[int, int]
    n_slots: int
    slots_full: bool
    bytes_peak: int
    _owner: MTISMCTS
    _generation: int
    decision_nodes: np.ndarray | None = None
    psi_col: int = -1
    phase_iterations: tuple[int, ...] = ()
    phi_tracked: bool = True

    @property
    def stale(self) -> bool:
        return self._owner.generation != self._generation

    def _check(self) -> None:
        if self.stale:
            raise RuntimeError("this search result's trees were overwritten by a newer search")

    def decision_visits(self) -> int:
        """Visits to the decision node (the ``N`` of eq. 2)."""
        self._check()
        return self.pool.visits(self.decision_node)

    def action_stats(self) -> dict[int, tuple[int, float, float]]:
        """For each expanded action index at the decision node: (visits, mean, std)."""
        self._check()
        out = {}
        for ch in self.pool.children(self.decision_node):
            n, mean, var = self.pool.stats(ch)
            out[self.pool.key(ch)] = (n, mean, math.sqrt(var))
        return dict(sorted(out.items()))

    def merged_action_visits(self) -> dict[int, int]:
        """Root visits of each action summed over all of the searcher's trees (BLUFF)."""
        self._check()
        out: dict[int, int] = {}
        nodes = self.decision_nodes if self.decision_nodes is not None else [self.decision_node]
        for u in nodes:
            if u < 0:
                continue
            for ch in self.pool.children(int(u)):
                a = self.pool.key(ch)
                out[a] = out.get(a, 0) + self.pool.visits(ch)
        return dict(sorted(out.items()))

    def _column_counts(self, node: int, offset: int) -> np.ndarray | None:
        self._check()
        slot = self.slot_map.get(int(node))
        if slot is None:
            return None
        out = np.zeros(len(self.det_slot), dtype=np.int64)
        cols = self.det_slot >= 0
        out[cols] = self.counts[slot, offset + self.det_slot[cols]]
        return out

    def counts_of(self, node: int) -> np.ndarray | None:
        """``c(node, d)`` for every determinization ``d``, or None if not tracked."""
        if not self.phi_tracked:
            return None
        return self._column_counts(node, 0)

    def merged_counts_of(self, node: int) -> np.ndarray | None:
        """``c(node, d)`` counted for the merged tree (phases with ``count_merged``)."""
        if self.psi_col < 0:
            return None
        return self._column_counts(node, self.psi_col)


class MTISMCTS:
    """A reusable MT-ISMCTS searcher for one game at one player count.

    ``bandit``: "ucbt" (UCB-Tuned, default) or "ucb1" with constant ``c``.
    ``max_count_bytes`` bounds the particle-filter count table. ``relayout_from``: once
    a search's trees hold this many nodes (and at every doubling after), the pool is
    reordered depth-first between batches, for locality (0, the default: never; results
    are the same either way; on the machine of issue 17 it did not pay for its own
    pass over the pool, see docs/search-memory.md).
    Reusing one instance across decisions reuses its memory.
    """

    def __init__(self, spec: SearchSpec, *, bandit: str = DEFAULT_BANDIT,
                 c: float = DEFAULT_C, capacity: int = 1 << 16,
                 max_count_bytes: int = 1 << 26, relayout_from: int = 0) -> None:
        self.spec = spec
        self.bandit = bandit_code(bandit)
        if not (isinstance(c, (int, float)) and math.isfinite(c) and c >= 0):
            raise ValueError(f"the exploration constant c must be a number >= 0, not {c!r}")
        self.c = float(c)
        self.pool = NodePool(capacity, binary_rewards=spec.binary_rewards)
        self.max_count_bytes = int(max_count_bytes)
        self.relayout_from = int(relayout_from)
        self._next_relayout = self.relayout_from
        self.generation = 0
        self.tree_update = np.ones(spec.n_trees, dtype=np.uint8)
        self.tree_policy = np.zeros(spec.n_trees, dtype=np.uint8)
        self._slot_keys = np.full(16, -1, dtype=np.int32)
        self._slot_vals = np.zeros(16, dtype=np.int32)
        self._counts = np.zeros((8, 1), dtype=np.int32)
        self._smeta = np.zeros(2, dtype=np.int64)

    # -- slots ------------------------------------------------------------------------
    def _reset_slots(self, n_cols: int) -> None:
        """Empty the count table for a search over ``n_cols`` determinizations."""
        used = int(self._smeta[SLOTS_USED])
        if self._counts.shape[1] != n_cols:
            rows = min(1024, max(64, self.max_count_bytes // (4 * n_cols)))
            self._counts = np.zeros((rows, n_cols), dtype=np.int32)
        else:
            self._counts[:used] = 0  # rows past the last search's slots are still zero
        size = 1 << (2 * self._counts.shape[0] - 1).bit_length()
        if self._slot_keys.shape[0] != size:
            self._slot_keys = np.full(size, -1, dtype=np.int32)
            self._slot_vals = np.zeros(size, dtype=np.int32)
        else:
            self._slot_keys[:] = -1
        self._smeta[:] = 0

    def _grow_slots(self, extra: int) -> None:
        """Make room for ``extra`` more slots (rehashing), before a batch."""
        used = int(self._smeta[SLOTS_USED])
        max_rows = max(64, self.max_count_bytes // (4 * self._counts.shape[1]))
        if used + extra <= self._counts.shape[0] or self._counts.shape[0] >= max_rows:
            return
        rows = min(max(2 * self._counts.shape[0], used + extra), max_rows)
        counts = np.zeros((rows, self._counts.shape[1]), dtype=np.int32)
        counts[:used] = self._counts[:used]
        size = 1 << (2 * rows - 1).bit_length()
        keys = np.full(size, -1, dtype=np.int32)
        vals = np.zeros(size, dtype=np.int32)
        rehash(self._slot_keys, self._slot_vals, keys, vals)
        self._slot_keys, self._slot_vals, self._counts = keys, vals, counts

    # -- locality -----------------------------------------------------------------------
    def _maybe_relayout(self, n_roots: int, dec_nodes: np.ndarray, remaining: int | None,
                        done: int) -> None:
        """Reorder the pool depth-first when it has doubled since the last time.

        Not worth it near the end of an iteration budget (``remaining`` iterations left,
        ``done`` so far in the phase). Node ids held outside the pool are remapped.
        """
        used = self.pool.used
        if not self.relayout_from or used < self._next_relayout:
            return
        if remaining is not None and remaining < done // 2:
            return
        self._next_relayout = 2 * used
        new_id = self.pool.relayout(n_roots)
        held = dec_nodes >= 0
        dec_nodes[held] = new_id[dec_nodes[held]]
        live = self._slot_keys >= 0
        if live.any():
            moved = self._slot_keys.copy()
            moved[live] = new_id[moved[live]]
            keys = np.full_like(self._slot_keys, -1)
            vals = np.zeros_like(self._slot_vals)
            rehash(moved, self._slot_vals, keys, vals)
            self._slot_keys, self._slot_vals = keys, vals

    # -- the search -------------------------------------------------------------------
    def _check_budget(self, iterations, seconds) -> None:
        if (iterations is None) == (seconds is None):
            raise ValueError("give exactly one budget: iterations or seconds")
        if iterations is not None and (not isinstance(iterations, (int, np.integer))
                                       or isinstance(iterations, bool) or iterations < 1):
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if seconds is not None and not (isinstance(seconds, (int, float)) and seconds > 0):
            raise ValueError(f"seconds must be a positive number, not {seconds!r}")

    def _check_belief(self, belief, what: str = "belief") -> np.ndarray:
        b = np.asarray(belief, dtype=np.float64)
        if b.shape != (self.spec.n_dets,) or not np.all(b >= 0) or b.sum() <= 0:
            raise ValueError(
                f"{what} must be {self.spec.n_dets} non-negative weights with a positive sum"
            )
        return b

    def search(
        self,
        root: np.ndarray,
        belief: np.ndarray,
        rng: np.ndarray,
        *,
        searcher: int,
        chain: tuple[int, ...] | list[int] = (),
        iterations: int | None = None,
        seconds: float | None = None,
        track: bool = True,
        batch: int = 4096,
        phases: list[Phase] | tuple[Phase, ...] | None = None,
    ) -> SearchResult:
        """Search from ``root`` for ``searcher``'s decision; return the most visited action.

        ``belief`` (φ) weighs every determinization of the spec (zero: never sampled); its
        support is the searcher's information set and fixes the decision tree.
        ``chain`` are the observation keys that lead, in the searcher's trees, from the
        root to its decision node (earlier hidden moves of the same round). Give either
        ``iterations`` (deterministic for a given ``rng`` state) or ``seconds``, or
        instead ``phases`` (self-determinization: see :class:`Phase`).
        ``track`` counts determinizations per node of the decision tree for
        particle-filter inference. The budget is a minimum: a search goes on (sampling
        from φ) until it has reached its decision node (which, after a few hidden moves
        of other players, or when a phase rarely samples the true information set, can
        take some iterations).
        """
        spec = self.spec
        if phases is None:
            self._check_budget(iterations, seconds)
            phases = (Phase(None, iterations, seconds),)
        else:
            if iterations is not None or seconds is not None:
                raise ValueError("give the budget in the phases, not as iterations/seconds")
            if not phases:
                raise ValueError("give at least one phase")
            for ph in phases:
                if not isinstance(ph, Phase):
                    raise ValueError(f"phases must be Phase objects, not {ph!r}")
                self._check_budget(ph.iterations, ph.seconds)
        belief = self._check_belief(belief)
        if not 0 <= searcher < spec.n_players:
            raise ValueError(f"searcher must be a seat 0-{spec.n_players - 1}, not {searcher}")
        root = np.ascontiguousarray(root, dtype=np.int64)
        beliefs = [belief if ph.belief is None else self._check_belief(ph.belief, "a phase belief")
                   for ph in phases]

        # Fresh trees: every root, then the decision chain in each of the searcher's trees.
        self.pool.reset()
        self._next_relayout = self.relayout_from
        self.generation += 1
        pool = self.pool
        tree_roots = pool.new_roots(spec.n_trees)
        dec_trees = np.unique(spec.tree_of[np.flatnonzero(belief > 0), searcher])
        if len(dec_trees) != 1:
            raise ValueError("the belief's support spans several of the searcher's "
                             "information sets; give one information set's belief "
                             "(sample from others in a Phase)")
        dec_tree = int(dec_trees[0])
        own_trees = spec.trees_of_player(searcher)
        dec_nodes = np.full(spec.n_trees, -1, dtype=np.int32)
        pool.ensure(len(own_trees) * (len(chain) + 1))
        for t in own_trees.tolist():
            node = int(tree_roots[t])
            for key in chain:
                ch = pool.child(node, key)
                if ch < 0:
                    ch = int(add_child(pool.data, pool.fdata, pool.meta, node, int(key)))
                node = ch
            dec_nodes[t] = node
        dec_node = int(dec_nodes[dec_tree])

        # Count columns: one per determinization any phase samples (φ's first), and a
        # second block for the merged tree when some phase counts for it.
        merged = any(ph.count_merged for ph in phases)
        sampled = np.zeros(spec.n_dets, dtype=bool)
        for b in beliefs:
            sampled |= b > 0
        det_slot = np.full(spec.n_dets, -1, dtype=np.int32)
        support = np.flatnonzero(sampled)
        det_slot[support] = np.arange(len(support), dtype=np.int32)
        n_cols = len(support) * (2 if merged else 1)
        psi_col_all = len(support) if merged else -1
        self._reset_slots(n_cols)

        n = spec.n_players
        others = np.ones(spec.n_trees, dtype=bool)
        others[own_trees] = False

        def runner(cum, ph: Phase, count_phi: bool):
            update, policy = self.tree_update, self.tree_policy
            if ph.fixed_opponents:
                update = update.copy()
                update[others] = 0
                policy = policy.copy()
                policy[others] = 1
            psi_col = psi_col_all if ph.count_merged else -1
            counting = count_phi or psi_col >= 0

            def run(todo: int) -> int:
                pool.ensure(todo * n + 1)  # each tree grows by at most one node per iteration
                # ... so at most one parent per tree reaches INDEX_FROM children per iteration
                pool.ensure_index(n * INDEX_FROM + 1)
                if counting:
                    self._grow_slots(todo)  # at most one new tracked node per iteration
                pool.meta[FULL] = 0
                todo = min(todo, MAX_VISITS - done_box[0])
                if todo <= 0:
                    raise ValueError(f"a search is limited to {MAX_VISITS:,} iterations "
                                     "(the node's visit field)")
                ran = spec.run(
                    root, n, spec.dets, cum, spec.tree_of, tree_roots, update, policy,
                    pool.data, pool.fdata, pool.meta, pool.index, searcher, dec_tree, dec_nodes,
                    det_slot, count_phi, psi_col, self._slot_keys, self._slot_vals,
                    self._smeta, self._counts, self.bandit, self.c, todo, rng,
                    spec.max_actions, spec.max_depth,
                )
                pool.check_rewards()
                done_box[0] += ran
                return ran
            return run

        total_budget = sum(ph.iterations or 0 for ph in phases)
        if total_budget > MAX_VISITS:
            raise ValueError(f"a search is limited to {MAX_VISITS:,} iterations, "
                             f"not {total_budget:,}")
        done_box = [0]  # iterations so far, for the visit-field limit
        done = 0
        per_phase = []
        t0 = time.perf_counter()
        for ph, b in zip(phases, beliefs, strict=True):
            run = runner(np.cumsum(b), ph, track)
            start = done
            if ph.iterations is not None:
                budget = int(ph.iterations)
                while done - start < budget:
                    done += run(min(batch, budget - (done - start)))
                    self._maybe_relayout(spec.n_trees, dec_nodes, budget - (done - start),
                                         done - start)
            else:
                t_ph = time.perf_counter()
                step = 256
                while True:
                    done += run(step)
                    self._maybe_relayout(spec.n_trees, dec_nodes, None, done - start)
                    spent = time.perf_counter() - t_ph
                    if spent >= ph.seconds or done + step >= MAX_VISITS:
                        break
                    # Aim batches at ~1/20 of the budget, so the clock is checked often.
                    step = int(min(max(64, (done - start) / max(spent, 1e-6)
                                       * ph.seconds / 20), 1 << 16))
            per_phase.append(done - start)
        # With a tiny budget the earlier movers' trees may not yet lead to the decision
        # node (each needs its actions expanded first), and a phase sampling mostly other
        # information sets may not have reached it: go on, from φ, until it has a child.
        limit = min(done + max(10_000, 10 * done), MAX_VISITS - 16)
        dec_node = int(dec_nodes[dec_tree])  # relayouts may have moved it
        if pool.data[dec_node, CHILD] < 0:
            run = runner(np.cumsum(belief), Phase(None, 1), track)
            while pool.data[dec_node, CHILD] < 0 and done < limit:
                done += run(16)
        elapsed = time.perf_counter() - t0

        children = pool.children(dec_node)
        if not children:
            raise RuntimeError("the search never reached its decision node; "
                               "is the chain right and the budget positive?")
        # Most visited; ties to the lowest action index.
        best = max(children, key=lambda ch: (pool.visits(ch), -pool.key(ch)))
        used_slots = int(self._smeta[SLOTS_USED])
        slot_map = {}
        if used_slots:
            live = self._slot_keys >= 0
            nodes, slots = self._slot_keys[live].tolist(), self._slot_vals[live].tolist()
            slot_map = dict(zip(nodes, slots, strict=True))
        slot_bytes = used_slots * (4 * n_cols + 2 * 4 * 2)  # counts + hash at load 1/2
        indexed = int(pool.meta[INDEXED])  # the child index's table, when it was used
        return SearchResult(
            action_index=pool.key(best),
            iterations=done,
            seconds=elapsed,
            decision_node=dec_node,
            decision_tree=dec_tree,
            tree_roots=tree_roots,
            pool=pool,
            det_slot=det_slot,
            counts=self._counts,
            slot_map=slot_map,
            n_slots=used_slots,
            slots_full=bool(self._smeta[SLOTS_FULL]),
            bytes_peak=pool.bytes_used + slot_bytes + (pool.index_bytes if indexed else 0),
            _owner=self,
            _generation=self.generation,
            decision_nodes=dec_nodes,
            psi_col=psi_col_all,
            phase_iterations=tuple(per_phase),
            phi_tracked=bool(track),
        )
