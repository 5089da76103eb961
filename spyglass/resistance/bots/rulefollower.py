"""RuleFollower: Deceiver, except that as a spy it backs any team with a spy on it."""

from __future__ import annotations

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.expert_rules import (
    fill_team,
    has_enough_spies,
    is_last_attempt,
    must_hold_spy_without,
)
from spyglass.resistance.bots.registry import register


@register("rulefollower")
class RuleFollower(Bot):
    """A beginner following the simplest expert rules (Taylor 2014, §4.1.1).

    Seed: "almost identical to Deceiver, differing only in that when it is a spy it will
    approve of any mission featuring at least one spy"; §4.2 adds that it still votes
    against the fifth attempt as a spy. We reconcile the two by putting the spy rule
    first: as a spy it approves exactly the teams that can be sabotaged (at least one
    spy; two on a mission needing two fail cards at 7+ players), fifth attempt or not.
    As resistance it approves the fifth attempt, rejects a team without itself that
    must hold a spy (at 5 players: any three-man team without it) and approves the rest.
    Teams are itself plus random others; it fails every mission it can.
    """

    def select(self, players, count):
        return fill_team(self.rng, count, [self.seat], self.others())

    def vote(self, team):
        if self.spy:
            return has_enough_spies(team, self.spies, self.game)
        if is_last_attempt(self.game):
            return True
        return not must_hold_spy_without(team, self.seat, self.game.n_players)

    def sabotage(self):
        return True
