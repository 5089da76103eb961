"""The compiled draws of :mod:`spyglass.rng`'s xorshift64 generator (Marsaglia 2003).

Imported through :mod:`spyglass.rng` (``from spyglass.rng import rand_below``), which loads
this module, and numba, only when a draw is first needed.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S11 = np.uint64(11)


@njit(cache=True, inline="always")
def xorshift_step(x: np.uint64) -> np.uint64:
    """One xorshift64 step (Marsaglia 2003): shifts and xors only, so it gives the same
    bits compiled and uncompiled (no overflow)."""
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
    return x


@njit(cache=True)
def next_u64(rng: np.ndarray) -> np.uint64:
    """Advance the generator and return 64 random bits."""
    x = xorshift_step(rng[0])
    rng[0] = x
    return x


@njit(cache=True)
def rand_below(rng: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` (``n`` > 0; bias below 2**-40 for small n)."""
    return int((next_u64(rng) >> _S11) % np.uint64(n))


@njit(cache=True)
def rand_float(rng: np.ndarray) -> float:
    """A uniform float in ``[0, 1)`` with 53 random bits."""
    return float(next_u64(rng) >> _S11) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def pick_weighted(counts: np.ndarray, total: int, rng: np.ndarray) -> int:
    """An index ``r`` drawn with probability ``counts[r] / total`` (``total`` is the sum of
    ``counts``; -1 when it is not positive). One draw of :func:`rand_below`."""
    if total <= 0:
        return -1
    x = rand_below(rng, total)
    for r in range(counts.shape[0]):
        if x < counts[r]:
            return r
        x -= counts[r]
    return -1
