"""Rebounder: strong, weak, vote and select configuration sets (Taylor 2014, §4.1.6)."""

from __future__ import annotations

from spyglass.games.resistance.tables import seats_to_mask
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.configurations import Configurations, ordered_intersection
from spyglass.resistance.bots.expert_rules import has_enough_spies, is_last_attempt, spy_team
from spyglass.resistance.bots.registry import register


@register("rebounder")
class Rebounder(Bot):
    """Peter Cowling's competition entry: Bounder's deduction plus two behaviour models.

    Seed: ``strong`` and ``weak`` are Bounder's optimistic and pessimistic sets. After a
    vote, ``vote`` drops every configuration in which a spy voted against a team holding
    spies, for a team holding none, or for the fifth attempt. After a selection,
    ``select`` drops configurations that contradict how a spy leader chooses. As leader,
    it draws a configuration at random from the ordered intersection weak, strong,
    select, vote (skipping any step that would leave nothing) and takes itself plus
    players that configuration calls resistance. Spy play: as a spy it still votes
    against the fifth attempt (§4.2), and when several spies are on a mission the one
    with the lowest seat index sabotages (§4.2, "table position index").

    Choices where the seed is silent or odd:

    * ``select``: the seed reads "discard any configuration which would indicate that the
      leader is not a spy, has selected a team not containing himself, or ... zero or
      more than one spy", and Taylor himself finds the first clause odd. We keep the
      consistent model behind it: a configuration that makes the leader a spy is
      dropped if the team leaves the leader out or holds other than exactly one spy
      (as many spies as fail cards needed, at 7+ players). Configurations that make the
      leader resistance say nothing about the choice and are kept.
    * ``vote`` on the fifth attempt: a spy is expected to reject (it wins the game), so
      a configuration in which a spy approved it is dropped; earlier attempts use the
      two spy-voting rules.
    * Resistance voting ("minimal expert rules"): approve the fifth attempt and its own
      teams; otherwise approve iff some configuration of ``strong`` (``weak`` once
      ``strong`` is empty) leaves the team spy-free.
    * As a spy: lead with itself and resistance members; approve (before the fifth
      attempt) exactly the teams with enough spies to sabotage; sabotage otherwise.
    * Suspicion: the share of the leader's ordered intersection that makes a seat a spy.
    """

    def on_game_revealed(self, players, spies):
        everyone = Configurations.excluding(len(players), [self.seat])
        self.strong = self.weak = self.vote_configs = self.select_configs = everyone

    def on_team_selected(self, leader, team):
        # Configurations are bitmasks of spy seats: a few integer tests each.
        configs, needed = self.select_configs, self.game.fails_needed
        leader_bit, team_mask = 1 << leader, seats_to_mask(team)
        fits = leader in team  # and then exactly ``needed`` spies on the team
        self.select_configs = configs.keep([
            not config & leader_bit or (fits and (config & team_mask).bit_count() == needed)
            for config in configs.masks.tolist()
        ])

    def on_vote_complete(self, votes):
        configs, team_mask = self.vote_configs, seats_to_mask(self.game.team)
        approvers = seats_to_mask(seat for seat, yes in enumerate(votes) if yes)
        rejecters = seats_to_mask(seat for seat, yes in enumerate(votes) if not yes)
        last = is_last_attempt(self.game)

        def broke_rule(config: int) -> bool:
            """Some spy of ``config`` voted unlike a spy: for the fifth attempt, or against
            a team holding spies, or for a spy-free team."""
            if last:
                return bool(config & approvers)
            return bool(config & (rejecters if config & team_mask else approvers))

        self.vote_configs = configs.keep([not broke_rule(c) for c in configs.masks.tolist()])

    def on_mission_complete(self, fails):
        team = self.game.team
        self.strong = self.strong.keep(self.strong.spies_on(team) == fails)
        self.weak = self.weak.keep(self.weak.spies_on(team) >= fails)

    def leader_configs(self) -> Configurations:
        """The ordered intersection weak, strong, select, vote the leader draws from."""
        return ordered_intersection([self.weak, self.strong, self.select_configs,
                                     self.vote_configs])

    def select(self, players, count):
        if self.spy:
            return spy_team(self.rng, self.seat, self.spies, players, count,
                            self.game.fails_needed)
        configs = self.leader_configs()
        spies = set(configs.sample(self.rng)) if configs else set()
        trusted = [p for p in self.others() if p not in spies]
        others = self.rng.sample(trusted, min(count - 1, len(trusted)))
        rest = [p for p in self.others() if p not in others]
        return [self.seat, *others, *self.rng.sample(rest, count - 1 - len(others))]

    def vote(self, team):
        if self.spy:
            if is_last_attempt(self.game):
                return False
            return has_enough_spies(team, self.spies, self.game)
        if is_last_attempt(self.game) or self.game.leader == self.seat:
            return True
        configs = self.strong if self.strong else self.weak
        return configs.possibly_clean(team) if configs else True

    def sabotage(self):
        needed = self.game.fails_needed
        on_team = sorted(p for p in self.game.team if p in self.spies)
        return self.seat in on_team[:needed]

    def suspicion(self):
        marg = self.leader_configs().marginals()
        return {p: float(marg[p]) for p in self.others()}
