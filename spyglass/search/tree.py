"""The node pool shared by every tree of one search: one 32-byte record per node.

All trees of a search live in one preallocated pool, so a search allocates nothing per
iteration. A node is a row of eight 32-bit fields in one ``int32`` array; the two
statistics that are real numbers are read through a ``float32`` view of the same rows,
so that a node's fields sit together in one cache line (the child scans and the bandit
touch all of them at once).

=========  =======  ===================================================================
column     type     meaning
=========  =======  ===================================================================
KEY        int32    the edge label from the parent: an observation key, or the action
                    index for the acting player's own choice (a "decision child")
CHILD      int32    first child (-1: none); children form a singly linked list
SIBLING    int32    next sibling (-1: last)
NCHILD     int32    number of children
VISITS     int32    iterations that backpropagated through the node
AVAIL      int32    availability count (reserved for SO-ISMCTS-style subset-armed bandits)
TOTAL      float32  sum of rewards
SUMSQ      float32  sum of squared rewards (for UCB-Tuned's variance and BLUFF's sigma)
=========  =======  ===================================================================

The pool grows from Python between batches of iterations (:meth:`NodePool.ensure`);
compiled code only ever takes nodes from the free space it was given. Sums of 0/1
rewards in float32 stay exact up to 2**24 (16.7 million) visits of one node.
"""

from __future__ import annotations

import numpy as np
from numba import njit

KEY, CHILD, SIBLING, NCHILD, VISITS, AVAIL, TOTAL, SUMSQ = range(8)
N_FIELDS = 8
NODE_BYTES = 4 * N_FIELDS

# meta[USED]: nodes in use; meta[FULL]: set when compiled code ran out of room.
USED, FULL = 0, 1
META_SIZE = 2


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
    data[u, NCHILD] = 0
    data[u, VISITS] = 0
    data[u, AVAIL] = 0
    fdata[u, TOTAL] = 0.0
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
        data[u, NCHILD] += 1
    return c


@njit(cache=True)
def backpropagate(data: np.ndarray, fdata: np.ndarray, u: int, r: float) -> None:
    """Add one visit with reward ``r`` to node ``u``."""
    data[u, VISITS] += 1
    fdata[u, TOTAL] += r
    fdata[u, SUMSQ] += r * r


class NodePool:
    """A growable pool of search-tree nodes (see the module docstring for the layout)."""

    def __init__(self, capacity: int = 1 << 16) -> None:
        self.data = np.zeros((max(int(capacity), 16), N_FIELDS), dtype=np.int32)
        self.fdata = self.data.view(np.float32)
        self.meta = np.zeros(META_SIZE, dtype=np.int64)
        self.peak = 0

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
        return self.used * NODE_BYTES

    def reset(self) -> None:
        """Forget every node (keeps the allocation for the next search)."""
        self.peak = max(self.peak, self.used)
        self.meta[:] = 0

    def ensure(self, free: int) -> None:
        """Grow (geometrically) so that at least ``free`` more nodes fit."""
        need = self.used + int(free)
        if need <= self.capacity:
            return
        cap = self.capacity
        while cap < need:
            cap *= 2
        grown = np.zeros((cap, N_FIELDS), dtype=np.int32)
        grown[: self.used] = self.data[: self.used]
        self.data = grown
        self.fdata = grown.view(np.float32)

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
        return int(self.data[u, VISITS])

    def stats(self, u: int) -> tuple[int, float, float]:
        """Visits, mean reward and (population) reward variance of node ``u``."""
        n = int(self.data[u, VISITS])
        if n == 0:
            return 0, 0.0, 0.0
        mean = float(self.fdata[u, TOTAL]) / n
        var = max(float(self.fdata[u, SUMSQ]) / n - mean * mean, 0.0)
        return n, mean, var

    def subtree_size(self, u: int) -> int:
        """Number of nodes in the subtree under (and including) ``u``."""
        count, stack = 0, [int(u)]
        while stack:
            v = stack.pop()
            count += 1
            stack.extend(self.children(v))
        return count
