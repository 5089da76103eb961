"""Everything :mod:`spyglass.envs` takes from the rest of Spyglass, in one place.

The game and agent registries are used only through their public functions, and only
here, so that when they move (they are being unified) one file changes.
"""

from __future__ import annotations

from typing import Any

from spyglass.agents.base import Agent
from spyglass.arena.agent_spec import resolve_agent
from spyglass.games import registry as _games
from spyglass.games.base import Game
from spyglass.rng import derive_seed, make_rng, rand_below, rand_float
from spyglass.search.protocol import Kernel
from spyglass.search.sampled import mo, pom, so, uct
from spyglass.search.sampled.entry import SearchEntry

__all__ = ["Agent", "Game", "Kernel", "agent_seed", "derive_seed", "game_class", "game_names",
           "make_agent", "make_game", "make_rng", "python_search_entry", "rand_below",
           "rand_float"]


def game_names() -> list[str]:
    """The registered games' names."""
    return _games.names()


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``name``."""
    return _games.game_class(name)


def make_game(game: str | Game, n_players: int | None = None, **options: Any) -> Game:
    """A :class:`Game` instance: ``game`` itself, or the registered game of that name."""
    if isinstance(game, Game):
        if n_players is not None or options:
            raise ValueError("give players and options by name, not with a Game instance")
        return game
    return _games.make(game, n_players, **options)


def make_agent(agent: Any) -> Agent:
    """A fresh :class:`Agent`: an instance as it is, else built from a class, a factory or
    a spec string (``"moismcts:iterations=200"``), as the referee builds its seats."""
    if isinstance(agent, Agent):
        return agent
    return resolve_agent(agent).make()


def agent_seed(seed: int, seat: int) -> int:
    """The seed of the agent in ``seat`` of the game with seed ``seed``: the referee's own
    derivation (:func:`spyglass.arena.match.play_match`), so the same seed plays the same
    game in an environment and in a tournament."""
    return derive_seed(seed, 1, seat)


def _plain(module: Any) -> Any:
    """A search module's loop as plain Python: its ``run_plain`` (a loop built from compiled
    hooks, rebuilt over their Python functions), else its compiled ``run``'s ``py_func``
    (``run`` itself under NUMBA_DISABLE_JIT=1)."""
    return getattr(module, "run_plain", None) or getattr(module.run, "py_func", module.run)


def _sequential(s: Any) -> bool:
    return False


def python_search_entry(kernel: Kernel) -> SearchEntry:
    """The sampled searches' own loops (SO, POM, MO, UCT), run as plain Python over a
    :class:`Kernel` of plain-Python functions: the slow path for a game with no compiled
    kernel. The game offers it to the agents as ``Game.search_entry`` (the hook
    :func:`spyglass.agents.search_support.search_entry` reads); no loop is copied."""
    run_so, run_pom, run_mo, run_uct = (_plain(m) for m in (so, pom, mo, uct))
    return SearchEntry(
        so=lambda *args: run_so(kernel, _sequential, *args),
        pom=lambda *args: run_pom(kernel, _sequential, *args),
        mo=lambda *args: run_mo(kernel, _sequential, *args),
        uct=lambda *args: run_uct(kernel, *args),
    )
