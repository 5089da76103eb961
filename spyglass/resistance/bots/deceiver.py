"""Deceiver: a beginner with a few expert rules for not being found out (Taylor 2014, §4.1.1)."""

from __future__ import annotations

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.expert_rules import (
    fill_team,
    has_surplus_spies,
    is_last_attempt,
    must_hold_spy_without,
)
from spyglass.resistance.bots.registry import register


@register("deceiver")
class Deceiver(Bot):
    """Approves the fifth attempt, rejects spy-heavy teams as a spy and risky teams.

    Seed, in order: always approve the fifth voting attempt (whatever its role); as a
    spy, reject teams featuring both spies; reject three-man teams without itself;
    otherwise approve. Teams are itself plus random others; it fails every mission it
    can. Generalised for 5-10 players: "both spies" becomes "more spies than the
    mission needs fail cards" (a double sabotage is what gives spies away), and "a
    three-man team without me" becomes "a team without me that must hold a spy"
    (:func:`~spyglass.resistance.bots.expert_rules.must_hold_spy_without`).
    """

    def select(self, players, count):
        return fill_team(self.rng, count, [self.seat], self.others())

    def vote(self, team):
        if is_last_attempt(self.game):
            return True
        if self.spy and has_surplus_spies(team, self.spies, self.game):
            return False
        return not must_hold_spy_without(team, self.seat, self.game.n_players)

    def sabotage(self):
        return True
