"""Paranoid: approves only the teams it is on (seed 002 §4.1.1)."""

from __future__ import annotations

from spyglass.bots.base import Bot
from spyglass.bots.expert_rules import fill_team
from spyglass.bots.registry import register


@register("paranoid")
class Paranoid(Bot):
    """A very weak beginner that trusts nobody but itself.

    Seed: selects itself plus a random sample of the others and approves only teams it
    is part of. The seed does not say how it sabotages; we chose the beginner's obvious
    play, a fail card at every opportunity.
    """

    def select(self, players, count):
        return fill_team(self.rng, count, [self.seat], self.others())

    def vote(self, team):
        return self.seat in team

    def sabotage(self):
        return True
