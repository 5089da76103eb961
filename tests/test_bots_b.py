"""Bot zoo part B: suspicion and learning bots (Taylor 2014, §4.1) and Marsh's BayesAgent
(Marsh, §4.1), each on the rules that define it.

A :class:`Table` drives one bot through its callbacks in the referee's order with a
hand-built public record, so every situation is exact. Learners are checked with their
``memory`` empty, filled, and meeting a new name. A small seeded loop checks that these
bots beat the beginners.
"""

from __future__ import annotations

import random
from itertools import combinations
from math import prod

import numpy as np
import pytest
from scripted_table import Table

from spyglass.games.resistance.tables import SPIES_BY_PLAYERS, TEAM_SIZES_BY_PLAYERS
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.bayesagent import BETRAY_BY_MISSION, BayesAgent
from spyglass.resistance.bots.beliefs import count_distribution, exactly_k
from spyglass.resistance.bots.bot5players import Bot5Players, reject_team_bound_to_hold_spy
from spyglass.resistance.bots.clymily import Clymily
from spyglass.resistance.bots.garboa import GarboA
from spyglass.resistance.bots.kreuterbot import ACCURACY_KEY, KreuterBot
from spyglass.resistance.bots.magi import DEFAULTS as MAGI_DEFAULTS
from spyglass.resistance.bots.magi import Magi
from spyglass.resistance.bots.opponent_model import POOL, BehaviourStats
from spyglass.resistance.bots.pandsbot import PandSBot
from spyglass.resistance.bots.scepticbot import ScepticBot
from spyglass.resistance.bots.statistician import Statistician
from spyglass.resistance.bots.trusty import MEMORY_KEY, Trusty

LEARNERS = (Statistician, Trusty, Magi, ScepticBot, Clymily, KreuterBot)
PART_B = ("statistician", "trusty", "pandsbot", "garboa", "bot5players", "magi",
          "scepticbot", "clymily", "kreuterbot", "bayesagent")
BEGINNERS = ("randombot", "paranoid", "hippie", "deceiver", "rulefollower", "jammer")



# --- shared machinery ----------------------------------------------------------------------
def test_count_distribution_is_the_poisson_binomial():
    probs = np.array([[0.3, 0.6, 0.9]])
    by_hand = [
        sum(prod(p if i in chosen else 1 - p for i, p in enumerate(probs[0]))
            for chosen in combinations(range(3), k))
        for k in range(4)
    ]
    assert np.allclose(count_distribution(probs)[0], by_hand)
    assert exactly_k(probs, 4)[0] == 0.0


def test_behaviour_stats_start_at_defaults_and_pool_for_a_new_name():
    memory: dict = {}
    stats = BehaviourStats(memory, {"b": (0.8, 0.3)}, strength=4, pool_strength=10)
    assert stats.rate("anyone", True, "b") == pytest.approx(0.8)
    assert stats.rate("anyone", False, "b") == pytest.approx(0.3)
    for _ in range(20):
        stats.record("alice", True, "b", 0.0)
    pooled = (0 + 10 * 0.8) / (20 + 10)
    assert stats.rate("stranger", True, "b") == pytest.approx(pooled)  # a new name: the pool
    assert stats.rate("alice", True, "b") == pytest.approx((0 + 4 * pooled) / (20 + 4))
    assert stats.rate("alice", False, "b") == pytest.approx(0.3)  # roles are kept apart
    assert memory["behaviour_stats"][POOL]["spy"]["b"] == [0.0, 20.0]
    with pytest.raises(KeyError, match="unknown behaviour"):
        stats.record("alice", True, "nope", 1)


# --- BayesAgent (Marsh, §4.1) ---------------------------------------------------------------
def marsh_update(spy_prob, team, fails, betray, n_spies, owner):
    """Eq. 2 with eq. 4, written out: every spy combination × every sabotage subset."""
    others = [p for p in range(len(spy_prob)) if p != owner]
    lik = {}
    for k in others:
        sp = dict(enumerate(spy_prob))
        sp[k] = 1.0
        total = 0.0
        for combo in combinations(others, n_spies):
            on = [p for p in combo if p in team]
            for sab in combinations(on, fails):
                total += prod(
                    (sp[p] * (betray if p in sab else 1 - betray) if p in on else sp[p])
                    if p in combo else 1 - sp[p]
                    for p in others
                )
        lik[k] = total
    post = {k: spy_prob[k] * lik[k] for k in others}
    scale = n_spies / sum(post.values())
    return np.array([0.0 if p == owner else post[p] * scale for p in range(len(spy_prob))])


def test_bayesagent_posterior_matches_the_hand_computation():
    bot = BayesAgent()
    t = Table(bot, n=5, seat=0)
    t.play(1, (1, 2), fails=1)
    expected = marsh_update([0, 0.5, 0.5, 0.5, 0.5], (1, 2), 1, BETRAY_BY_MISSION[0], 2, 0)
    # 1 fail on {1, 2}: P(1 | k=1) = .125(2b(1-b) + 2b), P(1 | k=3) = .25b, b = 0.6
    assert np.allclose(expected[1:], [7 / 12, 7 / 12, 5 / 12, 5 / 12])
    assert np.allclose(bot.me.spy_prob, expected)
    t.play(3, (0, 1, 3), fails=0)
    expected = marsh_update(expected, (0, 1, 3), 0, BETRAY_BY_MISSION[1], 2, 0)
    assert np.allclose(bot.me.spy_prob, expected)
    assert bot.me.spy_prob.sum() == pytest.approx(2.0)
    assert bot.me.spy_prob[2] > bot.me.spy_prob[1] > bot.me.spy_prob[3]


def test_bayesagent_resistance_avoids_the_top_combination():
    bot = BayesAgent()
    t = Table(bot, n=5, seat=0)
    t.play(1, (1, 2), fails=2)  # both certainly spies
    assert np.allclose(bot.me.spy_prob, [0, 1, 1, 0, 0])
    assert set(bot.top_combination()) == {1, 2}
    t.propose(0, (0, 3, 4))
    assert sorted(bot.select((0, 1, 2, 3, 4), 3)) == [0, 3, 4]
    assert bot.vote((0, 3, 4)) is True
    assert bot.vote((0, 1, 3)) is False


def test_bayesagent_behaviours_and_friendship_raise_spyness():
    bot = BayesAgent()
    t = Table(bot, n=5, seat=0)
    t.propose(1, (2, 3))  # 1 leaves itself out: behavedLikeSpy
    t.votes([True, False, True, True, True])  # 1 rejects the first proposal: more so
    assert bot.like_spy[1].tolist() == [2, 2]
    assert bot.friendship(1, 2) == pytest.approx((1 + 1) / (2 + 1 + 1))
    s = bot.spyness()
    assert s[1] > s[4] and s[2] == s[3]


def test_bayesagent_spy_nominates_the_certainty_minimising_team():
    bot = BayesAgent()
    t = Table(bot, n=5, seat=0, spies=(0, 1))
    t.propose(0, ())
    chosen = tuple(sorted(bot.select((0, 1, 2, 3, 4), 2)))
    costs = {}
    for team in combinations(range(5), 2):
        k = sum(p in (0, 1) for p in team)
        if k < 1:
            continue
        cost = 0.0
        for owner in (2, 3, 4):  # every resistance member's perspective, eq. 5
            sp = [0.5] * 5
            sp[owner] = 0.0
            post = marsh_update(sp, team, k, BETRAY_BY_MISSION[0], 2, owner)
            cost += sum((post[j] - 0.5) ** 2 for j in range(5) if j != owner)
        costs[team] = cost
    best = min(costs.values())
    assert costs[chosen] == pytest.approx(best)
    assert chosen != (0, 1)  # a double fail would unmask both


def test_bayesagent_spy_holds_back_when_a_fail_would_unmask_it():
    bot = BayesAgent()
    t = Table(bot, n=5, seat=0, spies=(0, 1))
    t.propose(2, (0, 2))
    assert bot.sabotage() is False  # seat 2 would know seat 0 for sure
    t.votes([True] * 5)
    t.mission(0)
    t.propose(3, (0, 3, 4))
    assert bot.sabotage() is True  # one fail among three: nobody becomes certain
    assert bot.vote((0, 3, 4)) is True and bot.vote((2, 3, 4)) is False


def test_bayesagent_spy_needs_two_spies_on_a_two_fail_mission():
    bot = BayesAgent()
    t = Table(bot, n=7, seat=0, spies=(0, 1, 2))
    for _ in range(3):
        t.play(3, _team(t, 7), fails=0)
    assert t.rec.mission == 4 and t.bot.game.fails_needed == 2
    assert bot.vote((0, 3, 4, 5)) is False
    assert bot.vote((0, 1, 4, 5)) is True


def _team(t: Table, n: int) -> tuple[int, ...]:
    """A clean team from seat 3 on, of the current mission's size."""
    return tuple(range(3, 3 + TEAM_SIZES_BY_PLAYERS[n][t.rec.mission - 1]))


# --- PandSBot (Taylor 2014, §4.1.9) -----------------------------------------------------------
def test_pandsbot_pair_and_player_suspicion_after_failed_missions():
    bot = PandSBot()
    t = Table(bot, n=5, seat=0)
    t.play(0, (1, 2), fails=1)  # led by the bot itself: no leader evidence to muddle it
    configs = [tuple(np.flatnonzero(b)) for b in bot.belief.bits]
    w = dict(zip(configs, bot.belief.weights(), strict=True))
    assert w[(3, 4)] == 0.0  # the only pair with nobody on the failed team is ruled out
    assert sum(v for c, v in w.items() if {1, 2} & set(c)) == pytest.approx(1.0)
    s = bot.suspicion()
    assert min(s[1], s[2]) > max(s[3], s[4])
    assert sum(s.values()) == pytest.approx(2.0)
    t.play(0, (0, 2, 3), fails=1)
    s = bot.suspicion()
    assert s[2] == max(s.values())  # on both failed teams
    assert s[4] == min(s.values())  # only possible as 2's partner
    assert bot.vote((0, 2)) is False


def test_pandsbot_expert_rules():
    res = PandSBot()
    t = Table(res, n=5, seat=0)
    t.play(1, (1, 2), fails=0)
    assert t.ask_vote(1, (1, 2, 3)) is False  # three-man team without itself
    t.rec.attempt = 5
    assert t.ask_vote(1, (1, 2, 3)) is True  # the fifth proposal, as resistance
    spy = PandSBot()
    t = Table(spy, n=5, seat=0, spies=(0, 1))
    assert t.ask_vote(2, (2, 3)) is False
    assert t.ask_vote(2, (1, 3)) is True  # any team with a spy
    t.rec.attempt = 5
    assert t.ask_vote(2, (2, 3)) is False  # as a spy it still rejects the fifth (§4.2)...
    assert t.ask_vote(2, (1, 3)) is False  # ... even one with a spy on it
    t.rec.attempt = 1
    t.rec.losses = 2
    # A three-man team without it is rejected in either role, even one that would win.
    assert t.ask_vote(2, (1, 2, 3)) is False


# --- GarboA (Taylor 2014, §4.1.10) ---------------------------------------------------------------
def garboa_table(spies=()):
    bot = GarboA()
    t = Table(bot, n=5, seat=0, spies=spies)
    t.play(0, (0, 1))  # success: 1 gets -10
    t.play(2, (2, 3, 4), votes=[False, True, True, True, True], fails=1)
    t.play(0, (0, 4))  # success: 4 gets -10
    return bot, t


def test_garboa_integer_points():
    bot, t = garboa_table()
    # +25 for each player on a three-man team with one saboteur; +15 its leader;
    # +10 for approving it from outside; -10 for a successful mission
    assert bot.points == {1: -10 + 10, 2: 25 + 15, 3: 25, 4: 25 - 10}
    # +25 also for the other two when GarboA itself was on the three-man team (§4.1.10
    # counts by the team: "each player on a team of three"); the leader 0 is itself;
    # 3 and 4 approved it from outside (+10 each).
    t.play(0, (0, 1, 2), votes=[True] * 5, fails=1)
    assert bot.points == {1: 0 + 25, 2: 40 + 25, 3: 25 + 10, 4: 15 + 10}


def test_garboa_votes_against_pairing_itself_with_the_second_most_suspicious():
    bot, t = garboa_table()
    assert bot.nth_most_suspicious() == 3
    assert t.ask_vote(1, (0, 1, 3)) is False
    assert t.ask_vote(1, (0, 1, 4)) is True  # 4 is only third
    spy, t = garboa_table(spies=(0, 1))
    assert t.ask_vote(1, (0, 1, 3)) is False  # whatever its role
    assert t.ask_vote(1, (0, 1, 4)) is True


def test_garboa_approves_the_first_mission_and_holds_back_with_both_spies():
    bot = GarboA()
    t = Table(bot, n=5, seat=0, spies=(0, 1))
    assert t.ask_vote(2, (2, 3)) is True  # first mission: always approve
    t.propose(0, (0, 1))
    assert bot.sabotage() is False
    t.rec.losses = 2
    assert bot.sabotage() is False  # §4.2 "simply will not", even when it would win


def test_magi_holds_back_with_both_spies_even_when_it_would_win():
    bot = Magi()
    t = Table(bot, n=5, seat=0, spies=(0, 1))
    t.propose(0, (0, 2))
    assert bot.sabotage() is True
    t.propose(0, (0, 1))
    assert bot.sabotage() is False
    t.rec.losses = 2
    assert bot.sabotage() is False


# --- Bot5Players (Taylor 2014, §4.1.11) -----------------------------------------------------------
def test_bot5players_behaviour_priority_decides():
    bot = Bot5Players()
    t = Table(bot, n=5, seat=0)
    t.play(1, (1, 2), fails=0)
    t.rec.attempt = 5
    assert t.ask_vote(1, (1, 2, 3)) is True  # approve_last_attempt comes first
    bot.vote_behaviours.insert(0, reject_team_bound_to_hold_spy)
    assert t.ask_vote(1, (1, 2, 3)) is False  # reordered: the big-team rule now wins


def test_bot5players_rejects_proved_spies():
    bot = Bot5Players()
    t = Table(bot, n=5, seat=0)
    t.play(1, (1, 2), fails=2)
    assert set(bot.belief.certain_spies()) == {1, 2}
    assert t.ask_vote(3, (0, 1, 3)) is False
    assert sorted(bot.select((0, 1, 2, 3, 4), 3)) == [0, 3, 4]
    assert bot.suspicion()[1] == 1.0


# --- Trusty (Taylor 2014, §4.1.2) -----------------------------------------------------------------
def test_trusty_scales_suspicion_by_past_accuracy_per_name():
    memory: dict = {}
    names = ("me", "liar", "p2", "p3", "p4")
    bot = Trusty()
    t = Table(bot, n=5, seat=0, memory=memory, names=names)
    t.play(1, (1, 2), fails=1)
    raw_liar = bot.raw[1]
    t.end(spies=(3, 4))  # wrong about "liar": it was resistance
    assert memory[MEMORY_KEY]["liar"] == (pytest.approx(raw_liar), 1)
    assert bot.accuracy("liar") == pytest.approx(1 - raw_liar)
    assert bot.accuracy("newcomer") == 1.0

    again = Trusty()
    t = Table(again, n=5, seat=0, memory=memory, names=("me", "liar", "newcomer", "p3", "p4"))
    t.play(0, (1, 2), fails=1)
    s = again.suspicion()
    assert again.raw[1] == again.raw[2]  # same evidence...
    assert s[2] == pytest.approx(again.raw[2])  # ...taken at face value for a new name
    assert again.prior < s[1] < s[2]  # ...and shrunk towards the prior for "liar"


def test_trusty_expert_rules_take_precedence():
    spy = Trusty()
    t = Table(spy, n=5, seat=0, spies=(0, 1))
    assert t.ask_vote(2, (1, 2, 3)) is True  # any team with a spy
    res = Trusty()
    t = Table(res, n=5, seat=0)
    t.play(1, (1, 2))
    assert t.ask_vote(1, (1, 2, 3)) is False  # three-man team without itself


# --- learners: Statistician, Magi, ScepticBot, Clymily, KreuterBot ------------------------
class Tell(Bot):
    """Votes give its role away: a spy approves every team, resistance only its own."""

    def vote(self, team):
        return self.spy or self.seat in team

    def sabotage(self):
        return True


def learn_tells(cls, games=40):
    memory: dict = {}
    for g in range(games):
        bots = [cls()] + [Tell() for _ in range(4)]
        names = ["learner", "tell", "tell2", "tell3", "tell4"]
        result = play_game(bots, seed=g, memory=memory, names=names)
        assert result.error is None
    return memory["learner"]


def vote_gap(cls, memory):
    """Suspicion of an outsider who approved minus one who rejected the same team."""
    bot = cls()
    t = Table(bot, n=5, seat=0, memory=memory, names=("learner", "tell", "tell2", "x", "y"))
    t.play(3, (0, 3), votes=[True, True, False, True, True])
    s = bot.suspicion()
    return s[1] - s[2]


@pytest.mark.parametrize("cls", [Statistician, Magi, ScepticBot, Clymily, KreuterBot])
def test_learners_learn_a_tell_and_use_it_for_a_new_name_too(cls):
    empty_gap = vote_gap(cls, {})
    memory = learn_tells(cls)
    learned_gap = vote_gap(cls, memory)
    assert learned_gap > empty_gap + 0.02
    # "tell2" was seen in the same games; a brand-new name falls back to the pool of
    # every opponent, which is all tells here: the lesson still applies, if less so.
    bot = cls()
    t = Table(bot, n=5, seat=0, memory=memory, names=("learner", "new1", "new2", "x", "y"))
    t.play(3, (0, 3), votes=[True, True, False, True, True])
    s = bot.suspicion()
    assert s[1] - s[2] > empty_gap


@pytest.mark.parametrize("cls", LEARNERS)
def test_learners_survive_empty_memory_and_burst_identities(cls):
    memory: dict = {}
    for burst in range(3):  # a fresh identity (and memory) every two games
        if burst == 2:
            memory = {}
        for g in range(2):
            names = [f"b{burst}-{i}" for i in range(6)]
            bots = [cls() for _ in range(3)] + ["randombot", "hippie", "paranoid"]
            result = play_game(bots, seed=10 * burst + g, memory=memory, names=names)
            assert result.error is None, result.error
    assert "b2-0" in memory and "b0-0" not in memory


def test_statistician_records_all_five_statistics():
    memory = learn_tells(Statistician, games=5)
    kinds = set()
    for roles in memory["statistician"].values():
        for role in roles.values():
            kinds |= set(role)
    assert kinds == {"vote_spied", "vote_clean", "select_spied", "select_self", "sabotage"}


def test_magi_separates_models_by_role():
    memory = learn_tells(Magi)
    stats = BehaviourStats(memory, MAGI_DEFAULTS, key="magi")
    # a tell approves a team bound to hold a spy when it is a spy, never as resistance
    assert stats.rate("tell", True, "vote_big_out") > 0.8
    assert stats.rate("tell", False, "vote_big_out") < 0.1


def test_scepticbot_combines_action_suspicion_and_spy_ratio_two_to_one():
    bot = ScepticBot()
    t = Table(bot, n=5, seat=0)
    t.play(1, (1, 2), fails=1)
    ratio = bot.spy_ratio()
    assert ratio[1] == pytest.approx(3 / 5) and ratio[3] == pytest.approx(2 / 5)
    act = bot.action_suspicion()
    probs = bot.spy_probabilities()
    for p in (1, 2, 3, 4):
        assert probs[p] == pytest.approx((2 * act[p] + ratio[p]) / 3)
    t.play(3, (0, 1, 2), fails=2)
    assert bot.spy_ratio()[[1, 2, 3, 4]].tolist() == [1, 1, 0, 0]
    assert bot.suspicion() == {1: 1.0, 2: 1.0, 3: 0.0, 4: 0.0}


def test_scepticbot_approves_first_mission_and_fifth_proposal_in_any_role():
    bot = ScepticBot()
    t = Table(bot, n=5, seat=0, spies=(0, 1))
    assert t.ask_vote(2, (2, 3)) is True  # first mission
    t.play(0, (0, 2))
    assert t.ask_vote(2, (2, 3, 4)) is False
    t.rec.attempt = 5
    assert t.ask_vote(2, (2, 3, 4)) is True


def test_clymily_rejects_supersets_of_failed_teams():
    bot = Clymily(tolerance=1.0)  # so that only the taboo layer can reject
    t = Table(bot, n=5, seat=0)
    t.play(1, (1, 2), fails=1)
    assert t.ask_vote(1, (0, 1, 2)) is False
    assert t.ask_vote(1, (0, 1, 3)) is True


def test_clymily_vote_irrelevance_and_cover_as_a_spy():
    spies = (0, 1)
    bot = Clymily()
    t = Table(bot, n=5, seat=0, spies=spies)
    t.play(0, (0, 2))
    t.propose(1, (1, 2, 3))  # wanted: approve (a spy on it); innocent: reject (3-man, not me)
    # others' approvals: 1 spy on team, 2 and 3 resistance on team, 4 outside a big team
    r = bot.rates
    probs = [r["vote_spied"][0][1], r["vote_spied"][1][2], r["vote_spied"][1][3],
             r["vote_big_out"][1][4]]
    pivotal = sum(prod(p if i in yes else 1 - p for i, p in enumerate(probs))
                  for yes in combinations(range(4), 2))
    assert bot.vote_irrelevant((1, 2, 3)) == pytest.approx(1 - pivotal)
    assert bot.vote((1, 2, 3)) == bool(1 - pivotal < bot.cover)
    bot.cover = 0.0
    assert bot.vote((1, 2, 3)) is False  # irrelevant enough: look innocent
    bot.cover = 1.01
    assert bot.vote((1, 2, 3)) is True


def test_kreuterbot_scores_its_predictions_and_trusts_them_accordingly():
    memory: dict = {}
    bot = KreuterBot()
    t = Table(bot, n=5, seat=0, memory=memory)
    t.propose(1, (1, 2))
    t.votes([True, False, True, True, True])  # 1 rejects its own team: mispredicted
    table = memory[ACCURACY_KEY]
    assert table["p1"] == (0, 1) and table["p2"] == (1, 1)
    memory[ACCURACY_KEY]["p3"] = (8.0, 20.0)  # predicted no better than chance
    bot = KreuterBot()
    t = Table(bot, n=5, seat=0, memory=memory)
    assert bot.trust(3) == 0.0  # 11/24 right with the 3-in-4 prior: below chance
    assert bot.trust(4) == pytest.approx(2 * (1 + 3) / (1 + 4) - 1)  # one hit so far
    before = bot.log_odds.copy()
    t.propose(1, (1, 2))
    assert not t.votes([True, True, False, False, False])  # rejected: evidence right away
    assert bot.log_odds[3] == before[3]  # an unpredictable player's vote tells nothing
    assert bot.log_odds[4] != before[4]


# --- generalisation to 5-10 players ------------------------------------------------------------
@pytest.mark.parametrize("n", [6, 7, 8, 9, 10])
def test_every_part_b_bot_plays_every_size(n):
    names = list(PART_B)
    rng = random.Random(n)
    for g in range(2):
        lineup = rng.sample(names, n)
        result = play_game(lineup, seed=g)
        assert result.error is None, result.error


def test_surplus_spies_generalise_to_two_fail_missions():
    # seven players, mission 4 needs two fails: two spies on it are not a surplus
    for cls in (GarboA, Magi):
        bot = cls()
        t = Table(bot, n=7, seat=0, spies=(0, 1, 2))
        for _ in range(3):
            t.play(3, _team(t, 7), fails=0)
        t.propose(0, (0, 1, 3, 4))
        assert bot.sabotage() is True
        t.rec.team = (0, 1, 2, 3)  # three spies for two cards: hold back
        assert bot.sabotage() is False


# --- against the beginners -----------------------------------------------------------------------
def test_part_b_bots_beat_the_beginners():
    """Each bot sits with beginners; over seeded games it must win clearly more often."""
    rng = random.Random(2024)
    for name in PART_B:
        won = [0, 0]
        played = [0, 0]
        memory: dict = {}
        for g in range(60):
            n = 5
            lineup = [name, name] + [rng.choice(BEGINNERS) for _ in range(n - 2)]
            rng.shuffle(lineup)
            result = play_game(lineup, seed=g, memory=memory)
            assert result.error is None
            for seat, bot in enumerate(lineup):
                side = 0 if bot == name else 1
                played[side] += 1
                won[side] += (seat in result.spies) == result.spies_won
        rate, beginners = won[0] / played[0], won[1] / played[1]
        assert rate > beginners + 0.05, (name, rate, beginners)


@pytest.mark.slow
def test_part_b_resistance_teams_beat_beginner_teams_at_every_size():
    """At every size, a resistance made of one part-B bot does far better against beginner
    spies than a resistance of beginners does (same spies, seats and seeds)."""
    for n in range(5, 11):
        ns = SPIES_BY_PLAYERS[n]
        rates = {}
        for name in ("beginners", *PART_B):
            rng = random.Random(n)
            wins = 0
            for g in range(100):
                spies = sorted(rng.sample(range(n), ns))
                lineup = [rng.choice(BEGINNERS) if s in spies or name == "beginners" else name
                          for s in range(n)]
                result = play_game(lineup, seed=g, spies=spies)
                assert result.error is None
                wins += not result.spies_won
            rates[name] = wins / 100
        for name in PART_B:
            assert rates[name] > rates["beginners"] + 0.15, (n, name, rates)
