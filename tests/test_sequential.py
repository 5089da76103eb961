"""Group-sequential designs (issue 28, item 4): boundaries against the published tables,
the overall level and the stage-wise p-value by simulation, and the ledger applying a
declared design to stored per-game outcomes."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from spyglass.arena.sequential import GroupSequential


def test_boundaries_match_the_published_lan_demets_tables():
    # Lan & DeMets (1983) spending, five equally spaced looks, two-sided α = 0.05: the
    # values tabulated e.g. by Jennison & Turnbull (2000, ch. 7) and R's gsDesign.
    obf = GroupSequential((1, 2, 3, 4, 5)).boundaries
    assert obf == pytest.approx((4.877, 3.357, 2.680, 2.290, 2.031), abs=2e-3)
    pocock = GroupSequential((1, 2, 3, 4, 5), spending="pocock").boundaries
    assert pocock == pytest.approx((2.438, 2.427, 2.410, 2.397, 2.386), abs=2e-3)
    # one look is the fixed-size test
    assert GroupSequential((100,)).boundaries[0] == pytest.approx(1.959964, abs=1e-5)


def _simulate(design: GroupSequential, drift: float, runs: int, seed: int) -> np.ndarray:
    """Z statistics at each look of ``runs`` simulated trials (Brownian motion)."""
    rng = np.random.default_rng(seed)
    t = np.asarray(design.fractions)
    steps = rng.standard_normal((runs, len(t))) * np.sqrt(np.diff(t, prepend=0.0))
    s = np.cumsum(steps, axis=1) + drift * t
    return s / np.sqrt(t)


@pytest.mark.parametrize("spending", ["obrien-fleming", "pocock"])
def test_overall_level_and_stage_wise_p_by_simulation(spending):
    design = GroupSequential((300, 600, 1000), spending=spending)
    z = _simulate(design, 0.0, 20_000, seed=7)
    crossed = (np.abs(z) >= np.asarray(design.boundaries)).any(axis=1)
    # α = 0.05: the simulation's standard error is 0.0015
    assert abs(crossed.mean() - 0.05) < 0.005
    p = np.array([design.analyse(row).p for row in z[:2000]])
    assert ((p < 0.05) == crossed[:2000]).all()  # p < α exactly when a boundary is crossed
    assert abs((p < 0.2).mean() - 0.2) < 0.03  # and p is uniform under no effect


def test_obrien_fleming_keeps_nearly_the_fixed_tests_power():
    fixed, design = GroupSequential((1000,)), GroupSequential((300, 600, 1000))
    drift = 1.959964 + 0.841621  # 80% power for the fixed test
    power = [(np.abs(_simulate(d, drift, 20_000, seed=3)) >= np.asarray(d.boundaries))
             .any(axis=1).mean() for d in (fixed, design)]
    assert power[0] == pytest.approx(0.80, abs=0.01) and power[0] - power[1] < 0.02


def test_analyse_stops_at_the_first_crossing_and_refuses_bad_input():
    d = GroupSequential((100, 200, 300))
    r = d.analyse([1.0, 3.0, -9.0])  # the third look is not used after the second crossed
    assert (r.stopped_at, r.reject, r.z) == (2, True, 3.0) and r.p < 0.05
    going = d.analyse([1.0])
    assert not going.finished and going.p is None
    last = d.analyse([1.0, 1.0, 1.5])
    assert last.finished and not last.reject and last.p > 0.05
    assert d.analyse([math.inf]).stopped_at == 1
    for bad in ((100, 100), (0, 10), ()):
        with pytest.raises(ValueError, match="increasing"):
            GroupSequential(bad)
    with pytest.raises(ValueError, match="spending"):
        GroupSequential((1, 2), spending="haybittle")
    with pytest.raises(ValueError, match="declares 3"):
        d.analyse([0.0] * 4)


def _fig1_file(path, a_wins, b_wins):
    path.write_text(json.dumps({
        "rows": [{"configuration": k, "wins": sum(w), "games": len(w)}
                 for k, w in (("inf-pure", a_wins), ("inf-trueonly", b_wins))],
        "effects": [{"effect": "PURE over TRUEONLY", "a": "inf-pure", "b": "inf-trueonly"}],
        "outcomes": {"inf-pure": a_wins, "inf-trueonly": b_wins}}))


def test_ledger_applies_a_declared_design_to_stored_outcomes(tmp_path):
    from spyglass.experiments.ledger import compute
    from spyglass.experiments.ledger_claims import Claim

    claim = Claim(id="seq", source="cowling2015", where="", claim="", kind="direction",
                  reader="fig1_effect", args={"file": "f.json", "effect": "PURE over TRUEONLY"},
                  family="f", page="p.md", unit="games per bar", published_size=1000,
                  declared=300, sequential=(100, 200, 300))
    # 40 discordant pairs for a per 100 games and 10 for b: z ≈ 4.9 at the first look
    a = [1 if i % 100 < 40 else 0 for i in range(300)]
    b = [1 if 40 <= i % 100 < 50 else 0 for i in range(300)]
    _fig1_file(tmp_path / "f.json", a, b[:100] + [1] * 200)  # later games reversed
    (row,) = compute([claim], root=tmp_path)
    seq = row["evidence"]["sequential"]
    assert seq["stopped_at"] == 1 and row["n"] == 100 and row["verdict"] == "reproduced"
    # the same data with no early crossing: a weak effect decided only at the last look
    weak_a = [1 if i % 100 < 13 else 0 for i in range(300)]
    weak_b = [1 if 13 <= i % 100 < 20 else 0 for i in range(300)]
    _fig1_file(tmp_path / "f.json", weak_a, weak_b)
    (row,) = compute([claim], root=tmp_path)
    assert row["evidence"]["sequential"]["looks_seen"] == 3 and row["n"] == 300
    fixed = compute([Claim(**{**claim.__dict__, "sequential": None})], root=tmp_path)[0]
    # the design's p is not the fixed test's: three looks cost a little
    assert row["p_adjusted"] != fixed["p_adjusted"]
    # a run stopped between looks decides nothing yet
    _fig1_file(tmp_path / "f.json", weak_a[:250], weak_b[:250])
    (row,) = compute([claim], root=tmp_path)
    assert row["verdict"] == "too small to decide" and "in progress" in row["evidence"]["test"]
    with pytest.raises(ValueError, match="direction"):
        compute([Claim(**{**claim.__dict__, "kind": "magnitude", "published": 5.0})],
                root=tmp_path)
