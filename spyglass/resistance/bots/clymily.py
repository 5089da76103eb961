"""Clymily: opponent models, configuration tracking, taboo teams and layered decisions."""

from __future__ import annotations

import numpy as np

from spyglass.games.resistance.observation import MissionResult
from spyglass.resistance.bots.belief_bot import BeliefBot
from spyglass.resistance.bots.beliefs import exactly_k
from spyglass.resistance.bots.expert_rules import (
    has_enough_spies,
    is_last_attempt,
    must_hold_spy_without,
    spies_on,
    spies_one_mission_from_winning,
)
from spyglass.resistance.bots.opponent_model import BehaviourStats
from spyglass.resistance.bots.registry import register

#: Behaviour -> assumed (as-spy, as-resistance) frequency for an opponent never seen.
DEFAULTS = {
    "vote_spied": (0.85, 0.55),  # approve a team with a spy on it
    "vote_clean": (0.40, 0.70),  # approve a spy-free team
    "vote_big_out": (0.50, 0.15),  # approve a team without oneself bound to hold a spy
    "select_spied": (0.95, 0.45),  # lead a team with a spy on it
    "sabotage": (0.85, 0.00),  # fail a mission when on it as a spy
}


def vote_kind(team, voter: int, n_players: int, spied: bool) -> str:
    """The modelled behaviour a vote on ``team`` is an instance of."""
    if must_hold_spy_without(team, voter, n_players):
        return "vote_big_out"
    return "vote_spied" if spied else "vote_clean"


@register("clymily")
class Clymily(BeliefBot):
    """Layered (subsumption) decisions over opponent models and configuration weights.

    Taylor 2014, §4.1.14 (clymily.py): "not only OM, configuration tracking, and expert
    rules, but also a subsumption framework, and, it appears, taboo team tracking
    similar to that of LogicalBot"; its models persist across competitions (in files)
    and predict opponents' actions; "_myVoteIrrelevant" estimates from the models "the
    probability that Clymily's vote will not sway the outcome of a voting round", used
    "when a spy, to approve teams it otherwise would not, in order to avoid incriminating
    itself". Fig 32 shows it as the most sceptical voter (rejects 93% of spied teams,
    approves 74% of clean ones) and the best team picker.

    Choices: models (votes on spied / clean / bound-to-be-spied teams, leading spied
    teams, sabotage) live in ``memory`` per opponent name — the arena's per-identity
    memory plays the part of Clymily's files — and weight every spy configuration as in
    Magi. Votes pass through layers, first that decides wins: the fifth proposal is
    approved; a team bound to hold a spy, a superset of a failed ("taboo") team or a team
    with a proved spy is rejected; otherwise it is approved only within a tight
    ``tolerance`` (+0.08 per rejection) of the cleanest team. As a spy it wants teams
    with a spy on them, but when that vote differs from what it would vote as
    resistance and the models say its vote is irrelevant with probability at least
    ``cover`` (the others' predicted approvals, each from its model in its true role,
    cannot reach the majority threshold differently), it casts the innocent-looking
    vote. "_inHammerPos" was unused in the original and is left out.
    """

    def __init__(self, *, tolerance: float = 0.02, cover: float = 0.8) -> None:
        super().__init__()
        self.tolerance = tolerance
        self.cover = cover
        self.params = {"tolerance": tolerance, "cover": cover}

    def start_game(self) -> None:
        self.stats = BehaviourStats(self.memory, DEFAULTS, key="clymily")
        names = self.game.names
        self.rates = {b: self.stats.rates(names, b) for b in DEFAULTS}
        self.taboo: list[frozenset[int]] = []

    # --- evidence ----------------------------------------------------------------------
    def on_team_selected(self, leader, team):
        if leader == self.seat:
            return
        spied = self.belief.spies_on(team) > 0
        r_spy, r_res = (self.rates["select_spied"][i][leader] for i in (0, 1))
        self.belief.multiply(self.act_likelihood(
            leader, True, np.where(spied, r_spy, 1 - r_spy), np.where(spied, r_res, 1 - r_res)
        ))

    def on_vote_complete(self, votes):
        team = self.game.proposals[-1].team
        spied = self.belief.spies_on(team) > 0
        n = self.game.n_players
        for p, yes in enumerate(votes):
            if p == self.seat:
                continue
            if must_hold_spy_without(team, p, n):
                rate_spy, rate_res = (self.rates["vote_big_out"][i][p] for i in (0, 1))
            else:
                s, c = self.rates["vote_spied"], self.rates["vote_clean"]
                rate_spy = np.where(spied, s[0][p], c[0][p])
                rate_res = np.where(spied, s[1][p], c[1][p])
            self.belief.multiply(self.act_likelihood(p, yes, rate_spy, rate_res))

    def after_mission(self, result: MissionResult) -> None:
        if result.fails:
            self.taboo.append(frozenset(result.team))
        self.weigh_fail_count(result, self.rates["sabotage"][0])

    def on_game_complete(self, resistance_won, spies):
        learn(self.stats, self.game, spies, self.seat)

    # --- the resistance layers -----------------------------------------------------------
    def resistance_vote(self, team) -> bool:
        game = self.game
        if is_last_attempt(game):
            return True
        if must_hold_spy_without(team, self.seat, game.n_players):
            return False
        members = frozenset(team)
        if any(t <= members for t in self.taboo):
            return False
        if members & set(self.belief.certain_spies()):
            return False
        return self.near_best(team, self.tolerance + 0.08 * (game.attempt - 1))

    def vote_irrelevant(self, team) -> float:
        """P(the others' votes decide the proposal whatever this bot votes), by the models.

        Only a spy can ask: it knows every role, so each opponent's approval probability
        comes from its model in its true role.
        """
        n = self.game.n_players
        spied = spies_on(team, self.spies) > 0
        probs = []
        for p in self.others():
            kind = vote_kind(team, p, n, spied)
            probs.append(self.rates[kind][0 if p in self.spies else 1][p])
        # approved iff approvals > n/2: this vote matters only when the others give n // 2.
        pivotal = exactly_k(np.array([probs]), n // 2)[0]
        return 1.0 - float(pivotal)

    # --- decisions ------------------------------------------------------------------------
    def select(self, players, count):
        return self.cover_team(count) if self.spy else self.best_team(count)

    def vote(self, team):
        if not self.spy:
            return self.resistance_vote(team)
        game = self.game
        if spies_one_mission_from_winning(game) and has_enough_spies(team, self.spies, game):
            return True
        wanted = self.spies_on_team(team) >= 1
        innocent = self.resistance_vote(team)
        if wanted != innocent and self.vote_irrelevant(team) >= self.cover:
            return innocent
        return wanted

    def sabotage(self):
        return self.designated()


def learn(stats: BehaviourStats, game, spies, me: int) -> None:
    """Update every opponent's model with this game's actions, roles now revealed."""
    names, n = game.names, game.n_players
    for prop in game.proposals:
        spied = any(p in spies for p in prop.team)
        for p, yes in enumerate(prop.votes or ()):
            if p != me:
                stats.record(names[p], p in spies, vote_kind(prop.team, p, n, spied), yes)
        if prop.leader != me:
            stats.record(names[prop.leader], prop.leader in spies, "select_spied", spied)
    for result in game.missions:
        on = [p for p in result.team if p in spies]
        for p in on:
            if p != me:
                stats.record(names[p], True, "sabotage", result.fails / len(on))
