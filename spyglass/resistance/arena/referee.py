"""The referee: runs one game of The Resistance between bots, validating every decision.

The referee drives the compiled rules kernel (:mod:`spyglass.games.resistance.kernel`);
it holds the only copy of the true state. Bots get callbacks with public facts and a
read-only view of the public record; only a spy is told the spies.

An invalid decision (wrong team size, unknown or duplicate seat, a non-bool vote or
card, an exception, a decision slower than the time limit) ends that game with a
:class:`BotError` recorded in the result. It never propagates out of :func:`play_game`.

What it shares with the game-general referee (:mod:`spyglass.arena.match`, which plays
2012 bots through :class:`~spyglass.resistance.arena.bot_agent.BotAgent`): the rules kernel, the
deal (:func:`~spyglass.games.resistance.game.deal_roles`), the seeds
(:func:`spyglass.rng.derive_seed`), the public-record updates, the checks of a bot's
answers and failures (:mod:`spyglass.resistance.arena.bot_answers`) and the time-limit watchdog
(:mod:`spyglass.arena.watchdog`); a seed gives the same moves under both. Its own loop
remains because the Bot API notifies every seat in rounds (all ``on_vote_complete``, then
all ``on_mission_attempt``), where the protocol delivers each move to one seat after
another, and because the generic loop (a view and an ``observe`` call per seat per move)
plays these bots 16-24 % slower: tournaments keep this loop for speed and byte-identical
records.
"""

from __future__ import annotations

import copy
import random
import signal
import sys
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spyglass.arena.match import unique_labels as unique_names
from spyglass.arena.sandbox import (
    DEFAULT_TIME_LIMIT,
    SandboxError,
    WorkerPool,
    check_isolation,
    isolates,
)
from spyglass.arena.sanitize import clip_text, describe, plain, stored
from spyglass.arena.watchdog import (
    Overtime,
    check_time_limit,
    hard_stop_after,
    slow_reason,
    stopped_reason,
    timed_call,
)
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.game import deal_roles
from spyglass.games.resistance.observation import (
    PHASE_MISSION,
    PHASE_OVER,
    PHASE_VOTING,
    GameView,
    PublicRecord,
)
from spyglass.games.resistance.options import Rules, check_players
from spyglass.games.resistance.tables import (
    SPIES_BY_PLAYERS,
    mask_to_seats,
    seats_to_mask,
)
from spyglass.resistance.arena.bot_answers import (
    BotError,
    check_bool,
    check_team,
    failure,
    format_exc,
    plain_small,
    plain_team,
)
from spyglass.resistance.bots.base import Bot
from spyglass.rng import check_seed, fresh_seed
from spyglass.rng import derive_seed as _derive_seed

RECORD_VERSION = 1


#: Bounds on the values of a bot's ``record_extra`` (see :func:`~spyglass.arena.sanitize.plain`).
EXTRA_ITEMS_ISOLATED = 100_000
EXTRA_ITEMS_IN_PROCESS = 20_000_000

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
    #: seats whose bot ran in its own worker process
    #: (see :mod:`spyglass.resistance.arena.isolation`)
    isolated: tuple[int, ...] = ()
    #: dropped diagnostics (a bad suspicion or record_extra answer), bounded
    warnings: list[str] = field(default_factory=list)

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
        if self.isolated:
            rec["setup"]["isolated"] = list(self.isolated)
        if self.warnings:
            rec["warnings"] = list(self.warnings)
        if self.error is not None:
            rec["error"] = self.error.to_dict()
        if self.suspicion:
            rec["suspicion"] = {str(k): stored(v) for k, v in self.suspicion.items()}
        if self.extra:
            rec["extra"] = {str(k): stored(v) for k, v in self.extra.items()}
        return rec


Observer = Callable[[dict, GameView], None]

_END_REASONS = {
    K.END_MISSIONS_RES: "three missions succeeded",
    K.END_MISSIONS_SPY: "three missions failed",
    K.END_REJECTIONS: "five proposals rejected in one mission",
}


def derive_seed(seed: int | None, *parts: int) -> int:
    """A well-mixed 63-bit seed for a sub-stream (per seat, per game) of ``seed``."""
    # Seeds are checked to 0..2**64-1 on the way in; below 2**63 the mask changes nothing
    # (so records made before seeds could reach 64 bits are unchanged).
    return _derive_seed(0 if seed is None else int(seed) & (2**64 - 1), *parts)


def _own_class(cls: type) -> bool:
    """Whether ``cls`` is a class of the Spyglass package itself (not one claiming to be:
    the module must really hold this very class under its name), or the 2012 adapter
    Spyglass generated for a 2012 bot class (its code is the adapter's, which only reads
    the view; the 2012 bot itself sees its own ``game.State``)."""
    module = sys.modules.get(getattr(cls, "__module__", ""))
    if (module is not None and module.__name__.startswith("spyglass.")
            and getattr(module, cls.__qualname__, None) is cls):
        return True
    adapters = sys.modules.get("spyglass.resistance.compat.adapter")  # loaded if any adapter exists
    return adapters is not None and adapters.is_adapter_class(cls)


def _converted(fn: Callable, args: tuple, convert: Callable) -> Any:
    """``fn(*args)`` checked by ``convert`` (inside the time limit, like the call itself);
    a bool is taken as it is."""
    value = fn(*args)
    return value if type(value) is bool else convert(value)


def _clone(record: Any) -> Any:
    """A copy of a frozen public record (a Proposal, a MissionResult) for one bot."""
    new = object.__new__(type(record))
    new.__dict__.update(record.__dict__)
    return new


#: Set when a real SIGINT arrives during a game (see ``play_game``), so that a bot
#: *raising* KeyboardInterrupt is told apart from the user pressing Ctrl-C.
_SIGINTS = [0]
# How a seat's bot is called: sharing the referee's view, with its own copy, isolated.
_SHARED, _PRIVATE, _REMOTE = "shared", "private", "remote"


#: The notifications' empty defaults on :class:`Bot`: most bots override only a few, and
#: the referee skips a call that could do nothing (a fifth of a game's calls).
_NOOP_HOOKS = {name: getattr(Bot, name) for name in (
    "on_game_revealed", "on_mission_attempt", "on_team_selected", "on_vote_complete",
    "on_mission_complete", "on_game_complete")}


def _count_sigint(signum, frame):  # noqa: ARG001 — signal handler signature
    _SIGINTS[0] = 1
    raise KeyboardInterrupt


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
        if spies is not None and (len(set(spies)) != SPIES_BY_PLAYERS[n]
                                  or not all(0 <= s < n for s in spies)):
            raise ValueError(
                f"a {n}-player game has {SPIES_BY_PLAYERS[n]} spies in seats 0-{n - 1}; "
                f"got {list(spies)}"
            )
        # The protocol game's deal (Resistance.new_state), with the given roles kept.
        spy_mask, leader = deal_roles(
            n, random.Random(derive_seed(seed, 0x5EA7)),
            None if spies is None else seats_to_mask(spies), first_leader)
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
        self.view = GameView(self.public)  # for observers (trusted); bots get their own
        self.result = GameResult(seed, n, rules, names, self.spies, leader)
        memory = {} if memory is None else memory
        spy_set = frozenset(self.spies)
        self.remote = [bool(getattr(bot, "isolated", False)) for bot in bots]
        # One copy of the public record per bot, refreshed from the referee's before each
        # call: a bot that writes to its view (or the records in it) changes only its own.
        # Spyglass's own bots (and the stand-ins of isolated ones) only read: they share
        # the referee's view, which keeps the common case as fast as before.
        self._records = [None if _own_class(type(bot)) else
                         PublicRecord(n, names, copy.copy(rules)) for bot in bots]
        self._copied: list[tuple[tuple, tuple]] = [((), ()) for _ in bots]
        self._stamps: list[tuple | None] = [None] * len(bots)
        self._any_private = any(r is not None for r in self._records)
        self._kinds = [_REMOTE if r else _SHARED if rec is None else _PRIVATE
                       for r, rec in zip(self.remote, self._records, strict=True)]
        self._round: tuple | None = None
        for seat, bot in enumerate(bots):
            seat_seed = derive_seed(seed, 1, seat)
            if self.remote[seat]:  # its worker builds the same generator from the seed
                bot.rng_seed = seat_seed
            bot._seat(
                seat,
                seat in spy_set,
                self.view if self._records[seat] is None else GameView(self._records[seat]),
                random.Random(seat_seed),
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
    def _call(self, seat: int, what: str, fn: Callable, *args: Any, convert=None) -> Any:
        """Call a bot under its time limit; ``convert`` (e.g. :func:`plain`) runs inside it."""
        kind = self._kinds[seat]
        if kind is _PRIVATE:
            self._sync(seat)
        # an isolated bot's worker enforces the limit itself
        limit = None if kind is _REMOTE else self.time_limit
        if limit is not None:
            self._calling = (seat, what)
        try:
            if convert is None:
                value, spent = timed_call(fn, args, limit)
            else:
                value, spent = timed_call(_converted, (fn, args, convert), limit)
        except Overtime:
            raise BotError(self.names[seat], seat, what, None, stopped_reason(self.time_limit),
                           format_exc()) from None
        except KeyboardInterrupt as exc:
            if self._real_interrupt():
                raise  # the user's Ctrl-C, not the bot's
            raise BotError(self.names[seat], seat, what, None,
                           "raised KeyboardInterrupt", format_exc()) from exc
        except BaseException as exc:  # noqa: BLE001 — SystemExit etc.: still the bot's failure
            raise failure(self.names[seat], seat, what, exc) from exc
        if limit is not None and spent > limit:
            raise BotError(self.names[seat], seat, what, value, slow_reason(spent, limit))
        return value

    def _sync(self, seat: int) -> None:
        """Refresh seat's own copy of the public record (overwriting anything it changed)."""
        pub = self.public
        stamp = self._round or self._stamp()
        if stamp is self._stamps[seat] or stamp == self._stamps[seat]:
            return  # nothing new since this seat's last call (most notifications)
        self._stamps[seat] = stamp
        rec = self._records[seat]
        props, missions = self._copied[seat]
        if len(props) != len(pub.proposals):
            props += tuple(_clone(p) for p in pub.proposals[len(props):])
        if len(missions) != len(pub.missions):
            missions += tuple(_clone(m) for m in pub.missions[len(missions):])
        self._copied[seat] = props, missions
        rec.proposals, rec.missions = props, missions
        rec.mission, rec.attempt, rec.leader = pub.mission, pub.attempt, pub.leader
        rec.team, rec.phase, rec.wins, rec.losses = pub.team, pub.phase, pub.wins, pub.losses
        rec.winner, rec.n_players, rec.names = pub.winner, pub.n_players, pub.names

    def _stamp(self) -> tuple:
        pub = self.public
        return (pub.mission, pub.attempt, pub.leader, pub.team, pub.phase, pub.wins,
                pub.losses, pub.proposals, pub.missions, pub.winner)

    def _real_interrupt(self) -> bool:
        """Whether a KeyboardInterrupt seen during a bot call came from the user."""
        if _SIGINTS[0]:
            _SIGINTS[0] = 0
            return True
        handler = signal.getsignal(signal.SIGINT)
        if handler is _count_sigint or handler is signal.SIG_IGN:
            return False  # counted (and none came), or Ctrl-C cannot reach us at all
        return threading.current_thread() is threading.main_thread()  # unknown: the user's

    def _warn(self, seat: int, what: str, message: str) -> None:
        """Note a dropped diagnostic (suspicion, extras) in the record; never stops a game."""
        if len(self.result.warnings) < 20:
            self.result.warnings.append(
                clip_text(f"bot {self.names[seat]!r} in seat {seat}: {what}: {message}", 500))

    def _notify(self, method: str, *args: Any) -> None:
        if self._any_private:
            self._round = self._stamp()  # the public record does not change in a round
        noop = _NOOP_HOOKS[method]
        for seat, bot in enumerate(self.bots):
            hook = getattr(bot, method)
            if getattr(hook, "__func__", None) is noop:
                continue  # Bot's empty hook, not overridden: calling it can do nothing
            self._call(seat, method, hook, *args)
        self._round = None

    def _emit(self, event: dict) -> None:
        for obs in self.observers:
            obs(event, self.view)

    # -- the game -------------------------------------------------------------------
    def run(self) -> GameResult:
        try:
            self._play()
            for seat, bot in enumerate(self.bots):  # isolated bots' posted notifications
                if self.remote[seat]:
                    self._call(seat, "on_game_complete", bot.settle)
        except BotError as err:
            self.result.error = err
            self._round = None
        except Overtime:
            # The watchdog fired in the instant between a bot's return and its disarming.
            seat, what = self._calling
            self.result.error = BotError(
                self.names[seat], seat, what, None,
                f"was stopped at {hard_stop_after(self.time_limit):g}s "
                f"(time limit {self.time_limit:g}s)",
            )
        self.public.phase = PHASE_OVER
        for seat, bot in enumerate(self.bots):
            if self.remote[seat]:
                bot.settle_quietly()  # a game cut short leaves answers in the pipe
        for seat, bot in enumerate(self.bots):
            extra = getattr(bot, "record_extra", None)
            if extra is None:
                continue
            # Isolated (untrusted) bots get a tight bound; in-process bots are the user's or
            # Spyglass's own, whose diagnostics can be large (MT-ISMCTS's belief over 210
            # spy configurations after every event of a 10-player game).
            cap = EXTRA_ITEMS_ISOLATED if self.remote[seat] else EXTRA_ITEMS_IN_PROCESS
            try:  # optional diagnostics: a failure is noted, never the game's error
                value = self._call(seat, "record_extra", extra,
                                   convert=lambda v, cap=cap: plain(v, max_items=cap))
            except BotError as err:
                self._warn(seat, "record_extra dropped", err.reason)
                continue
            if value is not None:
                self.result.extra[seat] = value
        return self.result

    def _sample_suspicion(self, mission: int) -> None:
        for seat, bot in enumerate(self.bots):
            try:
                scores = self._call(seat, "suspicion", bot.suspicion,
                                    convert=lambda v: plain(v, max_items=64, max_depth=2))
            except BotError as err:
                if "unusable value" not in err.reason:
                    raise  # raised or overran: a failure like any other decision's
                self._warn(seat, f"suspicion after mission {mission} dropped", err.reason)
                continue
            if scores is None:
                continue
            checked = self._scores(scores)
            if isinstance(checked, str):
                self._warn(seat, f"suspicion after mission {mission} dropped", checked)
                continue
            self.result.suspicion.setdefault(seat, []).append(
                {"mission": mission, "scores": checked})

    def _scores(self, scores: Any) -> dict[str, float] | str:
        """A suspicion answer as {seat: probability}, or what is wrong with it."""
        if type(scores) is not dict:
            return f"expected a dict of seat -> score, got {describe(scores)}"
        out = {}
        for k, v in scores.items():
            seat = int(k) if type(k) is str and k.isdigit() and len(k) < 4 else k
            if type(seat) is not int or not 0 <= seat < self.n:
                return f"{describe(k)} is not a seat"
            if type(v) not in (int, float):
                return f"the score of seat {seat} is {describe(v)}, not a number"
            out[str(seat)] = float(v)
        return out

    def _play(self) -> None:
        s, n, pub = self.state, self.n, self.public
        players = tuple(range(n))
        for seat, bot in enumerate(self.bots):
            self._call(seat, "on_game_revealed", bot.on_game_revealed, players,
                       bot.spies if bot.spy else frozenset())
        while s[K.PHASE] != K.OVER:
            mission, attempt = int(s[K.MISSION]) + 1, int(s[K.ATTEMPT]) + 1
            leader = int(s[K.LEADER])
            pub.begin_attempt(mission, attempt, leader)
            self._notify("on_mission_attempt", mission, attempt, leader)
            count = int(K.TEAM_SIZE[n, mission - 1])
            bot = self.bots[leader]
            answer = self._call(leader, "select", bot.select, players, count,
                                convert=plain_team)
            team = check_team(self.names[leader], leader, answer, count, n, mission)
            K.apply(s, seats_to_mask(team))
            pub.team = team
            self._notify("on_team_selected", leader, team)
            votes: tuple[bool, ...] | None = None
            if s[K.PHASE] == K.VOTE:
                pub.phase = PHASE_VOTING
                votes = tuple(
                    check_bool(self.names[seat], seat, "vote",
                               self._call(seat, "vote", b.vote, team, convert=plain_small))
                    for seat, b in enumerate(self.bots)
                )
                for v in votes:
                    K.apply(s, int(v))
            approved = s[K.PHASE] == K.MISSION_PHASE
            pub.add_proposal(leader, team, votes, bool(approved))
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
                        answer = self._call(seat, "sabotage", b.sabotage, convert=plain_small)
                        card = check_bool(self.names[seat], seat, "sabotage", answer)
                    else:
                        card = False
                    cards.append(card)
                    K.apply(s, int(card))
                fails = sum(cards)
                sabotaged = pub.add_mission(leader, team, fails).sabotaged
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
        pub.end(winner)
        self._emit({"type": "end", "winner": winner, "reason": self.result.end_reason,
                    "spies": list(self.spies)})
        spies = frozenset(self.spies)
        self._notify("on_game_complete", winner == "resistance", spies)


def play_game(
    bots: Sequence[Any],
    *,
    seed: int | None = None,
    rules: Rules | str | dict | None = None,
    first_leader: int | None = None,
    spies: Sequence[int] | None = None,
    time_limit: float | None = None,
    memory: dict | None = None,
    observers: Sequence[Observer] = (),
    names: Sequence[str] | None = None,
    track_suspicion: bool = False,
    isolate: str = "auto",
    workers: WorkerPool | None = None,
) -> GameResult:
    """Play one game. ``bots``: one per seat, each a Bot instance (used once), a Bot
    subclass, a factory returning a Bot, a :class:`BotSpec` or a spec string.

    ``track_suspicion`` samples every bot's :meth:`Bot.suspicion` after each mission.
    ``seed`` fixes the deal (spies, first leader) and every bot's ``rng``; None draws a
    fresh 64-bit seed from the OS (stored in the record). ``memory`` is a dict of
    per-identity dicts that persists across games (for learning bots).
    ``isolate``: ``auto`` runs untrusted bots (files, non-Spyglass modules) each in its
    own worker process, ``all`` every bot that can be, ``none`` none (see the README's
    security section). Isolated seats get a time limit even when none is given
    (:data:`~spyglass.arena.sandbox.DEFAULT_TIME_LIMIT`). ``workers``: a
    :class:`~spyglass.arena.sandbox.WorkerPool` to reuse worker processes across games.
    Invalid decisions end the game with ``result.error`` set; nothing is raised.
    Bad arguments raise ``TypeError``/``ValueError`` naming the argument.
    """
    from spyglass.resistance.arena.entrants import seats as check_seats

    check_isolation(isolate)
    seed = check_seed(seed, "seed") if seed is not None else fresh_seed()
    the_rules = as_rules(rules)
    if first_leader is not None and type(first_leader) is not int:
        raise TypeError(f"first_leader must be a seat number (int), not {first_leader!r}")
    time_limit = check_time_limit(time_limit)
    if type(track_suspicion) is not bool:
        raise TypeError(f"track_suspicion must be True or False, not {track_suspicion!r}")
    if memory is not None and not isinstance(memory, dict):
        raise TypeError(f"memory must be a dict or None, not {type(memory).__name__}")
    if spies is not None:
        if isinstance(spies, (str, bytes)) or not all(type(x) is int for x in spies):
            raise TypeError(f"spies must be a list of seat numbers, not {spies!r}")
    for obs in observers:
        if not callable(obs):
            raise TypeError(f"observers must be callables, not {type(obs).__name__}")
    entries = check_seats(bots)
    n = check_players(len(entries))
    if names is not None:
        if (isinstance(names, str) or len(names) != n
                or not all(type(x) is str and x for x in names)):
            raise ValueError(f"names must give one non-empty string per seat ({n})")
    labels = unique_names(names if names is not None else [e.label for e in entries])
    isolated = [
        e.spec is not None and isolates(isolate, not e.trusted)
        for e in entries
    ]
    if isolate == "all" and any(e.spec is None for e in entries):
        raise ValueError("isolate='all' needs every bot as a class, spec or name: a Bot "
                         "instance or factory can only play in this process")
    if any(isolated) and time_limit is None:
        time_limit = DEFAULT_TIME_LIMIT
    pool = workers if workers is not None or not any(isolated) else WorkerPool()
    try:
        instances: list[Bot] = []
        for seat, e in enumerate(entries):
            if e.instance is not None:
                instances.append(e.instance)
            elif isolated[seat]:
                instances.append(_remote(pool, e, labels[seat], time_limit))
            else:
                instances.append(e.spec.make())
        game = _Game(instances, labels, seed, the_rules, first_leader, spies, time_limit,
                     memory, observers, track_suspicion)
        game.result.sources = tuple(e.source for e in entries)
        game.result.isolated = tuple(i for i, iso in enumerate(isolated) if iso)
        counted = (signal.getsignal(signal.SIGINT) is signal.default_int_handler
                   and threading.current_thread() is threading.main_thread())
        if counted:  # tell a real Ctrl-C from a bot raising KeyboardInterrupt
            _SIGINTS[0] = 0
            signal.signal(signal.SIGINT, _count_sigint)
        try:
            return game.run()
        finally:
            if counted:
                signal.signal(signal.SIGINT, signal.default_int_handler)
    finally:
        if pool is not None and pool is not workers:
            pool.close()


def _remote(pool: WorkerPool, entry: Any, name: str, time_limit: float) -> Bot:
    """The stand-in of an isolated seat, its worker started (or reused) now."""
    from spyglass.resistance.arena.entrants import spec_trusted
    from spyglass.resistance.arena.isolation import HOST, OmniscientRemoteBot, RemoteBot

    spec = entry.spec
    if spec.source.startswith("python:"):
        raise ValueError(f"bot {spec.name!r} is a Python factory: it cannot be isolated")
    init = {"source": spec.source, "params": [list(p) for p in spec.params],
            "label": spec.label}
    try:
        worker: Any = pool.get((spec.source, spec.params, spec.label, name), HOST, init,
                               name=name)
    except SandboxError as exc:
        worker = exc  # the game ends at this seat's first call, with this reason
    omniscient = spec_trusted(spec) and getattr(spec.bot_class(), "omniscient", False) is True
    cls = OmniscientRemoteBot if omniscient else RemoteBot
    return cls(worker, hard_stop_after(time_limit), time_limit, entry.label)


# --- checking arguments (seeds: spyglass.rng; time limits: spyglass.arena.watchdog) ----
def as_rules(rules: Any, what: str = "rules") -> Rules:
    """A :class:`Rules` from a Rules, a fifth-rejection name (``"forced"``) or a dict."""
    if rules is None:
        return Rules()
    if isinstance(rules, Rules):
        return rules
    try:
        if isinstance(rules, str):
            return Rules(fifth_rejection=rules)
        if isinstance(rules, dict):
            return Rules.from_dict(rules)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bad {what} {rules!r}: {exc}") from None
    raise TypeError(f"{what} must be a Rules object, a rule name such as 'forced' or a dict, "
                    f"not {type(rules).__name__}")
