"""64-bit keys of small integer arrays (information-set keys of views), compiled.

A game's ``info_key`` must be equal for states a player cannot tell apart; hashing the
player's view gives exactly that. The hash is two polynomial hashes modulo primes below
2**31, packed into one non-negative 62-bit integer: it needs no wrapping arithmetic, so it
gives the same keys compiled and under ``NUMBA_DISABLE_JIT=1`` (NumPy scalars warn on
overflow), and two different views collide with probability about ``len(v)**2 / 2**62``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng_compiled import xorshift_step

_P1, _B1 = 2147483647, 1000003  # 2**31 - 1
_P2, _B2 = 2147483629, 999983


@njit(cache=True, inline="always")
def hash_words(v: np.ndarray, n: int) -> int:
    """A 62-bit key of ``v[:n]`` (int64 values of any sign)."""
    h1 = 0
    h2 = 0
    for i in range(n):
        x = v[i]
        h1 = (h1 * _B1 + x % _P1 + 1) % _P1
        h2 = (h2 * _B2 + x % _P2 + 1) % _P2
    return (h1 << 31) | h2


_S7 = np.uint64(7)
_S9 = np.uint64(9)


@njit(cache=True, inline="always")
def mix_word(h: np.uint64, x: np.uint64) -> np.uint64:
    """``h`` with the word ``x`` mixed in (xor, a xorshift64 step, two more shifts): a
    running 64-bit key built from shifts and xors only, so it is the same compiled and
    uncompiled."""
    h ^= x
    h = xorshift_step(h)
    h ^= h << _S9
    h ^= h >> _S7
    return h
