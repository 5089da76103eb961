"""GarboA: hard-coded integer suspicion points per player, and a wary vote."""

from __future__ import annotations

import math

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.beliefs import ranked
from spyglass.resistance.bots.expert_rules import (
    has_surplus_spies,
    is_first_mission,
    is_last_attempt,
    must_hold_spy_without,
    spies_on,
    spy_team,
)
from spyglass.resistance.bots.registry import register

#: Points for each other member of a failed team, per fail card, by the team's size:
#: 75 / size, rounded (the seed's "+25 for each player on a team of three with one
#: saboteur"; +38 on a team of two).
FAIL_POINTS = 75
SUCCESS_POINTS = -10
LEADER_FAIL_POINTS = 15
LEADER_SUCCESS_POINTS = -5
APPROVED_FAIL_POINTS = 10
REJECTED_FAIL_POINTS = -5
REJECTED_SUCCESS_POINTS = 5
CERTAIN_POINTS = 1000
SCALE = 40.0  # points per unit of log-odds when reporting suspicion in [0, 1]


@register("garboa")
class GarboA(Bot):
    """Per-player suspicion from fixed integer adjustments, one game at a time.

    Taylor 2014, §4.1.10: like PandSBot but "suspicion scores only for individual players,
    and not pairs", adding and subtracting "arbitrary, hard-coded integers, such as +25
    for each player on a team of three with one saboteur"; it votes against "any
    mission which pairs itself with the second most suspicious player", whatever its
    role. §4.2: it approves every proposal of the first mission, rejects a three-man
    team without itself, accepts spied teams as a spy, and does not sabotage when both
    spies are on the team.

    Choices: the point table above (fail points are 75 per fail card over the team's
    size, so every other member of a team of three with one fail gets the seed's +25,
    whether or not GarboA was on it; a team whose fail cards account for all its other
    members gets +1000: they are certainly spies; the leader and outside voters points
    are invented, the seed gives none). "Second most suspicious" generalises to the
    spies-th most suspicious, i.e. the rank of the last spy the table should expect.
    Resistance votes approve teams with none of the ``n_spies`` most suspicious players
    (ties count only when the score is above zero), and always the fifth proposal.
    "Both spies on the team" generalises to more spies than the mission needs fail
    cards; then no GarboA spy
    sabotages, also when the failure would win the game (§4.2 lists GarboA among the
    bots that "simply will not sabotage in this situation", and not among those with a
    conditional for the winning mission).
    """

    def on_game_revealed(self, players, spies):
        self.points = {p: 0 for p in players if p != self.seat}

    # --- suspicion ------------------------------------------------------------------
    def on_mission_complete(self, fails):
        result = self.game.missions[-1]
        others = [p for p in result.team if p != self.seat]
        votes = self.game.proposals[-1].votes or (True,) * self.game.n_players
        if fails:
            if others and fails >= len(others):
                for p in others:
                    self.points[p] += CERTAIN_POINTS
            elif others:
                each = round(FAIL_POINTS * fails / len(result.team))
                for p in others:
                    self.points[p] += each
            if result.leader != self.seat:
                self.points[result.leader] += LEADER_FAIL_POINTS
            for p, yes in enumerate(votes):
                if p != self.seat and p not in result.team:
                    self.points[p] += APPROVED_FAIL_POINTS if yes else REJECTED_FAIL_POINTS
        else:
            for p in others:
                self.points[p] += SUCCESS_POINTS
            if result.leader != self.seat:
                self.points[result.leader] += LEADER_SUCCESS_POINTS
            for p, yes in enumerate(votes):
                if p != self.seat and not yes:
                    self.points[p] += REJECTED_SUCCESS_POINTS

    def suspicion(self) -> dict[int, float]:
        return {p: 1.0 / (1.0 + math.exp(-pts / SCALE)) for p, pts in self.points.items()}

    def suspects(self) -> list[int]:
        """The ``n_spies`` most suspicious players with a positive score, most first."""
        order = ranked(self.points, self.rng)[::-1]
        return [p for p in order[: self.game.n_spies] if self.points[p] > 0]

    def nth_most_suspicious(self) -> int | None:
        """The spies-th most suspicious player (the seed's "second most suspicious")."""
        order = ranked(self.points, self.rng)[::-1]
        k = self.game.n_spies - 1
        return order[k] if k < len(order) and self.points[order[k]] > 0 else None

    # --- decisions ------------------------------------------------------------------
    def select(self, players, count):
        if self.spy:
            return spy_team(self.rng, self.seat, self.spies, players, count,
                            self.game.fails_needed)
        trusted = ranked(self.points, self.rng)
        return [self.seat] + trusted[: count - 1]

    def vote(self, team):
        game = self.game
        if is_first_mission(game) or is_last_attempt(game):
            return True
        if must_hold_spy_without(team, self.seat, game.n_players):
            return False
        partner = self.nth_most_suspicious()
        if self.seat in team and partner is not None and partner in team:
            return False
        if self.spy:
            return spies_on(team, self.spies) >= 1
        return not set(team) & set(self.suspects())

    def sabotage(self):
        # §4.2: with both spies on the team GarboA "simply will not sabotage", even when
        # the failure would win the game (it is not among the bots with that conditional).
        return not has_surplus_spies(self.game.team, self.spies, self.game)
