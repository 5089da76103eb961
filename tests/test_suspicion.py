"""Suspicion inaccuracy (Taylor 2014, §4.5): the measure, its bookkeeping and the plot command."""

from __future__ import annotations

import math

import numpy as np
import pytest
from typer.testing import CliRunner

from spyglass.arena.records import append_records, iter_records
from spyglass.cli import _load_commands
from spyglass.cli.app import app
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.arena.suspicion import (
    by_mission,
    inaccuracies,
    inaccuracy,
    record_inaccuracies,
    seat_label,
    windowed,
)


def test_inaccuracy_is_the_seed_formula():
    # Taylor 2014, §4.5: i = (s - l)/(u - l) for resistance, 1 - that for spies
    assert inaccuracy(0.25, spy=False) == pytest.approx(0.25)
    assert inaccuracy(0.25, spy=True) == pytest.approx(0.75)
    assert inaccuracy(30, spy=False, lower=-50, upper=50) == pytest.approx(0.8)
    assert inaccuracy(30, spy=True, lower=-50, upper=50) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="lower < upper"):
        inaccuracy(0.5, spy=False, lower=1, upper=1)


def fake_record(spies, suspicion, bots=("a", "b", "c", "d", "e"), **extra):
    rec = {"setup": {"bots": list(bots), "players": len(bots)}, "roles": {"spies": list(spies)},
           "suspicion": suspicion, **extra}
    return rec


def test_record_inaccuracies_skip_spy_observers_but_count_their_games():
    rec = fake_record(
        spies=[1, 3],
        suspicion={
            "0": [{"mission": 1, "scores": {"1": 0.9, "2": 0.2, "3": 0.6, "4": 0.3}}],
            "1": [{"mission": 1, "scores": {"0": 0.0, "2": 0.0, "3": 1.0, "4": 0.0}}],
        },
    )
    counts: dict[str, int] = {}
    rows = record_inaccuracies(rec, 0, counts)
    assert counts == {"a": 1, "b": 1}  # the spy's game is kept in sequence...
    assert {r.observer for r in rows} == {"a"}  # ...but gives no statistics
    got = {r.subject_seat: r.inaccuracy for r in rows}
    assert got == pytest.approx({1: 0.1, 2: 0.2, 3: 0.4, 4: 0.3})
    assert all(r.mission == 1 and r.game == 0 for r in rows)


def test_seat_labels_merge_copies_and_deobfuscate_burst_names():
    rec = fake_record([], {}, bots=("magi", "magi#2", "anon000017", "x", "y"),
                      )
    rec["setup"]["sources"] = ["magi", "magi", "stalker", "x", "y"]
    assert seat_label(rec, 1) == "magi"
    assert seat_label(rec, 2) == "stalker"
    rec["tournament"] = {"players": ["Magi", "Magi", "Stalker:behaviours=perfect", "X", "Y"]}
    assert seat_label(rec, 2) == "Stalker:behaviours=perfect"


def test_by_mission_and_windows_average_games():
    recs = []
    for g in range(4):
        s = 0.1 * g
        recs.append(fake_record([1, 2], {"0": [
            {"mission": 1, "scores": {"1": 1 - s, "2": 1.0, "3": s, "4": 0.0}},
            {"mission": 2, "scores": {"1": 1.0, "2": 1.0, "3": 0.0, "4": 0.0}},
        ]}))
    rows = inaccuracies(recs)
    summary = {(s.observer, s.mission): s for s in by_mission(rows)}
    per_game = [np.mean([0.1 * g, 0, 0.1 * g, 0]) for g in range(4)]
    m1 = summary[("a", 1)]
    assert m1.mean == pytest.approx(np.mean(per_game)) and m1.games == 4 and m1.samples == 16
    assert m1.ci95 == pytest.approx(1.96 * np.std(per_game, ddof=1) / 2)
    assert summary[("a", 2)].mean == 0.0
    curves = {(c.mission, c.group): c for c in windowed(rows, 2, group_by="role")}
    spies = curves[(1, "spies")]
    assert spies.x.tolist() == [0.5, 2.5]
    assert spies.y == pytest.approx([np.mean([0, 0, 0.1, 0]), np.mean([0.2, 0, 0.3, 0])])
    assert curves[(1, "resistance")].y == pytest.approx([0.025, 0.125])
    with pytest.raises(ValueError, match="group_by"):
        windowed(rows, 2, group_by="colour")


def played_records(path, games=30, track=True):
    results = [play_game(["bounder", "rebounder", "randombot", "ruru", "invalidator"], seed=g,
                         track_suspicion=track) for g in range(games)]
    append_records(path, results)
    return list(iter_records(path))


def test_inaccuracies_from_real_games_match_roles_and_fall_by_mission(tmp_path):
    records = played_records(tmp_path / "games.jsonl", games=40)
    rows = inaccuracies(records)
    assert rows and {r.observer for r in rows} == {"bounder", "rebounder", "invalidator"}
    for r in rows:
        rec = records[r.record]
        assert r.observer_seat not in rec["roles"]["spies"]
        assert r.subject_spy == (r.subject_seat in rec["roles"]["spies"])
        assert r.inaccuracy == pytest.approx(1 - r.suspicion if r.subject_spy else r.suspicion)
        assert 0.0 <= r.inaccuracy <= 1.0
    # a deduction bot knows more after every mission (Taylor 2014, §5.4: inaccuracy falls)
    bounder = [s for s in by_mission(rows) if s.observer == "bounder"]
    assert bounder[0].mean > bounder[-1].mean + 0.1


runner = CliRunner()


def test_plot_suspicion_writes_pngs(tmp_path):
    _load_commands()
    played_records(tmp_path / "games.jsonl", games=25)
    out = runner.invoke(app, ["plot", "suspicion", str(tmp_path), "--window", "5",
                              "--by", "subject"])
    assert out.exit_code == 0, out.output
    for name in ("suspicion_by_mission.png", "suspicion_bounder.png",
                 "suspicion_rebounder.png", "suspicion_invalidator.png"):
        png = tmp_path / name
        assert png.is_file() and png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "bounder" in out.output


def test_plot_suspicion_clear_errors(tmp_path):
    _load_commands()
    out = runner.invoke(app, ["plot", "suspicion", str(tmp_path / "nowhere")])
    assert out.exit_code == 2 and "no such results directory" in out.output
    out = runner.invoke(app, ["plot", "suspicion", str(tmp_path)])
    assert out.exit_code == 2 and "holds no games.jsonl" in out.output
    played_records(tmp_path / "games.jsonl", games=3, track=False)
    out = runner.invoke(app, ["plot", "suspicion", str(tmp_path)])
    assert out.exit_code == 2 and "no suspicion data" in out.output
    assert not (tmp_path / "suspicion_by_mission.png").exists()


def test_windowed_leaves_gaps_where_an_observer_was_a_spy():
    recs = [fake_record([0, 1] if g == 1 else [1, 2],
                        {"0": [{"mission": 1, "scores": {"1": 1.0, "2": 0.5, "3": 0.0, "4": 0.0}}]})
            for g in range(3)]
    (curve,) = windowed(inaccuracies(recs), 1)
    assert curve.x.tolist() == [0.0, 1.0, 2.0]
    assert not math.isnan(curve.y[0]) and math.isnan(curve.y[1])
