"""Paranoid: approves only the teams it is on (Taylor 2014, §4.1.1)."""

from __future__ import annotations

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.expert_rules import fill_team
from spyglass.resistance.bots.registry import register


@register("paranoid")
class Paranoid(Bot):
    """A very weak beginner that trusts nobody but itself.

    Seed: selects itself plus a random sample of the others and "will only vote
    positively for teams which he is a part of". Two readings fit those words: approve
    every team it is on, or only the teams it proposes itself (which always include
    it). Its published resistance voting statistics decide (Taylor 2014 Fig 11: approves
    36.9% of spy-free teams, rejects 83.5% of teams with spies): approving only its own
    proposals gives 36.4% / 84.2% in our beginner tables, approving every team it is on
    77% / 59%. So Paranoid approves only the teams it leads. The seed does not say how
    it sabotages; we chose the beginner's obvious play, a fail card every time.
    """

    def select(self, players, count):
        return fill_team(self.rng, count, [self.seat], self.others())

    def vote(self, team):
        return self.game.leader == self.seat and self.seat in team

    def sabotage(self):
        return True
