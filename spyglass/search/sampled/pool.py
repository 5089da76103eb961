"""The node pool of the sampled searches: one 64-byte record per node, 64-bit keys.

Like :mod:`spyglass.search.tree` (the Resistance searches' pool), every tree of a search
lives in one preallocated array that grows from Python between batches, so compiled code
allocates nothing per iteration. The differences are what the game-general searches
need: edge labels are ``int64`` (observation keys are 64-bit hashes for games with
large views; own moves are action ids), and the statistics are ``float64`` (exact sums
at any visit count). A node is one row of eight ``int64`` fields, exactly one cache line;
the two real-valued fields are read through a ``float64`` view of the same rows.

=========  =======  ===================================================================
column     type     meaning
=========  =======  ===================================================================
KEY        int64    edge label from the parent: a *move key* (negative, see below) for
                    the mover's own choice, or an observation key (non-negative)
CHILD      int64    first child (-1: none); children form a singly linked list
SIBLING    int64    next sibling (-1: last)
NCHILD     int64    number of children
VISITS     int64    iterations that backpropagated through the node
AVAIL      int64    availability count n' (Whitehouse 2014, §5.2.1, eq. 5.1)
TOTAL      float64  sum of rewards
SUMSQ      float64  sum of squared rewards (UCB-Tuned's variance)
=========  =======  ===================================================================

Move keys: ``-2 - (a * 256 + p)`` labels player ``p``'s choice of action id ``a``
(:func:`move_key`). Keeping them negative keeps them apart from observation keys, which
are never negative: a node can hold both kinds of children when who acts next depends on
something its owner cannot see (in Phantom, after an opponent's move the opponent moves
again if it was refused, unseen; otherwise the owner moves). Naming the player keeps two
players' moves apart in SO-ISMCTS's one tree. (UCT trees hold plain action ids.) Up to
256 players.

A *compact* pool (``Pool(..., compact=True)``) has 24-byte nodes of six 32-bit fields:
KEY, CHILD, SIBLING as above, then VISITS, AVAIL (``int32``) and TOTAL (``float32``) in
columns :data:`C_VISITS`, :data:`C_AVAIL`, :data:`C_TOTAL`; no NCHILD, and no SUMSQ (the
rewards must be 0 or 1, whose squares sum to TOTAL; ``float32`` sums stay exact up to
2**24 visits). It is for a game whose keys fit 32 bits: The Resistance's enumerated
searches (:mod:`spyglass.search.so_ismcts`), whose own pool was as small (issue 17,
docs/search-memory.md): with 64-byte nodes their trees outgrow the caches sooner (MO at 10
players measured 0.70x). The single- and multiple-tree loops take it as a compile-time
variant (``compact=True``; no ICARUS, no particles).

``meta`` holds the pool's fill level and the flags compiled code raises instead of
silently truncating: ``FULL`` (no room for a node: Python grows the pool and resumes),
``DEPTH`` (a path was longer than the bound the game declared: an error),
``SAMPLE_FAILED`` (the game's sampler gave up repeatedly: an error).
"""

from __future__ import annotations

import numpy as np
from numba import njit

KEY, CHILD, SIBLING, NCHILD, VISITS, AVAIL, TOTAL, SUMSQ = range(8)
N_FIELDS = 8
NODE_BYTES = 8 * N_FIELDS

#: The compact layout's columns (KEY, CHILD and SIBLING are the same).
C_VISITS, C_AVAIL, C_TOTAL = 3, 4, 5
C_FIELDS = 6

USED, FULL, DEPTH, SAMPLE_FAILED = range(4)
META_SIZE = 4
PLAYER_BITS = 8
#: Draws of a determinization a search tries before it flags ``SAMPLE_FAILED``.
MAX_SAMPLE_TRIES = 100


@njit(inline="always")
def draw_determinization(G, view, searcher, rng, s) -> bool:
    """Draw a determinization of ``searcher``'s ``view`` into ``s`` (``G.sample``), trying
    up to :data:`MAX_SAMPLE_TRIES` times; False if every try failed. The tree loops call it
    (``.py_func`` in their plain-Python variant)."""
    for _t in range(MAX_SAMPLE_TRIES):
        if G.sample(view, searcher, rng, s):
            return True
    return False


def move_key(action: int, player: int) -> int:
    """The edge key of ``player`` choosing ``action`` (the loops write it out inline)."""
    return -2 - ((int(action) << PLAYER_BITS) | int(player))


def decode_move_key(key: int) -> tuple[int, int]:
    """``(action, player)`` of a move key; ValueError for an observation key."""
    if key > -2:
        raise ValueError(f"{key} is an observation key, not a move key")
    z = -2 - int(key)
    return z >> PLAYER_BITS, z & ((1 << PLAYER_BITS) - 1)


@njit(inline="always")
def _take_node(data: np.ndarray, meta: np.ndarray) -> int:
    """The next free row; -1 (and ``meta[FULL]``) if the pool is full."""
    u = meta[USED]
    if u >= data.shape[0]:
        meta[FULL] = 1
        return -1
    meta[USED] = u + 1
    return u


@njit(cache=True)
def new_node(data: np.ndarray, fdata: np.ndarray, meta: np.ndarray, key: int) -> int:
    """Take a fresh node labelled ``key``; -1 (and ``meta[FULL]``) if the pool is full."""
    u = _take_node(data, meta)
    if u < 0:
        return -1
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
def add_child(data: np.ndarray, fdata: np.ndarray, meta: np.ndarray, u: int, key: int) -> int:
    """A new child of ``u`` labelled ``key`` (head of the list); -1 if the pool is full."""
    c = new_node(data, fdata, meta, key)
    if c >= 0:
        data[c, SIBLING] = data[u, CHILD]
        data[u, CHILD] = c
        data[u, NCHILD] += 1
    return c


@njit(cache=True)
def new_node_compact(data: np.ndarray, fdata: np.ndarray, meta: np.ndarray, key: int) -> int:
    """:func:`new_node` in a compact pool."""
    u = _take_node(data, meta)
    if u >= 0:
        data[u, KEY] = key
        data[u, CHILD] = -1
        data[u, SIBLING] = -1
        data[u, C_VISITS:] = 0  # VISITS, AVAIL and TOTAL (0.0 has the bits of 0)
    return u


@njit(cache=True)
def add_child_compact(data: np.ndarray, fdata: np.ndarray, meta: np.ndarray, u: int,
                      key: int) -> int:
    """:func:`add_child` in a compact pool."""
    c = new_node_compact(data, fdata, meta, key)
    if c >= 0:
        data[c, SIBLING] = data[u, CHILD]
        data[u, CHILD] = c
    return c


@njit(cache=True)
def find_child_mtf(data: np.ndarray, u: int, key: int) -> int:
    """The child of ``u`` labelled ``key`` (moved to the front of the list), or -1.

    Observation children are looked up on every pass; keeping the frequent ones first
    shortens the scans (visit distributions under UCT are skewed).
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
def find_child(data: np.ndarray, u: int, key: int) -> int:
    """The child of ``u`` labelled ``key``, or -1 (the list is left as it is)."""
    c = data[u, CHILD]
    while c >= 0:
        if data[c, KEY] == key:
            return c
        c = data[c, SIBLING]
    return -1


def layout(compact: bool) -> tuple:
    """``(VISITS, AVAIL, TOTAL, SUMSQ, add_child)`` of the plain or the compact layout, as
    the loops bind them (closure constants: each layout compiles to its own loop). In the
    compact layout SUMSQ is TOTAL (0/1 rewards), so a loop must not add to it."""
    if compact:
        return C_VISITS, C_AVAIL, C_TOTAL, C_TOTAL, add_child_compact
    return VISITS, AVAIL, TOTAL, SUMSQ, add_child


class Pool:
    """A growable pool of nodes (see the module docstring for the layout).

    ``max_nodes`` caps the growth: a search that would need more raises a MemoryError
    naming the cap, instead of exhausting the machine.
    """

    def __init__(self, capacity: int = 1 << 14, max_nodes: int = 1 << 25,
                 compact: bool = False) -> None:
        self.max_nodes = int(max_nodes)
        self.compact = bool(compact)
        self.dtype, self.ftype = (np.int32, np.float32) if compact else (np.int64, np.float64)
        self.fields = C_FIELDS if compact else N_FIELDS
        self._visits, self._avail, self._total = ((C_VISITS, C_AVAIL, C_TOTAL) if compact
                                                  else (VISITS, AVAIL, TOTAL))
        self.data = np.zeros((max(16, min(int(capacity), self.max_nodes)), self.fields),
                             dtype=self.dtype)
        self.fdata = self.data.view(self.ftype)
        self.meta = np.zeros(META_SIZE, dtype=np.int64)

    @property
    def used(self) -> int:
        """Nodes in use."""
        return int(self.meta[USED])

    @property
    def capacity(self) -> int:
        return self.data.shape[0]

    @property
    def bytes_used(self) -> int:
        return self.used * self.data.strides[0]

    def reset(self) -> None:
        """Forget every node (keeps the allocation)."""
        self.meta[:] = 0

    def ensure(self, free: int) -> None:
        """Grow geometrically so that ``free`` more nodes fit; MemoryError past the cap."""
        need = self.used + int(free)
        if need <= self.capacity:
            return
        if need > self.max_nodes:
            mib = need * self.data.strides[0] >> 20
            raise MemoryError(
                f"the search tree needs {need} nodes ({mib} MiB), more than its cap of "
                f"{self.max_nodes}; lower the budget or raise max_nodes"
            )
        cap = self.capacity
        while cap < need:
            cap *= 2
        cap = min(cap, self.max_nodes)
        grown = np.zeros((cap, self.fields), dtype=self.dtype)
        grown[: self.used] = self.data[: self.used]
        self.data = grown
        self.fdata = grown.view(self.ftype)

    def new_roots(self, count: int) -> np.ndarray:
        """``count`` fresh root nodes (label -1), as an int64 array of node ids."""
        self.ensure(count)
        make = new_node_compact if self.compact else new_node
        return np.array([make(self.data, self.fdata, self.meta, -1) for _ in range(count)],
                        dtype=np.int64)

    # -- inspection (tests, reports) ------------------------------------------------
    def children(self, u: int) -> list[int]:
        """The children of ``u``, in list order."""
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
        return int(self.data[u, self._visits])

    def avail(self, u: int) -> int:
        return int(self.data[u, self._avail])

    def mean(self, u: int) -> float:
        n = int(self.data[u, self._visits])
        return float(self.fdata[u, self._total]) / n if n else 0.0
