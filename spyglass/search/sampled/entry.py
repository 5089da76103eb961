"""How a game binds the sampled searches: a small cached entry-point module per game.

The loops (:func:`.so.run`, :func:`.pom.run`, :func:`.mo.run`, :func:`.uct.run`) are
``inline="always"`` functions taking the game's :class:`~spyglass.search.protocol.Kernel`
tuple. Numba cannot cache a function that receives compiled functions as arguments
(see :class:`~spyglass.search.protocol.GameKernel`), so each game writes
``spyglass/games/<game>/search_entry.py``, about twenty lines, binding the tuple as a
global constant (numba's inliner does not take ``*args``, so the arguments are
written out)::

    from numba import njit
    from spyglass.games.mygame.kernel import KERNEL
    from spyglass.search.sampled import mo, pom, so, uct
    from spyglass.search.sampled.entry import SearchEntry, no_simultaneous

    @njit(cache=True)
    def run_so(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
        return so.run(KERNEL, no_simultaneous, view, seat, n_act, size, root, data, fdata,
                      meta, xs, kind, c, exp3, n, rng, w)

    (run_pom, run_mo: the same with pom.run, mo.run)

    @njit(cache=True)
    def run_uct(state, n_act, root, data, fdata, meta, kind, c, n, rng, w):
        return uct.run(KERNEL, state, n_act, root, data, fdata, meta, kind, c, n, rng, w)

    ENTRY = SearchEntry(so=run_so, pom=run_pom, mo=run_mo, uct=run_uct)
    flush_stale_caches(ENTRY, (kernel_module,))

Inlined there, every kernel call is a static call, the whole loop is compiled for that
game alone and cached on disk, so no game pays for the generality at run time.
``simultaneous(s)`` says whether the actor's move belongs to a round of simultaneous
moves (hidden moves closed by a ``move_reveals`` move); EXP3 applies only there. A game
without simultaneous moves binds :func:`no_simultaneous`.

Numba checks only the timestamp of the file that defines a cached function, and these
entry points inline the game's kernel and the loops here; :func:`flush_stale_caches`
(called at the end of each ``search_entry.py``) keeps a fingerprint of those sources
beside numba's cache and drops the cached entry points when one has changed, as
:mod:`spyglass.games.resistance.search_kernel` does for MT-ISMCTS.
"""

from __future__ import annotations

import hashlib
from collections import namedtuple
from collections.abc import Iterable
from pathlib import Path
from types import ModuleType

import numpy as np
from numba import njit

SearchEntry = namedtuple("SearchEntry", ["so", "pom", "mo", "uct"])
SearchEntry.__doc__ = "One game's cached compiled entry points to the sampled searches."


@njit(cache=True)
def no_simultaneous(s: np.ndarray) -> bool:
    """The ``simultaneous`` predicate of a game whose moves are all sequential."""
    return False


def flush_stale_caches(entry: SearchEntry, modules: Iterable[ModuleType] = ()) -> None:
    """Drop ``entry``'s cached compiled code if a module inlined into it has changed.

    ``modules``: the game's modules the entry points inline (its kernel); the sampled
    search modules, :mod:`spyglass.rng`, :mod:`spyglass.search.bandits` and
    :mod:`spyglass.search.protocol` are added here.
    """
    from spyglass import rng
    from spyglass.search import bandits, protocol
    from spyglass.search.sampled import mo, pom, pool, select, so, uct

    digest = hashlib.sha256()
    for mod in (*modules, rng, bandits, protocol, pool, select, so, pom, mo, uct):
        digest.update(Path(mod.__file__).read_bytes())
    for fn in entry:
        cache = getattr(fn, "_cache", None)
        if cache is None or not hasattr(cache, "flush"):  # NUMBA_DISABLE_JIT=1
            return
        try:
            marker = Path(cache.cache_path) / f"{fn.py_func.__module__}.{fn.__name__}.deps"
            if not marker.exists() or marker.read_text() != digest.hexdigest():
                cache.flush()
                marker.write_text(digest.hexdigest())
        except OSError:  # a read-only cache directory: numba will not cache either
            pass
