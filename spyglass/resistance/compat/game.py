"""``game`` of the 2012 framework: :class:`State`, the public game state a bot reads,
and :class:`Game`, the framework's own game loop.

Each 2012 bot gets its own State as ``self.game``; the adapter updates it between calls
with public facts only (no roles), exactly when the 2012 framework did. :class:`Game` is
there for 2012 files that import it (for example to simulate games inside a bot); games
between Spyglass and 2012 bots are refereed by :func:`spyglass.resistance.arena.referee.play_game`.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Sequence
from typing import Any

from spyglass.games.resistance.tables import (
    MAX_ATTEMPTS,
    SPIES_BY_PLAYERS,
    TEAM_SIZES_BY_PLAYERS,
    WINS_NEEDED,
    fails_needed,
)
from spyglass.resistance.compat.player import Player, call_hooks


class State:
    """The public state of a game, as 2012 bots see it in ``self.game``.

    Fields: ``phase`` (one of the ``PHASE_*`` constants), ``turn`` (mission, 1-5),
    ``tries`` (attempt within the mission, 1-5), ``wins`` / ``losses`` (missions won by
    the resistance / the spies), ``leader`` (Player), ``team`` (list of Players, None
    before the leader chooses), ``players`` (all Players, in seat order), ``votes`` (the
    last vote, bools in seat order; None before it), ``sabotages`` (fail cards of the
    last mission; None before it). ``team``, ``votes`` and ``sabotages`` are reset when a
    new proposal starts; after a mission ``turn`` moves on and ``tries`` restarts at 1.
    """

    PHASE_PREPARING = 0
    PHASE_SELECTION = 1
    PHASE_VOTING = 2
    PHASE_MISSION = 3
    PHASE_ANNOUNCING = 4

    _FIELDS = (
        "phase", "turn", "tries", "wins", "losses", "leader", "team", "players", "votes",
        "sabotages",
    )

    def __init__(self) -> None:
        self.phase = State.PHASE_PREPARING
        self.turn = 1
        self.tries = 1
        self.wins = 0
        self.losses = 0
        self.leader: Any = None
        self.team: list | None = None
        self.players: list | None = None
        self.votes: list[bool] | None = None
        self.sabotages: int | None = None

    def clone(self) -> State:
        """A shallow copy."""
        other = State()
        other.__dict__.update(self.__dict__)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._FIELDS)

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        lines = "".join(f"\t- {k}: {v!r}\n" for k, v in sorted(vars(self).items()))
        return f"<State\n{lines}>"


class Game:
    """A game of 2012-framework bots, run as the 2012 framework ran it.

    ``Game(bots, roles=None)``: ``bots`` are 2012 bot classes, one per seat (5-10);
    ``roles`` are the seats' spy flags (default: the right number of spies, shuffled
    with the global ``random``). All bots share one :class:`State` (``self.state``) and
    the Players in it; the first leader is seat 0 and the lead passes one seat on after
    every proposal; a fifth rejected proposal in a mission wins the game for the spies.
    Call :meth:`run`; then ``won`` is True when the resistance won.

    The framework's class constants are here too, as 2012 bots read them (for example
    ``Game.NUM_LOSSES - 1`` after ``from game import *``): ``MAX_TURNS`` (missions; also
    ``NUM_TURNS``, its older name), ``MAX_TRIES`` (proposals per mission), ``NUM_WINS`` and
    ``NUM_LOSSES`` (missions either side needs).
    """

    MAX_TURNS = NUM_TURNS = 5
    MAX_TRIES = MAX_ATTEMPTS
    NUM_WINS = NUM_LOSSES = WINS_NEEDED

    def __init__(self, bots: Sequence[type], roles: Sequence[bool] | None = None) -> None:
        n = len(bots)
        if n not in SPIES_BY_PLAYERS:
            raise ValueError(f"a game needs 5 to 10 bots, got {n}")
        if roles is None:
            roles = [True] * SPIES_BY_PLAYERS[n] + [False] * (n - SPIES_BY_PLAYERS[n])
            random.shuffle(roles)
        elif len(roles) != n or sum(map(bool, roles)) != SPIES_BY_PLAYERS[n]:
            raise ValueError(f"roles must flag {SPIES_BY_PLAYERS[n]} spies among {n} seats")
        self.state = State()
        pairs = enumerate(zip(bots, roles, strict=True))
        self.bots = [cls(self.state, i, bool(spy)) for i, (cls, spy) in pairs]
        self.state.players = [Player(b.name, b.index) for b in self.bots]
        self.spies = {self.state.players[i] for i, spy in enumerate(roles) if spy}
        self.leaders = itertools.cycle(self.state.players)
        for bot in self.bots:
            call_hooks(bot, "onGameRevealed", list(self.state.players),
                       set(self.spies) if bot.spy else set())

    @property
    def won(self) -> bool:
        """The resistance has won three missions."""
        return self.state.wins >= WINS_NEEDED

    @property
    def lost(self) -> bool:
        """The spies have won (three sabotaged missions, or five rejections in one)."""
        return self.state.losses >= WINS_NEEDED

    def _hooks(self, name: str, *args: Any) -> None:
        for bot in self.bots:
            call_hooks(bot, name, *args)

    def run(self) -> None:
        """Play until one side wins, then tell every bot."""
        while not self.won and not self.lost:
            self.step()
        for bot in self.bots:
            call_hooks(bot, "onGameComplete", self.won, set(self.spies))

    def step(self) -> None:
        """Play one mission: proposals until a team goes or the spies win on rejections."""
        st, n = self.state, len(self.bots)
        count = TEAM_SIZES_BY_PLAYERS[n][st.turn - 1]
        st.tries = 1
        while True:
            st.phase = State.PHASE_SELECTION
            st.leader = next(self.leaders)
            st.team = st.votes = st.sabotages = None
            self._hooks("onMissionAttempt", st.turn, st.tries, st.leader)
            chosen = list(self.bots[st.leader.index].select(list(st.players), count))
            team = [self.state.players[p.index] for p in chosen if isinstance(p, Player)]
            if len(set(team)) != count:
                raise ValueError(f"{self.bots[st.leader.index]!r} selected {chosen!r}")
            st.team = team
            self._hooks("onTeamSelected", st.leader, list(team))
            st.phase = State.PHASE_VOTING
            st.votes = [bool(b.vote(list(team))) for b in self.bots]
            self._hooks("onVoteComplete", list(st.votes))
            if 2 * sum(st.votes) > n:
                break
            self._hooks("onMissionFailed", st.leader, list(team))
            st.tries += 1
            if st.tries > MAX_ATTEMPTS:
                st.losses = WINS_NEEDED
                return
        st.phase = State.PHASE_MISSION
        st.sabotages = sum(
            bool(self.bots[p.index].sabotage()) for p in team if self.bots[p.index].spy
        )
        if st.sabotages >= fails_needed(n, st.turn - 1):
            st.losses += 1
        else:
            st.wins += 1
        self._hooks("onMissionComplete", st.sabotages)
        st.phase = State.PHASE_ANNOUNCING
        st.turn += 1


__all__ = ["Game", "State"]
