"""KreuterBot: opponent models that predict actions, trusted as far as they predict well."""

from __future__ import annotations

import math

import numpy as np

from spyglass.games.resistance.tables import mask_to_seats
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.beliefs import all_teams, count_distribution
from spyglass.resistance.bots.expert_rules import (
    designated_saboteurs,
    is_last_attempt,
    must_hold_spy_without,
    spies_on,
)
from spyglass.resistance.bots.opponent_model import BehaviourStats
from spyglass.resistance.bots.registry import register

#: Behaviour -> assumed (as-spy, as-resistance) frequency for an opponent never seen.
#: Every context here is public: KreuterBot tracks no spy configurations.
DEFAULTS = {
    "vote_on_team": (0.95, 0.90),  # approve a team one is on
    "vote_off_team": (0.55, 0.50),  # approve a team one is not on
    "vote_big_out": (0.50, 0.15),  # approve a team without oneself bound to hold a spy
    "vote_failed": (0.85, 0.50),  # approve a team whose mission then failed
    "vote_passed": (0.60, 0.80),  # approve a team whose mission then succeeded
    "lead_self": (0.90, 0.90),  # lead a team including oneself
    "on_failed": (0.80, 0.35),  # be on a mission with a fail card (given one was on it)
}
ACCURACY_KEY = "kreuterbot_accuracy"
PRIOR_ACCURACY = (3.0, 4.0)  # 75% accurate until shown otherwise


def pre_vote_kind(team, voter: int, n_players: int) -> str:
    """The public context of a vote, as known when it is cast."""
    if voter in team:
        return "vote_on_team"
    if must_hold_spy_without(team, voter, n_players):
        return "vote_big_out"
    return "vote_off_team"


@register("kreuterbot")
class KreuterBot(Bot):
    """Predicts every opponent's votes from its models and acts on the predictions.

    Taylor 2014, §4.1.15 (dkreuter.py): an opponent-modelling entrant that "attempts [to]
    use its opponent models and some expert rules to predict opponent actions, makes
    decisions based on these predictions, and maintains statistics for their
    accuracy. Unlike Magi, ScepticBot, and Clymily, KreuterBot does not track possible
    role configurations."

    Choices: models are per opponent name and role, over public contexts only (votes on
    teams one is on / not on / bound to hold a spy; afterwards, approving teams that
    failed or passed; leading oneself; being on a failed mission). Suspicion is a
    per-player naive-Bayes posterior from the prior spies/others. Before each vote it
    predicts every opponent's vote (a suspicion-weighted mix of its spy and resistance
    models) and scores the prediction afterwards; the running hit rate per name is kept
    in ``memory``, and the evidence from a player's votes is tempered by how well they
    have been predicted (a player predicted no better than chance tells it nothing). As
    leader it maximises P(team clean) × P(team passes), the latter from the predicted
    votes; as a spy leader it picks, among teams with itself and the needed partners,
    the one the (true-role) predictions make likeliest to pass. Expert rules: approve the
    fifth proposal, reject a team without itself bound to hold a spy, approve teams with
    a spy as a spy, sabotage by the leader convention.
    """

    def __init__(self, *, tolerance: float = 0.1) -> None:
        super().__init__()
        self.tolerance = tolerance
        self.params = {"tolerance": tolerance}

    def on_game_revealed(self, players, spies):
        n = self.game.n_players
        self.stats = BehaviourStats(self.memory, DEFAULTS, key="kreuterbot")
        self.rates = {b: self.stats.rates(self.game.names, b) for b in DEFAULTS}
        self.prior = self.game.n_spies / (n - 1)
        self.log_odds = np.full(n, math.log(self.prior / (1 - self.prior)))
        self.log_odds[self.seat] = -np.inf
        self.predicted: list[float] | None = None
        self._votes_pending: list = []

    # --- models and predictions ------------------------------------------------------
    def suspicions(self) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-self.log_odds))

    def suspicion(self) -> dict[int, float]:
        s = self.suspicions()
        return {p: float(s[p]) for p in self.others()}

    def approval(self, p: int, team, spy: float) -> float:
        """Predicted chance that ``p`` approves ``team``, given P(p is a spy) = ``spy``."""
        kind = pre_vote_kind(team, p, self.game.n_players)
        r_spy, r_res = self.rates[kind][0][p], self.rates[kind][1][p]
        return spy * r_spy + (1 - spy) * r_res

    def trust(self, p: int) -> float:
        hits, total = self.memory.get(ACCURACY_KEY, {}).get(self.game.names[p], (0.0, 0.0))
        acc = (hits + PRIOR_ACCURACY[0]) / (total + PRIOR_ACCURACY[1])
        return min(max(2.0 * acc - 1.0, 0.0), 1.0)

    def _update(self, p: int, p_spy: float, p_res: float, weight: float = 1.0) -> None:
        if p == self.seat:
            return
        p_spy, p_res = min(max(p_spy, 1e-3), 1 - 1e-3), min(max(p_res, 1e-3), 1 - 1e-3)
        self.log_odds[p] += weight * math.log(p_spy / p_res)

    def on_team_selected(self, leader, team):
        s = self.suspicions()
        self.predicted = [self.approval(p, team, s[p]) if p != self.seat else 1.0
                          for p in self.game.players]
        r = self.rates["lead_self"]
        did = leader in team
        self._update(leader, r[0][leader] if did else 1 - r[0][leader],
                     r[1][leader] if did else 1 - r[1][leader])

    def on_vote_complete(self, votes):
        table = self.memory.setdefault(ACCURACY_KEY, {})
        names = self.game.names
        if self.predicted is not None:
            for p, yes in enumerate(votes):
                if p != self.seat:
                    hits, total = table.get(names[p], (0.0, 0.0))
                    table[names[p]] = (hits + ((self.predicted[p] >= 0.5) == yes), total + 1)
        prop = self.game.proposals[-1]
        if prop.approved:
            self._votes_pending.append(prop)
            return
        for p, yes in enumerate(votes):
            kind = pre_vote_kind(prop.team, p, self.game.n_players)
            r_spy, r_res = self.rates[kind][0][p], self.rates[kind][1][p]
            self._update(p, r_spy if yes else 1 - r_spy, r_res if yes else 1 - r_res,
                         self.trust(p) if p != self.seat else 1.0)

    def on_mission_complete(self, fails):
        result = self.game.missions[-1]
        kind = "vote_failed" if result.sabotaged else "vote_passed"
        for prop in self._votes_pending:
            for p, yes in enumerate(prop.votes or ()):
                r_spy, r_res = self.rates[kind][0][p], self.rates[kind][1][p]
                self._update(p, r_spy if yes else 1 - r_spy, r_res if yes else 1 - r_res,
                             self.trust(p) if p != self.seat else 1.0)
        self._votes_pending = []
        r = self.rates["on_failed"]
        failed = fails > 0
        for p in result.team:
            self._update(p, r[0][p] if failed else 1 - r[0][p],
                         r[1][p] if failed else 1 - r[1][p])

    def on_game_complete(self, resistance_won, spies):
        learn(self.stats, self.game, spies, self.seat)

    # --- decisions --------------------------------------------------------------------
    def _team_scores(self, teams: np.ndarray, spy_prob: np.ndarray):
        """(P(clean), P(passes the vote)) for each team mask, by the predictions."""
        n = self.game.n_players
        seats = [mask_to_seats(int(t)) for t in teams]
        clean = np.array([np.prod([1 - spy_prob[p] for p in team if p != self.seat])
                          for team in seats])
        approvals = np.array([[self.approval(p, team, spy_prob[p]) if p != self.seat
                               else 1.0 for p in range(n)] for team in seats])
        dist = count_distribution(approvals)
        passes = dist[:, n // 2 + 1:].sum(axis=1)
        return seats, clean, passes

    def select(self, players, count):
        n = self.game.n_players
        if self.spy:
            partners = [s for s in self.spies if s != self.seat]
            need = [self.seat] + partners[: max(self.game.fails_needed - 1, 0)]
            teams = all_teams(n, count, need)
            teams = [t for t in teams
                     if spies_on(mask_to_seats(int(t)), self.spies) == len(need)] or teams
            truth = np.array([1.0 if p in self.spies else 0.0 for p in range(n)])
            seats, _, passes = self._team_scores(np.array(teams), truth)
            best = np.flatnonzero(passes >= passes.max() - 1e-12)
            return seats[int(best[self.rng.randrange(len(best))])]
        teams = all_teams(n, count, (self.seat,))
        seats, clean, passes = self._team_scores(teams, self.suspicions())
        value = clean * (0.5 + 0.5 * passes)
        best = np.flatnonzero(value >= value.max() - 1e-12)
        return seats[int(best[self.rng.randrange(len(best))])]

    def vote(self, team):
        game = self.game
        if is_last_attempt(game):
            return True
        if self.spy:
            return spies_on(team, self.spies) >= 1
        if must_hold_spy_without(team, self.seat, game.n_players):
            return False
        s = self.suspicions()
        s[self.seat] = 0.0
        clean = float(np.prod([1 - s[p] for p in team]))
        teams = all_teams(game.n_players, len(team))
        best = max(np.prod([1 - s[p] for p in mask_to_seats(int(t))]) for t in teams)
        return clean >= best - self.tolerance - 0.1 * (game.attempt - 1)

    def sabotage(self):
        game = self.game
        return self.seat in designated_saboteurs(
            game.team, self.spies, game.leader, game.fails_needed, game.n_players)


def learn(stats: BehaviourStats, game, spies, me: int) -> None:
    """Update every opponent's model with this game's actions, roles now revealed."""
    names, n = game.names, game.n_players
    failed = {m.mission: m.sabotaged for m in game.missions}
    for prop in game.proposals:
        for p, yes in enumerate(prop.votes or ()):
            if p == me:
                continue
            if prop.approved and prop.mission in failed:
                kind = "vote_failed" if failed[prop.mission] else "vote_passed"
            else:
                kind = pre_vote_kind(prop.team, p, n)
            stats.record(names[p], p in spies, kind, yes)
        if prop.leader != me:
            stats.record(names[prop.leader], prop.leader in spies, "lead_self",
                         prop.leader in prop.team)
    for m in game.missions:
        for p in m.team:
            if p != me:
                stats.record(names[p], p in spies, "on_failed", m.fails > 0)
