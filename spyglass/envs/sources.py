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
from spyglass.rng import derive_seed, make_rng

__all__ = ["Agent", "Game", "agent_seed", "derive_seed", "game_class", "game_names", "make_agent",
           "make_game", "make_rng"]


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
