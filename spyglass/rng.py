"""A tiny seedable random number generator usable inside numba-compiled code.

Kernels and searches take an explicit generator state (a one-element ``uint64``
array) instead of numba's hidden global one, so that the same seed gives the same
stream whether the code is compiled or run with ``NUMBA_DISABLE_JIT=1``.
The generator is Marsaglia's xorshift64 (2003), seeded through splitmix64; it uses
only shifts and xors so it never overflows in NumPy's uncompiled scalar arithmetic.
Callers use the high bits only.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_S12 = np.uint64(12)
_S25 = np.uint64(25)
_S27 = np.uint64(27)
_S11 = np.uint64(11)
_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1


def derive_seed(seed: int, *parts: int) -> int:
    """A well-mixed 63-bit seed for a sub-stream (a seat, a game, the deal) of ``seed``.

    NumPy's ``SeedSequence([seed, *parts])`` (any non-negative ints, big ones taken whole),
    its first 64-bit word shifted to 63 bits. The one derivation of every referee (seats'
    seeds) and of The Resistance's deal, so that they agree.
    """
    ss = np.random.SeedSequence([int(seed), *parts])
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def make_rng(seed: int) -> np.ndarray:
    """Return a generator state for ``seed`` (any Python int; never all-zero)."""
    # splitmix64 of the seed, so nearby seeds give unrelated streams.
    z = (int(seed) * _GOLDEN + _GOLDEN) & _MASK64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
    z ^= z >> 31
    return np.array([z or _GOLDEN], dtype=np.uint64)


@njit(cache=True)
def next_u64(rng: np.ndarray) -> np.uint64:
    """Advance the generator and return 64 random bits."""
    x = rng[0]
    x ^= x >> _S12
    x ^= x << _S25
    x ^= x >> _S27
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
