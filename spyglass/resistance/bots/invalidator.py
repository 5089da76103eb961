"""Invalidator: invalidation scores per spy configuration (Taylor 2014, §4.1.7)."""

from __future__ import annotations

import numpy as np

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.configurations import Configurations
from spyglass.resistance.bots.expert_rules import (
    has_enough_spies,
    has_surplus_spies,
    is_last_attempt,
    must_hold_spy_without,
    spies_one_mission_from_winning,
    spy_team,
)
from spyglass.resistance.bots.registry import register

#: Score that rules a configuration out: the fail cards could not have been played.
IMPOSSIBLE = 1000.0


@register("invalidator")
class Invalidator(Bot):
    """Like Bounder, but configurations collect invalidation points instead of vanishing.

    Seed: every configuration keeps an invalidation score, raised by what happens at
    selection, voting and missions; e.g. after a vote, a configuration in which the team
    held a spy gains 1.0 for every spy (in that configuration) who voted against it. It
    has expert rules, and as a spy it does not sabotage when both spies are on the team
    (§4.2) but does when a third failed mission wins the game.

    Choices where the seed gives only the one example (all generalised to n players):

    * vote: +1.0 per configuration-spy voting against a team the configuration gives a
      spy; +0.5 per configuration-spy voting for a team it leaves spy-free (spies often
      approve clean teams for cover, hence the half point);
    * selection: +1.0 when the configuration makes the leader a spy yet the team holds
      no spy;
    * mission: +1000 (ruled out) when it puts fewer spies on the team than fail cards,
      +1.0 when it puts spies on a team that played no fail card.
    * A configuration's plausibility is ``exp(-score)``. The leader picks the team most
      likely to be spy-free under it (itself included); it approves the fifth attempt
      and its own teams, rejects a team without itself that must hold a spy, and
      otherwise approves iff the team is spy-free in one of the least-invalidated
      configurations.
    * As a spy: lead with itself and resistance members, approve teams with enough
      spies (and the fifth attempt), sabotage unless more spies than needed are on the
      team, and always when it would win the game. Suspicion: spy marginals under the
      plausibility weights.
    """

    def on_game_revealed(self, players, spies):
        self.configs = Configurations.excluding(len(players), [self.seat])
        self.scores = np.zeros(len(self.configs))

    def on_team_selected(self, leader, team):
        c = self.configs
        self.scores += 1.0 * (c.is_spy(leader) & (c.spies_on(team) == 0))

    def on_vote_complete(self, votes):
        c = self.configs
        has_spy = c.spies_on(self.game.team) > 0
        for seat, approved in enumerate(votes):
            spy = c.is_spy(seat)
            if approved:
                self.scores += 0.5 * (spy & ~has_spy)
            else:
                self.scores += 1.0 * (spy & has_spy)

    def on_mission_complete(self, fails):
        on_team = self.configs.spies_on(self.game.team)
        self.scores += IMPOSSIBLE * (on_team < fails)
        if fails == 0:
            self.scores += 1.0 * (on_team > 0)

    def weights(self) -> np.ndarray:
        """Plausibility of each configuration, ``exp(-score)`` relative to the best."""
        return np.exp(-(self.scores - self.scores.min()))

    def select(self, players, count):
        if self.spy:
            return spy_team(self.rng, self.seat, self.spies, players, count,
                            self.game.fails_needed)
        teams, _ = self.configs.best_teams(count, include=[self.seat], weights=self.weights())
        return self.rng.choice(teams)

    def vote(self, team):
        if is_last_attempt(self.game):
            return True
        if self.spy:
            return has_enough_spies(team, self.spies, self.game)
        if self.game.leader == self.seat:
            return True
        if must_hold_spy_without(team, self.seat, self.game.n_players):
            return False
        best = self.scores <= self.scores.min() + 1e-9
        return bool((self.configs.clean(team) & best).any())

    def sabotage(self):
        if spies_one_mission_from_winning(self.game):
            return True
        return not has_surplus_spies(self.game.team, self.spies, self.game)

    def suspicion(self):
        marg = self.configs.marginals(self.weights())
        return {p: float(marg[p]) for p in self.others()}
