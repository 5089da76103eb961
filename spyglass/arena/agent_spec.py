"""Naming a game-general agent: from the command line or from Python, in any process.

An :class:`AgentSpec` is a small recipe that builds a fresh agent for each game (process
pools and Ray workers build their own). Accepted forms:

* ``"random"``: a name registered in :mod:`spyglass.agents.registry`;
* ``"moismcts:iterations=1000,c=0.7"``: a name with settings (parsed by
  :func:`spyglass.params.parse_assignments`, validated by the agent's declared params);
* ``"package.module.Class"``: any importable :class:`~spyglass.agents.base.Agent` subclass
  (with ``:key=value,...`` settings too);
* from Python: an ``Agent`` subclass, an ``Agent`` instance (each game plays a deep copy,
  so games stay independent), or a factory (any callable returning an ``Agent``).
"""

from __future__ import annotations

import copy
import importlib
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from spyglass.agents.base import Agent
from spyglass.params import parse_assignments, validate


class AgentSpecError(ValueError):
    """An agent specification that cannot be parsed or loaded."""


def registered_agents() -> dict[str, type[Agent]]:
    """The registered agents (name -> class); empty when no registry is installed."""
    try:
        registry = importlib.import_module("spyglass.agents.registry")
    except ModuleNotFoundError as exc:
        if exc.name != "spyglass.agents.registry":
            raise
        return {}
    return dict(registry.available())


@dataclass(frozen=True)
class AgentSpec:
    """A recipe for one agent: ``label`` names it in records and tables; ``source`` is the
    text form (``None`` for Python objects, which cannot be written into a manifest)."""

    label: str
    factory: Callable[[], Agent] = field(compare=False, repr=False)
    source: str | None = None

    def make(self) -> Agent:
        """A fresh agent, checked to be one."""
        agent = self.factory()
        if not isinstance(agent, Agent):
            raise AgentSpecError(
                f"agent {self.label!r} made a {type(agent).__name__}, not an Agent"
            )
        return agent


def _label_of(cls: type) -> str:
    return getattr(cls, "agent_name", "") or cls.__name__


def _class_factory(cls: type[Agent], settings: dict) -> Callable[[], Agent]:
    # Validate now (a clear error before any game), build per game.
    validate(cls.params, settings, owner=_label_of(cls))
    return _Build(cls, tuple(sorted(settings.items())))


@dataclass(frozen=True)
class _Build:
    """A picklable ``cls(**settings)``."""

    cls: type
    settings: tuple

    def __call__(self) -> Agent:
        return self.cls(**dict(self.settings))


@dataclass(frozen=True)
class _CopyOf:
    """A picklable deep copy of a given instance per game."""

    agent: Agent

    def __call__(self) -> Agent:
        return copy.deepcopy(self.agent)


def _load_class(source: str) -> type[Agent]:
    agents = registered_agents()
    key = source.strip().lower()
    if key in agents:
        return agents[key]
    if "." in source:
        module_name, _, cls_name = source.rpartition(".")
        try:
            module = importlib.import_module(module_name)
        except ImportError as exc:
            raise AgentSpecError(
                f"cannot import {module_name!r} for agent {source!r}: {exc}") from exc
        cls = getattr(module, cls_name, None)
        if not (inspect.isclass(cls) and issubclass(cls, Agent)):
            raise AgentSpecError(f"{source!r} is not an Agent subclass")
        return cls
    known = ", ".join(sorted(agents)) or "none registered"
    raise AgentSpecError(f"no agent named {source!r}; agents: {known}")


def parse_agent(text: str) -> AgentSpec:
    """An :class:`AgentSpec` from ``name``, ``name:key=value,...`` or ``module.Class[:...]``."""
    text = text.strip()
    if not text:
        raise AgentSpecError("empty agent specification")
    name, _, assignments = text.partition(":")
    try:
        settings = parse_assignments(assignments)
    except ValueError as exc:
        raise AgentSpecError(f"agent {text!r}: {exc}") from None
    cls = _load_class(name.strip())
    try:
        factory = _class_factory(cls, settings)
    except (ValueError, TypeError) as exc:
        raise AgentSpecError(str(exc)) from None
    # Labels are short: the registry name, or the class's own name for an import path.
    short = name.strip() if name.strip().lower() in registered_agents() else _label_of(cls)
    return AgentSpec(short if assignments == "" else f"{short}:{assignments}", factory, text)


def resolve_agent(agent: Any) -> AgentSpec:
    """An :class:`AgentSpec` for any accepted form (see the module docstring)."""
    if isinstance(agent, AgentSpec):
        return agent
    if isinstance(agent, str):
        return parse_agent(agent)
    if isinstance(agent, Agent):
        return AgentSpec(_label_of(type(agent)), _CopyOf(agent))
    if inspect.isclass(agent):
        if not issubclass(agent, Agent):
            raise AgentSpecError(f"{agent.__name__} is not an Agent subclass")
        importable = agent.__module__ != "__main__" and "<locals>" not in agent.__qualname__
        source = f"{agent.__module__}.{agent.__qualname__}" if importable else None
        return AgentSpec(_label_of(agent), _class_factory(agent, {}), source)
    if callable(agent):
        label = getattr(agent, "agent_name", "") or getattr(agent, "__name__", "") or "agent"
        return AgentSpec(label, agent)
    raise AgentSpecError(
        f"cannot use {agent!r} as an agent: give a name, an Agent class, instance or factory"
    )


def resolve_agents(agents: Sequence[Any]) -> list[AgentSpec]:
    """:func:`resolve_agent` for each."""
    if isinstance(agents, str):
        raise AgentSpecError("agents must be a sequence, one per seat (not one string)")
    return [resolve_agent(a) for a in agents]
