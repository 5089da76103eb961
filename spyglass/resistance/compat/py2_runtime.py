"""Python 2 behaviour that Python 3 changed, for code converted from a 2012 bot file.

The converter (:mod:`spyglass.resistance.compat.py2`) rewrites ordering comparisons, ``/``,
``list.sort`` calls and a few builtins of a converted module into calls of the helpers
here, and puts :data:`PY2_BUILTINS` in the module's namespace. What they emulate:

* Ordering of mixed types (CPython 2.7's default comparison): ``None`` is smaller than
  everything; numbers compare by value and are smaller than every other type; other
  values of different types order by type name; tuples and lists compare element by
  element under these rules, dicts by length first. Two objects of one type that has no
  ordering compared by memory address in Python 2, an arbitrary but consistent order:
  here 2012 ``Player`` objects order by seat and other objects by ``id`` (consistent
  within a run, arbitrary like Python 2's). A comparison Python 3 can answer is
  answered by Python 3 (same result as Python 2 for numbers, strings, tuples of them).
* ``/`` on two integers is floor division (unless the file imports ``division``).
* ``sorted``, ``min``, ``max`` and ``list.sort`` order mixed types the same way and
  accept Python 2's ``cmp=`` argument; ``cmp`` and ``reduce`` are builtins again.
* ``filter``, ``map``, ``zip`` and ``range`` return lists, ``map(None, ...)`` pads like
  Python 2; ``round`` returns a float and rounds halves away from zero.
* Classes that define ``__cmp__`` (and no rich comparisons) get ``<``, ``==`` ... from
  it, and ``__div__`` is also ``/`` (:func:`patch_class`).
"""

from __future__ import annotations

import builtins
import functools
import itertools
import math
from numbers import Number
from typing import Any

_NUMBER_TYPES = (int, float)


def _is_number(x: Any) -> bool:
    return isinstance(x, Number) and not isinstance(x, complex)


def _sign(x: Any) -> int:
    return (x > 0) - (x < 0)


def py2_cmp(a: Any, b: Any) -> int:
    """``cmp(a, b)`` with Python 2.7's rules for values of different types."""
    if a is b:
        return 0
    if isinstance(a, (tuple, list)) and type(a) is type(b):
        for x, y in zip(a, b, strict=False):
            if not _eq(x, y):
                return py2_cmp(x, y)
        return _sign(len(a) - len(b))
    if isinstance(a, dict) and isinstance(b, dict):
        if len(a) != len(b):
            return _sign(len(a) - len(b))
        return 0 if _eq(a, b) else _sign(id(a) - id(b))
    cmp_a = getattr(type(a), "__cmp__", None)
    if cmp_a is not None:
        return _sign(cmp_a(a, b))
    cmp_b = getattr(type(b), "__cmp__", None)
    if cmp_b is not None:
        return -_sign(cmp_b(b, a))
    try:
        if a < b:
            return -1
        if b < a:
            return 1
        if _eq(a, b):
            return 0
    except TypeError:
        pass
    return _fallback(a, b)


def _eq(a: Any, b: Any) -> bool:
    try:
        return bool(a == b)
    except TypeError:
        return a is b


def _fallback(a: Any, b: Any) -> int:
    """Python 2's order of values that have no order of their own."""
    if a is None or b is None:
        return -1 if a is None else 1
    num_a, num_b = _is_number(a), _is_number(b)
    if num_a != num_b:
        return -1 if num_a else 1
    if type(a) is not type(b):
        name_a, name_b = type(a).__name__, type(b).__name__
        if name_a != name_b:
            return -1 if name_a < name_b else 1
        return _sign(id(type(a)) - id(type(b)))
    key_a, key_b = _identity_key(a), _identity_key(b)
    return (key_a > key_b) - (key_a < key_b)


def _identity_key(x: Any) -> tuple:
    index = getattr(x, "index", None)
    if isinstance(index, int) and hasattr(x, "name"):  # a 2012 Player: by seat
        return (0, index, id(x))
    return (1, 0, id(x))


def lt(a: Any, b: Any) -> bool:
    """``a < b`` as Python 2 answered it."""
    try:
        return a < b
    except TypeError:
        return py2_cmp(a, b) < 0


def le(a: Any, b: Any) -> bool:
    """``a <= b`` as Python 2 answered it."""
    try:
        return a <= b
    except TypeError:
        return py2_cmp(a, b) <= 0


def gt(a: Any, b: Any) -> bool:
    """``a > b`` as Python 2 answered it."""
    try:
        return a > b
    except TypeError:
        return py2_cmp(a, b) > 0


def ge(a: Any, b: Any) -> bool:
    """``a >= b`` as Python 2 answered it."""
    try:
        return a >= b
    except TypeError:
        return py2_cmp(a, b) >= 0


def chain(first: Any, *rest: Any) -> bool:
    """A chained comparison ``a < b <= c``: ``rest`` alternates op names and thunks."""
    left = first
    for op, thunk in zip(rest[::2], rest[1::2], strict=True):
        right = thunk()
        if not _OPS[op](left, right):
            return False
        left = right
    return True


_OPS = {
    "lt": lt, "le": le, "gt": gt, "ge": ge,
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
    "is": lambda a, b: a is b, "is not": lambda a, b: a is not b,
}


def div(a: Any, b: Any) -> Any:
    """``a / b``: floor division when both are integers, as in Python 2."""
    ta = type(a)
    if ta is float or (ta is int and type(b) is float):  # the common cases, checked first
        return a / b
    if isinstance(a, int) and isinstance(b, int):
        return a // b
    return a / b


def idiv_item(obj: Any, key: Any, b: Any) -> None:
    """``obj[key] /= b`` with Python 2's division (``obj`` and ``key`` evaluated once)."""
    obj[key] = div(obj[key], b)


def idiv_attr(obj: Any, name: str, b: Any) -> None:
    """``obj.name /= b`` with Python 2's division."""
    setattr(obj, name, div(getattr(obj, name), b))


# --- ordering builtins ----------------------------------------------------------------
_KEY = functools.cmp_to_key(py2_cmp)


def _sort_key(key: Any, cmp: Any) -> Any:
    if cmp is not None:
        ordered = functools.cmp_to_key(cmp)
        return ordered if key is None else (lambda x: ordered(key(x)))
    return _KEY if key is None else (lambda x: _KEY(key(x)))


def py2_sorted(iterable: Any, cmp: Any = None, key: Any = None, reverse: bool = False) -> list:
    """``sorted`` accepting ``cmp=`` and ordering mixed types as Python 2 did."""
    items = list(iterable)
    if cmp is None:
        try:
            return builtins.sorted(items, key=key, reverse=reverse)
        except TypeError:
            pass
    return builtins.sorted(items, key=_sort_key(key, cmp), reverse=bool(reverse))


def sort(obj: Any, *args: Any, **kwargs: Any) -> None:
    """``obj.sort(...)``: a list sorts as in Python 2; anything else calls its own sort."""
    if not isinstance(obj, list):
        return obj.sort(*args, **kwargs)
    names = ("cmp", "key", "reverse")
    options = dict(zip(names, args, strict=False))
    options.update(kwargs)
    obj[:] = py2_sorted(obj, **options)
    return None


def _extreme(builtin: Any, sign: int, args: tuple, key: Any, default: Any) -> Any:
    items = list(args[0]) if len(args) == 1 else list(args)
    kw = {} if key is None else {"key": key}
    try:
        return builtin(items, **kw) if default is _NO_DEFAULT else builtin(
            items, default=default, **kw
        )
    except TypeError:
        pass
    if not items:
        if default is _NO_DEFAULT:
            raise ValueError(f"{builtin.__name__}() arg is an empty sequence")
        return default
    best = items[0]
    best_key = best if key is None else key(best)
    for item in items[1:]:
        k = item if key is None else key(item)
        if sign * py2_cmp(k, best_key) > 0:  # the first of equal extremes wins
            best, best_key = item, k
    return best


_NO_DEFAULT = object()


def py2_min(*args: Any, key: Any = None, default: Any = _NO_DEFAULT) -> Any:
    """``min`` ordering mixed types as Python 2 did."""
    return _extreme(builtins.min, -1, args, key, default)


def py2_max(*args: Any, key: Any = None, default: Any = _NO_DEFAULT) -> Any:
    """``max`` ordering mixed types as Python 2 did."""
    return _extreme(builtins.max, 1, args, key, default)


# --- list-returning builtins ----------------------------------------------------------
def py2_filter(function: Any, iterable: Any) -> Any:
    """Python 2's ``filter``: a list (a str or tuple stays a str or tuple)."""
    result = builtins.list(builtins.filter(function, iterable))
    if isinstance(iterable, str):
        return "".join(result)
    if isinstance(iterable, tuple):
        return tuple(result)
    return result


def py2_map(function: Any, *iterables: Any) -> list:
    """Python 2's ``map``: a list; ``None`` as function and unequal lengths pad with None."""
    if len(iterables) == 1:
        if function is None:
            return builtins.list(iterables[0])
        return builtins.list(builtins.map(function, iterables[0]))
    rows = itertools.zip_longest(*iterables)
    if function is None:
        return builtins.list(rows)
    return [function(*row) for row in rows]


def py2_zip(*iterables: Any) -> list:
    """Python 2's ``zip``: a list of tuples."""
    return builtins.list(builtins.zip(*iterables))  # noqa: B905 - truncates, as in Python 2


def py2_range(*args: Any) -> list:
    """Python 2's ``range``: a list."""
    return builtins.list(builtins.range(*args))


def py2_round(number: Any, ndigits: int = 0) -> float:
    """Python 2's ``round``: a float, halves rounded away from zero."""
    factor = 10.0 ** ndigits
    scaled = abs(number) * factor
    rounded = math.floor(scaled + 0.5)
    return math.copysign(rounded / factor, number)


def py2_cmp_builtin(a: Any, b: Any) -> int:
    """Python 2's builtin ``cmp``."""
    return py2_cmp(a, b)


#: Names put in the namespace of every converted module (the module may rebind them).
PY2_BUILTINS: dict[str, Any] = {
    "cmp": py2_cmp_builtin,
    "reduce": functools.reduce,
    "xrange": builtins.range,
    "unicode": str,
    "basestring": str,
    "long": int,
    "unichr": chr,
    "raw_input": builtins.input,
    "intern": __import__("sys").intern,
    "file": builtins.open,
    "filter": py2_filter,
    "map": py2_map,
    "zip": py2_zip,
    "range": py2_range,
    "round": py2_round,
    "sorted": py2_sorted,
    "min": py2_min,
    "max": py2_max,
}


# --- classes --------------------------------------------------------------------------
def _rich_from_cmp(test: Any) -> Any:
    def method(self: Any, other: Any) -> Any:
        return test(type(self).__cmp__(self, other))

    return method


def patch_class(cls: type) -> None:
    """Give a converted class the Python 2 methods Python 3 ignores.

    ``__cmp__`` (without rich comparisons of the class's own) provides ``<`` ``<=`` ``>``
    ``>=`` ``==`` ``!=`` (the hash stays what it was, so instances stay usable in sets);
    ``__div__`` / ``__idiv__`` / ``__rdiv__`` also serve ``/``.
    """
    own = vars(cls)
    if "__cmp__" in own and not any(
        n in own for n in ("__lt__", "__le__", "__gt__", "__ge__", "__eq__")
    ):
        old_hash = cls.__hash__ if cls.__hash__ is not None else object.__hash__
        for name, test in (
            ("__lt__", lambda c: c < 0), ("__le__", lambda c: c <= 0),
            ("__gt__", lambda c: c > 0), ("__ge__", lambda c: c >= 0),
            ("__eq__", lambda c: c == 0), ("__ne__", lambda c: c != 0),
        ):
            setattr(cls, name, _rich_from_cmp(test))
        cls.__hash__ = old_hash
    for old, new in (("__div__", "__truediv__"), ("__idiv__", "__itruediv__"),
                     ("__rdiv__", "__rtruediv__")):
        if old in own and new not in own:
            setattr(cls, new, own[old])


__all__ = [
    "PY2_BUILTINS", "chain", "div", "ge", "gt", "idiv_attr", "idiv_item", "le", "lt",
    "patch_class", "py2_cmp", "py2_max", "py2_min", "py2_sorted", "sort",
]
