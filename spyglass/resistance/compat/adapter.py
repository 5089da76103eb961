"""Run a 2012-framework bot class as a Spyglass :class:`~spyglass.resistance.bots.Bot`.

:func:`adapter_for` wraps a ``player.Bot`` subclass. The adapter builds the 2012 bot in
``on_game_revealed``, keeps its ``game.State`` up to date, converts seats to its own
Player objects and back, and calls every ``on*`` hook of the bot's class hierarchy,
base class first, as the 2012 framework did.

Choices, where the two APIs differ:

* Hooks: every class's own ``on*`` runs, base first, so a hook must not also call
  ``super().onX(...)`` (its parents would run twice; the 2012 framework's metaclass
  made such calls impossible, so 2012 bots do not make them).
* Each bot gets its own ``State`` and its own Player objects (``Player(name, index)``,
  names as the referee gives them, e.g. ``Magi#2`` for a second Magi), so nothing a bot
  writes on them reaches another bot. ``self.name`` is the seat's name.
* Table mode (:mod:`spyglass.resistance.compat.table`, bot parameter ``table``): in the default
  ``2012`` mode a Player's ``index`` counts from the first leader (the 2012 framework's
  first leader was seat 0) and Players compare by seat; the bot is built and told
  ``onGameRevealed`` just before the first ``onMissionAttempt``, when the first leader is
  known; copies share their class's name (``Magi``, not ``Magi#2``), as in 2012. In
  the ``spyglass`` mode ``index`` is the seat and names are the referee's.
* ``onGameComplete(win, spies)``: ``win`` is True when the *resistance* won, for every
  bot, spies included. That is what the 2012 framework passed (its game called
  ``onGameComplete(wins >= 3, spies)`` for all bots, and its Bot docstring reads
  "Boolean true if the Resistance won"); a spy's own win is ``not win``.
* ``sabotage()`` is asked of spies only (the referee asks no one else; a resistance
  member's card is a success whatever the bot would answer).
* ``select`` may return a list, set or tuple (or any iterable) of Players; the adapter
  turns the Players of this game into seats and passes anything else through
  unchanged, so that the referee reports an invalid team with the bot, seat and value.
* Announcements: after each proposal that is resolved (rejected, or the mission
  played) while the game goes on, every compat bot's ``announce()`` is called (in
  ``PHASE_ANNOUNCING``, with ``turn``/``tries`` already moved on, as in 2012). The
  result must map Players of this game to numbers. The others receive it through
  ``onAnnouncement(source, {Player: float})`` just before the next ``onMissionAttempt``,
  so every bot announces before any bot hears an announcement.
* ``say(message)`` sends ``str(message)`` to the other compat bots' ``onMessage`` at the
  same moments. Only what a bot returns or says is sent, as new immutable values, never
  the bot's objects. What a bot says inside ``sabotage()`` is logged but not sent, since
  only spies are asked to sabotage and the message itself would give them away.
* Randomness: 2012 bots use the global ``random`` module; each gets a private stream
  seeded from its seat's ``rng`` (see :mod:`spyglass.resistance.compat.legacy_random`), so the
  same seed replays the same game.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from numbers import Real
from typing import Any, ClassVar

from spyglass.games.resistance.tables import MAX_ATTEMPTS, WINS_NEEDED
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.compat import player as legacy_player
from spyglass.resistance.compat.channel import ANNOUNCEMENT, MESSAGE, Channel, channel_for
from spyglass.resistance.compat.game import State
from spyglass.resistance.compat.legacy_random import call_in_stream, new_state
from spyglass.resistance.compat.player import HOOK_NAMES, Player, bound_hooks, call_hooks, run_hooks
from spyglass.resistance.compat.py2_import import report_failure
from spyglass.resistance.compat.table import DEFAULT_TABLE, table_mode


class LegacyBotAdapter(Bot):
    """A Spyglass bot that plays through a 2012-framework bot (see :func:`adapter_for`)."""

    #: The wrapped ``player.Bot`` subclass; set on each generated subclass.
    legacy_class: ClassVar[type]

    def __init__(self, *, table: str = DEFAULT_TABLE, **params: Any) -> None:
        super().__init__(**params)
        self.table = table_mode(table)
        if self.table.name != DEFAULT_TABLE:
            self.params = {"table": self.table.name}
        self.legacy: legacy_player.Bot | None = None
        self._offset = 0

    # --- plumbing --------------------------------------------------------------------
    def _call(self, fn: Callable, *args: Any) -> Any:
        """Call into the 2012 bot with its own global ``random`` state swapped in.

        An exception raised by the bot's own code is warned about once per source line
        (:func:`~spyglass.resistance.compat.py2_import.report_failure`) and passed on to the
        referee, which ends the game with it.
        """
        try:
            return call_in_stream(self._random_state, fn, *args)
        except Exception as exc:
            report_failure(self.legacy_class, exc)
            raise

    def _hooks(self, name: str, *args: Any) -> None:
        hooks = self._bound[name]
        if len(hooks) == 1:  # the usual case: one class of the bot defines the hook
            self._call(hooks[0], *args)
        elif hooks:  # no call into the bot (nor its random stream) for a hook it lacks
            self._call(run_hooks, hooks, *args)

    def _relay(self, message: Any) -> None:
        if not self._muted:
            self._channel.post(self.seat, MESSAGE, str(message))

    def _deliver(self) -> None:
        """Hand the other seats' announcements and messages to the 2012 bot."""
        entries, self._cursor = self._channel.read(self._cursor, self.seat)
        for entry in entries:
            source = self._player(entry.seat)
            if entry.kind == ANNOUNCEMENT:
                if not self._bound["onAnnouncement"]:
                    continue
                announcement = {self._player(s): p for s, p in entry.payload}
                self._hooks("onAnnouncement", source, announcement)
            else:
                self._hooks("onMessage", source, entry.payload)

    def _announce(self) -> None:
        self._state.phase = State.PHASE_ANNOUNCING
        announce = self.legacy.announce
        if getattr(announce, "__func__", None) is _NO_ANNOUNCEMENT:
            return  # player.Bot's own announce() returns {}: most bots, ~6 calls a game
        announcement = self._call(announce)
        if announcement:
            self._channel.post(self.seat, ANNOUNCEMENT, self._checked(announcement))

    def _checked(self, announcement: Any) -> tuple[tuple[int, float], ...]:
        """The announcement as (seat, probability) pairs, or a clear error."""
        if not isinstance(announcement, dict):
            raise TypeError(
                f"announce() must return a dict of Player to float, "
                f"not {type(announcement).__name__}"
            )
        pairs = []
        for player, p in announcement.items():
            if not (isinstance(player, Player) and player in self._players):
                raise ValueError(f"announce() key {player!r} is not a player of this game")
            if isinstance(p, bool) or not isinstance(p, Real):
                raise TypeError(f"announce() value for {player!r} must be a float, not {p!r}")
            pairs.append((self._seat_of(player), float(p)))
        return tuple(sorted(pairs))

    def _player(self, seat: int) -> Player:
        """The bot's Player for a referee seat."""
        return self._players[(seat - self._offset) % len(self._players)]

    def _seat_of(self, member: Any) -> Any:
        if isinstance(member, Player):
            index = member.index
            if isinstance(index, int) and 0 <= index < len(self._players):
                if self._players[index] == member:
                    return (index + self._offset) % len(self._players)
        return member  # not a player of this game: the referee reports it

    def _team_of(self, seats: Iterable[int]) -> list[Player]:
        return [self._player(s) for s in seats]

    def _in_bot_order(self, by_seat: Iterable[Any]) -> list[Any]:
        """A per-seat list reordered by the bot's Player index."""
        by_seat = list(by_seat)
        n = len(by_seat)
        return [by_seat[(i + self._offset) % n] for i in range(n)]

    # --- Spyglass API ----------------------------------------------------------------
    def on_game_revealed(self, players: tuple[int, ...], spies: frozenset[int]) -> None:
        self._seats = tuple(players)
        self._revealed_spies = frozenset(spies)
        self._channel: Channel = channel_for(self.game)
        self._cursor = 0
        self._muted = False
        self._random_state = new_state(self.rng.getrandbits(64))
        self.legacy = None
        if not self.table.first_leader_is_zero:
            self._start(0)

    def _start(self, first_leader: int) -> None:
        """Build the 2012 bot and reveal the game to it, numbering seats from the leader."""
        names = self.game.names
        n = len(self._seats)
        self._offset = first_leader
        self._players = [Player(self.table.player_name(names[(i + first_leader) % n]), i)
                         for i in range(n)]
        self._state = State()
        self._state.players = list(self._players)
        index = (self.seat - first_leader) % n
        self.legacy = self._call(self.legacy_class, self._state, index, self.spy)
        self.legacy._spyglass_relay = self._relay
        # Resolved once per game, not per call (the 2012 framework's dispatch, cached).
        self._bound = {name: bound_hooks(self.legacy, name) for name in HOOK_NAMES}
        if self.table.players_equal_by_seat:
            self.legacy._seat_identity = True
        # ``spies`` is empty for a resistance member: the 2012 framework passed set().
        spies = {self._player(s) for s in self._revealed_spies}
        self._hooks("onGameRevealed", list(self._players), spies)
        self._state.phase = State.PHASE_SELECTION

    def on_mission_attempt(self, mission: int, attempt: int, leader: int) -> None:
        if self.legacy is None:
            self._start(leader)
        self._deliver()
        st = self._state
        st.turn, st.tries, st.leader = mission, attempt, self._player(leader)
        st.team = st.votes = st.sabotages = None
        st.phase = State.PHASE_SELECTION
        self._hooks("onMissionAttempt", mission, attempt, st.leader)

    def select(self, players: tuple[int, ...], count: int) -> Any:
        chosen = self._call(self.legacy.select, self._team_of(players), count)
        if isinstance(chosen, (str, bytes, dict)) or not isinstance(chosen, Iterable):
            return chosen
        return [self._seat_of(m) for m in chosen]

    def on_team_selected(self, leader: int, team: tuple[int, ...]) -> None:
        st = self._state
        st.team = self._team_of(team)
        self._hooks("onTeamSelected", st.leader, list(st.team))
        st.phase = State.PHASE_VOTING

    def vote(self, team: tuple[int, ...]) -> Any:
        return self._call(self.legacy.vote, self._team_of(team))

    def on_vote_complete(self, votes: tuple[bool, ...]) -> None:
        st = self._state
        st.votes = self._in_bot_order(votes)
        self._hooks("onVoteComplete", list(st.votes))
        if self.game.proposals[-1].approved:
            st.phase = State.PHASE_MISSION
            return
        self._hooks("onMissionFailed", st.leader, list(st.team))
        st.tries += 1
        st.phase = State.PHASE_ANNOUNCING
        if st.tries <= MAX_ATTEMPTS:  # else the spies have just won on rejections
            self._announce()

    def sabotage(self) -> Any:
        self._state.phase = State.PHASE_MISSION
        self._muted = True
        try:
            return self._call(self.legacy.sabotage)
        finally:
            self._muted = False

    def on_mission_complete(self, fails: int) -> None:
        st = self._state
        st.phase = State.PHASE_MISSION
        st.wins, st.losses, st.sabotages = self.game.wins, self.game.losses, fails
        self._hooks("onMissionComplete", fails)
        st.phase = State.PHASE_ANNOUNCING
        st.turn += 1
        st.tries = 1
        if st.wins < WINS_NEEDED and st.losses < WINS_NEEDED:
            self._announce()

    def on_game_complete(self, resistance_won: bool, spies: frozenset[int]) -> None:
        self._deliver()
        if self.legacy is None:  # cannot happen with the referee; keeps the hook safe
            return
        self._hooks("onGameComplete", bool(resistance_won), {self._player(s) for s in spies})


#: The 2012 base class's ``announce``, which announces nothing (and draws nothing).
_NO_ANNOUNCEMENT = legacy_player.Bot.announce

_ADAPTERS: dict[type, type[Bot]] = {}
_ADAPTERS_LOCK = threading.Lock()


def adapter_for(cls: type) -> type[Bot]:
    """The Spyglass bot class that plays ``cls``, a 2012 ``player.Bot`` subclass.

    One adapter class per ``cls`` (cached); its ``bot_name`` is ``cls.__name__``.
    Spyglass bot classes are returned unchanged.
    """
    if isinstance(cls, type) and issubclass(cls, Bot):
        return cls
    if not (isinstance(cls, type) and issubclass(cls, legacy_player.Bot)):
        raise TypeError(f"{cls!r} is neither a Spyglass Bot nor a 2012 player.Bot subclass")
    if cls is legacy_player.Bot:
        raise TypeError("player.Bot is the 2012 base class; adapt a subclass of it")
    with _ADAPTERS_LOCK:
        adapter = _ADAPTERS.get(cls)
        if adapter is None:
            adapter = type(
                cls.__name__,
                (LegacyBotAdapter,),
                {
                    "legacy_class": cls,
                    "bot_name": cls.__name__,
                    "__doc__": cls.__doc__ or f"The 2012-framework bot {cls.__name__}.",
                    "__module__": __name__,
                    "__qualname__": f"adapter_for({cls.__qualname__})",
                },
            )
            _ADAPTERS[cls] = adapter
        return adapter


def is_adapter_class(cls: type) -> bool:
    """Whether ``cls`` is a class :func:`adapter_for` made (not a subclass of one, nor a
    class claiming to be one): its methods are all :class:`LegacyBotAdapter`'s."""
    legacy = getattr(cls, "legacy_class", None)
    return isinstance(legacy, type) and _ADAPTERS.get(legacy) is cls


__all__ = ["LegacyBotAdapter", "adapter_for", "call_hooks", "is_adapter_class"]
