"""LogicalBot: taboo teams and certain spies (Taylor 2014, §4.1.3)."""

from __future__ import annotations

from spyglass.games.resistance.tables import (
    TEAM_COUNT,
    TEAM_START,
    TEAMS,
    mask_to_seats,
    seats_to_mask,
)
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.configurations import Configurations
from spyglass.resistance.bots.expert_rules import (
    fill_team,
    has_enough_spies,
    is_last_attempt,
    must_hold_spy_without,
    spy_team,
)
from spyglass.resistance.bots.registry import register


@register("logicalbot")
class LogicalBot(Bot):
    """Rejects any team that contains a "taboo" team or a player certain to be a spy.

    Seed: a taboo team is one shown to contain at least one spy (a team that failed a
    mission); LogicalBot rejects every team of which a taboo team is a subset, and every
    team with a player logic shows to be a spy, unless an expert rule decides first. As
    a resistance leader it reuses the previous team if that mission succeeded (adding
    itself), else builds a team with itself and no known spy.

    Choices where the seed is silent or 5-player only:

    * A mission with any fail card is taboo, so at 7+ players a mission-4 team with a
      single fail (which still succeeds) is taboo too: it holds a spy all the same. As
      resistance LogicalBot removes itself from a taboo team, since it knows it is
      innocent: the spy must be among the others.
    * Certain spies: seats that are spies in every spy configuration consistent with
      the fail counts and its own innocence (:mod:`spyglass.games.resistance.knowledge`).
    * Expert rules first: approve the fifth attempt; reject a team without itself that
      must hold a spy (§4.2; at 5 players a three-man team without it).
    * "Successful" previous team means no fail card at all (a 7+ player mission 4 can
      succeed with one); new teams also avoid taboo subsets when possible.
    * As a spy (undescribed): approve teams with enough spies to sabotage and the fifth
      attempt, reject the rest; lead with itself and resistance members; and, like the
      beginners it was written beside, play a fail card every time (its published spy
      win rate against them, 98.4% in Taylor 2014 Fig 13, leaves no room for holding back).
    """

    def on_game_revealed(self, players, spies):
        self.taboo: list[int] = []  # bitmasks of teams known to hold a spy
        self.possible = Configurations.excluding(len(players), () if self.spy else [self.seat])

    def on_mission_complete(self, fails):
        team = self.game.team
        if fails:
            suspects = [p for p in team if self.spy or p != self.seat]
            self.taboo.append(seats_to_mask(suspects))
            self.possible = self.possible.keep(self.possible.spies_on(team) >= fails)

    # --- knowledge -----------------------------------------------------------------
    def known_spies(self) -> tuple[int, ...]:
        """Seats that are spies in every configuration still possible."""
        return self.possible.certain_spies()

    def is_taboo(self, team) -> bool:
        """Some taboo team is a subset of ``team``."""
        mask = seats_to_mask(team)
        return any(t & mask == t for t in self.taboo)

    # --- decisions -----------------------------------------------------------------
    def select(self, players, count):
        if self.spy:
            return spy_team(self.rng, self.seat, self.spies, players, count,
                            self.game.fails_needed)
        known = set(self.known_spies())
        last = self.game.missions[-1] if self.game.missions else None
        if last is not None and not last.sabotaged and last.fails == 0:
            keep = [p for p in last.team if p not in known and p != self.seat]
            keep = self.rng.sample(keep, len(keep))
            safe = [p for p in self.others() if p not in known]
            return fill_team(self.rng, count, [self.seat, *keep], safe, self.others())
        return self._fresh_team(count, known)

    def _fresh_team(self, count: int, known: set[int]) -> list[int]:
        n = self.game.n_players
        teams = TEAMS[TEAM_START[n, count]: TEAM_START[n, count] + TEAM_COUNT[n, count]]
        me, bad = 1 << self.seat, seats_to_mask(known)
        mine = [int(t) for t in teams if t & me]
        for pool in (
            [t for t in mine if not t & bad and not self._mask_taboo(t)],
            [t for t in mine if not t & bad],
            mine,
        ):
            if pool:
                return list(mask_to_seats(self.rng.choice(pool)))
        return fill_team(self.rng, count, [self.seat], self.others())

    def _mask_taboo(self, mask: int) -> bool:
        return any(t & mask == t for t in self.taboo)

    def vote(self, team):
        if is_last_attempt(self.game):
            return True
        if self.spy:
            return has_enough_spies(team, self.spies, self.game)
        if self.game.leader == self.seat:
            return True
        if must_hold_spy_without(team, self.seat, self.game.n_players):
            return False
        if set(team) & set(self.known_spies()):
            return False
        return not self.is_taboo(team)

    def sabotage(self):
        return True
