"""RandomBot: uniformly random teams, votes and (as a spy) sabotage."""

from __future__ import annotations

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.registry import register


@register("randombot")
class RandomBot(Bot):
    """Every decision uniformly at random (Taylor 2014, §4.1 "RandomBot").

    Selects a random team, votes yes with probability 1/2 and, as a spy on a mission,
    fails it with probability 1/2. The baseline every other bot must beat.
    """
