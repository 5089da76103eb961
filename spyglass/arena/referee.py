"""The referee: runs one game of The Resistance between bots, validating every decision.

The referee drives the compiled rules kernel (:mod:`spyglass.games.resistance.kernel`);
it holds the only copy of the true state. Bots get callbacks with public facts and a
read-only view of the public record; only a spy is told the spies.

An invalid decision (wrong team size, unknown or duplicate seat, a non-bool vote or
card, an exception, a decision slower than the time limit) ends that game with a
:class:`BotError` recorded in the result. It never propagates out of :func:`play_game`.
"""

from __future__ import annotations

import random
import signal
import threading
import time
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spyglass.arena.spec import BotSpec, parse_spec
from spyglass.bots.base import Bot
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.observation import (
    PHASE_MISSION,
    PHASE_OVER,
    PHASE_SELECTION,
    PHASE_VOTING,
    GameView,
    MissionResult,
    Proposal,
    PublicRecord,
)
from spyglass.games.resistance.options import Rules, check_players
from spyglass.games.resistance.tables import (
    SPIES_BY_PLAYERS,
    mask_to_seats,
    seats_to_mask,
    spy_configurations,
)

RECORD_VERSION = 1


class BotError(Exception):
    """A bot broke the rules or the API; names the bot, seat, decision and value."""

    def __init__(
        self, bot: str, seat: int, decision: str, value: Any, reason: str, detail: str = ""
    ) -> None:
        self.bot, self.seat, self.decision, self.value = bot, seat, decision, value
        self.reason, self.detail = reason, detail
        super().__init__(
            f"bot {bot!r} in seat {seat}: invalid {decision} {value!r}: {reason}"
        )

    def to_dict(self) -> dict:
        return {
            "bot": self.bot,
            "seat": self.seat,
            "decision": self.decision,
            "value": repr(self.value),
            "reason": self.reason,
            "message": str(self),
            "detail": self.detail,
        }


@dataclass
class GameResult:
    """Everything about one finished (or aborted) game, enough to replay it exactly."""

    seed: int | None
    n_players: int
    rules: Rules
    names: tuple[str, ...]
    spies: tuple[int, ...]
    first_leader: int
    winner: str | None = None  # "resistance" | "spies" | None (aborted)
    end_reason: str | None = None
    events: list[dict] = field(default_factory=list)
    error: BotError | None = None
    extra: dict[int, Any] = field(default_factory=dict)
    #: seat -> one entry per completed mission: {"mission": m, "scores": {seat: p}}
    suspicion: dict[int, list] = field(default_factory=dict)
    sources: tuple[str, ...] = ()
    #: seats of privileged bots (class attribute ``omniscient = True``) told the spies
    omniscient: tuple[int, ...] = ()

    @property
    def ok(self) -> bool:
        return self.error is None

    @property
    def spies_won(self) -> bool:
        return self.winner == "spies"

    def to_record(self) -> dict:
        """The JSON-serialisable game record (one JSON Lines line)."""
        rec = {
            "version": RECORD_VERSION,
            "setup": {
                "seed": self.seed,
                "players": self.n_players,
                "rules": self.rules.to_dict(),
                "bots": list(self.names),
                "sources": list(self.sources),
                "first_leader": self.first_leader,
            },
            "roles": {"spies": list(self.spies)},
            "events": self.events,
            "outcome": {"winner": self.winner, "reason": self.end_reason},
        }
        if self.omniscient:
            rec["setup"]["omniscient"] = list(self.omniscient)
        if self.error is not None:
            rec["error"] = self.error.to_dict()
        if self.suspicion:
            rec["suspicion"] = {str(k): v for k, v in self.suspicion.items()}
        if self.extra:
            rec["extra"] = {str(k): v for k, v in self.extra.items()}
        return rec


Observer = Callable[[dict, GameView], None]

_END_REASONS = {
    K.END_MISSIONS_RES: "three missions succeeded",
    K.END_MISSIONS_SPY: "three missions failed",
    K.END_REJECTIONS: "five proposals rejected in one mission",
}


class _Overtime(BaseException):
    """Raised inside a bot that overran its time limit (BaseException: bots that catch
    ``Exception`` cannot swallow it)."""


def _overtime(signum, frame):  # noqa: ARG001 — signal handler signature
    raise _Overtime


def hard_stop_after(time_limit: float) -> float:
    """When a decision slower than ``time_limit`` is interrupted rather than waited for.

    Slower than the limit is already invalid (checked when the bot returns); the watchdog
    only keeps a bot that never returns from hanging a game or a tournament worker, so
    it leaves a generous margin for the bot to return by itself.
    """
    return 2.0 * time_limit + 1.0


def _can_interrupt() -> bool:
    # SIGALRM timers exist on POSIX only and can be armed from the main thread only.
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def derive_seed(seed: int | None, *parts: int) -> int:
    """A well-mixed 63-bit seed for a sub-stream (per seat, per game) of ``seed``."""
    ss = np.random.SeedSequence([0 if seed is None else int(seed) & (2**63 - 1), *parts])
    return int(ss.generate_state(1, dtype=np.uint64)[0] >> np.uint64(1))


def unique_names(names: Sequence[str]) -> tuple[str, ...]:
    """Make seat names unique: the second ``Magi`` becomes ``Magi#2``."""
    seen: dict[str, int] = {}
    out = []
    for name in names:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(out)


def _is_bool(v: Any) -> bool:
    return type(v) is bool or isinstance(v, np.bool_)


def _is_seat(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


class _Game:
    """One game in progress. Kept private: :func:`play_game` is the API."""

    def __init__(
        self,
        bots: list[Bot],
        names: tuple[str, ...],
        seed: int | None,
        rules: Rules,
        first_leader: int | None,
        spies: Sequence[int] | None,
        time_limit: float | None,
        memory: dict | None,
        observers: Sequence[Observer],
        track_suspicion: bool = False,
    ) -> None:
        n = check_players(len(bots))
        deal = random.Random(derive_seed(seed, 0x5EA7))
        if spies is None:
            configs = spy_configurations(n)
            spy_mask = int(configs[deal.randrange(len(configs))])
        else:
            spy_mask = seats_to_mask(spies)
            if len(set(spies)) != SPIES_BY_PLAYERS[n] or not all(0 <= s < n for s in spies):
                raise ValueError(
                    f"a {n}-player game has {SPIES_BY_PLAYERS[n]} spies in seats 0-{n - 1}; "
                    f"got {list(spies)}"
                )
        leader = deal.randrange(n) if first_leader is None else first_leader
        if not 0 <= leader < n:
            raise ValueError(f"first leader must be a seat 0-{n - 1}, got {leader}")
        self.n = n
        self.bots = bots
        self.names = names
        self.rules = rules
        self.time_limit = time_limit
        self.observers = observers
        self.track_suspicion = track_suspicion
        self.state = K.new_state(n, spy_mask, leader, rules.flags)
        self.spies = mask_to_seats(spy_mask)
        self.public = PublicRecord(n, names, rules)
        self.view = GameView(self.public)
        self.result = GameResult(seed, n, rules, names, self.spies, leader)
        memory = {} if memory is None else memory
        spy_set = frozenset(self.spies)
        for seat, bot in enumerate(bots):
            bot._seat(
                seat,
                seat in spy_set,
                self.view,
                random.Random(derive_seed(seed, 1, seat)),
                memory.setdefault(names[seat], {}),
                names[seat],
            )
            if seat in spy_set:
                bot.spies = spy_set
            if getattr(type(bot), "omniscient", False) is True:
                # A privileged bot (e.g. cheating UCT) is told the truth; never the default.
                bot.spies = spy_set
                self.result.omniscient += (seat,)

    # -- calling bots ---------------------------------------------------------------
    def _call(self, seat: int, what: str, fn: Callable, *args: Any) -> Any:
        watchdog = self.time_limit is not None and _can_interrupt()
        if watchdog:
            self._calling = (seat, what)
            previous = signal.signal(signal.SIGALRM, _overtime)
            outer = signal.setitimer(signal.ITIMER_REAL, hard_stop_after(self.time_limit))
        t0 = time.perf_counter()
        try:
            value = fn(*args)
        except _Overtime:
            raise BotError(
                self.names[seat], seat, what, None,
                f"did not answer within {hard_stop_after(self.time_limit):g}s and was "
                f"stopped (time limit {self.time_limit:g}s)", traceback.format_exc(),
            ) from None
        except Exception as exc:  # noqa: BLE001 — any bot failure ends the game cleanly
            raise BotError(
                self.names[seat], seat, what, None,
                f"raised {type(exc).__name__}: {exc}", traceback.format_exc(),
            ) from exc
        finally:
            if watchdog:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, previous)
                if outer[0] > 0:  # re-arm a timer someone outside the game had set
                    left = max(outer[0] - (time.perf_counter() - t0), 1e-6)
                    signal.setitimer(signal.ITIMER_REAL, left, outer[1])
        if self.time_limit is not None:
            spent = time.perf_counter() - t0
            if spent > self.time_limit:
                raise BotError(
                    self.names[seat], seat, what, value,
                    f"took {spent:.3f}s, over the time limit of {self.time_limit:g}s",
                )
        return value

    def _notify(self, method: str, *args: Any) -> None:
        for seat, bot in enumerate(self.bots):
            self._call(seat, method, getattr(bot, method), *args)

    def _emit(self, event: dict) -> None:
        for obs in self.observers:
            obs(event, self.view)

    # -- validation -----------------------------------------------------------------
    def _team(self, seat: int, value: Any, count: int) -> tuple[int, ...]:
        name = self.names[seat]
        try:
            members = list(value)
        except TypeError:
            raise BotError(
                name, seat, "select", value, "a team must be a collection of seats"
            ) from None
        for m in members:
            if not _is_seat(m):
                raise BotError(name, seat, "select", value, f"{m!r} is not a seat number")
            if not 0 <= m < self.n:
                raise BotError(name, seat, "select", value, f"there is no seat {m}")
        if len(set(int(m) for m in members)) != len(members):
            raise BotError(name, seat, "select", value, "the team names a seat twice")
        if len(members) != count:
            raise BotError(
                name, seat, "select", value,
                f"mission {self.public.mission} needs a team of {count}, not {len(members)}",
            )
        return tuple(sorted(int(m) for m in members))

    def _bool(self, seat: int, what: str, value: Any) -> bool:
        if not _is_bool(value):
            raise BotError(self.names[seat], seat, what, value, "must be True or False")
        return bool(value)

    # -- the game -------------------------------------------------------------------
    def run(self) -> GameResult:
        try:
            self._play()
        except BotError as err:
            self.result.error = err
        except _Overtime:
            # The watchdog fired in the instant between a bot's return and its disarming.
            seat, what = self._calling
            self.result.error = BotError(
                self.names[seat], seat, what, None,
                f"was stopped at {hard_stop_after(self.time_limit):g}s "
                f"(time limit {self.time_limit:g}s)",
            )
        self.public.phase = PHASE_OVER
        for seat, bot in enumerate(self.bots):
            extra = getattr(bot, "record_extra", None)
            if extra is not None:
                try:
                    value = extra()
                except Exception:  # noqa: BLE001 — extras are optional diagnostics
                    value = None
                if value is not None:
                    self.result.extra[seat] = value
        return self.result

    def _sample_suspicion(self, mission: int) -> None:
        for seat, bot in enumerate(self.bots):
            scores = self._call(seat, "suspicion", bot.suspicion)
            if scores is not None:
                entry = {"mission": mission,
                         "scores": {str(int(k)): float(v) for k, v in dict(scores).items()}}
                self.result.suspicion.setdefault(seat, []).append(entry)

    def _play(self) -> None:
        s, n, pub = self.state, self.n, self.public
        players = tuple(range(n))
        for seat, bot in enumerate(self.bots):
            self._call(seat, "on_game_revealed", bot.on_game_revealed, players,
                       bot.spies if bot.spy else frozenset())
        while s[K.PHASE] != K.OVER:
            mission, attempt = int(s[K.MISSION]) + 1, int(s[K.ATTEMPT]) + 1
            leader = int(s[K.LEADER])
            pub.mission, pub.attempt, pub.leader = mission, attempt, leader
            pub.team, pub.phase = None, PHASE_SELECTION
            self._notify("on_mission_attempt", mission, attempt, leader)
            count = int(K.TEAM_SIZE[n, mission - 1])
            bot = self.bots[leader]
            team = self._team(leader, self._call(leader, "select", bot.select, players, count),
                              count)
            K.apply(s, seats_to_mask(team))
            pub.team = team
            self._notify("on_team_selected", leader, team)
            votes: tuple[bool, ...] | None = None
            if s[K.PHASE] == K.VOTE:
                pub.phase = PHASE_VOTING
                votes = tuple(
                    self._bool(seat, "vote", self._call(seat, "vote", b.vote, team))
                    for seat, b in enumerate(self.bots)
                )
                for v in votes:
                    K.apply(s, int(v))
            approved = s[K.PHASE] == K.MISSION_PHASE
            proposal = Proposal(mission, attempt, leader, team, votes, bool(approved))
            pub.proposals = pub.proposals + (proposal,)
            event = {"type": "proposal", "mission": mission, "attempt": attempt,
                     "leader": leader, "team": list(team),
                     "votes": None if votes is None else list(votes), "approved": bool(approved)}
            self.result.events.append(event)
            if votes is not None:
                self._notify("on_vote_complete", votes)
            self._emit(event)
            if approved:
                pub.phase = PHASE_MISSION
                cards = []
                for seat in team:
                    if s[K.SPIES] >> seat & 1:
                        b = self.bots[seat]
                        answer = self._call(seat, "sabotage", b.sabotage)
                        card = self._bool(seat, "sabotage", answer)
                    else:
                        card = False
                    cards.append(card)
                    K.apply(s, int(card))
                fails = sum(cards)
                sabotaged = fails >= int(K.FAILS_NEEDED[n, mission - 1])
                if sabotaged:
                    pub.losses += 1
                else:
                    pub.wins += 1
                pub.missions = pub.missions + (
                    MissionResult(mission, leader, team, fails, sabotaged),
                )
                event = {"type": "mission", "mission": mission, "team": list(team),
                         "fails": fails, "sabotaged": sabotaged}
                self._emit(dict(event))
                event["cards"] = cards  # hidden: only in the full record, after the game
                self.result.events.append(event)
                self._notify("on_mission_complete", fails)
                if self.track_suspicion:
                    self._sample_suspicion(mission)
        winner = "spies" if s[K.WINNER] == K.SPY_SIDE else "resistance"
        self.result.winner = winner
        self.result.end_reason = _END_REASONS[int(s[K.END])]
        pub.winner = winner
        pub.phase = PHASE_OVER
        self._emit({"type": "end", "winner": winner, "reason": self.result.end_reason,
                    "spies": list(self.spies)})
        spies = frozenset(self.spies)
        self._notify("on_game_complete", winner == "resistance", spies)


def play_game(
    bots: Sequence[Bot | BotSpec | str],
    *,
    seed: int | None = None,
    rules: Rules | None = None,
    first_leader: int | None = None,
    spies: Sequence[int] | None = None,
    time_limit: float | None = None,
    memory: dict | None = None,
    observers: Sequence[Observer] = (),
    names: Sequence[str] | None = None,
    track_suspicion: bool = False,
) -> GameResult:
    """Play one game. ``bots`` are Bot instances, specs or spec strings, one per seat.

    ``track_suspicion`` samples every bot's :meth:`Bot.suspicion` after each mission.
    ``seed`` fixes the deal (spies, first leader) and every bot's ``rng``. ``memory``
    is a dict of per-identity dicts that persists across games (for learning bots).
    Invalid decisions end the game with ``result.error`` set; nothing is raised.
    """
    instances: list[Bot] = []
    labels: list[str] = []
    sources: list[str] = []
    for b in bots:
        if isinstance(b, Bot):
            instances.append(b)
            labels.append(getattr(b, "display_name", None) or type(b).bot_name)
            sources.append(type(b).bot_name)
        else:
            spec = parse_spec(b)[0] if isinstance(b, str) else b
            instances.append(spec.make())
            labels.append(spec.name)
            sources.append(spec.source)
    game = _Game(
        instances,
        unique_names(names if names is not None else labels),
        seed,
        rules or Rules(),
        first_leader,
        spies,
        time_limit,
        memory,
        observers,
        track_suspicion,
    )
    game.result.sources = tuple(sources)
    return game.run()
