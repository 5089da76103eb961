"""Trusty: a fixed suspicion model, trusted per opponent only as far as it has been right."""

from __future__ import annotations

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.beliefs import ranked
from spyglass.resistance.bots.expert_rules import (
    designated_saboteurs,
    is_last_attempt,
    must_hold_spy_without,
    spies_on,
    spy_team,
)
from spyglass.resistance.bots.registry import register

MEMORY_KEY = "trusty_accuracy"


@register("trusty")
class Trusty(Bot):
    """Hand-coded suspicion, scaled per opponent by the model's past accuracy on it.

    Taylor 2014, §4.1.2: suspicion scores from hand-coded conditions, wiped after each game;
    across games, per player name, "an average of how accurately the fixed model has
    identified each player", accumulated from "the average difference between the
    suspicion score and identity (spy = 1.0, resistance = 0.0) at the end of each game";
    suspicion is "multiplied by this accuracy score". Expert rules take precedence: as a
    spy it approves any team with a spy on it; as resistance it rejects a three-man
    team without itself.

    Choices: the fixed model starts everyone at the prior (spies / others) and adds
    +0.5 × fails / other-members to each other member of a failed team (a seat proved a
    spy goes to 1), −0.1 to members of a successful team, ±0.15 / −0.05 to the leader
    of a failed / successful team and +0.1 / −0.05 to outsiders who approved / rejected
    a failed team, clipped to [0, 1]. Accuracy is 1 − mean error (1 for a name never
    seen). Multiplying a score by it literally would make a badly-modelled opponent look
    innocent, so the score is scaled towards the prior instead: prior + (raw − prior) ×
    accuracy — an unreliable model is trusted less, in either direction. A resistance
    member approves the fifth proposal (rejecting it loses the game) and otherwise any
    team with none of the ``n_spies`` most suspicious players above the prior; spies
    sabotage by the leader convention so only the needed fail cards are played.
    """

    def on_game_revealed(self, players, spies):
        n = self.game.n_players
        self.prior = self.game.n_spies / (n - 1)
        self.raw = {p: self.prior for p in players if p != self.seat}
        self.certain: set[int] = set()

    # --- the fixed model --------------------------------------------------------------
    def _add(self, seat: int, amount: float) -> None:
        if seat != self.seat and seat not in self.certain:
            self.raw[seat] = min(max(self.raw[seat] + amount, 0.0), 1.0)

    def on_mission_complete(self, fails):
        result = self.game.missions[-1]
        others = [p for p in result.team if p != self.seat]
        votes = self.game.proposals[-1].votes
        if fails:
            if others and fails >= len(others):
                for p in others:
                    self.raw[p] = 1.0
                    self.certain.add(p)
            for p in others:
                self._add(p, 0.5 * fails / len(others))
            self._add(result.leader, 0.15)
            for p, yes in enumerate(votes or ()):
                if p not in result.team:
                    self._add(p, 0.1 if yes else -0.05)
        else:
            for p in others:
                self._add(p, -0.1)
            self._add(result.leader, -0.05)

    def accuracy(self, name: str) -> float:
        """1 − the model's mean error on ``name`` over past games (1.0 if never seen)."""
        total, games = self.memory.get(MEMORY_KEY, {}).get(name, (0.0, 0))
        return 1.0 - total / games if games else 1.0

    def suspicion(self) -> dict[int, float]:
        names = self.game.names
        return {
            p: self.prior + (r - self.prior) * self.accuracy(names[p])
            for p, r in self.raw.items()
        }

    def on_game_complete(self, resistance_won, spies):
        table = self.memory.setdefault(MEMORY_KEY, {})
        for p, r in self.raw.items():
            name = self.game.names[p]
            total, games = table.get(name, (0.0, 0))
            table[name] = (total + abs(r - (1.0 if p in spies else 0.0)), games + 1)

    # --- decisions --------------------------------------------------------------------
    def select(self, players, count):
        if self.spy:
            return spy_team(self.rng, self.seat, self.spies, players, count,
                            self.game.fails_needed)
        return [self.seat] + ranked(self.suspicion(), self.rng)[: count - 1]

    def vote(self, team):
        if self.spy:
            return spies_on(team, self.spies) >= 1
        if is_last_attempt(self.game):  # rejecting it loses the game outright
            return True
        if must_hold_spy_without(team, self.seat, self.game.n_players):
            return False
        scores = self.suspicion()
        suspects = [p for p in ranked(scores, self.rng)[::-1][: self.game.n_spies]
                    if scores[p] > self.prior + 1e-9]
        return not set(team) & set(suspects)

    def sabotage(self):
        game = self.game
        return self.seat in designated_saboteurs(
            game.team, self.spies, game.leader, game.fails_needed, game.n_players
        )
