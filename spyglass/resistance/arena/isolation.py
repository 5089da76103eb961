"""The Resistance's bots in worker processes: the referee-side stand-in and the worker host.

:class:`RemoteBot` sits in the referee's seat like any bot, but each call becomes one
message to a :class:`~spyglass.arena.sandbox.Worker`: the call's arguments, the public
game state as this seat sees it (what changed is cheap to send: the scalars and any new
proposals and missions) and, on the first call of a game, the seat's setup (seat, role,
the spies if it is one, its name, the rules, and its random generator: the seed the
referee built it from, or else its whole state).
Notifications are posted without waiting: their failures come back with the next
decision's answer, named after the notification. The worker
(:class:`BotHost`) rebuilds a private :class:`GameView` from those messages only, so the
bot's process never holds the true roles, the referee or another bot: frame walking and
``gc`` scanning find nothing to read. Answers come back as plain JSON and are checked
again by the referee. The same seed gives the same game isolated or not.
"""

from __future__ import annotations

import random
import sys
from typing import Any

from spyglass.arena.sandbox import RECORD_EXTRA, Host, SandboxError, Worker
from spyglass.arena.sanitize import plain_items
from spyglass.games.resistance.observation import MissionResult, Proposal
from spyglass.resistance.bots.base import Bot

HOST = "spyglass.resistance.arena.isolation:BotHost"

def _wire(x: Any) -> Any:
    """Referee-made arguments (tuples, frozensets) as JSON lists."""
    if isinstance(x, (frozenset, set)):
        return sorted(x)
    if isinstance(x, (tuple, list)):
        return [_wire(v) for v in x]
    return x


class RemoteBot(Bot):
    """A seat whose bot runs in a worker process (referee side)."""

    isolated = True
    #: The seed of the generator the referee is about to give this seat (set before each
    #: game's ``_seat``): the worker rebuilds the generator from it, 8 bytes instead of
    #: its 625-word state (most of a game's first message, encoded and decoded).
    rng_seed: int | None = None

    def __init__(self, worker: Worker | SandboxError, timeout: float, limit: float | None,
                 label: str) -> None:
        self.params = {}
        self._worker, self._timeout, self._limit, self.label = worker, timeout, limit, label

    def _seat(self, seat, spy, game, rng, memory, name) -> None:  # noqa: ANN001
        super()._seat(seat, spy, game, rng, memory, name)
        seed, self.rng_seed = self.rng_seed, None  # one game's, never the next one's
        if type(seed) is int and type(rng) is random.Random:
            self._rng_state = ("seed", seed)
        else:  # a referee that did not say: the generator's whole state
            self._rng_state = rng.getstate()
        self._setup_sent = False
        self._counts = (0, 0)

    def _state(self) -> list:
        r = self.game._r  # this seat's copy of the public record, kept by the referee
        n_props, n_missions = self._counts
        props = [[p.mission, p.attempt, p.leader, list(p.team),
                  None if p.votes is None else list(p.votes), p.approved]
                 for p in r.proposals[n_props:]]
        missions = [[m.mission, m.leader, list(m.team), m.fails, m.sabotaged]
                    for m in r.missions[n_missions:]]
        self._counts = (len(r.proposals), len(r.missions))
        return [r.mission, r.attempt, r.leader, None if r.team is None else list(r.team),
                r.phase, r.wins, r.losses, r.winner, props, missions]

    def _setup(self) -> dict | None:
        if self._setup_sent:
            return None
        self._setup_sent = True
        if self._rng_state[0] == "seed":
            rng: Any = self._rng_state[1]
        else:
            version, internal, gauss = self._rng_state
            rng = [version, list(internal), gauss]
        r = self.game._r
        return {"seat": self.seat, "spy": self.spy, "spies": sorted(self.spies),
                "name": self.name, "names": list(r.names), "players": r.n_players,
                "rules": r.rules.to_dict(), "rng": rng}

    def _rpc(self, method: str, *args: Any, post: bool = False) -> Any:
        if isinstance(self._worker, SandboxError):
            raise SandboxError("died", f"its worker process could not start: "
                               f"{self._worker.reason}", self._worker.detail)
        send = self._worker.post if post else self._worker.call
        return send(method, [_wire(args), self._state(), self._setup()],
                    timeout=self._timeout, limit=self._limit)

    def settle(self) -> None:
        """Wait until the worker has run every notification sent (failures raised)."""
        if not isinstance(self._worker, SandboxError):
            self._worker.settle()

    def settle_quietly(self) -> None:
        """After a game that ended early: drain the worker's answers, whatever they say."""
        try:
            self.settle()
        except SandboxError:
            pass

    def on_game_revealed(self, players, spies) -> None:  # noqa: ANN001
        self._rpc("on_game_revealed", players, spies, post=True)

    def on_mission_attempt(self, mission, attempt, leader) -> None:  # noqa: ANN001
        self._rpc("on_mission_attempt", mission, attempt, leader, post=True)

    def on_team_selected(self, leader, team) -> None:  # noqa: ANN001
        self._rpc("on_team_selected", leader, team, post=True)

    def on_vote_complete(self, votes) -> None:  # noqa: ANN001
        self._rpc("on_vote_complete", votes, post=True)

    def on_mission_complete(self, fails) -> None:  # noqa: ANN001
        self._rpc("on_mission_complete", fails, post=True)

    def on_game_complete(self, resistance_won, spies) -> None:  # noqa: ANN001
        self._rpc("on_game_complete", resistance_won, spies, post=True)

    def select(self, players, count):  # noqa: ANN001, ANN201
        return self._rpc("select", players, count)

    def vote(self, team):  # noqa: ANN001, ANN201
        return self._rpc("vote", team)

    def sabotage(self):  # noqa: ANN201
        return self._rpc("sabotage")

    def suspicion(self):  # noqa: ANN201
        return self._rpc("suspicion")

    def record_extra(self):  # noqa: ANN201
        if isinstance(self._worker, SandboxError) or not self._worker.alive:
            return None  # the game's error already says what happened to it
        if self._worker.hello.get("record_extra") is False:
            return None  # its bot has none (a 2012 bot): no round trip at every game's end
        return self._rpc("record_extra")

    def __repr__(self) -> str:
        return f"RemoteBot({self.label!r}, seat={getattr(self, 'seat', None)})"


class OmniscientRemoteBot(RemoteBot):
    """An isolated *trusted* privileged bot (e.g. cheating UCT): it is told the spies."""

    omniscient = True


# --- the worker side --------------------------------------------------------------------------
def _tuple(x: Any) -> tuple:
    return tuple(x)


_ARGS = {  # JSON arguments back into the types of the bot API
    "on_game_revealed": lambda a: (tuple(a[0]), frozenset(a[1])),
    "on_mission_attempt": lambda a: (a[0], a[1], a[2]),
    "on_team_selected": lambda a: (a[0], tuple(a[1])),
    "on_vote_complete": lambda a: (tuple(a[0]),),
    "on_mission_complete": lambda a: (a[0],),
    "on_game_complete": lambda a: (a[0], frozenset(a[1])),
    "select": lambda a: (tuple(a[0]), a[1]),
    "vote": lambda a: (tuple(a[0]),),
    "sabotage": lambda a: (),
    "suspicion": lambda a: (),
    "record_extra": lambda a: (),
}


def _team(answer: Any) -> list:
    return plain_items(answer, not_item="is not a seat number", max_items=64)


class BotHost(Host):  # pragma: no cover — runs in the worker process (tested end to end)
    """Worker side: one bot class, a fresh instance per game, a memory per seat name."""

    ANSWERS = {**dict.fromkeys(("on_game_revealed", "on_mission_attempt", "on_team_selected",
                                "on_vote_complete", "on_mission_complete", "on_game_complete")),
               "select": _team, "vote": dict(max_items=4, max_depth=1),
               "sabotage": dict(max_items=4, max_depth=1),
               "suspicion": dict(max_items=64, max_depth=2), "record_extra": RECORD_EXTRA}

    def __init__(self, init: Any) -> None:
        from spyglass.resistance.arena.spec import BotSpec

        source, params, label = init["source"], init["params"], init.get("label")
        self.spec = BotSpec(source, tuple((k, v) for k, v in params), label)
        self.spec.bot_class()
        self.memory: dict = {}
        self.bot: Bot | None = None

    def hello(self) -> dict:
        """Whether the bot can have a ``record_extra`` at all: a 2012 bot's adapter never
        does (only Spyglass's adapter sets its attributes), so the referee does not ask
        it after every game. A bot that lied would only lose its own extras."""
        cls = self.spec.bot_class()
        adapters = sys.modules.get("spyglass.resistance.compat.adapter")  # loaded if any is
        legacy = adapters is not None and adapters.is_adapter_class(cls)
        return {"record_extra": not (legacy and getattr(cls, "record_extra", None) is None)}

    def _begin(self, setup: dict) -> None:
        from spyglass.games.resistance.observation import GameView, PublicRecord
        from spyglass.games.resistance.options import Rules

        self.record = PublicRecord(setup["players"], tuple(setup["names"]),
                                   Rules.from_dict(setup["rules"]))
        self.proposals: tuple = ()
        self.missions: tuple = ()
        if type(setup["rng"]) is int:  # the seed the referee built the seat's generator from
            rng = random.Random(setup["rng"])
        else:
            rng = random.Random()
            version, internal, gauss = setup["rng"]
            rng.setstate((version, tuple(internal), gauss))
        self.bot = self.spec.make()
        name = setup["name"]
        self.bot._seat(setup["seat"], setup["spy"], GameView(self.record), rng,
                       self.memory.setdefault(name, {}), name)
        self.bot.spies = frozenset(setup["spies"])

    def _apply(self, state: list) -> None:
        r = self.record
        mission, attempt, leader, team, phase, wins, losses, winner, props, missions = state
        if props:  # most messages bring no new proposal or mission
            self.proposals += tuple(
                Proposal(m, a, ld, tuple(t), None if v is None else tuple(v), ok)
                for m, a, ld, t, v, ok in props)
        if missions:
            self.missions += tuple(
                MissionResult(m, ld, tuple(t), f, s) for m, ld, t, f, s in missions)
        r.proposals, r.missions = self.proposals, self.missions
        r.mission, r.attempt, r.leader = mission, attempt, leader
        r.team = None if team is None else tuple(team)
        r.phase, r.wins, r.losses, r.winner = phase, wins, losses, winner

    def run(self, method: str, args: list) -> Any:
        call_args, state, setup = args
        if setup is not None:
            self._begin(setup)
        if self.bot is None:
            raise RuntimeError("a call before the game started")
        self._apply(state)
        if method == "record_extra":
            fn = getattr(self.bot, "record_extra", None)
            if fn is None:
                return None
        else:
            fn = getattr(self.bot, method)
        return fn(*_ARGS[method](call_args))
