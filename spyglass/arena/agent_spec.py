"""Naming a game-general agent: from the command line or from Python, in any process.

An :class:`AgentSpec` is a small recipe that builds a fresh agent for each game (process
pools and Ray workers build their own). Accepted forms:

* ``"random"``: a name registered in :mod:`spyglass.agents.registry`;
* ``"moismcts:iterations=1000,c=0.7"``: a name with settings (split by the one grammar,
  :mod:`spyglass.naming`, validated by the agent's declared params);
* ``"package.module.Class"``: any importable :class:`~spyglass.agents.base.Agent` subclass
  (with ``:key=value,...`` settings too);
* ``"path/to/file.py"`` or ``"path/to/file.py:Class"``: an Agent class in a Python file
  (settings after a further ``:``); such code comes from outside any installed package,
  so ``isolate="auto"`` runs it in its own worker process;
* from Python: an ``Agent`` subclass, an ``Agent`` instance (each game plays a deep copy,
  so games stay independent), or a factory (any callable returning an ``Agent``).
"""

from __future__ import annotations

import copy
import importlib
import importlib.util
import inspect
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spyglass.agents.base import Agent
from spyglass.agents.registry import REGISTRY
from spyglass.naming import FILE, split_spec
from spyglass.params import validate


class AgentSpecError(ValueError):
    """An agent specification that cannot be parsed or loaded."""


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
    cls = REGISTRY.find(source)
    if cls is not None:
        return cls
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
    raise AgentSpecError(str(REGISTRY.unknown(source)))


def _file_class(path: str, cls_name: str) -> type[Agent]:
    """The Agent class ``cls_name`` of a Python file (its only one when not named)."""
    file = Path(path)
    if not file.is_file():
        raise AgentSpecError(f"agent file {path!r} does not exist")
    module_name = f"spyglass_agent_file_{abs(hash(str(file.resolve())))}"
    module = sys.modules.get(module_name)
    if module is None:
        spec = importlib.util.spec_from_file_location(module_name, file)
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except Exception as exc:
            del sys.modules[module_name]
            raise AgentSpecError(f"importing agent file {path!r} failed: "
                                 f"{type(exc).__name__}: {exc}") from None
    found = [c for c in vars(module).values() if inspect.isclass(c) and issubclass(c, Agent)
             and c.__module__ == module_name]
    if cls_name:
        found = [c for c in found if c.__name__ == cls_name]
        if not found:
            raise AgentSpecError(f"agent file {path!r} has no Agent class {cls_name!r}")
    if len(found) != 1:
        names = ", ".join(c.__name__ for c in found) or "none"
        raise AgentSpecError(f"agent file {path!r} defines {len(found)} Agent classes "
                             f"({names}): name one as {path}:Class")
    return found[0]


def parse_agent(text: str) -> AgentSpec:
    """An :class:`AgentSpec` from ``name``, ``name:key=value,...``, ``module.Class[:...]``
    or ``path/to/file.py[:Class][:key=value,...]`` (the one grammar,
    :func:`spyglass.naming.split_spec`)."""
    text = text.strip()
    if not text:
        raise AgentSpecError("empty agent specification")
    spec = split_spec(text)
    try:
        settings = spec.values
    except ValueError as exc:
        raise AgentSpecError(f"agent {text!r}: {exc}") from None
    if spec.form == FILE:
        cls = _file_class(spec.source, spec.cls)
        short = _label_of(cls)
    else:
        cls = _load_class(spec.source)
        # Labels are short: the registry name, or the class's own name for an import path.
        short = spec.source if REGISTRY.find(spec.source) is cls else _label_of(cls)
    try:
        factory = _class_factory(cls, settings)
    except (ValueError, TypeError) as exc:
        raise AgentSpecError(str(exc)) from None
    return AgentSpec(short if not spec.settings else f"{short}:{spec.settings}", factory, text)


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
