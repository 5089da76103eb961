"""The global :mod:`random` module as a 2012 bot sees it while it runs.

2012 bots draw from the module-level ``random`` functions. To make games replayable,
each bot gets a private Mersenne Twister state, seeded from its seat's seeded ``rng``,
swapped into the global generator for the length of each call into the bot and
swapped out afterwards (the caller's own global stream is left as it was).

Those bots were written for Python 2, where ``random.sample`` accepted a set. Python
3.11 refuses sets, so during a call ``random.sample`` also takes sets and frozensets,
ordered deterministically first (Players by seat) so that the same seed draws the
same sample in every process. Only the module attribute is replaced, and only during
the call; ``from random import sample`` bound earlier keeps the standard function.
"""

from __future__ import annotations

import contextlib
import random
import threading
from collections.abc import Iterator
from typing import Any

# The global generator is process-wide: one 2012 bot at a time may own it.
_LOCK = threading.RLock()


def _stable_order(items: set | frozenset) -> list:
    from spyglass.compat.player import Player

    def key(x: Any) -> tuple:
        if isinstance(x, Player):
            return (0, x.index, str(x.name))
        return (1, type(x).__name__, repr(x))

    try:
        return sorted(items, key=key)
    except TypeError:  # unorderable keys (mixed Player subclasses with odd names)
        return list(items)


def _sampler(original):
    def sample(population, k, **kwargs):
        if isinstance(population, (set, frozenset)):
            population = _stable_order(population)
        return original(population, k, **kwargs)

    sample.__doc__ = original.__doc__
    return sample


def new_state(seed: int) -> tuple:
    """A fresh generator state for one bot, from ``seed``."""
    return random.Random(seed).getstate()


@contextlib.contextmanager
def legacy_random(holder: Any, attr: str = "_random_state") -> Iterator[None]:
    """Run a block with ``holder.<attr>`` as the global random state (saved back after)."""
    with _LOCK:
        outer_state, outer_sample = random.getstate(), random.sample
        random.setstate(getattr(holder, attr))
        random.sample = _sampler(outer_sample)
        try:
            yield
        finally:
            setattr(holder, attr, random.getstate())
            random.sample = outer_sample
            random.setstate(outer_state)


__all__ = ["legacy_random", "new_state"]
