"""Tournaments of any game (spyglass.arena.tournament with the game table), on the toy game."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path

import pytest
from toy_game import FirstLegal, RandomToy

from spyglass.agents.base import Agent
from spyglass.arena.game_stats import (
    GameTally,
    agent_results,
    pairwise,
    results_section,
    role_results,
    win_scores,
)
from spyglass.arena.history import replay_history
from spyglass.arena.rotation import balanced_games, groups, schedule
from spyglass.arena.tournament import (
    GAMES,
    MANIFEST,
    GameTournamentError,
    run_game_tournament,
)
from spyglass.games import registry


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "toy_game:SecretNumbers")


class Crashes(Agent):
    agent_name = "crashes"

    def act(self, view, legal):
        raise RuntimeError("no")


def test_rotation_balances_seats_and_shares_deals():
    plan = schedule(balanced_games(3, 2), 3, 2, seed=4)
    assert len(plan) == 6 and groups(3, 2) == [(0, 1), (0, 2), (1, 2)]
    seats = Counter((agent, j) for s in plan for j, agent in enumerate(s.lineup))
    assert set(seats.values()) == {2}  # every agent in every seat equally often
    for a, b in zip(plan[::2], plan[1::2], strict=True):
        assert a.deal == b.deal and a.lineup == b.lineup[::-1] and a.seed != b.seed
    assert schedule(6, 3, 2, seed=4) == plan  # a pure function of its arguments
    assert groups(1, 3) == [(0, 0, 0)]


def test_win_scores_split_ties():
    assert win_scores([1.0, 0.0]) == [1.0, 0.0]
    assert win_scores([0.5, 0.5]) == [0.5, 0.5]
    assert win_scores([1 / 3, 1 / 3, 0.0]) == [0.5, 0.5, 0.0]


def test_a_game_chooses_its_win_score():
    """The default splits a shared top; a game's own scorer (Hearts: first or equal
    first) is what the tally counts."""
    from spyglass.games.base import top_or_tied

    split, tied = GameTally(["a", "b"], 2), GameTally(["a", "b"], 2, scorer=top_or_tied)
    for tally in (split, tied):
        for _ in range(4):
            tally.add(["a", "b"], [0.5, 0.5], None)
    assert split.agents["a"].score == 2.0 and tied.agents["a"].score == 4.0
    assert tied.agents["a"].wins == 4 and tied.agents["a"].draws == 0


def test_draws_use_the_interval_of_a_mean():
    tally = GameTally(["a", "b"], 2)
    for _ in range(10):
        tally.add(["a", "b"], [0.5, 0.5], None)
        tally.add(["b", "a"], [1.0, 0.0], None)
    a = next(r for r in agent_results(tally) if r.label == "a")
    assert a.win_rate.rate == pytest.approx(0.25) and a.win_rate.method == "normal-mean"
    assert a.win_rate.low < 0.25 < a.win_rate.high
    assert a.seats[0].rate == pytest.approx(0.5) and a.seats[1].rate == 0.0


def test_roles_are_an_extension_of_the_per_agent_figures():
    """Games whose records give roles get win rates per role and per (agent, role), by
    hand here; a game without roles keeps exactly its old figures (no "roles" keys)."""
    from spyglass.games.base import top_or_tied

    tally = GameTally(["a", "b"], 3, scorer=top_or_tied)
    # a landlord against two peasants; the peasants win together
    tally.add(["a", "b", "b"], [1.0, 0.0, 0.0], None, ["landlord", "peasant", "peasant"])
    tally.add(["b", "a", "b"], [1.0, 0.0, 0.0], None, ["landlord", "peasant", "peasant"])
    tally.add(["b", "b", "a"], [0.0, 1.0, 1.0], None, ["landlord", "peasant", "peasant"])
    a = next(r for r in agent_results(tally) if r.label == "a")
    assert (a.roles["landlord"].wins, a.roles["landlord"].n) == (1, 1)
    assert (a.roles["peasant"].wins, a.roles["peasant"].n) == (1, 2)
    by_role = role_results(tally)
    assert by_role["landlord"]["win_rate"].rate == pytest.approx(2 / 3)
    assert by_role["peasant"]["mean_reward"].rate == pytest.approx(2 / 6)
    assert set(results_section(tally)) == {"agents", "seats", "head_to_head", "roles"}
    plain = GameTally(["a", "b"], 2)
    plain.add(["a", "b"], [1.0, 0.0], None)
    plain.add(["b", "a"], [1.0, 0.0], None, ["", ""])  # "" is no role
    section = results_section(plain)
    assert "roles" not in section and all("roles" not in a for a in section["agents"])


def test_agents_are_compared_paired_by_deal_with_holm_over_the_pairs():
    """Blocks share a deal: per pair, a block counts for the agent with more win score in
    it; the sign test (exact binomial on untied blocks) and Holm, by hand."""
    from scipy.stats import binomtest

    tally = GameTally(["a", "b", "c"], 2)
    for block in range(10):  # a beats b in both seatings of 8 deals; 2 deals are split
        won = block < 8
        tally.add(["a", "b"], [1.0, 0.0], None, block=block)
        tally.add(["b", "a"], [0.0, 1.0] if won else [1.0, 0.0], None, block=block)
    for block in range(10, 16):  # a and c split every deal: all tied
        tally.add(["a", "c"], [1.0, 0.0], None, block=block)
        tally.add(["c", "a"], [1.0, 0.0], None, block=block)
    tally.add(["b", "c"], [1.0, 0.0], None)  # no block: not paired, not compared
    rows = {(r["a"], r["b"]): r for r in pairwise(tally)}
    assert set(rows) == {("a", "b"), ("a", "c")}
    ab, ac = rows[("a", "b")], rows[("a", "c")]
    assert (ab["a_ahead"], ab["b_ahead"], ab["tied"]) == (8, 0, 2)
    assert ab["p_sign"] == pytest.approx(binomtest(8, 8, 0.5).pvalue)  # 2 / 2**8
    assert (ac["blocks"], ac["tied"], ac["p_sign"]) == (6, 6, 1.0)
    assert ab["p_holm"] == pytest.approx(2 * ab["p_sign"]) and ac["p_holm"] == 1.0
    assert "pairwise" in results_section(tally)


def test_games_with_roles_say_them_and_team_wins_count_for_every_member():
    import numpy as np

    from spyglass.games.doudizhu import kernel as DK

    ddz = registry.make("doudizhu")
    state = np.zeros(DK.STATE_SIZE, dtype=np.int64)
    state[DK.LANDLORD] = 1
    assert ddz.roles(state) == ("peasant", "landlord", "peasant")
    state[DK.LANDLORD] = -1  # the auction is not over
    assert ddz.roles(state) == ("", "", "")
    res = registry.make("resistance", 5)
    assert res.win_scores([1.0, 1.0, 0.0, 0.0, 0.0]) == [1.0, 1.0, 0.0, 0.0, 0.0]


def test_a_tournament_counts_every_game_once_and_records_replay(tmp_path):
    res = run_game_tournament("toy", [RandomToy, FirstLegal, "toy_game.RandomToy:bias=0.5"],
                              games=12, seed=3, out=tmp_path, workers=1)
    assert res.tally.games == 12 and res.balanced
    assert {a.label: a.games for a in res.agents} == {
        "randomtoy": 8, "first": 8, "randomtoy:bias=0.5": 8}
    lines = (tmp_path / GAMES).read_text().splitlines()
    assert len(lines) == 12
    for line in lines:
        replay_history(json.loads(line))
    for name in ("results.json", "agents.csv", "winrates.png", MANIFEST):
        assert (tmp_path / name).stat().st_size > 0
    stored = json.loads((tmp_path / "results.json").read_text())
    assert stored["games"] == 12 and len(stored["agents"]) == 3


def test_a_game_with_roles_records_them_and_reports_win_rates_by_role(tmp_path, monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toyroles", "toy_game:RoleNumbers")
    res = run_game_tournament("toyroles", [RandomToy, FirstLegal], games=8, seed=5,
                              out=tmp_path, workers=1)
    records = [json.loads(line) for line in (tmp_path / GAMES).read_text().splitlines()]
    game = registry.make("toyroles")
    for rec in records:  # each seat's role, as the rules say at the end of the replay
        assert rec["roles"] == list(game.roles(replay_history(rec).state))
    stored = json.loads((tmp_path / "results.json").read_text())
    seen = Counter(role for rec in records for role in rec["roles"])
    assert {r: v["win_rate"]["n"] for r, v in stored["roles"].items()} == dict(seen)
    for agent in stored["agents"]:
        assert sum(r["n"] for r in agent["roles"].values()) == agent["games"]
    # a resumed or reloaded tournament counts the same roles from the records
    from spyglass.arena.tournament import load_game_results

    assert load_game_results(tmp_path).to_dict()["roles"] == stored["roles"]
    assert res.tally.roles == list(stored["roles"])


def test_resume_plays_only_missing_games_without_double_counting(tmp_path):
    full = run_game_tournament("toy", [RandomToy, FirstLegal], games=10, seed=8,
                               out=tmp_path / "full", workers=1)
    part = tmp_path / "part"
    run_game_tournament("toy", [RandomToy, FirstLegal], games=10, seed=8, out=part, workers=1)
    path = part / GAMES
    lines = path.read_text().splitlines(keepends=True)
    # keep games 0-5, a duplicate of game 2 and a torn half line: as after a crash
    path.write_text("".join(lines[:6]) + lines[2] + lines[7][: len(lines[7]) // 2])
    resumed = run_game_tournament("toy", out=part, resume=True, workers=1)
    assert resumed.played_now == 4 and resumed.tally.games == 10
    assert [a.to_dict() for a in resumed.agents] == [a.to_dict() for a in full.agents]
    again = run_game_tournament("toy", out=part, resume=True, workers=1)
    assert again.played_now == 0 and again.tally.games == 10


def test_process_pool_gives_the_same_results(tmp_path):
    one = run_game_tournament("toy", [RandomToy, FirstLegal], games=16, seed=2, workers=1)
    two = run_game_tournament("toy", [RandomToy, FirstLegal], games=16, seed=2, workers=2,
                              chunk=3)
    assert [a.to_dict() for a in one.agents] == [a.to_dict() for a in two.agents]


def test_errors_are_charged_and_not_counted(tmp_path):
    res = run_game_tournament("toy", [RandomToy, Crashes], games=4, seed=1, workers=1)
    crash = next(a for a in res.agents if a.label == "crashes")
    assert crash.errors == 4 and crash.games == 0 and res.tally.errors == 4
    assert "RuntimeError: no" in res.tally.first_errors["crashes"]


def test_bad_setups_are_clear(tmp_path):
    with pytest.raises(GameTournamentError, match="no game named"):
        run_game_tournament("nope", [RandomToy])
    with pytest.raises(GameTournamentError, match="name at least one agent"):
        run_game_tournament("toy", [])
    with pytest.raises(GameTournamentError, match="no agent named"):
        run_game_tournament("toy", ["no_such_agent_xyz"])
    with pytest.raises(GameTournamentError, match="no tournament to resume"):
        run_game_tournament("toy", out=tmp_path, resume=True)
    run_game_tournament("toy", [RandomToy], games=2, out=tmp_path, workers=1)
    with pytest.raises(GameTournamentError, match="already holds a tournament"):
        run_game_tournament("toy", [RandomToy], games=2, out=tmp_path, workers=1)
    with pytest.raises(GameTournamentError, match="differ from the stored pool"):
        run_game_tournament("toy", [FirstLegal], out=tmp_path, resume=True)
    with pytest.raises(GameTournamentError, match="cannot be sent to worker processes"):
        run_game_tournament("toy", [lambda: RandomToy()], games=2, workers=2)
    assert run_game_tournament("toy", [lambda: RandomToy()], games=2, workers=1).tally.games


@pytest.mark.ray
def test_ray_gives_the_same_games_as_the_local_pool(tmp_path, monkeypatch):
    pytest.importorskip("ray", reason="Ray is not installed (pip install 'spyglass[ray]')")
    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get(
        "PYTHONPATH")])))
    kw = dict(games=12, seed=5, chunk=4)
    # The toy game is a test module: Ray's workers find it through PYTHONPATH.
    on_ray = run_game_tournament("toy", ["toy_game.RandomToy", "toy_game.FirstLegal"],
                                 out=tmp_path / "ray", backend="ray", workers=2, **kw)
    local = run_game_tournament("toy", ["toy_game.RandomToy", "toy_game.FirstLegal"],
                                out=tmp_path / "local", workers=2, **kw)
    assert [a.to_dict() for a in on_ray.agents] == [a.to_dict() for a in local.agents]
    lines = {p: sorted((tmp_path / p / GAMES).read_text().splitlines()) for p in ("ray", "local")}
    assert lines["ray"] == lines["local"]
