"""The Hearts head-to-head against OpenSpiel's ISMCTSBot: its statistics, and (when
OpenSpiel is installed) a small seeded run of the machinery, resumed and reproduced."""

from __future__ import annotations

import json

import pytest

from spyglass.bench.hearts_vs_openspiel import main, run, summarize


def _rec(cond: str, deal: int, swap: int, points: list[int]) -> dict:
    ours = [swap, swap + 2]
    return {"condition": cond, "deal": deal, "swap": swap, "ours": ours, "points": points,
            "seconds": {"spyglass": 1.0, "openspiel": 2.0},
            "decisions": {"spyglass": 10, "openspiel": 10}, "our_iterations": 100}


def test_summary_pairs_the_two_seatings_of_a_deal():
    recs = [
        # deal 1: ours take 1 + 0 then 0 + 1 points, theirs 12 + 13 then 13 + 12.
        _rec("iterations", 1, 0, [1, 12, 0, 13]), _rec("iterations", 1, 1, [13, 0, 12, 1]),
        # deal 2: ours 10 + 10 then 6 + 0, theirs 6 + 0 then 10 + 10: a tie.
        _rec("iterations", 2, 0, [10, 6, 10, 0]), _rec("iterations", 2, 1, [10, 6, 10, 0]),
        # deal 3: a shot moon by theirs (0) in one seating, ours 2 + 24 in the other.
        _rec("iterations", 3, 0, [26, 0, 26, 26]), _rec("iterations", 3, 1, [0, 2, 0, 24]),
        # deal 4 has one seating only: left out of the paired statistics.
        _rec("iterations", 4, 0, [0, 13, 0, 13]),
    ]
    s = summarize(recs)["iterations"]
    assert s["deals"] == 3 and s["games"] == 6
    d = s["difference"]
    # Per deal: ours minus theirs, mean points per seat over both seatings.
    want = [(1 + 0 + 0 + 1) / 4 - (12 + 13 + 13 + 12) / 4, 0.0,
            (26 + 26 + 2 + 24) / 4 - (0 + 26 + 0 + 0) / 4]
    assert d["mean"] == pytest.approx(sum(want) / 3)
    assert (d["deals_ours_better"], d["deals_tied"], d["deals_theirs_better"]) == (1, 1, 1)
    assert d["ci95"][0] < d["mean"] < d["ci95"][1]
    # First or equal first: each side in 3 of the 6 games.
    assert s["first_or_equal_first"] == {"spyglass": 3 / 6, "openspiel": 3 / 6}
    # Swapping the sides' seats negates every difference.
    flipped = [{**r, "ours": [p for p in range(4) if p not in r["ours"]]} for r in recs]
    f = summarize(flipped)["iterations"]["difference"]
    assert f["mean"] == pytest.approx(-d["mean"])
    assert f["p_paired_t"] == pytest.approx(d["p_paired_t"])


def test_run_rejects_bad_settings(tmp_path):
    with pytest.raises(ValueError, match="conditions"):
        run(tmp_path / "x.jsonl", 1, 10, 0.01, conditions=("fast",))
    with pytest.raises(ValueError, match="positive"):
        run(tmp_path / "x.jsonl", 0, 10, 0.01)


def test_head_to_head_runs_resumes_and_reproduces(tmp_path, capsys):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")
    out = tmp_path / "h2h.jsonl"
    first = run(out, deals=1, iterations=20, seconds=0.002, seed=5)
    assert [(r["condition"], r["deal"], r["swap"]) for r in first] == [
        ("iterations", 5, 0), ("iterations", 5, 1), ("time", 5, 0), ("time", 5, 1)]
    for r in first:
        assert sum(r["points"]) in (26, 78)  # 78: a shot moon
        assert r["ours"] == [r["swap"], r["swap"] + 2]
        assert r["decisions"]["spyglass"] > 0 and r["decisions"]["openspiel"] > 0
    lines = out.read_text().splitlines()
    # Resuming with more deals keeps the games played and adds the next deal's.
    more = run(out, deals=2, iterations=20, seconds=0.002, seed=5)
    assert out.read_text().splitlines()[:len(lines)] == lines
    assert len(more) == 8 and {r["deal"] for r in more[4:]} == {6}
    # Equal iterations: ours searched exactly the budget at each decision. (The games
    # are not reproducible as a whole: OpenSpiel 2.0.2's ISMCTSBot searches differently
    # from run to run with the same seed.)
    for r in first[:2]:
        assert r["our_iterations"] == 20 * r["decisions"]["spyglass"]
    assert first[2]["our_iterations"] > 0
    # Other settings on the same file are refused (exit 2 on the command line).
    with pytest.raises(ValueError, match="other settings"):
        run(out, deals=2, iterations=21, seconds=0.002, seed=5)
    assert main(["--out", str(out), "--deals", "2", "--iterations", "21",
                 "--seconds", "0.002", "--seed", "5", "--quiet"]) == 2
    assert main(["--out", str(out), "--summary"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["iterations"]["deals"] == 2 and summary["time"]["games"] == 4
