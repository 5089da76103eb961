"""Bounder: optimistic and pessimistic configuration sets (Taylor 2014, §4.1.5)."""

from __future__ import annotations

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.configurations import Configurations
from spyglass.resistance.bots.registry import register


@register("bounder")
class Bounder(Bot):
    """Deduces the spies by eliminating configurations; always thinks itself resistance.

    Seed: two collections of every spy configuration over the other players. After each
    mission the *optimistic* one (spies always sabotage) drops every configuration whose
    spy count on the team differs from the number of fail cards; the *pessimistic* one
    drops only the impossible ones (fewer spies than fail cards). Decisions use the
    optimistic set, and the pessimistic one only once the optimistic set is empty. No
    expert rules, no spy play except failing every mission it can.

    Choices where the seed is silent: as leader it picks, among the teams containing
    itself, one that is spy-free in the most configurations of the set in use (ties at
    random); it approves a team iff some configuration of that set leaves it spy-free
    (which by itself rejects, at 5 players, every three-man team without it). Since a
    spy Bounder reasons as if innocent, its own fail cards can empty both sets; it then
    falls back to all configurations. Its suspicion of a seat is the share of the set
    in use that makes it a spy.
    """

    def on_game_revealed(self, players, spies):
        everyone = Configurations.excluding(len(players), [self.seat])
        self.optimistic = everyone
        self.pessimistic = everyone
        self._everyone = everyone

    def on_mission_complete(self, fails):
        on_team = self.optimistic.spies_on(self.game.team)
        self.optimistic = self.optimistic.keep(on_team == fails)
        self.pessimistic = self.pessimistic.keep(self.pessimistic.spies_on(self.game.team) >= fails)

    def active(self) -> Configurations:
        """The set decisions are made from: optimistic, else pessimistic, else everything."""
        for configs in (self.optimistic, self.pessimistic):
            if configs:
                return configs
        return self._everyone

    def select(self, players, count):
        teams, _ = self.active().best_teams(count, include=[self.seat])
        return self.rng.choice(teams)

    def vote(self, team):
        return self.active().possibly_clean(team)

    def sabotage(self):
        return True

    def suspicion(self):
        marg = self.active().marginals()
        return {p: float(marg[p]) for p in self.others()}
