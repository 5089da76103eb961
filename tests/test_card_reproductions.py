"""The card-game reproductions of Whitehouse 2014 ch. 5 and §6.3.4: the paired statistics,
Dou Di Zhu landlords on the same deals (Table 5.2), equal time (Fig 6.7) and the exact
Mini Dou Di Zhu agents (Fig 5.7)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from spyglass.arena.paired import paired_test
from spyglass.experiments import deal_stats, doudizhu_landlords, doudizhu_time
from spyglass.experiments import minidoudizhu_fig57 as F


# --- paired statistics ----------------------------------------------------------------------
def test_sign_flip_exact_values():
    assert deal_stats.sign_flip_p([0, 0, 0]) == 1.0
    assert deal_stats.sign_flip_p([1] * 5) == pytest.approx(2 / 32)
    assert deal_stats.sign_flip_p([1, -1]) == 1.0
    # Monte Carlo path (more than 20 deals differ): tiny p, never 0, seeded.
    p = deal_stats.sign_flip_p([0.5] * 30, seed=3)
    assert 0 < p < 1e-4
    assert p == deal_stats.sign_flip_p([0.5] * 30, seed=3)


def test_sign_flip_with_one_game_per_deal_is_mcnemar():
    rng = np.random.default_rng(5)
    for _ in range(20):
        a = rng.random(18) < 0.6
        b = rng.random(18) < 0.4
        mc = paired_test(dict(enumerate(a)), dict(enumerate(b)))["p_mcnemar"]
        assert deal_stats.sign_flip_p(a.astype(float) - b) == pytest.approx(mc)


def test_paired_difference_interval_and_counts():
    r = deal_stats.paired_difference([1, 0.5, 1, 0.75], [0.5, 0.5, 0.25, 1])
    assert r["difference"] == pytest.approx(0.25)
    assert r["low"] < 0.25 < r["high"]
    assert (r["a_better"], r["b_better"]) == (2, 1)
    with pytest.raises(ValueError):
        deal_stats.paired_difference([], [])


# --- Dou Di Zhu landlords and Table 5.2 ----------------------------------------------------
def test_table_5_2_groups_and_split():
    # 4 deals x 4 games: deal 0 cheating helps by 1.0, deal 1 by 0.5, deal 2 not, deal 3 -0.5
    wins = {"cheating": np.array([[1, 1, 1, 1], [1, 1, 1, 0], [0, 1, 0, 1], [0, 0, 0, 0]]),
            "pimc": np.array([[0, 0, 0, 0], [0, 1, 0, 0], [0, 1, 0, 1], [1, 0, 1, 0]]),
            "ismcts": np.array([[1, 1, 0, 1], [1, 0, 1, 1], [0, 0, 0, 0], [1, 1, 0, 0]])}
    res = doudizhu_landlords.summarize({k: v.astype(float) for k, v in wins.items()},
                                       {"seed": 0})
    rows = {r["threshold"]: r for r in res["table_5_2"]}
    assert [rows[k]["deals"] for k in ("none", "< 0", "= 0", "> 0", "> 25%", "> 50%", "> 75%")
            ] == [4, 1, 1, 2, 2, 1, 1]
    assert rows["> 0"]["pimc"] == pytest.approx((0 + 0.25) / 2)
    assert rows["> 0"]["ismcts"] == pytest.approx((0.75 + 0.75) / 2)
    split = {r["threshold"]: r for r in res["table_5_2_split"]}
    # Classified by games 0-1: deal 1's difference is 1 - 0.5 = 0.5, measured on games 2-3.
    assert split["> 25%"]["deals"] == 2
    assert split["> 25%"]["pimc"] == pytest.approx(0.0)
    assert res["rates"]["cheating"]["wins"] == 9
    x = res["interaction"]
    assert (x["deals_helps"], x["deals_elsewhere"]) == (2, 2)
    assert x["gain_where_cheating_helps"] == pytest.approx(0.625)
    assert 0 <= x["p_welch"] <= 1
    assert len(res["comparisons"]) == 3
    assert all(c["p_holm"] >= c["p_sign_flip"] for c in res["comparisons"])


def test_landlords_small_run_is_seeded_and_resumes(tmp_path):
    prog = tmp_path / "ll.deals.jsonl"
    a = doudizhu_landlords.run(2, 2, d=2, s=5, seed=4, progress=prog)
    assert len(prog.read_text().splitlines()) == 3
    b = doudizhu_landlords.run(2, 2, d=2, s=5, seed=4, progress=prog)  # read back, not played
    c = doudizhu_landlords.run(2, 2, d=2, s=5, seed=4)
    assert a["per_deal"] == b["per_deal"] == c["per_deal"]
    for k in doudizhu_landlords.KINDS:
        assert a["rates"][k]["games"] == 4
        assert 0 <= a["rates"][k]["low"] <= a["rates"][k]["win_rate"] <= a["rates"][k]["high"]
    paths = doudizhu_landlords.write(a, tmp_path / "ll")
    assert json.loads(paths[0].read_text())["config"]["d"] == 2
    assert paths[1].stat().st_size > 1000
    with pytest.raises(ValueError, match="games"):
        doudizhu_landlords.run(2, 1)


def test_landlord_specs():
    assert doudizhu_landlords.landlord_spec("ismcts", 40, 250, 1.0) == \
        "soismcts:iterations=10000,c=1.0"
    assert doudizhu_landlords.landlord_spec("cheating", 40, 250, 1.0).startswith(
        "cheatingensemble:d=40")
    with pytest.raises(ValueError):
        doudizhu_landlords.landlord_spec("oracle", 1, 1, 1.0)


# --- Fig 6.7: equal time -------------------------------------------------------------------
def test_pimc_shape_keeps_the_thesis_ratio():
    assert doudizhu_time.pimc_shape(10_000) == (40, 250)
    d, s = doudizhu_time.pimc_shape(2_000)
    assert abs(d * s - 2_000) < 60 and abs(d / s - 0.16) < 0.02
    assert doudizhu_time.pimc_shape(1) == (1, 1)
    with pytest.raises(ValueError):
        doudizhu_time.parse_rates("5")


def test_equal_time_small_run_is_seeded(tmp_path):
    rates = {"pimc": 20_000.0, "ismcts": 10_000.0}
    a = doudizhu_time.run(2, [0.002], rates, opponent=(2, 5), seed=1)
    b = doudizhu_time.run(2, [0.002], rates, opponent=(2, 5), seed=1)
    for x, y in zip(a["points"], b["points"], strict=True):  # all but the CPU seconds
        for k in ("pimc", "ismcts"):
            x[k].pop("cpu_s_all_seats")
            y[k].pop("cpu_s_all_seats")
    assert a == b
    point = a["points"][0]
    assert point["pimc"]["iterations"] == 40 and point["ismcts"]["iterations"] == 20
    assert point["ismcts"]["agent"] == "soismcts:iterations=20,c=1.0"
    assert "p_holm" in point["ismcts_minus_pimc"]
    doudizhu_time.write(a, tmp_path / "t")
    assert (tmp_path / "t.png").exists()


def test_calibration_measures_both():
    r = doudizhu_time.calibrate(iterations=50, deals=1, rounds=1, seed=2)
    assert set(r) == {"pimc", "ismcts"} and min(r.values()) > 0


# --- Mini Dou Di Zhu Fig 5.7 ----------------------------------------------------------------
def test_fig57_rules_match_the_kernel():
    from spyglass.games.minidoudizhu import kernel as K
    from spyglass.games.minidoudizhu.game import MiniDouDiZhu

    game = MiniDouDiZhu()
    rng = np.random.default_rng(0)
    for seed in range(60):
        s = game.new_state(seed)
        hands = [tuple(int(x) for x in s[K.HAND + 6 * p: K.HAND + 6 * p + 6]) for p in (0, 1)]
        ls = lr = 0
        while not K.is_terminal(s):
            p = int(K.actor(s))
            ours = F.legal(hands[p], ls, lr)
            assert ours == game.legal_actions(s)
            a = ours[int(rng.integers(len(ours)))]
            K.apply(s, a)
            if a != F.PASS:
                hands[p] = F.remove(hands[p], a)
            ls, lr = F.after(a)


def test_fig57_cheating_minimax_plays_the_exact_values():
    from spyglass.experiments.minidoudizhu_exact import solver
    from spyglass.games.minidoudizhu import kernel as K

    wins = solver()
    deals = F.all_deals()
    for h0, h1, _ in deals[::400]:
        s = K.from_hands(np.array(h0, dtype=np.int64), np.array(h1, dtype=np.int64))
        winner, _ = F.play("cheating minimax", "cheating minimax", h0, h1)
        assert (winner == 0) == wins(s)


def test_fig57_agents_on_a_few_deals():
    res = F.run(limit=25)
    assert len(res["matchups"]) == len(F.PLAYER1) * len(F.PLAYER2)
    for m in res["matchups"]:
        assert 0.0 <= m["p1_win"] <= 1.0
        if "correct model" in m["player1"] and "incorrect" not in m["player1"]:
            # The correct model never rules out the true hand.
            assert m["deals_with_fallback"] == 0
    vals = {(m["player1"], m["player2"]): m["p1_win"] for m in res["matchups"]}
    # Cheating minimax as player 1 wins every deal the open-card value says it wins, so
    # against anything it is at least its value against cheating minimax.
    for b in F.PLAYER2:
        assert vals[("cheating minimax", b)] >= vals[("cheating minimax", "cheating minimax")]


def test_vote_of_one_state_is_minimax():
    own, opp = (2, 1, 0, 1, 1, 0), (0, 2, 2, 1, 0, 1)
    assert F.vote(own, [(opp, 1)], 0, 0) == F.cheat_choice(own, opp, 0, 0)
    assert F.subhands((2, 1, 0, 0, 0, 0), 2) == (((1, 1, 0, 0, 0, 0), 2),
                                                  ((2, 0, 0, 0, 0, 0), 1))


@pytest.mark.slow
def test_fig57_cheating_minimax_over_every_deal_is_70_7_percent():
    res = F.run(p1s=("cheating minimax",), p2s=("cheating minimax",))
    assert res["deals"] == 8832
    assert res["matchups"][0]["p1_win"] == pytest.approx(0.70711, abs=5e-4)


@pytest.mark.slow
def test_landlords_larger_run():
    res = doudizhu_landlords.run(6, 4, d=4, s=25, seed=11)
    assert sum(r["deals"] for r in res["table_5_2"] if r["threshold"] in ("< 0", "= 0", "> 0")
               ) == 6
    assert all(0 <= c["p_holm"] <= 1 for c in res["comparisons"])


# --- the command line -----------------------------------------------------------------------
def test_cli_commands(cli, tmp_path):
    r = cli("experiment", "minidoudizhu-fig57", "--limit", "5", "--out", tmp_path / "f")
    assert r.exit_code == 0, r.output
    assert "expectimax" in r.output and (tmp_path / "f.png").exists()
    r = cli("experiment", "doudizhu-landlords", "--deals", "1", "--games", "2", "--d", "1",
            "--s", "3", "--out", tmp_path / "ll")
    assert r.exit_code == 0, r.output
    assert "Table 5.2" in r.output and (tmp_path / "ll.json").exists()
    r = cli("experiment", "doudizhu-time", "--deals", "1", "--budgets", "0.001",
            "--rates", "5000,5000", "--opponent", "1x3", "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    assert "soismcts:iterations=5" in r.output


def test_cli_bad_input(cli, tmp_path):
    assert cli("experiment", "doudizhu-landlords", "--games", "1").exit_code == 2
    assert cli("experiment", "doudizhu-time", "--rates", "x").exit_code == 2
    assert cli("experiment", "doudizhu-time", "--budgets", "0").exit_code == 2
    assert cli("experiment", "minidoudizhu-fig57", "--limit", "0").exit_code == 2
    assert cli("experiment", "minidoudizhu-ismcts-pimc", "--deals", "0").exit_code == 2
