"""``spyglass experiment fig2`` / ``fig3`` (Cowling, Whitehouse & Powley 2015, §VII-B/C):
small seeded runs of the real pipeline (resume, refusal of a mismatched directory, paired
tests, outputs) and the sample-size helper."""

from __future__ import annotations

import json

import pytest

from spyglass import tournament
from spyglass.experiments.sweeps import games_needed, run_fig2, run_fig3
from spyglass.resistance.arena.table import TournamentError, extend_config


def test_fig2_small_run_resumes_and_pairs(tmp_path):
    kw = dict(games=20, spy_iterations=40, resistance_iterations=20, t1=[0, 20, 40], seed=3,
              out=tmp_path, workers=1, progress=False)
    res = run_fig2(**kw)
    assert [r["t1"] for r in res["rows"]] == [0, 20, 40]
    assert all(r["games"] == 20 for r in res["rows"])
    assert [t["comparison"] for t in res["tests"]] == ["T1=20 vs T1=0", "T1=40 vs T1=0",
                                                       "T1=40 vs T1=20"]
    assert all(t["pairs"] == 20 and t["p_holm"] >= t["p_mcnemar"] for t in res["tests"])
    assert res["trend_below_s"]["games"] == 20  # T1 = 0 and 20, below S = 40
    cfg = json.loads((tmp_path / "t1-20" / "tournament.json").read_text())["config"]
    assert cfg["bots"][0]["source"] == "mtismcts" and ["t1", 20] in cfg["bots"][0]["params"]
    assert (tmp_path / "fig2.png").stat().st_size > 0 and (tmp_path / "fig2.csv").exists()
    again = run_fig2(**kw)  # every point complete: read back, nothing played
    assert again["rows"] == res["rows"]
    with pytest.raises(ValueError, match="different run"):
        run_fig2(**{**kw, "seed": 4})
    with pytest.raises(ValueError, match="T1 values"):
        run_fig2(**{**kw, "t1": [50]})


def _lines(d):
    return (d / "games.jsonl").read_text().splitlines()


def test_points_grow_and_are_read_in_part(tmp_path):
    """A sweep run at 10 games per point, then grown to 20, equals a fresh run at 20 game
    by game (nothing replayed), and a point stored longer serves its first games."""
    kw = dict(spy_iterations=40, resistance_iterations=20, t1=[0, 40], seed=3,
              workers=1, progress=False)
    small = run_fig2(games=10, out=tmp_path / "grown", **kw)
    first = _lines(tmp_path / "grown" / "t1-0")
    grown = run_fig2(games=20, out=tmp_path / "grown", **kw)
    fresh = run_fig2(games=20, out=tmp_path / "fresh", **kw)
    assert all(r["games"] == 20 for r in grown["rows"])
    assert grown["rows"] == fresh["rows"] and grown["tests"] == fresh["tests"]
    lines = _lines(tmp_path / "grown" / "t1-0")
    assert lines[:10] == first and len(lines) == 20  # the first ten kept, not replayed
    assert sorted(lines) == sorted(_lines(tmp_path / "fresh" / "t1-0"))
    # Asked for fewer games than stored: the first 10, the same numbers as before.
    again = run_fig2(games=10, out=tmp_path / "grown", **kw)
    assert again["rows"] == small["rows"] and len(_lines(tmp_path / "grown" / "t1-0")) == 20
    # A point scheduled to 30 plays only what its first 20 lack.
    d = tmp_path / "grown" / "t1-40"
    extend_config(d, 30)
    run_fig2(games=20, out=tmp_path / "grown", **kw)
    assert len(_lines(d)) == 20
    assert json.loads((d / "tournament.json").read_text())["config"]["games"] == 30
    with pytest.raises(TournamentError, match="cannot shrink"):
        extend_config(d, 25)


def test_extend_refuses_a_schedule_that_would_change(tmp_path):
    # 2012's permutations model draws a random part-set at the end: 7 games of a set of
    # 1,200 are not the first 7 of 20.
    d = tmp_path / "perm"
    tournament.run(["randombot", "randombot"], games=7, seed=1, out=d, workers=1, progress=False)
    with pytest.raises(TournamentError, match="does not begin with the 7"):
        extend_config(d, 20)
    assert json.loads((d / "tournament.json").read_text())["config"]["games"] == 7


def test_fig3_small_run(tmp_path):
    res = run_fig3(games=12, budgets=[20, 40], variants=["trueonly", "bluff"], seed=2,
                   out=tmp_path, workers=1, progress=False)
    assert [(r["budget"], r["variant"]) for r in res["rows"]] == [
        (20, "trueonly"), (20, "bluff"), (40, "trueonly"), (40, "bluff")]
    assert [t["comparison"] for t in res["tests"]] == ["K=20: TRUEONLY vs BLUFF",
                                                       "K=40: TRUEONLY vs BLUFF"]
    assert "interaction" in res["bluff_vs_trueonly_trend"]
    assert json.loads((tmp_path / "fig3.json").read_text())["budgets"] == [20, 40]
    with pytest.raises(ValueError, match="unknown variant"):
        run_fig3(games=2, budgets=[20], variants=["twostep"], out=tmp_path, progress=False)


def test_games_needed_grows_as_the_effect_shrinks():
    assert games_needed(0.5, 0.4) < games_needed(0.5, 0.45) < games_needed(0.5, 0.48)
    assert 380 <= games_needed(0.5, 0.4) <= 395  # the textbook ~388 per arm


def test_cli_fig2_and_bad_input(cli, tmp_path):
    r = cli("experiment", "fig2", "--games", "6", "--spy-iterations", "30",
            "--resistance-iterations", "20", "--t1", "0,30", "--out", tmp_path / "f2",
            "--workers", "1")
    assert r.exit_code == 0, r.output
    assert "T1=30 vs T1=0" in r.output and (tmp_path / "f2" / "fig2.json").exists()
    r = cli("experiment", "fig3", "--budgets", "a,b", "--out", tmp_path / "f3")
    assert r.exit_code == 2 and "--budgets must be integers" in r.output
    r = cli("experiment", "fig3", "--variants", "nope", "--out", tmp_path / "f3")
    assert r.exit_code == 2 and "unknown variant" in r.output
