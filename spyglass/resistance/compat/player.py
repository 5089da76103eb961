"""``player`` of the 2012 framework: :class:`Player` and the bot base class :class:`Bot`.

A 2012 bot subclasses :class:`Bot`, implements ``select``, ``vote`` and ``sabotage``, and
may define any ``on*`` callback. Every ``on*`` defined anywhere in the bot's class
hierarchy is called, base classes first (the framework's behaviour; the adapter in
:mod:`spyglass.resistance.compat.adapter` does the dispatch), so a subclass adds to its parents'
callbacks instead of replacing them and never calls ``super()`` for them.

``self.game`` is a :class:`game.State` kept up to date between calls, ``self.index`` the
seat (from 0), ``self.spy`` the role, ``self.name`` the seat's name and ``self.log`` a
:class:`logging.Logger` (``spyglass.resistance.compat.bots.<name>``; silent unless configured).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from spyglass.resistance.compat.py2_hash import player_hash

_LOG_ROOT = "spyglass.resistance.compat.bots"
# Library convention: stay silent unless the application configures logging.
logging.getLogger(_LOG_ROOT).addHandler(logging.NullHandler())


class Player:
    """A seat at the table: ``index`` (from 0) and ``name``, the identity across games.

    Players are equal when both name and index are equal, and hashable, so they work
    as set members and dict keys. Each bot gets its own Player objects. In the 2012
    table mode (:mod:`spyglass.resistance.compat.table`) the adapter marks the bot itself with
    ``_seat_identity``: the bot then equals the Player of its seat whatever the names, so
    a bot that names itself after its class (``Magi``) still equals its own seat when
    Spyglass calls the second copy ``Magi#2``. Other Players keep name-and-seat equality
    (a made-up ``Player("Nobody", 0)`` is not seat 0).
    """

    _seat_identity = False

    def __init__(self, name: str, index: int) -> None:
        self.name = name
        self.index = index

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Player):
            return NotImplemented
        if self.index != other.index:
            return False
        return self.name == other.name or self._seat_identity or other._seat_identity

    def __hash__(self) -> int:
        # As CPython 2.7 hashed the 2012 Player: sets of Players iterate in 2.7's order
        # (bots pick "the first spy" from a set), the same in every process.
        return player_hash(self.index, self.name)

    def __repr__(self) -> str:
        return f"{self.index}-{self.name}"


class Bot(Player):
    """Base class of a 2012-framework bot: ``Bot(game, index, spy)``.

    Override ``select``, ``vote`` and ``sabotage``; set up per-game data in
    ``onGameRevealed`` rather than ``__init__``.
    """

    def __init__(self, game: Any, index: int, spy: bool) -> None:
        players = getattr(game, "players", None)
        # The seat's public name, so that ``self`` equals its own Player in game.players.
        name = players[index].name if players else type(self).__name__
        super().__init__(name, index)
        self._seat_name = name
        self.game = game
        self.spy = spy
        self.log = logging.getLogger(f"{_LOG_ROOT}.{name}")
        if not hasattr(self.log, "warn"):  # removed in Python 3.13; 2012 bots use it
            self.log.warn = self.log.warning

    def __hash__(self) -> int:
        # Equal to its seat's Player whatever name it gave itself (2012 table), so hash
        # as that Player does.
        if self._seat_identity:
            return player_hash(self.index, getattr(self, "_seat_name", self.name))
        return player_hash(self.index, self.name)

    # --- callbacks (all optional) ----------------------------------------------------
    def onGameRevealed(self, players: list[Player], spies: set[Player]) -> None:
        """The game starts: all players, and the spies if this bot is one (else empty)."""

    def onMissionAttempt(self, mission: int, tries: int, leader: Player) -> None:
        """A new proposal: mission (1-5), attempt (1-5) and the leader."""

    def onTeamSelected(self, leader: Player, team: list[Player]) -> None:
        """The leader proposed ``team``; the vote follows."""

    def onVoteComplete(self, votes: list[bool]) -> None:
        """Every player's vote, in seat order."""

    def onMissionFailed(self, leader: Player, team: list[Player]) -> None:
        """The vote rejected the team (the mission did not go ahead)."""

    def onMissionComplete(self, sabotaged: int) -> None:
        """The mission went ahead; ``sabotaged`` is the number of fail cards."""

    def onAnnouncement(self, source: Player, announcement: dict[Player, float]) -> None:
        """Another player announced spy probabilities for some players."""

    def onMessage(self, source: Player, message: str) -> None:
        """Another player said something (see :meth:`say`)."""

    def onGameComplete(self, win: bool, spies: set[Player]) -> None:
        """The game is over: ``win`` is True if the resistance won; the spies are revealed."""

    # --- decisions -------------------------------------------------------------------
    def select(self, players: list[Player], count: int) -> list[Player]:
        """As leader, return ``count`` Players (a list, set or tuple) for the mission."""
        raise NotImplementedError(f"{type(self).__name__} must implement select()")

    def vote(self, team: list[Player]) -> bool:
        """Approve (True) or reject (False) the proposed team."""
        raise NotImplementedError(f"{type(self).__name__} must implement vote()")

    def sabotage(self) -> bool:
        """As a spy on the mission, True to play a fail card. Only spies are asked."""
        raise NotImplementedError(f"{type(self).__name__} must implement sabotage()")

    def announce(self) -> dict[Player, float]:
        """After each resolved proposal: spy probabilities to announce (empty: none)."""
        return {}

    # --- helpers ---------------------------------------------------------------------
    def say(self, message: str) -> None:
        """Log ``message`` and send it, as text, to the other players' ``onMessage``."""
        self.log.info(message)
        relay = self.__dict__.get("_spyglass_relay")
        if relay is not None:
            relay(message)

    def others(self) -> list[Player]:
        """Every player in the game but this bot."""
        return [p for p in self.game.players if p != self]

    def __repr__(self) -> str:
        # Unlike the 2012 framework, the role is left out: a bot that says or announces
        # its own repr should not give away its role by accident.
        return f"<{self.name} #{self.index}>"


def bound_hooks(bot: object, name: str) -> tuple[Callable[..., Any], ...]:
    """The hooks :func:`call_hooks` calls for ``name``, bound to ``bot``, base first.

    :class:`Bot`'s own empty defaults are left out (calling them can do nothing), so an
    empty tuple means no class of the bot defines the hook: the adapter then skips the
    call into the bot altogether (issue 27: most notifications of a 2012 bot).
    """
    cls = type(bot)
    hooks = []
    for klass in reversed(cls.__mro__):
        hook = klass.__dict__.get(name)
        if hook is None or (klass is Bot and name in _EMPTY_HOOKS):
            continue
        if hasattr(hook, "__get__"):
            hook = hook.__get__(bot, cls)
        hooks.append(hook)
    return tuple(hooks)


def call_hooks(bot: object, name: str, *args: Any) -> None:
    """Call ``name`` as defined by each class of ``type(bot)``'s hierarchy, base first.

    Only methods a class defines itself (in its ``__dict__``) are called, so an
    inherited hook runs once, from the class that defines it (the 2012 framework's
    dispatch).
    """
    for hook in bound_hooks(bot, name):
        hook(*args)


def run_hooks(hooks: tuple[Callable[..., Any], ...], *args: Any) -> None:
    """Call each of ``hooks`` (from :func:`bound_hooks`) with ``args``, in order."""
    for hook in hooks:
        hook(*args)


#: The ``on*`` callbacks, whose :class:`Bot` defaults do nothing.
HOOK_NAMES = ("onGameRevealed", "onMissionAttempt", "onTeamSelected", "onVoteComplete",
              "onMissionFailed", "onMissionComplete", "onAnnouncement", "onMessage",
              "onGameComplete")
_EMPTY_HOOKS = frozenset(HOOK_NAMES)

__all__ = ["HOOK_NAMES", "Bot", "Player", "bound_hooks", "call_hooks", "run_hooks"]
