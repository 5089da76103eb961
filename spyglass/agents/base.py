"""The game-general agent API: what a player of any game is told and what it answers.

The referee gives an agent only its own information: at the start its seat and view; after
every move (its own and everyone else's) the move as *its* seat observed it (the game's
observation key) and its new view; when it must move, its view and the legal action ids.
Views are fresh read-only arrays, so an agent can neither see nor change another's.

An agent whose class says ``omniscient = True`` (a cheating baseline) is given the full
state in place of its view; the referee records its seats, so such results are never
mistaken for fair play.

Parameters are declared once, as ``params`` (:class:`~spyglass.params.Param`), and
validated once by ``Agent.__init__``; the values are in ``self.settings``.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from spyglass.games.base import Game
from spyglass.params import Param, validate


class MissingExtra(ImportError, ValueError):
    """An agent's optional package is not installed (an outside bot's extra). Both an
    ImportError (what it is) and a ValueError (a spec that cannot be built here), so
    callers that refuse bad specs with a clear message refuse it too."""


class Agent:
    """A player of any game (see the module docstring). Subclasses override :meth:`act`."""

    agent_name: ClassVar[str] = ""
    description: ClassVar[str] = ""
    omniscient: ClassVar[bool] = False
    params: ClassVar[tuple[Param, ...]] = ()
    #: The games it plays, by registered name (None: any game); declared once, checked
    #: at :meth:`start` and used to list a game's players.
    plays: ClassVar[tuple[str, ...] | None] = None

    def __init__(self, **settings: Any) -> None:
        owner = self.agent_name or type(self).__name__
        self.settings = validate(self.params, settings, owner=owner)
        self.game: Game | None = None
        self.seat = -1

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        """A new game: the game (options, player count), this agent's seat, its first
        view, and a seed for everything random the agent does in this game."""
        if self.plays is not None and game.name not in self.plays:
            raise ValueError(f"{self.agent_name or type(self).__name__} plays only "
                             f"{', '.join(self.plays)}, not {game.name!r}")
        self.game = game
        self.seat = seat
        self.seed = seed

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        """A move was made by ``actor``: ``obs`` is that move as this seat saw it."""

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        """Choose one of ``legal`` (action ids) given this seat's ``view``."""
        raise NotImplementedError

    def finish(self, rewards: tuple[float, ...]) -> None:
        """The game is over; ``rewards`` has every seat's reward."""

    def record_extra(self) -> dict | None:
        """Anything this agent wants kept in the game record (plain JSON data)."""
        return None
