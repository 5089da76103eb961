"""PandSBot: player and pair suspicion over one game, plus a few expert rules."""

from __future__ import annotations

import numpy as np

from spyglass.games.resistance.observation import MissionResult
from spyglass.games.resistance.tables import fails_needed
from spyglass.resistance.bots.belief_bot import BeliefBot
from spyglass.resistance.bots.expert_rules import is_last_attempt, must_hold_spy_without
from spyglass.resistance.bots.registry import register

# Player-suspicion odds ratios for behaviours that only make sense for a spy (or for a
# resistance member); Marsh, §4.1 says Marsh took these from PandSBot.
LEFT_SELF_OUT = 1.5  # led a team without itself
REJECTED_FIRST = 1.5  # rejected the very first proposal, when nothing is known
BACKED_SPIED_TEAM = 2.5  # approved, from outside, a team bound to hold a spy
REJECTED_OWN_TEAM = 0.6  # rejected a team it was on


@register("pandsbot")
class PandSBot(BeliefBot):
    """Suspicion of players and of pairs (spy configurations), kept within one game.

    Taylor 2014, §4.1.9: the Vienna winner "focusses on single-game suspicion tracking for
    players and pairs, with a few common expert rules thrown in for voting and
    sabotage", its adjustments "based on probabilistic calculations"; §4.2 lists it
    among the bots that reject any three-man team without themselves (in either role),
    that approve the fifth proposal as resistance but "still vote negatively if they are
    spies", and that as spies accept teams with a spy on them. All three are played as
    written: a spy rejects every fifth proposal and every team bound to hold a spy that
    leaves it out, even when that team would win the game.

    Choices (the seed gives no formulas):

    * Pairs generalise to spy configurations (C(n-1, spies) of them) with Bayesian
      weights; a player's suspicion is the weight of the configurations naming it.
    * Evidence: a mission with ``f`` fails needs ``f`` spies (hard); a spy on a team
      fails it with probability ``sabotage_rate`` (half that when it alone cannot fail
      a two-fail mission); a spy leader puts a spy on its team 90% of the time, a
      resistance leader half the time; a spy approves spied teams 80% and clean ones
      40% of the time, a resistance member anything 60% of the time.
    * Player suspicion: odds ratios for the behaviours Marsh says he took from PandSBot
      (Marsh, §4.1): leading a team without oneself (×1.5), rejecting the very first
      proposal (×1.5), approving from outside a team bound to hold a spy (×2.5),
      rejecting a team one is on (×0.6).
    * Resistance vote: approve a team whose chance of being clean is within
      ``tolerance`` of the best team of that size; the tolerance widens by 0.1 per
      rejected proposal so that a mission is not thrown away on the fifth rejection.
    * Spies sabotage by the leader convention (§4.2) so that only as many fail cards
      are played as the mission needs.
    """

    def __init__(self, *, sabotage_rate: float = 0.85, tolerance: float = 0.05) -> None:
        super().__init__()
        if not 0.0 < sabotage_rate < 1.0:
            raise ValueError(f"sabotage_rate must be in (0, 1), got {sabotage_rate}")
        self.sabotage_rate = sabotage_rate
        self.tolerance = tolerance
        self.params = {"sabotage_rate": sabotage_rate, "tolerance": tolerance}

    # --- evidence ----------------------------------------------------------------
    def on_team_selected(self, leader: int, team: tuple[int, ...]) -> None:
        if leader == self.seat:
            return
        spied = self.belief.spies_on(team) > 0
        lik = np.where(self.belief.is_spy(leader), np.where(spied, 0.9, 0.1), 0.5)
        self.belief.multiply(lik)
        if leader not in team:
            self.player_evidence(leader, LEFT_SELF_OUT)

    def on_vote_complete(self, votes: tuple[bool, ...]) -> None:
        prop = self.game.proposals[-1]
        team, n = prop.team, self.game.n_players
        spied = self.belief.spies_on(team) > 0
        rate_spy = np.where(spied, 0.8, 0.4)
        for p, approve in enumerate(votes):
            if p == self.seat:
                continue
            self.belief.multiply(self.act_likelihood(p, approve, rate_spy, 0.6))
            if prop.mission == 1 and prop.attempt == 1 and not approve:
                self.player_evidence(p, REJECTED_FIRST)
            if approve and must_hold_spy_without(team, p, n):
                self.player_evidence(p, BACKED_SPIED_TEAM)
            if not approve and p in team:
                self.player_evidence(p, REJECTED_OWN_TEAM)

    def player_evidence(self, seat: int, ratio: float) -> None:
        """Player suspicion: multiply the odds that ``seat`` is a spy by ``ratio``."""
        self.belief.multiply(np.where(self.belief.is_spy(seat), ratio, 1.0))

    def after_mission(self, result: MissionResult) -> None:
        k = self.belief.spies_on(result.team)
        needed = fails_needed(self.game.n_players, result.mission - 1)
        q = np.where(k >= needed, self.sabotage_rate, self.sabotage_rate / 2)
        lik = np.where(k == 0, 1.0, np.where(result.fails > 0, q, 1.0 - q))
        self.belief.multiply(lik)

    # --- decisions ---------------------------------------------------------------
    def select(self, players, count):
        if self.spy:
            return self.cover_team(count)
        return self.best_team(count)

    def vote(self, team):
        if self.spy and is_last_attempt(self.game):
            return False  # §4.2: approves the fifth attempt only as resistance
        return self.tolerant_vote(team, self.tolerance)

    def sabotage(self):
        return self.designated()
