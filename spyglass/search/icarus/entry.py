"""How a game binds the ICARUS loops: ``ICARUS = IcarusEntry(...)`` in its search_entry.

Like the sampled searches (:mod:`spyglass.search.sampled.entry`), each loop is inlined
into a small cached entry point per game, with the game's ``KERNEL`` and its EPIC
episode function (``episode(s, a) -> label or -1``, Whitehouse 2014, §8.3.2) as global
constants. A game without an episode function binds :func:`no_episodes` and sets
``has_episodes=False``; asking it for EPIC is then a ValueError. The unenhanced searches
do not go through these entry points at all (the agents run the unchanged loops).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

IcarusEntry = namedtuple("IcarusEntry", ["uct", "mo", "has_episodes", "so"], defaults=(None,))
IcarusEntry.__doc__ = "One game's cached ICARUS entry points (``mo`` and ``so`` may be None)."


@njit(cache=True)
def no_episodes(s: np.ndarray, a: int) -> int:
    """The episode function of a game without one: every state continues."""
    return -1


def icarus_modules() -> tuple:
    """The ICARUS modules an entry point inlines, for
    :func:`spyglass.search.sampled.entry.flush_stale_caches` (numba checks only the
    timestamp of the entry point's own file)."""
    from spyglass.search.icarus import mo, records, so, spec, uct

    return (records, spec, uct, mo, so)
