"""How a game binds the sampled searches: a small cached entry-point module per game.

The loops (:func:`.so.run`, :func:`.pom.run`, :func:`.mo.run`, :func:`.uct.run`) are
``inline="always"`` functions taking the game's :class:`~spyglass.search.protocol.Kernel`
tuple. Numba cannot cache a function that receives compiled functions as arguments
(see :class:`~spyglass.search.protocol.GameKernel`), so each game has a cached module
``spyglass/games/<game>/search_entry.py`` binding the tuple as a global constant, with
``ENTRY = SearchEntry(so=..., pom=..., mo=..., uct=...)``. That module is generated from
the game registry by :mod:`spyglass.games.bindings` (never written by hand).

Inlined there, every kernel call is a static call, the whole loop is compiled for that
game alone and cached on disk, so no game pays for the generality at run time.
``simultaneous(s)`` says whether the actor's move belongs to a round of simultaneous
moves (hidden moves closed by a ``move_reveals`` move); EXP3 applies only there. A game
without simultaneous moves binds :func:`no_simultaneous` (its class leaves
``simultaneous`` at None).

Numba checks only the timestamp of the file that defines a cached function;
:func:`spyglass.search.cache.flush_stale_caches` (re-exported here) drops the cached entry
points when any source reachable through their imports changed.
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from spyglass.search.cache import flush_stale_caches

__all__ = ["SearchEntry", "flush_stale_caches", "no_simultaneous"]

SearchEntry = namedtuple("SearchEntry", ["so", "pom", "mo", "uct"])
SearchEntry.__doc__ = "One game's cached compiled entry points to the sampled searches."


@njit(cache=True)
def no_simultaneous(s: np.ndarray) -> bool:
    """The ``simultaneous`` predicate of a game whose moves are all sequential."""
    return False
