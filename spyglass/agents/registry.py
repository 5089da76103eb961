"""The game-general agents by name (``@register("name")``): one of the two kinds of player.

The program's one table of every player, agents and The Resistance's 2012 Bot-API bots
alike, is :mod:`spyglass.players`, a layer above both registries (the bots' is
:mod:`spyglass.resistance.bots.registry`); it refuses a name registered in both kinds.
The built-in modules are imported on first use (so importing the registry costs nothing);
a user's own agent registers itself when its module is imported.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from spyglass.agents.base import Agent

_BUILTIN = ("spyglass.agents.random_agent", "spyglass.agents.ismcts", "spyglass.agents.uct",
            "spyglass.agents.hearts_rules", "spyglass.agents.minidoudizhu_rules",
            "spyglass.agents.doudizhu_rules",
            "spyglass.agents.spades_rules",
            "spyglass.agents.sdmcts", "spyglass.agents.cheat_population",
            "spyglass.agents.mt_ismcts",
            # Outside baselines (their packages are optional extras, imported on use).
            "spyglass.agents.rlcard_doudizhu", "spyglass.agents.openspiel_hearts")
_AGENTS: dict[str, type[Agent]] = {}
_loaded = False


def register(name: str) -> Callable[[type[Agent]], type[Agent]]:
    """Class decorator: register an :class:`Agent` subclass as ``name`` (sets ``agent_name``)."""
    key = name.strip().lower()

    def deco(cls: type[Agent]) -> type[Agent]:
        if not (isinstance(cls, type) and issubclass(cls, Agent)):
            raise TypeError(f"{cls!r} is not an Agent subclass")
        if key in _AGENTS and _AGENTS[key] is not cls:
            raise ValueError(f"an agent named {key!r} is already registered")
        cls.agent_name = key
        _AGENTS[key] = cls
        return cls

    return deco


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in _BUILTIN:
            importlib.import_module(module)


def available() -> dict[str, type[Agent]]:
    """Every registered agent, name -> class, in name order."""
    _load()
    return dict(sorted(_AGENTS.items()))


def get(name: str) -> type[Agent]:
    """The agent class registered as ``name``; a ValueError lists the choices."""
    _load()
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _AGENTS:
        raise ValueError(f"no agent named {name!r}; agents: {', '.join(sorted(_AGENTS))}")
    return _AGENTS[key]


def make(name: str, **settings) -> Agent:
    """A new agent ``name`` with ``settings`` (validated by the agent)."""
    return get(name)(**settings)
