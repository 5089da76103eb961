"""Magi: configuration probabilities from per-opponent, per-role behaviour models."""

from __future__ import annotations

import numpy as np

from spyglass.games.resistance.observation import MissionResult, Proposal
from spyglass.resistance.bots.belief_bot import BeliefBot
from spyglass.resistance.bots.expert_rules import (
    has_surplus_spies,
    must_hold_spy_without,
)
from spyglass.resistance.bots.opponent_model import BehaviourStats
from spyglass.resistance.bots.registry import register

#: Behaviour -> assumed (as-spy, as-resistance) frequency for an opponent never seen.
DEFAULTS = {
    "select_spied": (0.95, 0.45),  # 1. lead a team featuring spies
    "select_self": (0.90, 0.90),  # 2. lead a team featuring oneself
    "vote_spied": (0.85, 0.50),  # 3. approve a team featuring spies
    "vote_all_spies": (0.60, 0.45),  # 4. approve a team featuring every spy
    "vote_success": (0.60, 0.80),  # 5. approve a team whose mission then succeeded
    "vote_big_out": (0.50, 0.15),  # 6. approve a "three-man" team without oneself
    "sabotage": (0.85, 0.00),  # 7. fail a mission when on it as a spy
    "vote_clean": (0.40, 0.70),  # the complement of 3: approve a spy-free team
}


def vote_category(prop: Proposal, voter: int, n_players: int, spy_bits: np.ndarray,
                  succeeded: bool, on: np.ndarray | None = None,
                  total: np.ndarray | None = None) -> np.ndarray:
    """Which behaviour a vote is evidence of, per configuration (index into VOTE_KINDS).

    Priority: big team without the voter, then team holding every spy, then a team whose
    mission succeeded, then spied / clean. ``spy_bits`` is (configurations, seats);
    ``on`` / ``total`` (spies on the team / in all, per configuration) if already known.
    """
    rows = spy_bits.shape[0]
    if must_hold_spy_without(prop.team, voter, n_players):  # overrides every other kind
        return np.full(rows, _BIG_OUT)
    if on is None:
        on = spy_bits[:, list(prop.team)].sum(axis=1)
    if total is None:
        total = spy_bits.sum(axis=1)
    if succeeded:
        cat = np.full(rows, _SUCCESS)
    else:
        cat = np.where(on > 0, _SPIED, _CLEAN)
    return np.where((on == total) & (total > 1), _ALL_SPIES, cat)


def vote_kind(prop: Proposal, voter: int, n_players: int, spies: frozenset[int],
              succeeded: bool) -> str:
    """:func:`vote_category` for the one true configuration (``spies``), once the game is
    over: the behaviour a vote is evidence of, by name."""
    if must_hold_spy_without(prop.team, voter, n_players):
        return "vote_big_out"
    on = sum(1 for p in prop.team if p in spies)
    if on == len(spies) and len(spies) > 1:
        return "vote_all_spies"
    if succeeded:
        return "vote_success"
    return "vote_spied" if on > 0 else "vote_clean"


VOTE_KINDS = ("vote_spied", "vote_clean", "vote_success", "vote_all_spies", "vote_big_out")
_SPIED, _CLEAN, _SUCCESS, _ALL_SPIES, _BIG_OUT = range(len(VOTE_KINDS))


@register("magi")
class Magi(BeliefBot):
    """Scores every spy configuration by how well each player's behaviour fits its model.

    Taylor 2014, §4.1.12 (mp.py): active opponent modelling over many games "with a separate
    model per opponent, per role", configuration tracking and expert rules. The modelled
    behaviours are the frequencies of (1) selecting teams featuring spies, (2) selecting
    teams featuring oneself, (3) voting for teams featuring spies, (4) voting for teams
    featuring both spies, (5) voting for successful teams, (6) voting for three-man teams
    without oneself and (7) sabotaging as a spy on a mission; Magi "maintains a
    probability (suspicion) score for each configuration of player roles based on the
    behaviour of all players compared to their models". §4.2: it rejects any three-man
    team without itself (in either role), accepts teams with a spy as a spy, and "simply
    will not sabotage" when both spies are on the team — played as written, also when
    that failure would win the game.

    Choices: each configuration's probability is the product, over every action seen, of
    the frequency with which the actor's model *in the role that configuration gives it*
    does that (naive Bayes), times the hard mission constraint. One vote counts once,
    under the most specific behaviour that applies (6, then 4, then 5 for a team whose
    mission succeeded, then 3, else its complement "votes for spy-free teams", which
    the seed does not list but a likelihood needs); a mission's fail count is scored with
    each spy on it failing independently at its own sabotage frequency. "Both spies"
    generalises to "every spy" (and, for sabotage, to more spies than fail cards needed:
    then no spy of Magi's sabotages, whoever leads).
    Models are learned at each game's end, smoothed towards the pool of all opponents
    (:mod:`spyglass.resistance.bots.opponent_model`), so an unknown name is handled from game one.
    As resistance it leads the team most likely to be clean, approves the fifth proposal
    and teams within ``tolerance`` (+0.1 per rejection) of the cleanest.
    """

    def __init__(self, *, tolerance: float = 0.05) -> None:
        super().__init__()
        self.tolerance = tolerance
        self.params = {"tolerance": tolerance}

    def start_game(self) -> None:
        self.stats = BehaviourStats(self.memory, DEFAULTS, key="magi")
        names = self.game.names
        self.rates = {b: self.stats.rates(names, b) for b in DEFAULTS}
        # Each seat's vote rates by kind (index into VOTE_KINDS), fixed for the game.
        self._vote_rates = [
            tuple(np.array([self.rates[k][role][seat] for k in VOTE_KINDS]) for role in (0, 1))
            for seat in range(len(names))
        ]
        self._pending: list[Proposal] = []

    def _rate_arrays(self, seat: int, kinds: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        spy, res = self._vote_rates[seat]
        return spy[kinds], res[kinds]

    def _score_votes(self, prop: Proposal, succeeded: bool) -> None:
        n = self.game.n_players
        on = self.belief.spies_on(prop.team)  # cached per team
        total = self.belief.spies_on(range(n))
        by_big_out: dict[bool, np.ndarray] = {}  # a voter matters only through that rule
        for p, yes in enumerate(prop.votes or ()):
            if p == self.seat:
                continue
            big_out = must_hold_spy_without(prop.team, p, n)
            kinds = by_big_out.get(big_out)
            if kinds is None:
                kinds = by_big_out[big_out] = vote_category(
                    prop, p, n, self.belief.bits, succeeded, on=on, total=total)
            spy, res = self._rate_arrays(p, kinds)
            self.belief.multiply(self.act_likelihood(p, yes, spy, res))

    # --- evidence ----------------------------------------------------------------
    def on_team_selected(self, leader, team):
        if leader == self.seat:
            return
        spied = self.belief.spies_on(team) > 0
        s_spy, s_res = self.rates["select_spied"]
        rate_spy = np.where(spied, s_spy[leader], 1 - s_spy[leader])
        rate_res = np.where(spied, s_res[leader], 1 - s_res[leader])
        self.belief.multiply(self.act_likelihood(leader, True, rate_spy, rate_res))
        o_spy, o_res = self.rates["select_self"]
        self.belief.multiply(self.act_likelihood(leader, leader in team, o_spy[leader],
                                                 o_res[leader]))

    def on_vote_complete(self, votes):
        prop = self.game.proposals[-1]
        if prop.approved:
            self._pending.append(prop)  # scored once we know whether it succeeded
        else:
            self._score_votes(prop, succeeded=False)

    def after_mission(self, result: MissionResult) -> None:
        for prop in self._pending:
            self._score_votes(prop, succeeded=not result.sabotaged)
        self._pending = []
        self.weigh_fail_count(result, self.rates["sabotage"][0])

    def on_game_complete(self, resistance_won, spies):
        learn(self.stats, self.game, spies, self.seat)

    # --- decisions ---------------------------------------------------------------
    def select(self, players, count):
        return self.cover_team(count) if self.spy else self.best_team(count)

    def vote(self, team):
        return self.tolerant_vote(team, self.tolerance)

    def sabotage(self):
        # §4.2: with both spies on the team Magi "simply will not sabotage", even when
        # the failure would win the game (it is not among the bots with that conditional).
        return not has_surplus_spies(self.game.team, self.spies, self.game)


def learn(stats: BehaviourStats, game, spies, me: int) -> None:
    """Update every opponent's model with this game's actions, roles now revealed."""
    names, n = game.names, game.n_players
    outcome = {m.mission: not m.sabotaged for m in game.missions}
    for prop in game.proposals:
        succeeded = prop.approved and outcome.get(prop.mission, False)
        for p, yes in enumerate(prop.votes or ()):
            if p != me:
                kind = vote_kind(prop, p, n, spies, succeeded)
                stats.record(names[p], p in spies, kind, yes)
        if prop.leader != me:
            spy = prop.leader in spies
            stats.record(names[prop.leader], spy, "select_spied",
                         any(p in spies for p in prop.team))
            stats.record(names[prop.leader], spy, "select_self", prop.leader in prop.team)
    for result in game.missions:
        on = [p for p in result.team if p in spies]
        for p in on:
            if p != me:
                stats.record(names[p], True, "sabotage", result.fails / len(on))
