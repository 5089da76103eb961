"""Game-general agents in their own worker process (:mod:`spyglass.arena.sandbox`).

:class:`IsolatedAgent` sits in a seat like any agent, but each call becomes one message to
a worker process that holds the real agent (:class:`AgentHost`): the worker is given
only the game's name and options, its seat, its views and observation keys (as lists of
integers), exactly what the referee would hand the agent in process, so it cannot walk
frames or scan memory to find the full state, the referee or another agent.
Observations are posted without waiting (a failure comes back with the next decision).
The same seed gives the same game isolated or not.

The worker is started for a seat's first game and reused for the following games of the
same agent in the same seat in this process (:data:`_POOL`, the sandbox's one
:class:`~spyglass.arena.sandbox.WorkerPool`, as The Resistance's bots use); each game
builds a fresh agent in it. A worker that overruns its time is killed (``SIGKILL`` of its
process group) and replaced.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.agents.base import Agent
from spyglass.arena.agent_spec import AgentSpec, AgentSpecError, parse_agent
from spyglass.arena.sandbox import (
    DEFAULT_TIME_LIMIT,
    RECORD_EXTRA,
    Host,
    SandboxError,
    Worker,
    WorkerPool,
    isolates,
)
from spyglass.arena.sanitize import plain
from spyglass.arena.watchdog import hard_stop_after
from spyglass.games import registry
from spyglass.naming import is_file_source

HOST = "spyglass.arena.agent_isolation:AgentHost"
#: One worker per (agent source, game configuration, seat) in this process, reused across
#: games.
_POOL = WorkerPool()


def _array(values: Any) -> np.ndarray:
    a = np.asarray(values, dtype=np.int64)
    a.setflags(write=False)
    return a


def _action(answer: Any) -> Any:
    """What a referee may check: an int stays an int; anything else is reported as what it
    is (bool, float, ...) so that the referee's message stays precise."""
    if isinstance(answer, np.integer) and not isinstance(answer, np.bool_):
        answer = int(answer)
    return plain(answer, max_items=64, max_depth=2)


class AgentHost(Host):
    """The worker side: builds the agent and answers the referee's calls, plain data only."""

    ANSWERS = {"start": None, "observe": None, "act": _action, "finish": None,
               "record_extra": RECORD_EXTRA}

    def __init__(self, init: Any) -> None:
        if not (isinstance(init, dict) and isinstance(init.get("agent"), str)
                and isinstance(init.get("game"), dict)):
            raise ValueError("an agent host needs {'agent': spec, 'game': config}")
        cfg = init["game"]
        self.game = registry.make(cfg["game"], cfg["players"], **cfg["options"])
        self.spec = parse_agent(init["agent"])
        self.agent: Agent | None = None

    def run(self, method: str, args: list) -> Any:
        if method == "start":
            seat, view, seed = args
            self.agent = self.spec.make()  # a fresh agent for every game
            self.agent.start(self.game, int(seat), _array(view), int(seed))
            return None
        if self.agent is None:
            raise RuntimeError("no game was started")
        if method == "observe":
            obs, actor, view = args
            return self.agent.observe(int(obs), int(actor), _array(view))
        if method == "act":
            view, legal = args
            return self.agent.act(_array(view), [int(a) for a in legal])
        if method == "finish":
            return self.agent.finish(tuple(float(r) for r in args[0]))
        return self.agent.record_extra()


class IsolatedAgent(Agent):
    """The referee side of an isolated agent (see the module docstring)."""

    agent_name = "isolated"
    isolated = True  # recorded by the referee (a record says which seats were isolated)

    def __init__(self, source: str, label: str, timeout: float = DEFAULT_TIME_LIMIT) -> None:
        super().__init__()
        self.source, self.label, self.timeout = source, label, timeout
        self._worker: Worker | None = None

    def _call(self, method: str, args: list) -> Any:
        worker = self._worker
        if worker is None:
            raise SandboxError("died", "the agent's worker process is not running")
        try:
            return worker.call(method, args, timeout=self.timeout)
        except BaseException:
            if not worker.alive:  # killed after an overrun, or crashed: not for reuse
                _POOL.discard(self._key)
            raise

    def prepare(self, game, seat) -> None:
        """Start (or reuse) this seat's worker; the referee calls it outside time limits."""
        # One worker per seat: two seats playing the same agent need two workers.
        self._key = (self.source, repr(sorted(game.config().items())), seat)
        self._worker = _POOL.get(self._key, HOST, {"agent": self.source,
                                                   "game": game.config()}, name=self.label)

    def start(self, game, seat, view, seed) -> None:
        super().start(game, seat, view, seed)
        if self._worker is None:
            self.prepare(game, seat)
        self._call("start", [seat, view.tolist(), seed])

    def observe(self, obs, actor, view) -> None:
        self._call("observe", [obs, actor, view.tolist()])

    def act(self, view, legal):
        try:
            return self._call("act", [view.tolist(), list(legal)])
        except BaseException:
            # Stopped by the referee's watchdog (or failed): the worker may still be
            # busy, so it must not serve the next game.
            self._kill()
            raise

    def finish(self, rewards) -> None:
        self._call("finish", [list(rewards)])

    def record_extra(self) -> Any:
        return self._call("record_extra", [])

    def _kill(self) -> None:
        worker = _POOL.discard(getattr(self, "_key", None)) or self._worker
        if worker is not None:
            worker.kill("stopped by the referee")


class IsolatedOmniscientAgent(IsolatedAgent):
    """An isolated privileged agent: the referee sends it the full state."""

    omniscient = True


def close_workers() -> None:
    """Stop every worker this process started (at the end of a run)."""
    _POOL.close()


def needs_isolation(spec: AgentSpec, mode: str) -> bool:
    """Whether ``mode`` isolates ``spec``: ``all``, ``none``, or ``auto``: agents loaded from
    Python files (as for The Resistance's bots: registered agents, installed modules and
    Python objects already run in the caller's process and are trusted)."""
    return isolates(mode, spec.source is not None and is_file_source(spec.source))


def isolate_specs(specs: list[AgentSpec], mode: str,
                  time_limit: float | None) -> list[AgentSpec]:
    """``specs`` with those ``mode`` isolates (:func:`needs_isolation`) played in worker
    processes, each killed where the in-process watchdog would stop a decision under
    ``time_limit`` (the sandbox's default when None)."""
    timeout = DEFAULT_TIME_LIMIT if time_limit is None else hard_stop_after(time_limit)
    return [isolated(s, timeout) if needs_isolation(s, mode) else s for s in specs]


def isolated(spec: AgentSpec, timeout: float = DEFAULT_TIME_LIMIT) -> AgentSpec:
    """``spec`` played in a worker process (it must have a text ``source``)."""
    if spec.source is None:
        raise AgentSpecError(
            f"agent {spec.label!r} is a Python object: only agents named by text (a "
            "registered name or module.Class) can run in a worker process")
    omniscient = getattr(type(spec.make()), "omniscient", False) is True
    cls = IsolatedOmniscientAgent if omniscient else IsolatedAgent
    return AgentSpec(spec.label, _Isolated(cls, spec.source, spec.label, timeout), spec.source)


class _Isolated:
    """A picklable factory of isolated agents."""

    def __init__(self, cls: type, source: str, label: str, timeout: float) -> None:
        self.cls, self.source, self.label, self.timeout = cls, source, label, timeout

    def __call__(self) -> Agent:
        return self.cls(self.source, self.label, self.timeout)
