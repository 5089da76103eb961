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

Speed (issue 27): copying the generator's 625-word state in and out four times per call
took about a fifth of a 2012 bot's game. Each bot now owns a ``random.Random`` (seeded
as before, so it draws the same numbers) and, for the length of a call, the ``random``
module's functions are its bound methods: a dictionary update, no state copy. That
reaches every draw made through the module's attributes (``random.choice(...)``), which
is how 2012 bots draw. A function bound earlier by ``from random import choice`` still
points at the hidden global generator, so while a bot's own code (any loaded module
outside the Python installation and Spyglass) holds such a name, the state-copying path
above is used instead (checked whenever the set of loaded modules changes); either way
a bot draws the same numbers. Installed libraries that bound such a name themselves
(``rich`` does) draw from the global stream, not the bot's, in the fast path.
"""

from __future__ import annotations

import operator
import random
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

# The global generator is process-wide: one 2012 bot at a time may own it.
_LOCK = threading.RLock()


def _stable_order(items: set | frozenset) -> list:
    from spyglass.resistance.compat.player import Player

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


#: The ``random`` module's functions that are bound methods of its hidden generator.
_BOUND = tuple(n for n, v in vars(random).items()
               if getattr(v, "__self__", None) is random._inst)
_get_bound = operator.itemgetter(*_BOUND)  # the module's current values, in C
_get_methods = operator.attrgetter(*_BOUND)  # a generator's bound methods, in C
#: The module's own functions, as ``random`` defines them: what a call puts back (one
#: dictionary update) whenever it found them there, the usual case.
_PRISTINE = _get_bound(vars(random))
_PRISTINE_FUNCS = dict(zip(_BOUND, _PRISTINE, strict=True))
_SAMPLE = _BOUND.index("sample")


class LegacyStream:
    """One bot's private generator and the module functions that draw from it."""

    __slots__ = ("funcs", "inst")

    def __init__(self, seed: int) -> None:
        self.inst = random.Random(seed)
        methods = list(_get_methods(self.inst))
        methods[_SAMPLE] = _sampler(self.inst.sample)
        self.funcs = dict(zip(_BOUND, methods, strict=True))


def new_state(seed: int) -> LegacyStream:
    """A fresh private stream for one bot, from ``seed``."""
    return LegacyStream(seed)


# Where the interpreter's and Spyglass's own modules live (their names are not bots').
_INSTALLED = tuple({sys.prefix, sys.base_prefix, sys.exec_prefix,
                    str(Path(__file__).resolve().parents[1])})
_scan = [-1, False]  # (number of loaded modules when scanned, a from-import was found)


def _global_generator_bound_elsewhere() -> bool:
    """Whether a loaded module holds a function of the hidden global generator under a
    name of its own (``from random import choice``); rescanned when modules change."""
    if _scan[0] != len(sys.modules):
        inst = random._inst
        found = False
        for module in list(sys.modules.values()):
            names = getattr(module, "__dict__", None)
            where = getattr(module, "__file__", None)
            if (module is random or not isinstance(names, dict) or not isinstance(where, str)
                    or where.startswith(_INSTALLED)):
                continue
            if any(getattr(v, "__self__", None) is inst for v in list(names.values())):
                found = True
                break
        _scan[0], _scan[1] = len(sys.modules), found
    return _scan[1]


def call_in_stream(stream: LegacyStream, fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` with ``stream`` as the ``random`` module's generator: its draws stay
    in the stream. A plain function, not a context manager: it runs on every bot call."""
    with _LOCK:
        names = vars(random)
        if not _global_generator_bound_elsewhere():
            saved = _get_bound(names)
            names.update(stream.funcs)
            try:
                return fn(*args)
            finally:
                # A tuple comparison checks identity first: 23 pointer tests, in C.
                if saved == _PRISTINE:
                    names.update(_PRISTINE_FUNCS)
                else:  # someone else's functions (a test's mock, an outer stream)
                    names.update(zip(_BOUND, saved, strict=True))
        outer_state, outer_sample = random.getstate(), random.sample
        random.setstate(stream.inst.getstate())
        random.sample = _sampler(outer_sample)
        try:
            return fn(*args)
        finally:
            stream.inst.setstate(random.getstate())
            random.sample = outer_sample
            random.setstate(outer_state)


__all__ = ["LegacyStream", "call_in_stream", "new_state"]
