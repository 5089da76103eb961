"""Turn whatever an untrusted bot returns into plain, bounded, built-in values.

A referee must never compare, hash, store or print an object a bot made: an ``int``
subclass can answer True to every comparison (so seat 7 passes ``0 <= seat < 5``), a
generator can run for ever or raise while it is read, ``range(10**7)`` or a NaN can make
a record unreadable or not JSON at all. :func:`plain` copies a value into exact
``bool``/``int``/``float``/``str``/``list``/``dict``/``None`` objects, reading iterables
with a cap and refusing anything else, so that the checks that follow see only values
whose behaviour is the language's own. Callers run it inside the bot's time limit, since
reading an iterator runs the bot's code. It is game-neutral: any referee can use it.
"""

from __future__ import annotations

import math
import sys
from typing import Any

#: Default caps: total number of values in one answer, nesting depth, string length.
MAX_ITEMS = 1000
MAX_DEPTH = 8
MAX_STR = 10_000
#: Integers beyond 64 bits are never a meaningful answer (and cost time to print).
MAX_INT = 2**64

_NP_INTS = ("int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64")
_NP_FLOATS = ("float16", "float32", "float64")
_NP_TYPES: list[tuple] = []  # (numpy, bool_, int types, float types), once numpy is loaded


def _numpy_types() -> tuple | None:
    """NumPy and its scalar types if this process has imported it, else None: a value
    cannot be a NumPy scalar or array otherwise (an isolated worker never imports it)."""
    if not _NP_TYPES:
        np = sys.modules.get("numpy")
        if np is None:
            return None
        _NP_TYPES.append((np, np.bool_, tuple(getattr(np, n) for n in _NP_INTS),
                          tuple(getattr(np, n) for n in _NP_FLOATS)))
    return _NP_TYPES[0]


class NotPlain(ValueError):
    """A value that is not, or cannot be copied into, a plain bounded value."""


def describe(value: Any, limit: int = 120) -> str:
    """A short, safe description of any value: a plain value's repr, else only its type.

    Never calls a method of a foreign object (its ``__repr__`` could hang or raise).
    """
    t = type(value)
    if value is None or t in (bool, int, float, str, list, tuple, dict):
        try:
            text = repr(plain(value, max_items=50)) if t in (list, tuple, dict) else repr(value)
        except (NotPlain, RecursionError):
            text = f"<{t.__name__}>"
        return text if len(text) <= limit else text[: limit - 3] + "..."
    if t.__module__.startswith("spyglass."):  # Spyglass's own classes (a 2012 Player)
        try:
            return repr(value)[:limit]
        except Exception:  # noqa: BLE001
            pass
    return f"<{t.__module__}.{t.__qualname__} object>"[:limit]


def plain(
    value: Any,
    *,
    max_items: int = MAX_ITEMS,
    max_depth: int = MAX_DEPTH,
    max_str: int = MAX_STR,
) -> Any:
    """A copy of ``value`` made only of exact built-in types, or :class:`NotPlain`.

    Tuples, sets and any other iterables become lists (read item by item, at most
    ``max_items`` values in all); subclasses of ``int``, ``float``, ``str``, ``dict`` and
    NumPy scalars become the base value; floats must be finite; dict keys must be
    strings or integers. Bytes and other objects are refused.
    """
    budget = [max_items]
    return _plain(value, budget, max_depth, max_str)


def _count(budget: list[int]) -> None:
    budget[0] -= 1
    if budget[0] < 0:
        raise NotPlain("too many values (an answer is limited in size)")


def _plain(v: Any, budget: list[int], depth: int, max_str: int) -> Any:
    _count(budget)
    t = type(v)
    if v is None or t is bool:
        return v
    if t is int:
        if not -MAX_INT < v < MAX_INT:
            raise NotPlain("an integer beyond 64 bits")
        return v
    if t is float:
        if not math.isfinite(v):
            raise NotPlain(f"{v!r} is not a finite number")
        return v
    if t is str:
        if len(v) > max_str:
            raise NotPlain(f"a string of more than {max_str} characters")
        return v
    numpy = _numpy_types()
    np = None
    if numpy is not None:
        np, np_bool, np_ints, np_floats = numpy
        if t is np_bool:
            return bool(v)
        if t in np_ints:
            budget[0] += 1  # the same value, converted: counted once
            return _plain(int(v), budget, depth, max_str)
        if t in np_floats:
            budget[0] += 1
            return _plain(float(v), budget, depth, max_str)
    # Subclasses of the built-ins: the base type's own method reads the true value,
    # whatever the subclass overrides (comparisons, __int__, __iter__, ...).
    if issubclass(t, bool):  # pragma: no cover — bool cannot be subclassed
        return bool.__bool__(v)
    if issubclass(t, int):
        budget[0] += 1
        return _plain(int.__int__(v), budget, depth, max_str)
    if issubclass(t, float):
        budget[0] += 1
        return _plain(float.__float__(v), budget, depth, max_str)
    if issubclass(t, str):
        budget[0] += 1
        return _plain(str.__str__(v), budget, depth, max_str)
    if issubclass(t, (bytes, bytearray, memoryview)):
        raise NotPlain(f"{t.__name__} is not a plain value")
    if depth <= 0:
        raise NotPlain("nested too deeply")
    if issubclass(t, dict):
        out = {}
        for key, item in dict.items(v):
            k = _plain(key, budget, 0, max_str)
            if type(k) not in (str, int):
                raise NotPlain(f"a dict key must be a string or an integer, not {describe(k)}")
            out[k] = _plain(item, budget, depth - 1, max_str)
        return out
    if t is list or t is tuple:
        return [_plain(x, budget, depth - 1, max_str) for x in v]
    if np is not None and issubclass(t, np.ndarray):
        if v.size > budget[0]:
            raise NotPlain("too many values (an answer is limited in size)")
        return [_plain(x, budget, depth - 1, max_str) for x in np.ndarray.tolist(v)]
    try:
        it = iter(v)
    except TypeError:
        raise NotPlain(f"{describe(v)} is not a plain value") from None
    out = []
    for x in it:  # runs the bot's code (generators): callers keep it under the time limit
        out.append(_plain(x, budget, depth - 1, max_str))
    return out


def plain_items(value: Any, *, not_item: str = "is not a plain value",
                max_items: int = MAX_ITEMS) -> Any:
    """Like :func:`plain` for an answer that should be a flat list (a team of seats): an
    item that is not a plain scalar is named in the error (``"<item> {not_item}"``)."""
    if type(value) not in (list, tuple):
        return plain(value, max_items=max_items, max_depth=2)
    if len(value) > max_items:
        raise NotPlain("too many values (an answer is limited in size)")
    out = []
    for x in value:
        try:
            out.append(plain(x, max_items=1, max_depth=0))
        except NotPlain:
            raise NotPlain(f"{describe(x)} {not_item}") from None
    return out


def finite_or_none(x: Any) -> Any:
    """Replace non-finite floats (NaN, infinities) anywhere in plain data by None.

    For statistics computed by Spyglass itself (a rate of nothing is NaN): JSON written
    by Spyglass is standard JSON, which has no NaN.
    """
    if isinstance(x, float) and not math.isfinite(x):
        return None
    if isinstance(x, dict):
        return {k: finite_or_none(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [finite_or_none(v) for v in x]
    return x


#: Decimal places of every float a game record stores (suspicion, beliefs, rewards, any
#: diagnostic). Bots' estimates come from NumPy's vectorised sums and logs, whose last bits
#: depend on the CPU's vector width; two machines then differ by some 1e-16..1e-14. Rounded
#: to 1e-6, such values can only come out differently if they straddle a rounding boundary:
#: a chance of about (difference / 1e-6) <= 1e-8 per value, so a tournament of 10^5 stored
#: values differs between machines about once in a thousand runs at the very worst (at
#: 1e-9 it would be one run in ten). Six decimals keep far more than any statistic uses
#: (suspicion inaccuracies are averaged into curves with intervals near 1e-2).
RECORD_DECIMALS = 6


def stored(value: Any, decimals: int = RECORD_DECIMALS) -> Any:
    """Plain data with every float rounded to ``decimals`` places, as records store them.

    ``-0.0`` becomes ``0.0`` (a value a hair below zero on one machine and above it on
    another must give the same text). Other values are returned as they are.
    """
    t = type(value)
    if t is float:
        return round(value, decimals) + 0.0 if math.isfinite(value) else value
    if t is dict:
        return {k: stored(v, decimals) for k, v in value.items()}
    if t is list or t is tuple:
        return [stored(v, decimals) for v in value]
    return value


def clip_text(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` characters, saying how much was cut."""
    if len(text) <= limit:
        return text
    cut = len(text) - limit
    return text[: limit - 40] + f"... [{cut} characters cut]"


__all__ = ["MAX_ITEMS", "RECORD_DECIMALS", "NotPlain", "clip_text", "describe",
           "finite_or_none", "plain", "plain_items", "stored"]
