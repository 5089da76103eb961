"""Bot zoo part A: each bot's defining rules on scripted situations (Taylor 2014, §4.1, §4.2, §4.6).

A :class:`Table` drives one bot through its callbacks with a hand-built public record,
so every situation is exact. A few small seeded loops check that the expert bots beat
the beginners.
"""

from __future__ import annotations

import random

import numpy as np
import pytest
from scripted_table import Table

from spyglass.games.resistance.tables import (
    SPIES_BY_PLAYERS,
    TEAM_SIZES_BY_PLAYERS,
    seats_to_mask,
)
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.bots import expert_rules as er
from spyglass.resistance.bots.bounder import Bounder
from spyglass.resistance.bots.configurations import Configurations, ordered_intersection
from spyglass.resistance.bots.deceiver import Deceiver
from spyglass.resistance.bots.hippie import Hippie
from spyglass.resistance.bots.invalidator import IMPOSSIBLE, Invalidator
from spyglass.resistance.bots.jammer import Jammer
from spyglass.resistance.bots.logicalbot import LogicalBot
from spyglass.resistance.bots.nosey import Nosey
from spyglass.resistance.bots.paranoid import Paranoid
from spyglass.resistance.bots.rebounder import Rebounder
from spyglass.resistance.bots.rulefollower import RuleFollower
from spyglass.resistance.bots.ruru import Ruru
from spyglass.resistance.bots.stalker import PRESETS, Stalker, parse_behaviours


def all_yes(n=5):
    return [True] * n


# --- expert rules -------------------------------------------------------------------
def test_must_hold_spy_without_generalises_three_man_rule():
    # Taylor 2014, §4.2: at 5 players a three-man team without you holds a spy for sure
    assert er.must_hold_spy_without((1, 2, 3), 0, 5)
    assert not er.must_hold_spy_without((1, 2), 0, 5)
    assert not er.must_hold_spy_without((0, 1, 2), 0, 5)
    # 6 players: 3 other resistance, so 4 others must include a spy
    assert er.must_hold_spy_without((1, 2, 3, 4), 0, 6)
    assert not er.must_hold_spy_without((1, 2, 3), 0, 6)
    # 10 players: 5 other resistance and teams of at most 5: never certain
    assert not any(er.must_hold_spy_without(tuple(range(1, 1 + k)), 0, 10) for k in (3, 4, 5))


def test_designated_saboteurs_follow_the_leader_around_the_table():
    assert er.designated_saboteurs((1, 3, 4), {1, 3}, leader=3, needed=1, n_players=5) == (3,)
    assert er.designated_saboteurs((1, 3, 4), {1, 3}, leader=4, needed=1, n_players=5) == (1,)
    assert er.designated_saboteurs((0, 2, 5, 6), {0, 5, 6}, leader=6, needed=2,
                                   n_players=7) == (6, 0)


def test_spy_team_brings_as_many_spies_as_fail_cards_needed():
    rng = random.Random(1)
    team = er.spy_team(rng, 2, {2, 4, 5}, tuple(range(7)), 4, n_spies=2)
    assert 2 in team and len(team) == 4 and er.spies_on(team, {2, 4, 5}) == 2
    team = er.spy_team(rng, 2, {2, 4}, tuple(range(5)), 3)
    assert er.spies_on(team, {2, 4}) == 1 and 2 in team


def test_configurations_excluding_self_count_and_queries():
    for n in range(5, 11):
        c = Configurations.excluding(n, [0])
        from math import comb

        assert len(c) == comb(n - 1, SPIES_BY_PLAYERS[n])
        assert not c.is_spy(0).any()
    c = Configurations.excluding(5, [0])
    assert not c.possibly_clean((1, 2, 3))
    teams, share = c.best_teams(2, include=[0])
    assert share == pytest.approx(0.5) and len(teams) == 4


def test_ordered_intersection_skips_steps_that_would_empty_it():
    c = Configurations.excluding(5, [0])
    a = c.keep(c.is_spy(1))
    b = c.keep(c.is_spy(2))
    none = c.keep(np.zeros(len(c), dtype=bool))
    assert set(ordered_intersection([c, a, none, b]).seats()) == {(1, 2)}


# --- beginners ----------------------------------------------------------------------
def test_paranoid_approves_only_its_own_teams_and_picks_itself():
    t = Table(Paranoid(), seat=2)
    assert t.ask_vote(2, (1, 2)) is True
    assert t.ask_vote(0, (1, 2)) is False  # on the team, but not its own proposal
    assert t.ask_vote(0, (1, 3)) is False
    assert 2 in t.bot.select(tuple(range(5)), 3)


def test_hippie_approves_everything_and_picks_itself():
    t = Table(Hippie(), seat=4)
    assert t.ask_vote(0, (0, 1, 2)) is True
    assert 4 in t.bot.select(tuple(range(5)), 2)


def test_deceiver_rules():
    t = Table(Deceiver(), seat=0, spies=(0, 3))
    assert t.ask_vote(1, (0, 3)) is False  # both spies on the team
    assert t.ask_vote(1, (0, 3), attempt=5) is True  # fifth attempt, whatever the team
    assert t.ask_vote(1, (0, 1)) is True
    r = Table(Deceiver(), seat=0)
    assert r.ask_vote(1, (1, 2, 3)) is False  # three-man team without it
    assert r.ask_vote(1, (0, 2, 3)) is True


def test_deceiver_generalised_to_two_fail_missions():
    # 7 players, mission 4 needs two fail cards: two spies on the team are not too many
    t = Table(Deceiver(), n=7, seat=0, spies=(0, 3, 5))
    assert t.ask_vote(1, (0, 1, 2, 3), mission=4) is True
    assert t.ask_vote(1, (0, 1, 3, 5), mission=4) is False
    assert t.ask_vote(1, (0, 3), mission=1) is False


def test_rulefollower_as_spy_backs_any_team_with_a_spy_even_against_the_fifth():
    t = Table(RuleFollower(), seat=0, spies=(0, 3))
    assert t.ask_vote(1, (0, 3)) is True  # unlike Deceiver
    assert t.ask_vote(1, (1, 2), attempt=5) is False  # §4.2: spies reject the fifth
    r = Table(RuleFollower(), seat=0)
    assert r.ask_vote(1, (1, 2, 3)) is False
    assert r.ask_vote(1, (1, 2, 3), attempt=5) is True


def test_jammer_packs_spies_and_inverts_the_leader_sabotage_convention():
    t = Table(Jammer(), seat=0, spies=(0, 3))
    assert set(t.bot.select(tuple(range(5)), 2)) == {0, 3}
    t.start(leader=0)
    t.select((0, 3, 4))
    assert t.bot.sabotage() is False  # the spy leading holds back...
    t2 = Table(Jammer(), seat=3, spies=(0, 3))
    t2.start(leader=0)
    t2.select((0, 3, 4))
    assert t2.bot.sabotage() is True  # ...the other fails it
    t3 = Table(Jammer(), seat=3, spies=(0, 3))
    t3.start(leader=1)
    t3.select((0, 1, 3))
    assert t3.bot.sabotage() is True  # double sabotage under a resistance leader
    assert Table(Jammer(), seat=1).ask_vote(0, (2, 3, 4)) is True


# --- LogicalBot ---------------------------------------------------------------------
def test_logicalbot_rejects_a_team_containing_a_taboo_team():
    t = Table(LogicalBot(), seat=0)
    t.play(leader=1, team=(1, 2), votes=all_yes(), fails=1)
    assert t.bot.is_taboo((1, 2, 3))
    assert t.ask_vote(3, (1, 2, 3)) is False  # {1, 2} failed: it is inside
    assert t.ask_vote(3, (0, 1, 3)) is True
    assert t.ask_vote(3, (1, 2, 4), attempt=5) is True  # the fifth-attempt rule goes first


def test_logicalbot_removes_itself_from_taboo_teams_and_finds_certain_spies():
    t = Table(LogicalBot(), seat=0)
    t.play(leader=1, team=(0, 1), votes=all_yes(), fails=1)
    assert t.bot.known_spies() == (1,)
    assert t.ask_vote(2, (0, 1, 3)) is False
    team = t.bot.select(tuple(range(5)), 3)
    assert 0 in team and 1 not in team


def test_logicalbot_reuses_a_successful_team_with_itself():
    t = Table(LogicalBot(), seat=0)
    t.play(leader=2, team=(2, 3), votes=all_yes(), fails=0)
    assert set(t.bot.select(tuple(range(5)), 3)) == {0, 2, 3}


def test_logicalbot_seven_players_one_fail_on_two_fail_mission_is_taboo():
    t = Table(LogicalBot(), n=7, seat=0)
    for team, fails in (((1, 2), 0), ((1, 2, 4), 1), ((1, 2, 3), 0)):
        t.play(leader=1, team=team, votes=[True] * 7, fails=fails)
    t.play(leader=1, team=(3, 4, 5, 6), votes=[True] * 7, fails=1)  # mission 4 succeeds
    assert t.rec.missions[-1].sabotaged is False and t.rec.wins == 3
    assert t.bot.is_taboo((1, 3, 4, 5, 6))  # it still held a spy
    assert t.bot.is_taboo((0, 1, 2, 4, 5))
    assert not t.bot.is_taboo((0, 1, 2, 3, 5))


# --- Bounder ------------------------------------------------------------------------
def test_bounder_optimistic_and_pessimistic_sets_after_a_known_sequence():
    t = Table(Bounder(), seat=0)
    assert len(t.bot.optimistic) == len(t.bot.pessimistic) == 6  # C(4, 2)
    t.play(leader=1, team=(1, 2), votes=all_yes(), fails=1)
    assert set(t.bot.optimistic.seats()) == {(1, 3), (1, 4), (2, 3), (2, 4)}
    assert set(t.bot.pessimistic.seats()) == {(1, 2), (1, 3), (1, 4), (2, 3), (2, 4)}
    t.play(leader=2, team=(0, 3, 4), votes=all_yes(), fails=0)
    assert len(t.bot.optimistic) == 0  # a spy held back: optimism was overzealous
    assert t.bot.active() is t.bot.pessimistic
    assert t.ask_vote(3, (1, 2)) is False  # every pessimistic configuration has a spy on it
    assert t.bot.select(tuple(range(5)), 2)[0] in range(5)


def test_bounder_votes_by_the_active_set():
    t = Table(Bounder(), seat=0)
    assert t.ask_vote(1, (1, 2, 3)) is False  # no configuration makes it clean
    t.play(leader=1, team=(1, 2), votes=all_yes(), fails=1)
    assert t.ask_vote(2, (0, 1, 2)) is False  # optimistic: exactly one of 1, 2 is a spy
    assert t.ask_vote(2, (0, 3, 4)) is False  # ...and one of 3, 4
    assert t.ask_vote(2, (0, 1, 3)) is True
    assert t.bot.suspicion()[1] == pytest.approx(0.5)


def test_bounder_seven_players_sets_are_over_c_n_minus_1():
    t = Table(Bounder(), n=7, seat=3)
    assert len(t.bot.optimistic) == 20  # C(6, 3)
    t.play(leader=0, team=(0, 1), votes=[True] * 7, fails=2)
    assert set(t.bot.active().certain_spies()) == {0, 1}


# --- Rebounder ----------------------------------------------------------------------
def test_rebounder_configuration_sets_after_a_known_sequence():
    t = Table(Rebounder(), seat=0)
    t.start(leader=1)
    t.select((1, 2))
    # select: leader 1 as a spy would not bring its partner 2
    assert set(t.bot.select_configs.seats()) == {(1, 3), (1, 4), (2, 3), (2, 4), (3, 4)}
    t.votes([True, True, False, True, False])
    # vote: spies approve teams with spies and reject teams without; only {1, 3} fits
    assert set(t.bot.vote_configs.seats()) == {(1, 3)}
    t.mission(1)
    assert set(t.bot.strong.seats()) == {(1, 3), (1, 4), (2, 3), (2, 4)}
    assert set(t.bot.weak.seats()) == {(1, 2), (1, 3), (1, 4), (2, 3), (2, 4)}
    assert set(t.bot.leader_configs().seats()) == {(1, 3)}
    assert sorted(t.bot.select(tuple(range(5)), 3)) == [0, 2, 4]
    assert t.bot.suspicion() == {1: 1.0, 2: 0.0, 3: 1.0, 4: 0.0}


def test_rebounder_vote_model_on_the_fifth_attempt():
    t = Table(Rebounder(), seat=0)
    t.start(leader=1, attempt=5)
    t.select((1, 2))
    t.votes([True, False, True, True, True])  # on the fifth, spies reject
    assert all(1 in c for c in t.bot.vote_configs.seats())


def test_rebounder_spy_play():
    t = Table(Rebounder(), seat=3, spies=(1, 3))
    assert t.ask_vote(0, (0, 2), attempt=5) is False  # §4.2: rejects the fifth as a spy
    assert t.ask_vote(0, (0, 3), attempt=1) is True
    assert t.ask_vote(0, (0, 2), attempt=1) is False
    t.start(leader=0)
    t.select((1, 3, 4))
    assert t.bot.sabotage() is False  # seat 1 has the lower index: it sabotages
    u = Table(Rebounder(), seat=1, spies=(1, 3))
    u.start(leader=0)
    u.select((1, 3, 4))
    assert u.bot.sabotage() is True


# --- Invalidator --------------------------------------------------------------------
def test_invalidator_scores_votes_against_teams_with_spies():
    t = Table(Invalidator(), seat=0)
    t.start(leader=0)
    t.select((0, 1))
    score = dict(zip(t.bot.configs.seats(), t.bot.scores, strict=True))
    assert all(v == 0 for v in score.values())  # resistance leader: no selection evidence
    t.votes([True, True, False, False, True])
    score = dict(zip(t.bot.configs.seats(), t.bot.scores, strict=True))
    # Taylor 2014, §4.1.7: +1 per configuration-spy voting against a team it gives a spy
    assert score[(1, 2)] == 1.0 and score[(1, 3)] == 1.0 and score[(1, 4)] == 0.0
    # spies approving a team without spies: half a point each (our choice)
    assert score[(2, 4)] == 0.5 and score[(3, 4)] == 0.5 and score[(2, 3)] == 0.0


def test_invalidator_mission_and_selection_evidence():
    t = Table(Invalidator(), seat=0)
    t.start(leader=1)
    t.select((2, 3))  # a spy leader would have put a spy on it
    score = dict(zip(t.bot.configs.seats(), t.bot.scores, strict=True))
    assert score[(1, 4)] == 1.0 and score[(1, 2)] == 0.0
    t.votes([True, True, True, False, False])
    t.mission(2)
    score = dict(zip(t.bot.configs.seats(), t.bot.scores, strict=True))
    assert score[(1, 4)] >= IMPOSSIBLE and score[(2, 3)] < 2
    assert t.bot.suspicion()[2] == pytest.approx(1.0)
    assert sorted(t.bot.select(tuple(range(5)), 3)) == [0, 1, 4]


def test_invalidator_sabotage_rules():
    t = Table(Invalidator(), seat=1, spies=(1, 3))
    t.start(leader=0)
    t.select((1, 3, 4))
    assert t.bot.sabotage() is False  # both spies on: neither sabotages (§4.2)
    t.rec.losses = 2
    assert t.bot.sabotage() is True  # unless it wins the game
    t.rec.losses = 0
    t.select((0, 1, 4))
    assert t.bot.sabotage() is True


# --- Ruru ---------------------------------------------------------------------------
def ruru(seat=0, spies=(), n=5):
    return Table(Ruru(), n=n, seat=seat, spies=spies)


def test_ruru_selection_rules():
    t = ruru(seat=0)
    assert 0 in t.bot.select(tuple(range(5)), 3) and t.bot.last_rule == 1
    s = ruru(seat=0, spies=(0, 3))
    team = s.bot.select(tuple(range(5)), 3)
    assert 0 in team and 3 not in team and s.bot.last_rule == 2


def test_ruru_vote_rule_order():
    # rule 3 (fifth attempt) beats rule 9 (spy: zero spies on the team)
    t = ruru(seat=0, spies=(0, 3))
    t.rec.mission = 2
    assert t.ask_vote(1, (1, 2, 4), attempt=5) is True and t.bot.last_rule == 3
    # rule 4 (first mission) beats rule 8 (all-spy team)
    t = ruru(seat=0, spies=(0, 3))
    assert t.ask_vote(1, (0, 3), mission=1) is True and t.bot.last_rule == 4
    # rule 5 (own team) beats rule 7 (three-man team without itself)
    t = ruru(seat=0)
    assert t.ask_vote(0, (1, 2, 3), mission=2) is True and t.bot.last_rule == 5
    # rule 6 (spies one mission from winning) beats rule 8 (all spies)
    t = ruru(seat=0, spies=(0, 3))
    t.rec.losses = 2
    assert t.ask_vote(1, (0, 3), mission=3) is True and t.bot.last_rule == 6
    # rule 7 beats rule 10 for a spy
    t = ruru(seat=0, spies=(0, 3))
    assert t.ask_vote(1, (1, 2, 3), mission=2) is False and t.bot.last_rule == 7
    # rule 8 before rule 9
    t = ruru(seat=0, spies=(0, 3))
    assert t.ask_vote(1, (0, 3), mission=3) is False and t.bot.last_rule == 8
    # rule 9: zero spies
    t = ruru(seat=0, spies=(0, 3))
    assert t.ask_vote(1, (1, 2), mission=3) is False and t.bot.last_rule == 9
    # rule 10: one spy
    t = ruru(seat=0, spies=(0, 3))
    assert t.ask_vote(1, (0, 1, 2), mission=2) is True and t.bot.last_rule == 10
    # rule 12: anything else, as resistance
    t = ruru(seat=0)
    assert t.ask_vote(1, (0, 1), mission=3) is True and t.bot.last_rule == 12


def test_ruru_rejects_known_spies_from_a_double_sabotage():
    t = ruru(seat=0)
    t.play(leader=3, team=(0, 3), votes=all_yes(), fails=1)
    assert t.bot.known_spies == set()  # minimal deduction: only all-fail teams
    t.play(leader=1, team=(1, 2), votes=all_yes(), fails=2)
    assert t.bot.known_spies == {1, 2}
    assert t.ask_vote(3, (0, 2)) is False and t.bot.last_rule == 11
    team = t.bot.select(tuple(range(5)), 3)
    assert not set(team) & {1, 2}


def test_ruru_sabotage_rule_order():
    t = ruru(seat=0, spies=(0, 3))
    t.start(leader=1)
    t.select((0, 3))
    t.rec.losses = 2
    assert t.bot.sabotage() is True and t.bot.last_rule == 13  # 13 beats 14
    t.rec.losses = 1
    assert t.bot.sabotage() is False and t.bot.last_rule == 14
    t.start(leader=0)
    t.select((0, 3, 4))
    assert t.bot.sabotage() is True and t.bot.last_rule == 15
    u = ruru(seat=3, spies=(0, 3))
    u.start(leader=0)
    u.select((0, 3, 4))
    assert u.bot.sabotage() is False and u.bot.last_rule is None  # partner leads: it fails
    u.start(leader=1)
    u.select((1, 3, 4))
    assert u.bot.sabotage() is True and u.bot.last_rule == 16


def test_ruru_seven_players_mission_four_wants_two_spies():
    t = ruru(seat=0, spies=(0, 3, 5), n=7)
    t.rec.mission = 4
    team = t.bot.select(tuple(range(7)), 4)
    assert er.spies_on(team, {0, 3, 5}) == 2
    assert t.ask_vote(1, (0, 1, 2, 3), mission=4) is True
    assert t.ask_vote(1, (0, 1, 2, 4), mission=4) is False  # one spy cannot fail it
    t.start(leader=1)
    t.select((0, 1, 3, 4))
    assert t.bot.sabotage() is True and t.bot.last_rule == 16


# --- Stalker and Nosey ----------------------------------------------------------------
def test_stalker_suspicion_is_the_fig10_formula():
    memory = {}
    t = Table(Stalker(behaviours="votesAgainstTeamOnFifthAttempt"), seat=0, memory=memory)
    model = t.bot._model(1)
    model["spy"]["votesAgainstTeamOnFifthAttempt"] = [9, 10]  # frequency 10/12
    model["resistance"]["votesAgainstTeamOnFifthAttempt"] = [0, 10]  # frequency 1/12
    assert t.bot.suspicion()[1] == pytest.approx(0.5)  # no relevant action yet
    t.start(leader=2, attempt=5)
    t.select((0, 2))
    t.votes([True, False, True, True, True])
    s, r = 10 / 12, 1 / 12  # seat 1 voted against: fits the spy model better
    assert t.bot.suspicion()[1] == pytest.approx(0.5 * (1 - r) + 0.5 * s)
    assert t.bot.suspicion()[2] == pytest.approx(0.5)  # no model of seat 2 yet


def test_stalker_learns_per_opponent_name_at_the_end_of_a_game():
    memory = {}
    t = Table(Stalker(), seat=0, memory=memory, names=("me", "a", "b", "c", "d"))
    t.play(leader=1, team=(1, 2), votes=[True, True, True, False, False], fails=1)
    t.end(spies=(1, 3))
    models = memory["stalker_models"]
    assert set(models) == {"a", "b", "c", "d"}
    assert models["a"]["spy"]["selectsTeamFeaturingSelf"] == [1, 1]
    assert models["a"]["resistance"]["selectsTeamFeaturingSelf"] == [0, 0]
    assert models["c"]["spy"]["votesForTeamNotFeaturingSelf"] == [0, 1]
    assert models["b"]["resistance"]["teamOnIsUnsuccessful"] == [1, 1]


def test_nosey_pools_every_opponent_into_one_model():
    memory = {}
    t = Table(Nosey(), seat=0, memory=memory, names=("me", "a", "b", "c", "d"))
    t.play(leader=1, team=(1, 2), votes=all_yes(), fails=1)
    t.end(spies=(1, 3))
    models = memory["stalker_models"]
    assert list(models) == ["*everyone*"]
    assert models["*everyone*"]["spy"]["votesForTeamFeaturingSelf"] == [1, 1]
    assert models["*everyone*"]["spy"]["votesForTeamNotFeaturingSelf"] == [1, 1]  # seat 3
    assert models["*everyone*"]["resistance"]["votesForTeamNotFeaturingSelf"] == [1, 1]  # 4


def test_stalker_behaviour_presets_and_errors():
    assert parse_behaviours("all") == PRESETS["all"] and len(PRESETS["all"]) == 10
    assert "teamOnIsUnsuccessful" not in parse_behaviours("no_team_on")
    assert parse_behaviours("selectsSuccessfulTeam+teamOnIsUnsuccessful") == (
        "selectsSuccessfulTeam", "teamOnIsUnsuccessful")
    with pytest.raises(ValueError, match="unknown behaviours"):
        Stalker(behaviours="votesOften")


def stalker_errors(games: int, learn: bool, behaviours: str = "competence") -> list[float]:
    """Inaccuracy of Stalker's last suspicion each game, among four Rebounders."""
    memory: dict = {}
    errors = []
    for g in range(games):
        bots = [Stalker(behaviours=behaviours)] + [Rebounder() for _ in range(4)]
        res = play_game(bots, seed=g, memory=memory if learn else {},
                        names=["st", "a", "b", "c", "d"],
                        spies=[1 + g % 4, 1 + (g + 1) % 4], track_suspicion=True)
        scores = res.suspicion[0][-1]["scores"]
        errors.append(np.mean([(1 - v) if int(k) in res.spies else v
                               for k, v in scores.items()]))
    return errors


def test_stalker_learns_across_games_and_knows_nothing_without_memory():
    # Taylor 2014, §5.5.4: competence-based behaviours identify advanced bots' roles
    assert stalker_errors(10, learn=False) == [0.5] * 10
    learnt = stalker_errors(60, learn=True)
    assert learnt[0] == pytest.approx(0.5)
    assert np.mean(learnt[20:]) < 0.42


# --- beginners against experts --------------------------------------------------------
def resistance_win_rate(res_bot: str, spy_bot: str, games: int, n: int = 5) -> float:
    rng = random.Random(11)
    wins = 0
    for g in range(games):
        spies = rng.sample(range(n), SPIES_BY_PLAYERS[n])
        lineup = [spy_bot if s in spies else res_bot for s in range(n)]
        res = play_game(lineup, seed=g, spies=spies)
        assert res.ok, res.error
        wins += res.winner == "resistance"
    return wins / games


def test_ruru_resistance_beats_random_spies_more_than_beginners_do():
    ruru_rate = resistance_win_rate("ruru", "randombot", 300)
    assert ruru_rate > resistance_win_rate("randombot", "randombot", 300) + 0.1
    assert ruru_rate > resistance_win_rate("paranoid", "randombot", 300) + 0.3


@pytest.mark.parametrize("expert", ["logicalbot", "bounder", "rebounder", "invalidator"])
def test_deduction_bots_beat_beginner_spies_far_more_often_than_beginners(expert):
    expert_rate = resistance_win_rate(expert, "rulefollower", 120)
    hippie_rate = resistance_win_rate("hippie", "rulefollower", 120)
    assert expert_rate > hippie_rate + 0.2


def test_beginner_tables_play_every_size_with_sensible_teams():
    for n in range(5, 11):
        for cls in (Paranoid, Hippie, Deceiver, RuleFollower, Jammer, Ruru):
            t = Table(cls(), n=n, seat=1, spies=tuple(range(1, 1 + SPIES_BY_PLAYERS[n])))
            for size in set(TEAM_SIZES_BY_PLAYERS[n]):
                team = t.bot.select(tuple(range(n)), size)
                assert len(set(team)) == size and seats_to_mask(team) < (1 << n)
