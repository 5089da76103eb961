"""Paired tests, Holm's correction and the log-K trend (spyglass.arena.paired)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest
from scipy.stats import binomtest

from spyglass.arena.paired import (
    holm,
    log_budget_trend,
    paired_test,
    paired_trend,
)
from spyglass.resistance.arena.outcomes import spy_outcomes


def test_paired_test_uses_only_the_discordant_games():
    # 100 paired games: 30 won in both, 14 only in A, 4 only in B, 52 in neither.
    a = {i: i < 44 for i in range(100)}
    b = {i: i < 30 or 44 <= i < 48 for i in range(100)}
    b[1000] = True  # unpaired games are ignored
    t = paired_test(a, b)
    assert (t["pairs"], t["both"], t["only_a"], t["only_b"], t["neither"]) == (100, 30, 14, 4, 52)
    assert t["rate_a"] == 0.44 and t["rate_b"] == 0.34 and t["difference"] == pytest.approx(0.10)
    # McNemar's exact test is the two-sided binomial test of 14 out of 18 against 1/2.
    assert t["p_mcnemar"] == pytest.approx(binomtest(14, 18, 0.5).pvalue)
    assert t["difference_low"] < 0.10 < t["difference_high"]
    same = paired_test(a, a)
    assert same["p_mcnemar"] == 1.0 and same["difference"] == 0
    with pytest.raises(ValueError, match="no game in common"):
        paired_test({0: True}, {1: True})


def test_pairing_finds_what_an_unpaired_test_misses():
    # Strongly correlated conditions (common random numbers): B wins every game A wins,
    # plus 12 more out of 200. Unpaired, 30% vs 36% is not significant; paired, it is.
    from spyglass.arena.stats import compare_proportions

    a = {i: i < 60 for i in range(200)}
    b = {i: i < 72 for i in range(200)}
    assert compare_proportions(72, 200, 60, 200)["p_ztest"] > 0.05
    assert paired_test(b, a)["p_mcnemar"] < 0.001


def test_holm_by_hand():
    # Sorted p: 0.01*3 = 0.03, 0.02*2 = 0.04, 0.04*1 = 0.04 (monotone): all below 0.05.
    adjusted, reject = holm([0.04, 0.01, 0.02])
    assert adjusted == pytest.approx([0.04, 0.03, 0.04]) and reject == [True, True, True]
    adjusted, reject = holm([0.003, 0.0503, 0.005, 0.17])
    assert adjusted == pytest.approx([0.012, 0.1006, 0.015, 0.17])
    assert reject == [True, False, True, False]
    assert holm([]) == ([], [])


def test_log_budget_trend_detects_a_growing_advantage_and_not_a_constant_one():
    growing = [(1000, 20, 400, False), (1000, 30, 400, True), (10000, 20, 400, False),
               (10000, 120, 400, True), (100000, 20, 400, False), (100000, 240, 400, True)]
    trend = log_budget_trend(growing)
    assert trend["interaction"]["estimate"] > 0 and trend["interaction"]["p"] < 0.001
    flat = [(k, 20, 400, False) for k in (1000, 10000)] + [
        (k, 60, 400, True) for k in (1000, 10000)]
    assert log_budget_trend(flat)["interaction"]["p"] > 0.5
    with pytest.raises(ValueError, match="two budgets"):
        log_budget_trend([(1000, 1, 2, True), (1000, 1, 2, False)])


def test_spy_outcomes_reads_counted_games(tmp_path):
    rng = random.Random(3)
    lines = []
    for game in range(6):
        winner = rng.choice(["spies", "resistance"])
        error = {"seat": 0} if game == 4 else None
        lines.append(json.dumps({"tournament": {"game": game}, "error": error,
                                 "outcome": {"winner": None if error else winner}}))
    (tmp_path / "games.jsonl").write_text("\n".join(lines) + "\n")
    got = spy_outcomes(tmp_path)
    assert sorted(got) == [0, 1, 2, 3, 5]
    assert all(got[g] == (json.loads(lines[g])["outcome"]["winner"] == "spies") for g in got)


def test_paired_trend_finds_a_rise_game_by_game_and_not_a_flat_rate():
    rng = np.random.default_rng(7)
    games = 300
    base = rng.normal(0, 1.5, games)  # each game's own difficulty, shared by every x
    xs = [0.0, 0.25, 0.5, 0.75]

    def play(slope):
        return {x: {g: bool(rng.random() < 1 / (1 + np.exp(-(base[g] + slope * x))))
                    for g in range(games)} for x in xs}

    rising = paired_trend(play(2.0))
    assert rising["slope"] > 0 and rising["p"] < 1e-3 and rising["games"] == games
    assert paired_trend(play(0.0))["p"] > 0.01
    # Games missing at one setting are left out; identical outcomes carry nothing.
    same = {x: {g: g % 2 == 0 for g in range(10)} for x in xs}
    same[0.0].pop(3)
    flat = paired_trend(same)
    assert flat == {"slope": 0.0, "p": 1.0, "games": 9, "informative_games": 0}
    with pytest.raises(ValueError, match="two settings"):
        paired_trend({0.0: {0: True}})
