"""The bot API: subclass :class:`Bot` and override the decisions you care about.

Order of calls in a game (seats are ints from 0, missions and attempts from 1)::

    on_game_revealed(players, spies)          # spies is empty for resistance members
    repeat for every proposal:
        on_mission_attempt(mission, attempt, leader)
        select(players, count) -> team        # the leader only
        on_team_selected(leader, team)
        vote(team) -> bool                    # everyone (skipped when the rules force it)
        on_vote_complete(votes)               # votes in seat order
        if the team goes:
            sabotage() -> bool                # spies on the team only
            on_mission_complete(fails)        # number of fail cards
    on_game_complete(resistance_won, spies)

Inside every call ``self.game`` is a read-only :class:`GameView` of the public game,
``self.seat`` is the bot's seat, ``self.spy`` its role, ``self.spies`` the spies it knows
(empty for resistance), ``self.rng`` a seeded ``random.Random`` and ``self.memory`` a
dict that persists across games for this bot's identity (``self.name``) within a
tournament, for bots that learn about opponents (keyed by ``self.game.names``).
"""

from __future__ import annotations

import random
from collections.abc import Iterable
from typing import Any, ClassVar

from spyglass.games.resistance.observation import GameView


class Bot:
    """Base class of every Spyglass bot. The defaults play uniformly at random."""

    #: The registry name; set by ``@register``.
    bot_name: ClassVar[str] = "bot"

    def __init__(self, **params: Any) -> None:
        if params:
            raise TypeError(
                f"{type(self).__name__} takes no parameters, got {sorted(params)}"
            )
        self.params: dict[str, Any] = {}

    # Set by the referee before the game starts.
    seat: int
    spy: bool
    spies: frozenset[int]
    game: GameView
    rng: random.Random
    memory: dict
    name: str

    def _seat(
        self, seat: int, spy: bool, game: GameView, rng: random.Random, memory: dict, name: str
    ) -> None:
        """Called by the referee to seat the bot; not part of the user API."""
        self.seat = seat
        self.spy = spy
        self.spies = frozenset()
        self.game = game
        self.rng = rng
        self.memory = memory
        self.name = name

    # --- notifications -------------------------------------------------------------
    def on_game_revealed(self, players: tuple[int, ...], spies: frozenset[int]) -> None:
        """The game starts: every seat, and the spies if this bot is one (else empty)."""

    def on_mission_attempt(self, mission: int, attempt: int, leader: int) -> None:
        """A new proposal starts: mission and attempt (from 1) and the leader's seat."""

    def on_team_selected(self, leader: int, team: tuple[int, ...]) -> None:
        """The leader proposed ``team``."""

    def on_vote_complete(self, votes: tuple[bool, ...]) -> None:
        """Everyone's vote on the proposal, in seat order."""

    def on_mission_complete(self, fails: int) -> None:
        """The mission went ahead and ``fails`` fail cards were played."""

    def on_game_complete(self, resistance_won: bool, spies: frozenset[int]) -> None:
        """The game is over; the spies are revealed."""

    # --- decisions -----------------------------------------------------------------
    def select(self, players: tuple[int, ...], count: int) -> Iterable[int]:
        """As leader, choose ``count`` distinct seats from ``players``."""
        return self.rng.sample(list(players), count)

    def vote(self, team: tuple[int, ...]) -> bool:
        """Approve (True) or reject (False) the proposed team."""
        return self.rng.random() < 0.5

    def sabotage(self) -> bool:
        """As a spy on the mission team, play a fail card (True) or a success (False)."""
        return self.rng.random() < 0.5

    # --- introspection ---------------------------------------------------------------
    def suspicion(self) -> dict[int, float] | None:
        """This bot's current belief that each other seat is a spy, or None if it keeps none.

        Bots that keep a suspicion score override this (one interface for all of them);
        values are probabilities in [0, 1] or scores normalised to that range. The
        referee samples it after every mission when suspicion tracking is on.
        """
        return None

    # --- helpers -------------------------------------------------------------------
    def others(self) -> tuple[int, ...]:
        """Every seat but this bot's."""
        return tuple(p for p in self.game.players if p != self.seat)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seat={getattr(self, 'seat', None)})"
