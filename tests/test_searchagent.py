"""Marsh's SearchAgent (Marsh, §4.2): the Bayesian opponent model and its playouts."""

from __future__ import annotations

import math

import numpy as np
import pytest

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.tables import spy_configurations
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.bots.marsh_model import (
    mission_update,
    p_clean,
    weighted_action,
    weighted_playout,
)
from spyglass.resistance.bots.searchagent import SearchAgent
from spyglass.rng import make_rng

N = 5
CFG = spy_configurations(N).astype(np.int64)


def test_mission_update_is_bayes_rule():
    """One fail from team {0, 1}, each spy failing with β = 0.6: a config with both on
    the team has likelihood C(2,1)·0.6·0.4 = 0.48, one with one of them 0.6, none 0."""
    w = np.ones(len(CFG))
    mission_update(CFG, w, 0b00011, 1, 0.6)
    k = np.array([bin(int(c) & 0b11).count("1") for c in CFG])
    want = np.select([k == 2, k == 1], [0.48, 0.6], 0.0)
    assert w == pytest.approx(want / want.sum())


def test_resistance_leader_ranks_teams_by_suspicion():
    """Leader 0 is certain seat 1 is a spy. Sorted by total suspicion the 10 teams of two
    are {0,x} (1/3), {x,y} (2/3), {0,1} (1), {1,x} (4/3) for x, y in 2-4, so the four teams
    with seat 1 take the last four ranks: probability (4+3+2+1)/55 under linear weights."""
    w = ((CFG >> 1) & 1).astype(np.float64)
    s = K.new_state(N, 0b00110, 0, 0)  # leader 0 is resistance
    rng, marg = make_rng(1), np.empty(N)
    draws = 4000
    with_1 = sum((weighted_action(s, rng, CFG, w, marg) >> 1) & 1 for _ in range(draws))
    p = 10 / 55
    assert abs(with_1 / draws - p) < 4 * math.sqrt(p * (1 - p) / draws)


def test_resistance_voter_approves_clean_teams_and_the_last_attempt():
    w = np.ones(len(CFG))
    s = K.new_state(N, 0b11000, 0, 0)
    K.apply(s, 0b00110)  # team {1, 2}; seat 0 (resistance) votes first
    pc = p_clean(CFG, w, 0, 0b00110)
    assert pc == pytest.approx(1 / 6)  # only {3, 4} of the six configs without seat 0
    rng, marg = make_rng(2), np.empty(N)
    draws = 3000
    ayes = sum(weighted_action(s, rng, CFG, w, marg) for _ in range(draws))
    assert abs(ayes / draws - pc) < 4 * math.sqrt(pc * (1 - pc) / draws)
    s[K.ATTEMPT] = 4  # a rejection now hands the spies the game
    assert all(weighted_action(s, rng, CFG, w, marg) == 1 for _ in range(50))


def test_weighted_playouts_finish_and_repeat_per_seed():
    def run(seed):
        s = K.new_state(N, 0b11000, 0, 0)
        weighted_playout(s, make_rng(seed), CFG, np.full(len(CFG), 0.1))
        return s
    a, b = run(3), run(3)
    assert a[K.PHASE] == K.OVER and np.array_equal(a, b)


def test_agent_suspicion_follows_missions():
    bot = SearchAgent(iterations=40, d=2)
    result = play_game([bot] + ["randombot"] * 4, seed=4, spies=(3, 4), track_suspicion=True)
    assert result.error is None
    sus = bot.suspicion()
    assert set(sus) == {1, 2, 3, 4} and sum(sus.values()) == pytest.approx(2.0)
    assert result.suspicion[0]  # sampled after every mission


def test_searchagent_spies_crush_random_resistance():
    """Marsh reports a 100% spy win rate against random agents (Marsh, §5)."""
    wins = sum(play_game(["randombot"] * 3 + ["searchagent:iterations=300,d=2"] * 2,
                         seed=3000 + g, spies=(3, 4)).winner == "spies" for g in range(20))
    assert wins >= 19


def test_default_is_marshs_single_ucb1_search_and_the_vote_is_an_option():
    """Marsh, "Resistance AI", §4.2: one search with UCB1, c = √2, whole budget."""
    marsh = SearchAgent(iterations=600)
    assert (marsh.d, marsh.s) == (1, 600)
    assert marsh.params["bandit"] == "ucb1" and marsh.params["c"] == pytest.approx(math.sqrt(2))
    voting = SearchAgent(iterations=600, d=4, bandit="ucbt")
    assert (voting.d, voting.s, voting.params["bandit"]) == (4, 150, "ucbt")
    for spec in ("searchagent:iterations=200", "searchagent:iterations=200,d=4,bandit=ucbt"):
        result = play_game(["randombot"] * 3 + [spec] * 2, seed=7)
        assert result.error is None and result.winner in ("spies", "resistance")
