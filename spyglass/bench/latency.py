"""A memory-latency probe: nanoseconds per dependent load over a working set of given size.

Printed beside the search's speed so that a reader can tell the machine from the code
(issue 17): a pointer chase through one random cycle over ``size`` bytes defeats the
caches, the prefetchers and (past the TLB's reach) the page tables, so its time per
step is the cost of a cache miss at that size on this machine.
"""

from __future__ import annotations

import time

import numpy as np
from numba import njit

from spyglass.rng import make_rng, rand_below
from spyglass.search import huge_pages


@njit(cache=True)
def _sattolo(nxt: np.ndarray, rng: np.ndarray) -> None:
    """Make ``nxt`` one random cycle through all its indices (Sattolo's algorithm)."""
    n = nxt.shape[0]
    for i in range(n):
        nxt[i] = i
    for i in range(n - 1, 0, -1):
        j = rand_below(rng, i)  # j < i: a single cycle
        t = nxt[i]
        nxt[i] = nxt[j]
        nxt[j] = t


@njit(cache=True)
def _chase(nxt: np.ndarray, steps: int) -> int:
    p = 0
    for _ in range(steps):
        p = nxt[p]
    return p


def load_latency_ns(size_bytes: int, *, huge: bool = False, steps: int = 2_000_000,
                    repeats: int = 3, seed: int = 0) -> float:
    """Best-of-``repeats`` ns per dependent load over ``size_bytes`` (int64 cells).

    ``huge``: place the cells on 2 MiB pages where the system allows (as the search
    pools are); otherwise ordinary pages.
    """
    n = max(int(size_bytes) // 8, 2)
    nxt = huge_pages.zeros(n, np.int64) if huge else np.zeros(n, dtype=np.int64)
    _sattolo(nxt, make_rng(seed))
    _chase(nxt, min(steps, n))  # warm: fault the pages in, fill the caches it can
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        _chase(nxt, steps)
        best = min(best, (time.perf_counter() - t0) / steps * 1e9)
    return best
