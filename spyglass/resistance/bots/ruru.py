"""Ruru: Taylor's expert-rules-only bot, sixteen rules in priority order (Taylor 2014, §4.6.1)."""

from __future__ import annotations

from collections.abc import Callable

from spyglass.games.resistance.tables import SPIES_BY_PLAYERS
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.expert_rules import (
    all_spies,
    designated_saboteurs,
    fill_team,
    has_enough_spies,
    is_first_mission,
    is_last_attempt,
    must_hold_spy_without,
    spies_on,
    spies_one_mission_from_winning,
    spy_team,
)
from spyglass.resistance.bots.registry import register

Rule = Callable[..., "bool | None"]


@register("ruru")
class Ruru(Bot):
    """Decides by the first of its expert rules that applies; ``last_rule`` says which.

    The rules of the seed, in order (numbers as in the seed):

    1. (select) include itself in teams of three;  2. (select, spy) include one spy,
    always itself;  3. approve the fifth attempt;  4. approve anything on the first
    mission;  5. approve its own teams;  6. (spy) approve a team with a spy when the
    spies need one more mission;  7. reject teams of three without itself;  8. (spy)
    reject all-spy teams;  9. (spy) reject teams with zero or both spies;  10. (spy)
    approve teams with a spy;  11. reject teams with known spies;  12. approve;
    13. (sabotage) sabotage when it wins the game;  14. not when the whole team is
    spies;  15. sabotage when leader;  16. sabotage when the only spy on the team.

    Its only deduction: as resistance, the players of a two-man team that played two
    fail cards are certain spies.

    Generalised to 5-10 players the way the rules reason:

    * "teams of three" (rules 1, 7) are teams that, without Ruru, must hold a spy
      (:func:`~spyglass.resistance.bots.expert_rules.must_hold_spy_without`);
    * "one spy" / "at least one spy" / "zero or both" (rules 2, 6, 9, 10) count against
      the fail cards the mission needs: exactly that many spies is right, fewer cannot
      sabotage, more risk a give-away double sabotage;
    * rule 15 follows the leader convention: a spy leader and the next spies in table
      order sabotage, as many as needed; rule 16: sabotage while the spies on the team
      are no more than the fail cards needed;
    * deduction: a team on which every member played a fail card is all spies.

    Where no rule decides: teams are filled at random from players not known to be
    spies (so at 5 players a two-man team need not include Ruru, as its resistance
    selection statistics in Taylor 2014 Fig 11 suggest) and, with no rule to sabotage, it
    plays a success card.
    """

    def on_game_revealed(self, players, spies):
        self.known_spies: set[int] = set(spies)
        self.last_rule: int | None = None

    def on_mission_complete(self, fails):
        if self.spy or not fails:
            return
        if fails == len(self.game.team):
            self.known_spies.update(self.game.team)

    # --- selection -----------------------------------------------------------------
    def select(self, players, count):
        n = self.game.n_players
        if self.spy:  # rule 2 (rule 1 is implied: the one spy is Ruru itself)
            self.last_rule = 2
            return spy_team(self.rng, self.seat, self.spies, players, count,
                            self.game.fails_needed)
        trusted = [p for p in players if p not in self.known_spies]
        if count > n - SPIES_BY_PLAYERS[n] - 1:  # rule 1
            self.last_rule = 1
            return fill_team(self.rng, count, [self.seat], trusted, players)
        self.last_rule = None
        return fill_team(self.rng, count, [], trusted, players)

    # --- voting --------------------------------------------------------------------
    def _r3_fifth_attempt(self, team):
        return True if is_last_attempt(self.game) else None

    def _r4_first_mission(self, team):
        return True if is_first_mission(self.game) else None

    def _r5_own_team(self, team):
        return True if self.game.leader == self.seat else None

    def _r6_spies_about_to_win(self, team):
        if self.spy and spies_one_mission_from_winning(self.game):
            return True if has_enough_spies(team, self.spies, self.game) else None
        return None

    def _r7_must_hold_spy(self, team):
        return False if must_hold_spy_without(team, self.seat, self.game.n_players) else None

    def _r8_all_spies(self, team):
        return False if self.spy and all_spies(team, self.spies) else None

    def _r9_wrong_spy_count(self, team):
        if self.spy and spies_on(team, self.spies) != self.game.fails_needed:
            return False
        return None

    def _r10_has_spy(self, team):
        return True if self.spy and has_enough_spies(team, self.spies, self.game) else None

    def _r11_known_spies(self, team):
        return False if set(team) & self.known_spies else None

    def _r12_approve(self, team):
        return True

    VOTE_RULES: tuple[tuple[int, Rule], ...] = (
        (3, _r3_fifth_attempt),
        (4, _r4_first_mission),
        (5, _r5_own_team),
        (6, _r6_spies_about_to_win),
        (7, _r7_must_hold_spy),
        (8, _r8_all_spies),
        (9, _r9_wrong_spy_count),
        (10, _r10_has_spy),
        (11, _r11_known_spies),
        (12, _r12_approve),
    )

    def vote(self, team):
        for number, rule in self.VOTE_RULES:
            decision = rule(self, team)
            if decision is not None:
                self.last_rule = number
                return decision
        raise AssertionError("rule 12 always decides")

    # --- sabotage ------------------------------------------------------------------
    def _r13_winning(self):
        return True if spies_one_mission_from_winning(self.game) else None

    def _r14_all_spies(self):
        return False if all_spies(self.game.team, self.spies) else None

    def _r15_leader(self):
        game = self.game
        if game.leader in self.spies and game.leader in game.team:
            chosen = designated_saboteurs(game.team, self.spies, game.leader,
                                          game.fails_needed, game.n_players)
            if self.seat in chosen:
                return True
        return None

    def _r16_only_spy(self):
        return True if spies_on(self.game.team, self.spies) <= self.game.fails_needed else None

    SABOTAGE_RULES: tuple[tuple[int, Rule], ...] = (
        (13, _r13_winning),
        (14, _r14_all_spies),
        (15, _r15_leader),
        (16, _r16_only_spy),
    )

    def sabotage(self):
        for number, rule in self.SABOTAGE_RULES:
            decision = rule(self)
            if decision is not None:
                self.last_rule = number
                return decision
        self.last_rule = None
        return False
