"""The paired, resumable ch. 8 runner (spyglass.experiments.icarus_paired), small and
seeded."""

from __future__ import annotations

import json

import numpy as np
import pytest

from spyglass.experiments import icarus_paired as P

CELLS = ["-", "E", "M"]


def test_cells_play_the_same_deals_and_are_seeded(tmp_path):
    a = P.run("minidoudizhu", 30, 3, tmp_path / "a.jsonl", seed=2, cells=CELLS)
    b = P.run("minidoudizhu", 30, 3, tmp_path / "b.jsonl", seed=2, cells=CELLS)
    assert a == b and len(a) == 9
    assert [(r["deal"], r["cell"]) for r in a] == [(i, c) for i in range(3) for c in CELLS]
    assert all(r["seat"] == r["deal"] % 2 and r["win"] in (0, 1) for r in a)


def test_a_restart_keeps_and_skips_the_games_on_file(tmp_path):
    path = tmp_path / "run.jsonl"
    fresh = P.run("minidoudizhu", 30, 3, tmp_path / "fresh.jsonl", seed=4, cells=CELLS)
    P.run("minidoudizhu", 30, 2, path, seed=4, cells=CELLS)
    with path.open("a") as f:  # a run killed while writing
        f.write('{"game": "minid')
    resumed = P.run("minidoudizhu", 30, 3, path, seed=4, cells=CELLS)
    assert sorted(map(json.dumps, resumed)) == sorted(map(json.dumps, fresh))


def test_dou_di_zhu_plays_the_enhanced_landlord(tmp_path):
    rows = P.run("doudizhu", 20, 2, tmp_path / "d.jsonl", seed=1, cells=["-", "E"])
    assert len(rows) == 4 and {r["seat"] for r in rows} == {0}


def test_backgammon_plays_both_colours_and_its_rave_cells_after_the_others(tmp_path):
    cells = P.cells_for("backgammon", figures=False)
    assert len(cells) == 16 and all("R" in c for c in cells[8:])  # the recorded cells first
    rows = P.run("backgammon", 2, 2, tmp_path / "bg.jsonl", seed=3, cells=["-", "R"])
    assert [(r["deal"], r["cell"], r["seat"]) for r in rows] == [
        (0, "-", 0), (0, "R", 0), (1, "-", 1), (1, "R", 1)]
    assert all(r["win"] in (0, 1) for r in rows)


def test_analysis_finds_a_planted_paired_effect():
    rows = [{"game": "g", "iterations": 1, "seed": 1, "cell": c, "deal": i,
             "win": int(("E" in c and i % 5 != 0) or (c != "E" and i % 3 == 0))}
            for c in P.cells_for("hearts", figures=False) for i in range(60)]
    res = P.analyse(rows)
    assert res["deals"] == 60 and res["rates"]["-"]["n"] == 60
    assert res["paired"]["E"]["diff"] > 0.3 and res["paired"]["E"]["mcnemar_p"] < 1e-3
    assert res["paired"]["M"]["diff"] == 0 and res["paired"]["M"]["mcnemar_p"] == 1.0
    for p in res["paired"].values():  # the interval goes with McNemar's test
        assert -1 <= p["low"] <= p["diff"] <= p["high"] <= 1
        assert (p["low"] > 0 or p["high"] < 0) == (p["mcnemar_p"] < 0.05)
    assert res["anova"]["E"]["p"] < 1e-6 and res["anova_blocked"]["E"]["p"] < 1e-6
    assert res["anova"]["L"]["p"] > 0.5
    assert "| E | `epic` |" in P.markdown(res)


def test_holm_corrects_the_table_and_the_figures_cells_as_two_families():
    rows = [{"game": "g", "iterations": 1, "seed": 1, "cell": c, "deal": i,
             "win": int(("E" in c and i % 5 != 0) or (c != "E" and i % 3 == 0))}
            for c in P.cells_for("hearts", figures=True) for i in range(60)]
    paired = P.analyse(rows)["paired"]
    table = [c for c in paired if c in P.TABLE_8_1]
    assert len(table) == 15 and len(paired) == 15 + len(P.FIGURE_CELLS)
    # Holm's smallest p is multiplied by the size of its family, never the other's
    for family in (table, list(P.FIGURE_CELLS)):
        ps = sorted((paired[c]["mcnemar_p"], paired[c]["holm_p"]) for c in family)
        assert ps[0][1] == pytest.approx(min(1.0, len(family) * ps[0][0]))
        assert all(q >= p for p, q in ps)
    assert paired["E"]["holm_p"] < 0.05 and paired["M"]["holm_p"] == 1.0
    line = next(x for x in P.markdown(P.analyse(rows)).splitlines() if x.startswith("| E |"))
    assert line.endswith(f"| {paired['E']['holm_p']:.3f} |")


def test_analysis_uses_only_the_deals_every_cell_played():
    rows = [{"game": "g", "iterations": 1, "seed": 1, "cell": c, "deal": i, "win": i % 2}
            for c in CELLS for i in range(4 if c == "-" else 3)]
    assert P.analyse(rows)["deals"] == 3
    # a figure cell stopped early does not shrink the table's deals
    rows += [{"game": "g", "iterations": 1, "seed": 1, "cell": "nast2", "deal": i,
              "win": 1} for i in range(2)]
    res = P.analyse(rows)
    assert res["deals"] == 3 and res["rates"]["E"]["n"] == 3
    assert res["rates"]["nast2"]["n"] == 2 and res["paired"]["nast2"]["n"] == 2


def test_bad_input_is_refused(tmp_path):
    with pytest.raises(ValueError, match="no ch. 8 set-up"):
        P.run("chess", 10, 1, tmp_path / "x.jsonl")
    with pytest.raises(ValueError, match="no games"):
        P.analyse([])
    with pytest.raises(SystemExit) as e:
        P.main(["run", "--game", "hearts", "--until", "noon", "--out", str(tmp_path / "x")])
    assert e.value.code == 2


@pytest.mark.slow
def test_a_small_table_with_figures_runs_and_plots(tmp_path):
    path = tmp_path / "mini.jsonl"
    P.main(["run", "--game", "minidoudizhu", "--iterations", "100", "--deals", "10",
            "--figures", "--out", str(path)])
    P.main(["table", str(path)])
    res = json.loads(path.with_suffix(".json").read_text())
    assert res["deals"] == 10 and len(res["rates"]) == 8 + len(P.FIGURE_CELLS)
    assert path.with_suffix(".png").stat().st_size > 1000


def test_the_table_command_writes_the_analysis_and_the_plot(tmp_path, capsys):
    path = tmp_path / "g.jsonl"
    rng = np.random.default_rng(5)
    rows = [{"game": "hearts", "iterations": 5, "seed": 1, "cell": c, "deal": i,
             "win": int(rng.integers(2))}
            for i in range(12) for c in P.cells_for("hearts", figures=True)]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    P.main(["table", str(path)])
    res = json.loads(path.with_suffix(".json").read_text())
    assert res["deals"] == 12 and set(res["anova_blocked"]) >= {"E", "M", "L"}
    assert path.with_suffix(".png").stat().st_size > 1000
    assert "| mast-ucb | `mast-ucb` |" in capsys.readouterr().out


def test_hearts_is_played_to_50_by_default_and_single_deals_on_request(tmp_path):
    """Whitehouse 2014 plays Hearts to 50 points (§4.2.8); single deals are our earlier
    departure (`--single-deal`), kept apart on file and in the analysis."""
    from spyglass.experiments.icarus import game_options

    assert game_options("hearts") == {} and game_options("hearts", True) == {"target": 0}
    with pytest.raises(ValueError, match="single-deal"):
        game_options("othello", True)
    path = tmp_path / "h.jsonl"
    whole = P.run("hearts", 5, 1, path, seed=3, cells=["-"])
    assert whole[0]["whole_game"] is True
    both = P.run("hearts", 5, 1, path, seed=3, cells=["-"], single_deal=True)
    assert len(both) == 2 and "whole_game" not in both[1]  # played again, as a single deal
    with pytest.raises(ValueError, match="mixes"):
        P.analyse(both)
