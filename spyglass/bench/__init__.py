"""Benchmarks behind ``spyglass bench``. Each module here registers functions with
:func:`benchmark`; each returns a dict of named measurements (higher is better unless
the name says otherwise)."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

_BENCHMARKS: dict[str, Callable[..., dict]] = {}


def benchmark(name: str):
    """Register a benchmark function ``fn(quick: bool) -> dict[str, float]``."""

    def deco(fn: Callable[..., dict]) -> Callable[..., dict]:
        _BENCHMARKS[name] = fn
        return fn

    return deco


def all_benchmarks() -> dict[str, Callable[..., dict]]:
    """Every registered benchmark, discovering the modules of this package."""
    import spyglass.bench as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{pkg.__name__}.{info.name}")
    return dict(sorted(_BENCHMARKS.items()))
