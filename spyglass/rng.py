"""A tiny seedable random number generator usable inside numba-compiled code.

Kernels and searches take an explicit generator state (a one-element ``uint64``
array) instead of numba's hidden global one, so that the same seed gives the same
stream whether the code is compiled or run with ``NUMBA_DISABLE_JIT=1``.
The generator is Marsaglia's xorshift64 (2003), seeded through splitmix64; it uses
only shifts and xors so it never overflows in NumPy's uncompiled scalar arithmetic.
Callers use the high bits only.

The compiled draws (``next_u64``, ``rand_below``, ``rand_float``, ``pick_weighted``) live
in :mod:`spyglass.rng_compiled` and are loaded from here on first use, so that code which
only derives seeds (a referee, a command's argument checks) starts without numba.
"""

from __future__ import annotations

import secrets
from typing import Any

import numpy as np

_GOLDEN = 0x9E3779B97F4A7C15
_MASK64 = (1 << 64) - 1


#: Seeds are integers in 0..MAX_SEED (a bigger one would be silently reduced somewhere).
MAX_SEED = 2**64 - 1


def fresh_seed() -> int:
    """A fresh seed from the operating system's entropy (never guessable): 63 bits, so that
    it also fits every signed 64-bit store (a database column, a compiled int64)."""
    return secrets.randbelow(2**63)


def check_seed(seed: Any, what: str = "seed") -> int:
    """The one seed rule of every referee, game and command: an integer (Python's or
    NumPy's, not a bool) in 0..2**64-1, returned as a Python int."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
        raise TypeError(f"{what} must be an integer, not {seed!r}")
    seed = int(seed)
    if not 0 <= seed <= MAX_SEED:
        raise ValueError(f"{what} must be between 0 and 2**64-1, not {seed}")
    return seed


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


_COMPILED = ("next_u64", "rand_below", "rand_float", "pick_weighted")


def __getattr__(name: str):  # noqa: ANN202 — PEP 562: the compiled draws, on first use
    if name in _COMPILED:
        from spyglass import rng_compiled

        return getattr(rng_compiled, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
