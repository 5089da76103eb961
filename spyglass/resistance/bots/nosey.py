"""Nosey: Stalker with one model per role for all opponents together (Taylor 2014, §4.6.3)."""

from __future__ import annotations

from spyglass.resistance.bots.registry import register
from spyglass.resistance.bots.stalker import Stalker

#: The single model key every opponent shares.
GROUP = "*everyone*"


@register("nosey")
class Nosey(Stalker):
    """Grouped opponent modelling: the coarsest granularity of Taylor 2014, §3.6.2.

    Seed: identical to Stalker except that it keeps a single spy model and a single
    resistance model built from the behaviour of all opponents, which also survives
    the burst model's renaming. Decisions are Ruru's. Same ``behaviours`` parameter.
    """

    def model_key(self, seat: int) -> str:
        return GROUP
