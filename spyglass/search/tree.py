"""The node pool shared by every tree of one search: one 20- or 24-byte record per node.

All trees of a search live in one preallocated pool, so a search allocates nothing per
iteration. A node is a row of 32-bit fields in one ``int32`` array; the real-valued
statistics are read through a ``float32`` view of the same rows, so that everything an
iteration touches at a node sits together (the child scans and the bandit read all of
it at once). Issue 17 shrank the record from 32 bytes (docs/search-memory.md): a
million-iteration search makes ~4 million nodes at 5 players, and every byte of a node
is a byte of a working set that long since left the cache.

=========  =======  ===================================================================
column     type     meaning
=========  =======  ===================================================================
KEY        int32    the edge label from the parent: an observation key, or the action
                    index for the acting player's own choice (a "decision child")
CHILD      int32    first child (-1: none); children form a singly linked list
SIBLING    int32    next sibling (-1: last)
VISITS     int32    bits 0-22: iterations that backpropagated through the node; bits
                    23-30: number of children, saturating at 255 (only read at decision
                    nodes, which have at most ``MAX_ACTIONS`` children)
TOTAL      float32  sum of rewards
SUMSQ      float32  sum of squared rewards (UCB-Tuned's variance, BLUFF's sigma); only in
                    pools for rewards other than 0 and 1: with 0/1 rewards it equals
                    TOTAL exactly, and TOTAL is read in its place
=========  =======  ===================================================================

The sum of squares lives in the row's last column (``sq_column``), which is TOTAL
itself in a 5-column pool. SO-ISMCTS's availability counts live in an array of its own.

The child index (issue 12, docs/search-speed.md): a parent with many observation
children (a 10-player team observation has 120-252) would make every lookup walk a long
linked list of scattered nodes. Once an observation parent has ``INDEX_FROM`` children,
all its children are entered in an open-addressing hash table beside the pool
(``NodePool.index``: rows of ``[parent, child]`` int32, 8 bytes, keyed by the parent and
the child's label, linear probing, load at most 3/4) and found there by
:func:`find_child_indexed`; the search loop checks the child count to choose. Only
observation parents are indexed (:func:`index_new_child` after each :func:`add_child`):
the acting player's decision children are chosen by the bandit, never looked up by key.
The list stays complete (the bandit, inspection and relayout walk it); indexed parents
skip move-to-front, whose order no decision reads (only the order of decision children
breaks ties).

The pool grows from Python between batches of iterations (:meth:`NodePool.ensure`);
compiled code only ever takes nodes from the free space it was given. Sums of 0/1
rewards in float32 stay exact up to 2**24 visits of one node; the visit field holds up
to ``MAX_VISITS`` (2**23 - 1), and searches stop there.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import config, njit, types
from numba.core import cgutils
from numba.extending import intrinsic

from spyglass.search import huge_pages

KEY, CHILD, SIBLING, VISITS, TOTAL, SUMSQ = range(6)
N_FIELDS = 6  # with SUMSQ; 5 without
NODE_BYTES = 4 * N_FIELDS
BINARY_NODE_BYTES = 4 * (N_FIELDS - 1)
VISIT_BITS = 23
VISIT_MASK = (1 << VISIT_BITS) - 1
MAX_VISITS = VISIT_MASK
ONE_CHILD = 1 << VISIT_BITS
MAX_CHILD_COUNT = 255
MAX_ACTIONS = MAX_CHILD_COUNT  # a decision node's child count must stay exact

# meta[USED]: nodes in use; meta[FULL]: set when compiled code ran out of room (nodes,
# or the child index passed its load: Python grows it before the next batch);
# meta[BAD_REWARD]: a reward other than 0/1 reached a pool without SUMSQ;
# meta[INDEXED]: entries in the child index.
USED, FULL, BAD_REWARD, INDEXED = 0, 1, 2, 3
META_SIZE = 4

# The child index: a parent's children are indexed from this many on (below it a
# move-to-front list scan is as fast: the first entries are the hot ones; indexing from
# 16, which takes in the 32 vote patterns of 5 players, measured slower at 5 players
# and no faster at 10), and the table is grown before its load passes
# INDEX_LOAD_NUM / INDEX_LOAD_DEN (3/4 measured as fast as 1/2, with 10-35 bytes less
# per 10-player iteration; docs/search-speed.md).
INDEX_FROM = 40
INDEX_LOAD_NUM, INDEX_LOAD_DEN = 3, 4
INDEX_PARENT, INDEX_CHILD = 0, 1
_INDEX_MUL_PARENT = 0x9E3779B1
_INDEX_MUL_KEY = 0x85EBCA6B


@njit(cache=True, inline="always")
def visits_of(data: np.ndarray, u: int) -> int:
    """Node ``u``'s visit count."""
    return data[u, VISITS] & VISIT_MASK


@njit(cache=True, inline="always")
def n_children(data: np.ndarray, u: int) -> int:
    """Node ``u``'s number of children (saturating at 255)."""
    return data[u, VISITS] >> VISIT_BITS


@intrinsic
def _prefetch_row(typingctx, arr, row):
    """LLVM's prefetch (read, keep in all cache levels) of ``arr[row, 0]``."""
    if not isinstance(arr, types.Array) or arr.ndim != 2 or not isinstance(row, types.Integer):
        return None

    def codegen(context, builder, sig, args):
        aryty, rowty = sig.args
        ary = context.make_array(aryty)(context, builder, args[0])
        r = context.cast(builder, args[1], rowty, types.intp)
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [r, zero],
                                       wraparound=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, row), codegen


if config.DISABLE_JIT:
    def prefetch_node(data: np.ndarray, u: int) -> None:
        """No-op without the compiler (prefetching changes no result)."""
else:
    @njit(cache=True, inline="always")
    def prefetch_node(data: np.ndarray, u: int) -> None:
        """Start loading node ``u``'s record into the cache without waiting for it.

        The trees of one iteration are walked in lockstep and their next nodes are
        independent loads; asking for all of them first lets their cache misses overlap
        instead of queueing one behind the other (docs/search-memory.md).
        """
        _prefetch_row(data, u)


@njit(cache=True)
def new_node(data: np.ndarray, fdata: np.ndarray, meta: np.ndarray, key: int) -> int:
    """Take a fresh node labelled ``key`` from the pool; -1 (and meta[FULL]) if full."""
    u = meta[USED]
    if u >= data.shape[0]:
        meta[FULL] = 1
        return -1
    meta[USED] = u + 1
    data[u, KEY] = key
    data[u, CHILD] = -1
    data[u, SIBLING] = -1
    data[u, VISITS] = 0
    fdata[u, TOTAL] = 0.0
    if data.shape[1] > SUMSQ:
        fdata[u, SUMSQ] = 0.0
    return u


@njit(cache=True)
def find_child(data: np.ndarray, u: int, key: int) -> int:
    """The child of ``u`` labelled ``key``, or -1."""
    c = data[u, CHILD]
    while c >= 0:
        if data[c, KEY] == key:
            return c
        c = data[c, SIBLING]
    return -1


@njit(cache=True)
def find_child_mtf(data: np.ndarray, u: int, key: int) -> int:
    """:func:`find_child`, moving the found child to the front of the list.

    Observation children are looked up on every pass through their parent; keeping the
    frequent ones first shortens the scans (UCT's visit distributions are skewed).
    """
    prev = -1
    c = data[u, CHILD]
    while c >= 0:
        if data[c, KEY] == key:
            if prev >= 0:
                data[prev, SIBLING] = data[c, SIBLING]
                data[c, SIBLING] = data[u, CHILD]
                data[u, CHILD] = c
            return c
        prev = c
        c = data[c, SIBLING]
    return -1


@njit(cache=True)
def add_child(data: np.ndarray, fdata: np.ndarray, meta: np.ndarray, u: int, key: int) -> int:
    """Add a child labelled ``key`` at the head of ``u``'s child list; -1 if the pool is full."""
    c = new_node(data, fdata, meta, key)
    if c >= 0:
        data[c, SIBLING] = data[u, CHILD]
        data[u, CHILD] = c
        if data[u, VISITS] >> VISIT_BITS < MAX_CHILD_COUNT:
            data[u, VISITS] += ONE_CHILD
    return c


@njit(cache=True, inline="always")
def index_home(u: int, key: int, mask: int) -> int:
    """The first table row probed for the child of ``u`` labelled ``key``.

    Both products stay below 2**63 (``u`` and ``key`` are int32), so nothing overflows
    with or without the compiler.
    """
    x = (np.int64(u) * _INDEX_MUL_PARENT) ^ (np.int64(key) * _INDEX_MUL_KEY)
    return (x ^ (x >> 24)) & mask


@njit(cache=True)
def find_child_indexed(data: np.ndarray, index: np.ndarray, u: int, key: int) -> int:
    """The child of an indexed node ``u`` labelled ``key``, or -1, from the hash table."""
    mask = index.shape[0] - 1
    h = index_home(u, key, mask)
    while True:
        p = index[h, INDEX_PARENT]
        if p < 0:
            return -1
        if p == u:
            c = index[h, INDEX_CHILD]
            if data[c, KEY] == key:
                return c
        h = (h + 1) & mask


@njit(cache=True)
def index_insert(data: np.ndarray, index: np.ndarray, meta: np.ndarray, u: int, c: int) -> None:
    """Enter child ``c`` of ``u`` in the table; flag ``meta[FULL]`` once it needs growing."""
    mask = index.shape[0] - 1
    h = index_home(u, data[c, KEY], mask)
    while index[h, INDEX_PARENT] >= 0:
        h = (h + 1) & mask
    index[h, INDEX_PARENT] = u
    index[h, INDEX_CHILD] = c
    meta[INDEXED] += 1
    if meta[INDEXED] * INDEX_LOAD_DEN > index.shape[0] * INDEX_LOAD_NUM:
        meta[FULL] = 1  # finish this iteration (there is room), then let Python grow it


@njit(cache=True)
def index_children(data: np.ndarray, index: np.ndarray, meta: np.ndarray, u: int) -> None:
    """Enter every child of ``u`` in the table."""
    c = data[u, CHILD]
    while c >= 0:
        index_insert(data, index, meta, u, c)
        c = data[c, SIBLING]


@njit(cache=True)
def index_new_child(data: np.ndarray, index: np.ndarray, meta: np.ndarray, u: int,
                    c: int) -> None:
    """Keep the index complete after child ``c`` was added to observation parent ``u``.

    Called once ``u`` has ``INDEX_FROM`` children or more: the child that brings it
    there enters all of them, later ones themselves.
    """
    if data[u, VISITS] >> VISIT_BITS == INDEX_FROM:
        index_children(data, index, meta, u)
    else:
        index_insert(data, index, meta, u, c)


@njit(cache=True)
def add_child_indexed(data: np.ndarray, fdata: np.ndarray, meta: np.ndarray, index: np.ndarray,
                      u: int, key: int) -> int:
    """:func:`add_child` for an observation parent, keeping the child index complete.

    (The search loop writes these two steps out: a shared helper there cost speed.)
    """
    c = add_child(data, fdata, meta, u, key)
    if c >= 0 and data[u, VISITS] >> VISIT_BITS >= INDEX_FROM:
        index_new_child(data, index, meta, u, c)
    return c


@njit(cache=True)
def rebuild_index(data: np.ndarray, index: np.ndarray, meta: np.ndarray, used: int,
                  observation_parent: np.ndarray) -> None:
    """Empty the table and enter the children of every indexed node among the first ``used``.

    ``observation_parent[u]``: node ``u`` was indexed (its children are observations).
    """
    index[:, INDEX_PARENT] = -1
    meta[INDEXED] = 0
    for u in range(used):
        if observation_parent[u]:
            index_children(data, index, meta, u)


@njit(cache=True)
def indexed_parents(index: np.ndarray, used: int, out: np.ndarray) -> None:
    """``out[u] = True`` for every node ``u`` (below ``used``) with children in the table."""
    for h in range(index.shape[0]):
        p = index[h, INDEX_PARENT]
        if 0 <= p < used:
            out[p] = True


@njit(cache=True)
def backpropagate(data: np.ndarray, fdata: np.ndarray, meta: np.ndarray, u: int,
                  r: float) -> None:
    """Add one visit with reward ``r`` to node ``u``."""
    data[u, VISITS] += 1
    fdata[u, TOTAL] += r
    if data.shape[1] > SUMSQ:
        fdata[u, SUMSQ] += r * r
    elif r != 0.0 and r != 1.0:
        meta[BAD_REWARD] = 1


@njit(cache=True)
def depth_first_order(data: np.ndarray, used: int, n_roots: int, stack: np.ndarray,
                      new_id: np.ndarray) -> None:
    """``new_id[u]``: node ``u``'s place in depth-first preorder (children in list order).

    The first ``n_roots`` nodes (the trees' roots) keep their ids. Each node is followed
    by its first child's subtree, so a path that goes through first children (the most
    frequent ones, moved to the front when found; indexed parents keep insertion order)
    runs through consecutive records.
    """
    for r in range(n_roots):
        new_id[r] = r
    nxt = n_roots
    for r in range(n_roots):
        top = 0
        u = r
        while True:
            # Push u's children in reverse list order, so the first is taken first.
            k = 0
            c = data[u, CHILD]
            while c >= 0:
                k += 1
                c = data[c, SIBLING]
            i = top + k - 1
            c = data[u, CHILD]
            while c >= 0:
                stack[i] = c
                i -= 1
                c = data[c, SIBLING]
            top += k
            if top == 0:
                break
            top -= 1
            u = stack[top]
            new_id[u] = nxt
            nxt += 1


@njit(cache=True)
def copy_relabelled(data: np.ndarray, out: np.ndarray, used: int, new_id: np.ndarray) -> None:
    """Write node ``u`` of ``data`` to row ``new_id[u]`` of ``out``, links relabelled."""
    for u in range(used):
        v = new_id[u]
        for f in range(data.shape[1]):
            out[v, f] = data[u, f]
        c = data[u, CHILD]
        out[v, CHILD] = new_id[c] if c >= 0 else -1
        c = data[u, SIBLING]
        out[v, SIBLING] = new_id[c] if c >= 0 else -1


class NodePool:
    """A growable pool of search-tree nodes (see the module docstring for the layout).

    ``binary_rewards``: every reward is 0 or 1, so the sum of squares is not stored
    (20-byte nodes instead of 24); a search that meets another reward fails loudly.
    Large pools sit on transparent huge pages where the system allows
    (:mod:`spyglass.search.huge_pages`).
    """

    def __init__(self, capacity: int = 1 << 16, *, binary_rewards: bool = False) -> None:
        self.fields = N_FIELDS - 1 if binary_rewards else N_FIELDS
        self.data = huge_pages.zeros((max(int(capacity), 16), self.fields), np.int32)
        self.fdata = self.data.view(np.float32)
        self.meta = np.zeros(META_SIZE, dtype=np.int64)
        self.peak = 0
        self.index = np.full((1024, 2), -1, dtype=np.int32)  # the child index (see above)

    @property
    def binary_rewards(self) -> bool:
        return self.fields < N_FIELDS

    @property
    def node_bytes(self) -> int:
        """Bytes per node record."""
        return 4 * self.fields

    def check_rewards(self) -> None:
        """Raise if compiled code met a reward other than 0/1 in a pool without SUMSQ."""
        if self.meta[BAD_REWARD]:
            raise ValueError("the game gave a reward other than 0 or 1 to a search whose "
                             "node pool assumes 0/1 rewards (binary_rewards=True)")

    # -- management (Python, between batches) --------------------------------------
    @property
    def used(self) -> int:
        """Nodes in use."""
        return int(self.meta[USED])

    @property
    def capacity(self) -> int:
        return self.data.shape[0]

    @property
    def bytes_used(self) -> int:
        """Bytes taken by the nodes in use."""
        return self.used * self.node_bytes

    @property
    def index_bytes(self) -> int:
        """Bytes taken by the child index's table."""
        return self.index.nbytes

    def reset(self) -> None:
        """Forget every node (keeps the allocation for the next search)."""
        self.peak = max(self.peak, self.used)
        if self.meta[INDEXED]:
            self.index[:, INDEX_PARENT] = -1
        self.meta[:] = 0

    def ensure_index(self, free: int) -> None:
        """Grow the child index (doubling, rehashed) so ``free`` more entries fit its load.

        Compiled code flags ``meta[FULL]`` as soon as the load passes ``INDEX_LOAD``; what
        one iteration adds after that must still fit, so ``free`` should cover a batch's
        first iteration (the caller's bound: a few parents reaching ``INDEX_FROM``).
        """
        need = (int(self.meta[INDEXED]) + int(free)) * INDEX_LOAD_DEN
        size = self.index.shape[0]

        def short(size: int) -> bool:
            # Room for ``free`` more under the load, and for one iteration's ``free``
            # past it (the compiled code stops a batch only after the flagged iteration).
            return (need > size * INDEX_LOAD_NUM
                    or size * (INDEX_LOAD_DEN - INDEX_LOAD_NUM) <= int(free) * INDEX_LOAD_DEN)

        if not short(size):
            return
        while short(size):
            size *= 2
        flags = np.zeros(self.used, dtype=np.bool_)
        indexed_parents(self.index, self.used, flags)
        self.index = np.full((size, 2), -1, dtype=np.int32)
        rebuild_index(self.data, self.index, self.meta, self.used, flags)

    def ensure(self, free: int) -> None:
        """Grow (geometrically) so that at least ``free`` more nodes fit."""
        need = self.used + int(free)
        if need <= self.capacity:
            return
        cap = self.capacity
        while cap < need:
            cap *= 2
        grown = huge_pages.zeros((cap, self.fields), np.int32)
        grown[: self.used] = self.data[: self.used]
        self.data = grown
        self.fdata = grown.view(np.float32)

    def relayout(self, n_roots: int) -> np.ndarray:
        """Reorder the nodes depth-first (roots stay first); return old id -> new id.

        Nothing a search computes depends on where a node sits, only on the order of
        each child list, which is kept; callers remap the node ids they hold.
        """
        used = self.used
        new_id = np.empty(used, dtype=np.int32)
        stack = np.empty(used, dtype=np.int32)
        depth_first_order(self.data, used, int(n_roots), stack, new_id)
        spare = getattr(self, "_spare", None)
        if spare is None or spare.shape != self.data.shape:
            spare = huge_pages.zeros(self.data.shape, np.int32)
        flags = np.zeros(used, dtype=np.bool_)
        indexed_parents(self.index, used, flags)
        copy_relabelled(self.data, spare, used, new_id)
        self._spare, self.data = self.data, spare
        self.fdata = self.data.view(np.float32)
        moved = np.zeros(used, dtype=np.bool_)
        moved[new_id] = flags
        rebuild_index(self.data, self.index, self.meta, used, moved)
        return new_id

    def new_roots(self, count: int) -> np.ndarray:
        """``count`` fresh root nodes (label -1), as an int32 array of node ids."""
        self.ensure(count)
        roots = np.arange(self.used, self.used + count, dtype=np.int32)
        for _ in range(count):
            new_node(self.data, self.fdata, self.meta, -1)
        return roots

    # -- inspection ----------------------------------------------------------------
    def children(self, u: int) -> list[int]:
        """The children of ``u``, most recently added first."""
        out = []
        c = int(self.data[u, CHILD])
        while c >= 0:
            out.append(c)
            c = int(self.data[c, SIBLING])
        return out

    def child(self, u: int, key: int) -> int:
        """The child of ``u`` labelled ``key``, or -1."""
        return int(find_child(self.data, int(u), int(key)))

    def key(self, u: int) -> int:
        return int(self.data[u, KEY])

    def visits(self, u: int) -> int:
        return int(self.data[u, VISITS]) & VISIT_MASK

    def n_children(self, u: int) -> int:
        """Node ``u``'s number of children (saturating at 255)."""
        return int(self.data[u, VISITS]) >> VISIT_BITS

    def reward_sums(self, u: int) -> tuple[float, float]:
        """Node ``u``'s sum of rewards and sum of squared rewards."""
        return float(self.fdata[u, TOTAL]), float(self.fdata[u, self.fields - 1])

    def set_stats(self, u: int, visits: int, total: float, sumsq: float | None = None) -> None:
        """Overwrite node ``u``'s statistics (for tests and hand-built trees)."""
        if not 0 <= visits <= MAX_VISITS:
            raise ValueError(f"visits must lie in 0..{MAX_VISITS}, not {visits}")
        sumsq = total if sumsq is None else sumsq
        if self.binary_rewards and sumsq != total:
            raise ValueError("a pool for 0/1 rewards keeps no separate sum of squares")
        self.data[u, VISITS] = (int(self.data[u, VISITS]) & ~VISIT_MASK) | visits
        self.fdata[u, TOTAL] = total
        self.fdata[u, self.fields - 1] = sumsq

    def stats(self, u: int) -> tuple[int, float, float]:
        """Visits, mean reward and (population) reward variance of node ``u``."""
        n = self.visits(u)
        if n == 0:
            return 0, 0.0, 0.0
        total, sumsq = self.reward_sums(u)
        mean = total / n
        var = max(sumsq / n - mean * mean, 0.0)
        return n, mean, var
