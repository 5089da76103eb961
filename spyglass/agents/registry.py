"""The game-general agents by name (``@register("name")``): one of the two kinds of player.

The program's one table of every player, agents and The Resistance's 2012 Bot-API bots
alike, is :mod:`spyglass.players`, a layer above both registries (the bots' is
:mod:`spyglass.resistance.bots.registry`); it refuses a name registered in both kinds.
The built-in modules are imported on first use (so importing the registry costs nothing);
a user's own agent registers itself when its module is imported. The registry's code is
the one :class:`spyglass.naming.Registry`, shared with the bots'.
"""

from __future__ import annotations

from spyglass.agents.base import Agent
from spyglass.naming import Registry

_BUILTIN = ("spyglass.agents.random_agent", "spyglass.agents.ismcts", "spyglass.agents.uct",
            "spyglass.agents.hearts_rules", "spyglass.agents.minidoudizhu_rules",
            "spyglass.agents.doudizhu_rules",
            "spyglass.agents.spades_rules",
            "spyglass.agents.sdmcts", "spyglass.agents.cheat_population",
            "spyglass.agents.mt_ismcts",
            # Outside baselines (their packages are optional extras, imported on use).
            "spyglass.agents.rlcard_doudizhu", "spyglass.agents.openspiel_hearts")

#: The agents by name (the one :class:`~spyglass.naming.Registry` class of both kinds).
REGISTRY = Registry(Agent, "agent", "agent_name", lambda: _BUILTIN)
register = REGISTRY.register
available = REGISTRY.available
get = REGISTRY.get


def make(name: str, **settings) -> Agent:
    """A new agent ``name`` with ``settings`` (validated by the agent)."""
    return get(name)(**settings)
