"""The game-general referee: plays one game of any :class:`~spyglass.games.base.Game`
between any :class:`~spyglass.agents.base.Agent` s, validating every decision.

The referee holds the only copy of the full state. Each agent is given only what its seat
may know: at the start its seat and view; when it must move, its view and the legal
actions; after every move (its own and everyone else's) the move as *its* seat observed it
(``kernel.observe`` is called before ``apply``, for every seat, in seat order) and its new
view. Views are fresh read-only arrays (``writeable=False``), so an agent can neither see
another seat's arrays nor change the referee's. An agent whose class says
``omniscient = True`` is given the full state (a read-only copy) in place of its view;
its seats are recorded so that its results are never mistaken for fair play.

Validation: an action must be a plain ``int`` (NumPy integer scalars are accepted and
converted; ``bool``, ``int`` subclasses, floats, arrays and other objects are refused, since
a subclass can redefine equality) that is one of the legal actions. An invalid action, an
exception raised by an agent, or a decision slower than the time limit ends the game with
an :class:`AgentError` naming the agent, seat, decision and value; nothing is raised out of
:func:`play_match` once play has started, and the moves made so far are kept in the result
(and its record). A fault of the game's own code ends the game the same way, with the
error attributed to the game.

An agent may define ``prepare(game, seat)``: it is called before the game, outside the time
limit (an isolated agent starts its worker process there, so that the start-up of a
process is not charged to its first decision).

Seeds (the same seed gives the same game): the initial state is ``game.new_state(deal)``
(every chance outcome of the game drawn from it), where ``deal`` defaults to ``seed``; the
agent in seat ``j`` gets ``derive_seed(seed, 1, j)``, a 63-bit seed from NumPy's
``SeedSequence([seed, 1, j])``, so agents' streams are independent of each other and of
the deal. A separate ``deal`` lets a tournament replay one deal with the seats rotated
while the agents' own randomness stays fresh (duplicate play).
"""

from __future__ import annotations

import json
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spyglass.agents.base import Agent
from spyglass.arena.agent_spec import AgentSpec, resolve_agents
from spyglass.arena.history import match_record
from spyglass.arena.sanitize import describe
from spyglass.arena.watchdog import (
    Overtime,
    check_time_limit,
    slow_reason,
    stopped_reason,
    timed_call,
)
from spyglass.games.base import Game
from spyglass.rng import check_seed, derive_seed, fresh_seed

__all__ = ["AgentError", "InvalidAnswer", "MatchResult", "check_action", "derive_seed",
           "play_match", "unique_labels"]

GAME_FAULT = "(game)"

#: called after every move with (actor, action, every seat's observation key of it, the
#: full state after the move, read-only): for live transcripts, never given to agents
MoveObserver = Callable[[int, int, tuple[int, ...], np.ndarray], None]


class AgentError(Exception):
    """An agent broke the rules or the API (or the game's code failed: ``seat == -1``).

    ``decision`` is the call (``start``, ``act``, ``observe``, ``finish``) and ``move`` the
    number of moves made before it.
    """

    def __init__(
        self, agent: str, seat: int, decision: str, move: int, value: Any, reason: str,
        detail: str = "",
    ) -> None:
        self.agent, self.seat, self.decision, self.move = agent, seat, decision, move
        self.value, self.reason, self.detail = value, reason, detail
        who = "the game's code" if seat < 0 else f"agent {agent!r} in seat {seat}"
        shown = "" if value is None else f" {value!r}"
        super().__init__(f"{who}: {decision}{shown} at move {move}: {reason}")

    def to_dict(self) -> dict:
        """Plain data for the game record."""
        return {
            "agent": self.agent,
            "seat": self.seat,
            "decision": self.decision,
            "move": self.move,
            "value": None if self.value is None else repr(self.value),
            "reason": self.reason,
            "message": str(self),
            "detail": self.detail,
        }


class InvalidAnswer(Exception):
    """Raised by an adapter agent when the player it wraps answered invalidly (e.g. a 2012
    Bot-API bot's vote that is not a bool, see :mod:`spyglass.resistance.arena.bot_answers`).

    The referee records the adapter's own ``decision``, ``value``, ``reason`` and
    ``detail`` for the seat instead of "raised InvalidAnswer", so that a bot's error reads
    the same under every referee.
    """

    decision: str
    value: Any
    reason: str
    detail: str


@dataclass
class MatchResult:
    """One finished (or ended-by-error) game: enough to replay it exactly."""

    game: Game
    seed: int
    labels: tuple[str, ...]
    deal: int | None = None  # the initial state's seed when not ``seed``
    omniscient: tuple[int, ...] = ()
    isolated: tuple[int, ...] = ()  # seats whose agent ran in its own worker process
    actions: list[tuple[int, int]] = field(default_factory=list)
    rewards: tuple[float, ...] | None = None
    error: AgentError | None = None
    extra: dict[int, Any] = field(default_factory=dict)
    state: np.ndarray | None = None  # the final full state (not recorded: replay rebuilds it)

    @property
    def ok(self) -> bool:
        return self.error is None and self.rewards is not None

    def to_record(self, **more: Any) -> dict:
        """The versioned game record (see :mod:`spyglass.arena.history`)."""
        return match_record(self, **more)


def unique_labels(labels: Sequence[str]) -> tuple[str, ...]:
    """Seat labels made unique: the second ``random`` becomes ``random#2``."""
    seen: dict[str, int] = {}
    out = []
    for name in labels:
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}#{seen[name]}")
    return tuple(out)


def check_action(value: Any, legal: Sequence[int]) -> tuple[int | None, str]:
    """``(action, "")`` for a valid answer, else ``(None, why)``."""
    if isinstance(value, (bool, np.bool_)):
        return None, "an action must be an int, not a bool"
    if isinstance(value, np.integer):
        value = int(value)
    elif type(value) is not int:
        if isinstance(value, int):
            kind = type(value).__name__
            return None, f"an action must be a plain int, not a {kind} (int subclass)"
        return None, f"an action must be an int, not {type(value).__name__}"
    if value not in legal:
        return None, f"not a legal action here (legal: {list(legal)})"
    return value, ""


def _text(value: Any, default: str) -> str:
    """An :class:`InvalidAnswer`'s text field, if it is really a string."""
    return value if type(value) is str else default


def _shown(value: Any) -> Any:
    """An :class:`InvalidAnswer`'s value as kept in the error: a plain scalar as it is,
    anything else by its description (never by calling a foreign object's methods)."""
    if value is None or type(value) in (bool, int, float, str):
        return value
    return describe(value)


def _read_only(a: np.ndarray) -> np.ndarray:
    a = np.array(a, dtype=np.int64, copy=True)
    a.setflags(write=False)
    return a


class _Match:
    """One game in progress; private (:func:`play_match` is the API)."""

    def __init__(self, game: Game, agents: list[Agent], labels: tuple[str, ...], seed: int,
                 time_limit: float | None, observers: Sequence[MoveObserver]) -> None:
        self.game, self.agents, self.labels = game, agents, labels
        self.time_limit, self.observers = time_limit, observers
        self.omniscient = tuple(
            j for j, a in enumerate(agents) if getattr(type(a), "omniscient", False) is True
        )
        self.result = MatchResult(game, seed, labels, omniscient=self.omniscient, isolated=tuple(
            j for j, a in enumerate(agents) if getattr(type(a), "isolated", False) is True))

    def _input(self, state: np.ndarray, seat: int) -> np.ndarray:
        if seat in self.omniscient:
            return _read_only(state)
        return _read_only(self.game.view(state, seat))

    def _call(self, seat: int, what: str, fn: Callable, *args: Any,
              timed: bool = True) -> Any:
        move = len(self.result.actions)
        limit = self.time_limit if timed else None
        try:
            value, spent = timed_call(fn, args, limit)
        except InvalidAnswer as exc:
            raise AgentError(self.labels[seat], seat, _text(exc.decision, what), move,
                             _shown(exc.value), _text(exc.reason, "invalid answer"),
                             _text(exc.detail, "")) from exc
        except Overtime:
            raise AgentError(self.labels[seat], seat, what, move, None,
                             stopped_reason(self.time_limit)) from None
        except Exception as exc:  # noqa: BLE001 — any agent failure ends the game cleanly
            raise AgentError(
                self.labels[seat], seat, what, move, None,
                f"raised {type(exc).__name__}: {exc}", traceback.format_exc(),
            ) from exc
        if limit is not None and spent > limit:
            raise AgentError(self.labels[seat], seat, what, move, value,
                             slow_reason(spent, self.time_limit))
        return value

    def _rules(self, what: str, fn: Callable, *args: Any) -> Any:
        try:
            return fn(*args)
        except Exception as exc:  # noqa: BLE001 — a broken game must not lose the record
            raise AgentError(
                GAME_FAULT, -1, what, len(self.result.actions), None,
                f"raised {type(exc).__name__}: {exc}", traceback.format_exc(),
            ) from exc

    def run(self, state: np.ndarray) -> MatchResult:
        try:
            self._play(state)
        except AgentError as err:
            self.result.error = err
        except Overtime:  # the hard stop fired between an agent's return and disarming
            self.result.error = AgentError(GAME_FAULT, -1, "watchdog", len(self.result.actions),
                                           None, "a stopped call left the referee")
        self.result.state = state
        self._collect_extra()
        return self.result

    def _play(self, state: np.ndarray) -> None:
        game, k, n = self.game, self.game.kernel, self.game.n_players
        for j, agent in enumerate(self.agents):
            prepare = getattr(agent, "prepare", None)
            if prepare is not None:  # e.g. starting an isolated agent's worker process
                self._call(j, "prepare", prepare, game, j, timed=False)
        for j, agent in enumerate(self.agents):
            seed = derive_seed(self.result.seed, 1, j)
            self._call(j, "start", agent.start, game, j, self._input(state, j), seed)
        while True:
            actor = int(self._rules("actor", k.actor, state))
            if actor < 0:
                break
            moves = len(self.result.actions)
            if moves >= game.max_moves:
                raise AgentError(GAME_FAULT, -1, "move", moves, None,
                                 f"the game did not end within max_moves={game.max_moves}")
            if not 0 <= actor < n:
                raise AgentError(GAME_FAULT, -1, "actor", moves, actor, "no such seat")
            legal = self._rules("legal_actions", game.legal_actions, state)
            if not legal:
                raise AgentError(GAME_FAULT, -1, "legal_actions", moves, None,
                                 f"seat {actor} must move but has no legal action")
            answer = self._call(actor, "act", self.agents[actor].act,
                                self._input(state, actor), list(legal))
            action, why = check_action(answer, legal)
            if action is None:
                raise AgentError(self.labels[actor], actor, "act", moves, answer, why)
            obs = [int(self._rules("observe", k.observe, state, action, j)) for j in range(n)]
            self._rules("apply", k.apply, state, action)
            self.result.actions.append((actor, action))
            if self.observers:
                after = _read_only(state)
                for watch in self.observers:
                    watch(actor, action, tuple(obs), after)
            for j, agent in enumerate(self.agents):
                self._call(j, "observe", agent.observe, obs[j], actor, self._input(state, j))
        if not self._rules("is_terminal", k.is_terminal, state):
            raise AgentError(GAME_FAULT, -1, "is_terminal", len(self.result.actions), None,
                             "no seat is to act but the game is not over")
        rewards = self._rules("rewards", game.rewards, state)
        self.result.rewards = tuple(float(r) for r in rewards)
        for j, agent in enumerate(self.agents):
            self._call(j, "finish", agent.finish, self.result.rewards)

    def _collect_extra(self) -> None:
        for j, agent in enumerate(self.agents):
            extra = getattr(agent, "record_extra", None)
            if extra is None:
                continue
            try:
                value = extra()
                if value is not None:
                    json.dumps(value)  # records are JSON: keep only what can be stored
                    self.result.extra[j] = value
            except Exception:  # noqa: BLE001, S112 — extras are optional diagnostics
                continue


def play_match(
    game: Game,
    agents: Sequence[Any],
    seed: int | None = None,
    *,
    time_limit: float | None = None,
    observers: Sequence[MoveObserver] = (),
    labels: Sequence[str] | None = None,
    deal: int | None = None,
) -> MatchResult:
    """Play one game of ``game`` (a :class:`Game` instance) between ``agents``, one per seat.

    ``agents``: :class:`Agent` instances (used as they are), subclasses, factories or spec
    strings (``name`` / ``name:key=value,...``, see :mod:`spyglass.arena.agent_spec`).
    ``seed``: fixes the game and every agent's seed (default: a fresh seed, kept in the
    result); ``deal``: the initial state's seed, if not ``seed``. ``time_limit``: seconds
    per call into an agent. ``observers`` see every move with the full state (for live
    transcripts; never given to agents).
    A bad setup raises ValueError/TypeError; once play starts nothing is raised: errors
    end the game and are in ``result.error``.
    """
    if not isinstance(game, Game):
        raise TypeError(f"game must be a Game instance, not {type(game).__name__}")
    if len(agents) != game.n_players:
        raise ValueError(f"{game!r} has {game.n_players} seats, but {len(agents)} agents given")
    time_limit = check_time_limit(time_limit)
    seed = fresh_seed() if seed is None else check_seed(seed)
    if deal is not None:
        deal = check_seed(deal, "deal")
    # Instances are used as given (one game); everything else is built fresh from its spec.
    specs: list[AgentSpec] = resolve_agents(agents)
    instances = [a if isinstance(a, Agent) else s.make()
                 for a, s in zip(agents, specs, strict=True)]
    names = unique_labels(labels if labels is not None else [s.label for s in specs])
    if len(names) != game.n_players:
        raise ValueError(f"{len(names)} labels for {game.n_players} seats")
    state = np.array(game.new_state(seed if deal is None else deal), dtype=np.int64)
    match = _Match(game, instances, names, seed, time_limit, observers)
    match.result.deal = deal
    return match.run(state)
