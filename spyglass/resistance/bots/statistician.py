"""Statistician: cross-game statistics of every opponent's behaviour, by name and role."""

from __future__ import annotations

import numpy as np

from spyglass.resistance.bots.belief_bot import BeliefBot
from spyglass.resistance.bots.opponent_model import BehaviourStats
from spyglass.resistance.bots.registry import register

#: Behaviour -> assumed (as-spy, as-resistance) frequency for an opponent never seen.
DEFAULTS = {
    "vote_spied": (0.85, 0.55),  # approve a team with a spy on it
    "vote_clean": (0.40, 0.70),  # approve a spy-free team
    "select_spied": (0.50, 0.40),  # lead a team with a spy other than oneself
    "select_self": (0.90, 0.90),  # lead a team including oneself
    "sabotage": (0.80, 0.00),  # fail a mission when on it as a spy
}


@register("statistician")
class Statistician(BeliefBot):
    """Learns each opponent's voting, selecting and sabotage frequencies across games.

    Taylor 2014, §4.1.4 (aigd.py): global statistics per opponent by name — how often it
    votes for teams with and without spies, selects teams with spies, selects teams
    with itself (as spy and as resistance separately) and sabotages as a spy — and a
    local suspicion score per player; "only those relating to voting behaviour are used
    to modify suspicion scores. There is no use of expert rules in this bot, only logic
    based on the suspicion scores."

    Choices: all five statistics are recorded at the end of each game, when the roles
    are revealed (a spy's card is known exactly when it was alone on its team, otherwise
    shared as fails / spies); only the two voting frequencies enter the suspicion, as a
    likelihood of each observed vote under every spy configuration that the mission
    results still allow. An unknown name starts at the frequencies pooled over every
    opponent met so far (see :mod:`spyglass.resistance.bots.opponent_model`). Decisions use nothing
    but these probabilities: lead the team most likely to be clean; approve a team
    within a tolerance of the cleanest possible (the tolerance grows by 0.1 per rejected
    proposal, which also keeps it from throwing the game on the fifth); as a spy approve
    teams with a spy, lead itself with the least suspected resistance members, and
    always sabotage.
    """

    def __init__(self, *, tolerance: float = 0.05) -> None:
        super().__init__()
        self.tolerance = tolerance
        self.params = {"tolerance": tolerance}

    def start_game(self) -> None:
        self.stats = BehaviourStats(self.memory, DEFAULTS, key="statistician")
        names = self.game.names
        self.vote_rates = {
            b: self.stats.rates(names, b) for b in ("vote_spied", "vote_clean")
        }

    def on_vote_complete(self, votes):
        spied = self.belief.spies_on(self.game.proposals[-1].team) > 0
        spy_spied, res_spied = self.vote_rates["vote_spied"]
        spy_clean, res_clean = self.vote_rates["vote_clean"]
        for p, yes in enumerate(votes):
            if p == self.seat:
                continue
            rate_spy = np.where(spied, spy_spied[p], spy_clean[p])
            rate_res = np.where(spied, res_spied[p], res_clean[p])
            self.belief.multiply(self.act_likelihood(p, yes, rate_spy, rate_res))

    def on_game_complete(self, resistance_won, spies):
        learn_basic_statistics(self.stats, self.game, spies, self.seat)

    # --- decisions --------------------------------------------------------------------
    def select(self, players, count):
        return self.cover_team(count) if self.spy else self.best_team(count)

    def vote(self, team):
        if self.spy:
            return self.spies_on_team(team) >= 1
        return self.near_best(team, self.tolerance + 0.1 * (self.game.attempt - 1))

    def sabotage(self):
        return True


def learn_basic_statistics(stats: BehaviourStats, game, spies, me: int) -> None:
    """Record every opponent's votes, selections and cards once the roles are known."""
    names = game.names
    for prop in game.proposals:
        spied = any(p in spies for p in prop.team)
        for p, yes in enumerate(prop.votes or ()):
            if p != me:
                stats.record(names[p], p in spies, "vote_spied" if spied else "vote_clean",
                             yes)
        if prop.leader != me:
            leader, spy = prop.leader, prop.leader in spies
            others_spied = any(p in spies for p in prop.team if p != leader)
            stats.record(names[leader], spy, "select_spied", others_spied)
            stats.record(names[leader], spy, "select_self", leader in prop.team)
    for result in game.missions:
        on = [p for p in result.team if p in spies and p != me]
        total = sum(1 for p in result.team if p in spies)
        for p in on:
            stats.record(names[p], True, "sabotage", result.fails / total)
