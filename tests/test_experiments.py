"""``spyglass experiment fig1`` / ``beliefs`` (Cowling et al. 2015, §VII-A and §VII-D).

The design's budgets, the effects computed from hand-made counts, resuming and refusing
a mismatched directory, and a small seeded run of the real pipeline that checks the
direction of Cowling et al. 2015's inference effect (resistance with inference beats TRUEONLY spies
more often than without).
"""

from __future__ import annotations

import json

import numpy as np
import pytest

from spyglass.experiments.beliefs import panel_stats, truth_trajectory
from spyglass.experiments.fig1 import (
    HEADLINE,
    Configuration,
    configurations,
    run_configuration,
    run_fig1,
    summarize,
)


def test_ten_configurations_with_the_papers_budgets():
    confs = configurations()
    assert len(confs) == 10 and [c.key for c in confs[:len(HEADLINE)]] == list(HEADLINE)
    k = 5000
    for c in confs:
        # Cowling et al. 2015, §VII-A: 2K for the others
        iters = k if c.spy == "trueonly" else 2 * k
        assert c.spy_spec(k) == f"mtismcts:iterations={iters},bluff={c.spy}"
        assert c.resistance_spec(k).endswith(f"inference={c.resistance == 'inf'}")
    with pytest.raises(ValueError, match="unknown configuration"):
        configurations(["inf-nonsense"])


def test_summary_effects_from_hand_counts():
    s = summarize({"noinf-trueonly": (80, 100), "inf-trueonly": (20, 100),
                   "inf-bluff": (50, 100), "inf-pure": (40, 100)})
    rows = {r["configuration"]: r for r in s["rows"]}
    assert rows["inf-bluff"]["spy_win_rate"] == 0.5
    assert rows["inf-bluff"]["low"] < 0.5 < rows["inf-bluff"]["high"]
    eff = {e["effect"]: e for e in s["effects"]}
    inf = eff["inference vs TRUEONLY"]
    assert inf["difference_pp"] == pytest.approx(-60) and inf["relative"] == pytest.approx(-0.75)
    assert inf["paper_pp"] == -66.4 and inf["p_ztest"] < 1e-6
    bluff = eff["BLUFF over TRUEONLY"]
    assert bluff["difference_pp"] == pytest.approx(30) and bluff["ratio"] == pytest.approx(2.5)
    assert eff["PURE over TRUEONLY"]["ratio"] == pytest.approx(2.0)
    assert "SPLIT over TRUEONLY" not in eff  # not run: not reported


def test_small_seeded_fig1_inference_direction_resume_and_outputs(tmp_path, cli):
    """Cowling, Whitehouse & Powley 2015, §VII-A, direction only: with inference the
    resistance lets TRUEONLY spies win less often than without (30 games per bar, K=1000)."""
    keys = ["inf-trueonly", "noinf-trueonly"]
    res = run_fig1(games=30, iterations=1000, seed=5, out=tmp_path, keys=keys, workers=1,
                   progress=False)
    rows = {r["configuration"]: r for r in res["rows"]}
    assert rows["inf-trueonly"]["spy_win_rate"] < rows["noinf-trueonly"]["spy_win_rate"]
    assert all(r["games"] == 30 for r in rows.values())
    for name in ("fig1.csv", "fig1.json", "fig1.png"):
        assert (tmp_path / name).stat().st_size > 0
    stored = json.loads((tmp_path / "fig1.json").read_text())
    assert stored["rules"] == "forced" and len(stored["rows"]) == 2
    # Same seed in every bar: the effect is tested on the 30 paired games (McNemar).
    (inference,) = res["effects"]
    assert inference["test"] == "mcnemar" and inference["pairs"] == 30
    only_a, only_b = inference["discordant_a_b"]
    assert only_a - only_b == round(30 * (inference["rate_a"] - inference["rate_b"]))
    assert inference["p_holm"] == inference["p"]  # a family of one
    # Every spy configuration equally often (the balanced design).
    recs = [json.loads(line) for line in
            (tmp_path / "inf-trueonly" / "games.jsonl").read_text().splitlines()]
    pairs = [tuple(r["roles"]["spies"]) for r in recs]
    assert len(set(pairs)) == 10 and all(pairs.count(p) == 3 for p in set(pairs))
    # A finished bar is reused, not replayed; a different design is refused.
    again = run_configuration(Configuration("inf", "trueonly"), games=30, iterations=1000,
                              seed=5, out=tmp_path, progress=False)
    assert len(again) == 30 and sum(again.values()) == rows["inf-trueonly"]["wins"]
    with pytest.raises(ValueError, match="different run"):
        run_configuration(Configuration("inf", "trueonly"), games=30, iterations=999,
                          seed=5, out=tmp_path, progress=False)
    # The belief trajectories of those games (Figs 4-5): start at 1/6, mission results
    # at whole x; hard constraints only never drop below 1/6 (the truth is never excluded).
    for key in keys:
        recs = [json.loads(line) for line in
                (tmp_path / key / "games.jsonl").read_text().splitlines()]
        for rec in recs:
            x, p = truth_trajectory(rec)
            assert x[0] == 0 and p[0] == pytest.approx(1 / 6, abs=1e-4)
            assert np.all(np.diff(x) > 0) and x[-1] <= 5
            if key.startswith("noinf"):
                assert np.all(p >= 1 / 6 - 1e-4)
        stats = panel_stats(recs)
        assert stats["games"] == 30
    # The CLI reuses the finished bars and prints the table.
    out = cli("experiment", "fig1", "--games", "30", "--iterations", "1000", "--seed", "5",
              "--out", tmp_path, "--only", "inf-trueonly", "--only", "noinf-trueonly")
    assert out.exit_code == 0, out.output
    assert "inf-trueonly" in out.output and "inference vs" in out.output


def test_cli_names_bad_input(tmp_path, cli):
    out = cli("experiment", "fig1", "--games", "0", "--out", tmp_path)
    assert out.exit_code == 2 and "positive" in out.output
    out = cli("experiment", "fig1", "--only", "inf-nope", "--out", tmp_path)
    assert out.exit_code == 2 and "unknown configuration" in out.output


@pytest.mark.slow
def test_fig1_headline_effects_are_significant(tmp_path):
    """Cowling, Whitehouse & Powley 2015, §VII-A at K=5000, 200 games per bar (the run in
    docs/reproduction.md): inference cuts TRUEONLY's win rate; BLUFF and PURE beat TRUEONLY
    against inference."""
    res = run_fig1(games=200, iterations=5000, seed=1, out=tmp_path, progress=False,
                   keys=["inf-trueonly", "noinf-trueonly", "inf-bluff", "inf-pure"])
    eff = {e["effect"]: e for e in res["effects"]}
    assert eff["inference vs TRUEONLY"]["difference_pp"] < -40
    assert eff["inference vs TRUEONLY"]["p_holm"] < 1e-6
    for name in ("BLUFF over TRUEONLY", "PURE over TRUEONLY"):
        assert eff[name]["test"] == "mcnemar" and eff[name]["pairs"] == 200
        assert eff[name]["difference_pp"] > 0 and eff[name]["p_holm"] < 0.05, eff[name]


def test_fig1_group_sequential_run_stops_at_a_declared_look(tmp_path):
    """Issue 28, item 4: a run that may grow declares its looks up front; every bar is
    played to the next look only while an effect is undecided, and the stored file keeps
    the per-game outcomes from which the ledger redoes each look."""
    from spyglass.experiments.ledger import read_fig1_effect

    keys = ["inf-trueonly", "noinf-trueonly"]
    res = run_fig1(games=30, looks=(10, 20, 30), iterations=200, seed=5, out=tmp_path,
                   keys=keys, workers=1, progress=False)
    design = res["design"]
    (e,) = design["effects"].values()
    looks = len(e["z"])
    # played to the look where the effect was decided (or to the last)
    assert res["games"] == design["sizes"][looks - 1]
    assert e["finished"] and (e["stopped_at"] == looks or looks == 3)
    stored = json.loads((tmp_path / "fig1.json").read_text())
    assert all(len(v) == res["games"] for v in stored["outcomes"].values())
    for k, n in enumerate(design["sizes"][:looks]):  # the ledger's reading of each look
        ev = read_fig1_effect(str(tmp_path / "fig1.json"), "inference vs TRUEONLY", upto=n)
        assert ev["estimate"] / ev["se"] == pytest.approx(e["z"][k], rel=1e-6)
    with pytest.raises(ValueError, match="last look"):
        run_fig1(games=30, looks=(10, 20), iterations=200, seed=5, out=tmp_path, keys=keys)
    with pytest.raises(ValueError, match="balanced"):
        run_fig1(games=30, looks=(8, 30), iterations=200, seed=5, out=tmp_path, keys=keys)


def test_compare_runs_pairs_two_stored_runs_bar_by_bar():
    """The ψ-count comparison of docs/reproduction.md, recomputed from its stored files."""
    from pathlib import Path

    from spyglass.experiments.fig1 import compare_runs

    fig = Path(__file__).resolve().parent.parent / "docs" / "figures"
    rows = {r["configuration"]: r for r in compare_runs(fig / "psi_counts_k2000_all.json",
                                                        fig / "psi_counts_k2000_phase1.json")}
    assert set(rows) == {"inf-split", "inf-twostep", "inf-bluff"}
    bluff = rows["inf-bluff"]
    assert bluff["pairs"] == 200 and bluff["discordant_a_b"] == [40, 55]
    assert bluff["difference_pp"] == pytest.approx(-7.5)
    assert all(r["p_holm"] >= r["p_mcnemar"] for r in rows.values())
