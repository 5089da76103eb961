"""Benchmarks behind ``spyglass bench``. Each module here registers functions with
:func:`benchmark`; each returns a dict of named measurements (higher is better unless
the name says otherwise). A benchmark belongs to one game (``spyglass bench --game``;
The Resistance by default). Every registered game also has ``speed``
(:mod:`spyglass.bench.game_speed`: random playouts/s and every search's iterations/s),
with no module of its own."""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable

_BENCHMARKS: dict[str, Callable[..., dict]] = {}
_GAME_OF: dict[str, str] = {}
DEFAULT_GAME = "resistance"


def benchmark(name: str, game: str = DEFAULT_GAME):
    """Register a benchmark function ``fn(quick: bool) -> dict[str, float]`` of ``game``."""

    def deco(fn: Callable[..., dict]) -> Callable[..., dict]:
        _BENCHMARKS[name] = fn
        _GAME_OF[name] = game
        return fn

    return deco


def _discover() -> None:
    import spyglass.bench as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        importlib.import_module(f"{pkg.__name__}.{info.name}")


def all_benchmarks(game: str = DEFAULT_GAME) -> dict[str, Callable[..., dict]]:
    """Every registered benchmark of ``game`` (discovering the modules of this package),
    and ``speed`` for any registered game."""
    from functools import partial

    from spyglass.bench.game_speed import game_speed
    from spyglass.games import registry

    _discover()
    out = {k: v for k, v in sorted(_BENCHMARKS.items()) if _GAME_OF[k] == game}
    if game in registry.names():
        out["speed"] = partial(game_speed, game)
    return out


def benchmark_games() -> list[str]:
    """The games that have benchmarks: every registered game, and any other a module
    names."""
    from spyglass.games import registry

    _discover()
    return sorted(set(_GAME_OF.values()) | set(registry.names()))
