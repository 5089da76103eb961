"""ScepticBot: hard configuration elimination plus per-opponent action suspicion."""

from __future__ import annotations

import math

import numpy as np

from spyglass.games.resistance.observation import MissionResult
from spyglass.games.resistance.tables import seats_to_mask
from spyglass.resistance.bots.belief_bot import BeliefBot
from spyglass.resistance.bots.beliefs import ranked
from spyglass.resistance.bots.expert_rules import (
    has_enough_spies,
    is_first_mission,
    is_last_attempt,
    must_hold_spy_without,
    spies_one_mission_from_winning,
)
from spyglass.resistance.bots.opponent_model import BehaviourStats
from spyglass.resistance.bots.registry import register

#: Behaviour -> assumed (as-spy, as-resistance) frequency for an opponent never seen.
DEFAULTS = {
    "select_partner": (0.30, 0.45),  # 1. lead a team with a spy other than oneself
    "reject_first": (0.30, 0.20),  # 2. vote against a first-mission team
    "vote_spied": (0.85, 0.55),  # 3. approve a team featuring spies
    "vote_big_out": (0.50, 0.15),  # 4. approve a "three-man" team without oneself
    "sabotage": (0.85, 0.00),  # 5. fail a mission when on it as a spy
    "vote_clean": (0.40, 0.70),  # complement of 3, needed for a likelihood
}

ACTION_WEIGHT = 2.0  # the seed: own actions count twice as much as the spy ratio


@register("scepticbot")
class ScepticBot(BeliefBot):
    """Suspicion = (2 × suspicion from a player's own actions + spy ratio) / 3.

    Taylor 2014, §4.1.13 (sceptic.py): it "simply eliminates impossible configurations from
    its role configuration collection based upon mission sabotages, similarly to
    Bounder's pessimistic collection, and maintains individual suspicion scores for each
    opponent based on their own actions"; the final score combines both, "suspicion from
    the bot's own actions have twice the weight of the so called spy ratio" (the share
    of remaining configurations naming the player). Modelled behaviours, per opponent:
    (1) selecting teams with its partner when a spy, (2) voting against the first
    mission, (3) voting for teams featuring spies, (4) voting for three-man teams
    without oneself, (5) sabotaging as a spy. §4.2: approves the fifth proposal in any
    role and every first-mission proposal, rejects three-man teams without itself,
    sabotages when one more failure wins.

    Choices: a player's action suspicion is a per-player posterior (prior spies/others)
    updated by the likelihood ratio of each action under its spy and resistance models;
    where the context is hidden ("does this team hold a spy?") the ratio mixes both
    cases by their probability over the remaining configurations given that role. A
    mission that succeeded with the player on it counts as a sabotage it did not play;
    a failed one is left to the spy ratio. Behaviour (1) is compared with the same
    frequency for resistance leaders. Models persist per opponent name in ``memory``,
    smoothed towards the pool (empty memory or a new name starts from the pool/defaults).
    As resistance it leads itself with the least suspicious players and rejects teams
    holding a proved spy or one of the ``n_spies`` most suspicious players when they
    stand clearly above the prior.
    """

    def __init__(self, *, margin: float = 0.05) -> None:
        super().__init__()
        self.margin = margin
        self.params = {"margin": margin}

    def start_game(self) -> None:
        self.stats = BehaviourStats(self.memory, DEFAULTS, key="scepticbot")
        names = self.game.names
        self.rates = {b: self.stats.rates(names, b) for b in DEFAULTS}
        n = self.game.n_players
        self.prior = self.game.n_spies / (n - 1)
        self.log_odds = np.full(n, math.log(self.prior / (1 - self.prior)))
        self._possible: list[int] | None = None

    # --- suspicion -------------------------------------------------------------------
    def spy_ratio(self) -> np.ndarray:
        """Share of configurations still possible that make each seat a spy."""
        possible = self.belief.possible()
        bits = self.belief.bits[possible]
        return bits.mean(axis=0) if len(bits) else np.zeros(self.game.n_players)

    def action_suspicion(self) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.log_odds))

    def spy_probabilities(self) -> np.ndarray:
        ratio = self.spy_ratio()
        combined = (ACTION_WEIGHT * self.action_suspicion() + ratio) / (ACTION_WEIGHT + 1)
        combined = np.where(ratio >= 1.0, 1.0, np.where(ratio <= 0.0, 0.0, combined))
        combined[self.seat] = 0.0
        return combined

    def _possible_masks(self) -> list[int]:
        """The spy configurations still possible, as bitmasks. Only a mission's fail cards
        rule any out, so the list is kept until :meth:`after_mission` drops it."""
        if self._possible is None:
            masks = self.belief.configs.masks[self.belief.possible()]
            self._possible = [int(m) for m in masks]
        return self._possible

    def _p_spied(self, team, seat: int) -> tuple[float, float]:
        """P(team holds a spy other than ``seat``) given ``seat`` is a spy / resistance:
        shares of the possible configurations, counted on their bitmasks."""
        others = seats_to_mask(p for p in team if p != seat)
        bit = 1 << seat
        spy_n = spy_spied = res_n = res_spied = 0
        for mask in self._possible_masks():
            spied = mask & others != 0
            if mask & bit:
                spy_n += 1
                spy_spied += spied
            else:
                res_n += 1
                res_spied += spied
        return (spy_spied / spy_n if spy_n else 0.0), (res_spied / res_n if res_n else 0.0)

    def _update(self, seat: int, p_spy: float, p_res: float) -> None:
        p_spy, p_res = min(max(p_spy, 1e-3), 1 - 1e-3), min(max(p_res, 1e-3), 1 - 1e-3)
        self.log_odds[seat] += math.log(p_spy / p_res)

    def on_team_selected(self, leader, team):
        if leader == self.seat:
            return
        q_spy, q_res = self._p_spied(team, leader)
        r_spy = self.rates["select_partner"][0][leader]
        r_res = self.rates["select_partner"][1][leader]
        self._update(leader, q_spy * r_spy + (1 - q_spy) * (1 - r_spy),
                     q_res * r_res + (1 - q_res) * (1 - r_res))

    def on_vote_complete(self, votes):
        game, team = self.game, self.game.proposals[-1].team
        for p, yes in enumerate(votes):
            if p == self.seat:
                continue
            if is_first_mission(game):
                r_spy, r_res = (self.rates["reject_first"][i][p] for i in (0, 1))
                yes_spy, yes_res = 1 - r_spy, 1 - r_res
            elif must_hold_spy_without(team, p, game.n_players):
                yes_spy, yes_res = (self.rates["vote_big_out"][i][p] for i in (0, 1))
            else:
                q_spy, q_res = self._p_spied(team, p)
                if p in team:
                    q_spy = 1.0
                spied = self.rates["vote_spied"]
                clean = self.rates["vote_clean"]
                yes_spy = q_spy * spied[0][p] + (1 - q_spy) * clean[0][p]
                yes_res = q_res * spied[1][p] + (1 - q_res) * clean[1][p]
            if yes:
                self._update(p, yes_spy, yes_res)
            else:
                self._update(p, 1 - yes_spy, 1 - yes_res)

    def after_mission(self, result: MissionResult) -> None:
        self._possible = None  # the belief has just seen the fail cards
        if result.fails == 0:
            for p in result.team:
                if p != self.seat:
                    self._update(p, 1 - self.rates["sabotage"][0][p], 1.0)

    def on_game_complete(self, resistance_won, spies):
        learn(self.stats, self.game, spies, self.seat)

    # --- decisions ---------------------------------------------------------------------
    def suspects(self) -> list[int]:
        probs = self.spy_probabilities()
        scores = {p: float(probs[p]) for p in self.others()}
        top = ranked(scores, self.rng)[::-1][: self.game.n_spies]
        return [p for p in top if scores[p] > self.prior + self.margin or scores[p] >= 1.0]

    def select(self, players, count):
        if self.spy:
            return self.cover_team(count)
        probs = self.spy_probabilities()
        scores = {p: float(probs[p]) for p in self.others()}
        return [self.seat] + ranked(scores, self.rng)[: count - 1]

    def vote(self, team):
        game = self.game
        if is_last_attempt(game) or is_first_mission(game):
            return True
        winning = self.spy and spies_one_mission_from_winning(game) and has_enough_spies(
            team, self.spies, game)
        if must_hold_spy_without(team, self.seat, game.n_players) and not winning:
            return False
        if self.spy:
            return self.spies_on_team(team) >= 1
        return not set(team) & set(self.suspects())

    def sabotage(self):
        return self.designated()


def learn(stats: BehaviourStats, game, spies, me: int) -> None:
    """Update every opponent's model with this game's actions, roles now revealed."""
    names, n = game.names, game.n_players
    for prop in game.proposals:
        for p, yes in enumerate(prop.votes or ()):
            if p == me:
                continue
            if prop.mission == 1:
                stats.record(names[p], p in spies, "reject_first", not yes)
            elif must_hold_spy_without(prop.team, p, n):
                stats.record(names[p], p in spies, "vote_big_out", yes)
            else:
                spied = any(q in spies for q in prop.team)
                stats.record(names[p], p in spies, "vote_spied" if spied else "vote_clean",
                             yes)
        if prop.leader != me:
            partner = any(q in spies for q in prop.team if q != prop.leader)
            stats.record(names[prop.leader], prop.leader in spies, "select_partner", partner)
    for result in game.missions:
        on = [p for p in result.team if p in spies]
        for p in on:
            if p != me:
                stats.record(names[p], True, "sabotage", result.fails / len(on))
