"""Jammer: plays against common wisdom on purpose (Taylor 2014, §4.1.1)."""

from __future__ import annotations

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.expert_rules import fill_team, spies_on
from spyglass.resistance.bots.registry import register


@register("jammer")
class Jammer(Bot):
    """Random teams and blanket approval as resistance; spy-packed teams as a spy.

    Seed: as resistance it selects completely at random and approves every team. As a
    spy it selects itself and the other spy (all spies, at 7+ players, as far as the
    team allows) and plays against common wisdom when several spies are on a mission.
    The common wisdom (§4.2) is that only one of them sabotages, chosen by the leader
    convention; we chose the exact opposite: a spy who leads the mission holds back and
    every other spy on it fails the mission, so that a spy-free leader's team is
    double-sabotaged. Alone on a team it always fails it. It approves every team.
    """

    def select(self, players, count):
        if not self.spy:
            return self.rng.sample(list(players), count)
        partners = [s for s in sorted(self.spies) if s != self.seat]
        partners = self.rng.sample(partners, len(partners))
        return fill_team(self.rng, count, [self.seat, *partners], players)

    def vote(self, team):
        return True

    def sabotage(self):
        team = self.game.team or ()
        if spies_on(team, self.spies) > 1:
            return self.seat != self.game.leader
        return True
