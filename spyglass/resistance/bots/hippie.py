"""Hippie: approves every team (Taylor 2014, §4.1.1)."""

from __future__ import annotations

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.expert_rules import fill_team
from spyglass.resistance.bots.registry import register


@register("hippie")
class Hippie(Bot):
    """Paranoid's opposite: trusts everybody.

    Seed: selects itself plus a random sample of the others and approves every proposed
    team. The seed does not say how it sabotages; we chose a fail card at every
    opportunity, like the other beginners.
    """

    def select(self, players, count):
        return fill_team(self.rng, count, [self.seat], self.others())

    def vote(self, team):
        return True

    def sabotage(self):
        return True
