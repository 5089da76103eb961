"""A base for bots that weigh spy configurations: set-up, hard deduction, team choice.

Every bot built on it keeps ``self.belief``, a :class:`~spyglass.resistance.bots.beliefs.Belief`
from the point of view of a resistance member in its seat (its own seat excluded). For a
resistance bot that is its real belief; for a spy it is what the table could think
*of the others if the bot were innocent*, which is what a spy needs to pick teams that
look clean. Missions eliminate configurations by the hard rule (``f`` fails need ``f``
spies); subclasses add their own soft evidence in :meth:`after_mission` and friends.
"""

from __future__ import annotations

import numpy as np

from spyglass.games.resistance.observation import MissionResult
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.beliefs import Belief, exactly_k, pick_best, ranked
from spyglass.resistance.bots.expert_rules import (
    designated_saboteurs,
    is_last_attempt,
    must_hold_spy_without,
    spies_on,
)


class BeliefBot(Bot):
    """Shared machinery; subclasses override the decisions and the soft evidence."""

    def on_game_revealed(self, players: tuple[int, ...], spies: frozenset[int]) -> None:
        self.belief = Belief(self.game.n_players, exclude=(self.seat,))
        self.start_game()

    def start_game(self) -> None:
        """Hook: called once the belief exists."""

    def on_mission_complete(self, fails: int) -> None:
        result = self.game.missions[-1]
        self.belief.observe_fails(result.team, fails)
        self.after_mission(result)

    def after_mission(self, result: MissionResult) -> None:
        """Hook: soft evidence from a finished mission."""

    # --- suspicion -------------------------------------------------------------------
    def spy_probabilities(self) -> np.ndarray:
        """Probability that each seat is a spy (own seat 0), as the bot acts on it."""
        return self.belief.marginals()

    def suspicion(self) -> dict[int, float]:
        probs = self.spy_probabilities()
        return {p: float(min(max(probs[p], 0.0), 1.0)) for p in self.others()}

    # --- helpers ----------------------------------------------------------------------
    def act_likelihood(self, seat: int, did: bool, rate_spy, rate_res) -> np.ndarray:
        """Likelihood per configuration of ``seat`` acting (``did``) given its role there.

        ``rate_spy`` / ``rate_res`` are the probabilities (scalars or per-configuration
        arrays) that the seat acts that way as a spy / as a resistance member.
        """
        p = np.where(self.belief.is_spy(seat), rate_spy, rate_res)
        return p if did else 1.0 - p

    def weigh_fail_count(self, result: MissionResult, sabotage_rates: np.ndarray) -> None:
        """Soft evidence from a mission: weigh each configuration by the chance of exactly
        ``result.fails`` fail cards when each spy on the team fails at its rate."""
        team = list(result.team)
        probs = np.where(self.belief.bits[:, team], sabotage_rates[team][None, :], 0.0)
        self.belief.multiply(exactly_k(probs, result.fails))

    def tolerant_vote(self, team: tuple[int, ...], tolerance: float) -> bool:
        """The suspicion bots' vote (Magi, PandSBot): in either role reject a team that
        leaves this bot out and is bound to hold a spy (Taylor 2014, §4.2: such bots "will
        reject any such team", so also when it would win the game for a spy); a spy
        backs teams with a spy on them; resistance approves the last attempt and teams
        within ``tolerance`` (+0.1 per rejection) of the cleanest."""
        game = self.game
        if self.spy:
            if must_hold_spy_without(team, self.seat, game.n_players):
                return False
            return self.spies_on_team(team) >= 1
        if is_last_attempt(game):
            return True
        if must_hold_spy_without(team, self.seat, game.n_players):
            return False
        return self.near_best(team, tolerance + 0.1 * (game.attempt - 1))

    def best_team(self, count: int) -> tuple[int, ...]:
        """The team with this seat most likely to be spy-free (ties at random)."""
        teams, shares = self.belief.team_shares(count, include=(self.seat,))
        return pick_best(self.rng, teams, shares)

    def near_best(self, team: tuple[int, ...], tolerance: float) -> bool:
        """The team is at most ``tolerance`` less likely to be clean than the best one."""
        best = self.belief.best_clean_share(len(team))
        return self.belief.p_clean(team) >= best - tolerance - 1e-12

    def cover_team(self, count: int) -> list[int]:
        """A spy leader's team: itself, partners if the mission needs more fail cards,
        and the resistance members who look least suspicious."""
        partners = [s for s in self.spies if s != self.seat]
        need = max(self.game.fails_needed - 1, 0)
        team = [self.seat] + self.rng.sample(partners, min(need, len(partners)))
        probs = self.spy_probabilities()
        res = {p: probs[p] for p in self.game.players if p not in self.spies}
        for p in ranked(res, self.rng):
            if len(team) >= count:
                break
            team.append(p)
        for p in self.game.players:  # only if there are too few resistance members
            if len(team) < count and p not in team:
                team.append(p)
        return team

    def spies_on_team(self, team) -> int:
        """Spies on ``team`` (only meaningful when this bot is a spy)."""
        return spies_on(team, self.spies)

    def designated(self) -> bool:
        """Whether this spy is one of the saboteurs the leader convention designates."""
        game = self.game
        team = game.team or ()
        chosen = designated_saboteurs(
            team, self.spies, game.leader, game.fails_needed, game.n_players
        )
        return self.seat in chosen


__all__ = ["BeliefBot"]
