"""The tournament_vienna benchmark's side-by-side run of the 2012 framework (optional)."""

from __future__ import annotations

import sys

import pytest

from spyglass.bench import tournament_speed as ts


@pytest.fixture
def fast_spyglass(monkeypatch):
    # The Spyglass side is timed elsewhere; here it is a fixed 2 s wall / 1 s CPU.
    monkeypatch.setattr(ts, "_vienna_run", lambda games: (2.0, 1.0))
    monkeypatch.setattr(ts, "vienna_rate", lambda games: games / 2.0)


def test_without_the_variable_only_spyglass_is_measured(fast_spyglass, monkeypatch):
    monkeypatch.delenv(ts.FRAMEWORK_VARIABLE, raising=False)
    assert ts.tournament_vienna_speed(quick=True) == {"tournament_vienna_games_per_s": 150.0}


def test_a_folder_that_is_no_checkout_is_a_clear_error(fast_spyglass, monkeypatch, tmp_path):
    monkeypatch.setenv(ts.FRAMEWORK_VARIABLE, str(tmp_path))
    with pytest.raises(FileNotFoundError, match="SPYGLASS_2012_FRAMEWORK=.*competition.py"):
        ts.tournament_vienna_speed(quick=True)


def fake_checkout(root, script):
    (root / "bots" / "1").mkdir(parents=True)
    for spec in ts.VIENNA_2012:
        (root / "bots" / "1" / (spec.split(".")[0] + ".py")).write_text("")
    (root / "competition.py").write_text(script)
    return root


def test_a_checkout_is_timed_side_by_side(fast_spyglass, monkeypatch, tmp_path):
    # A stand-in competition.py (run by this interpreter) that checks its arguments.
    expected = ["300", "bots/1", *ts.VIENNA_2012]
    script = f"import sys\nassert sys.argv[1:] == {expected!r}\nprint('TOTAL')\n"
    monkeypatch.setenv(ts.FRAMEWORK_VARIABLE, str(fake_checkout(tmp_path, script)))
    monkeypatch.setenv(ts.PYTHON2_VARIABLE, sys.executable)
    out = ts.tournament_vienna_speed(quick=True)
    assert out["tournament_vienna_games_per_s"] == 150.0
    assert out["vienna_2012_framework_games_per_s"] > 0
    assert out["vienna_speedup_vs_2012_framework"] == pytest.approx(
        out["tournament_vienna_games_per_s"] / out["vienna_2012_framework_games_per_s"])
    assert out["tournament_vienna_games_per_cpu_s"] == 300.0
    assert out["vienna_cpu_speedup_vs_2012_framework"] > 0


def test_a_failing_framework_run_is_a_clear_error(fast_spyglass, monkeypatch, tmp_path):
    root = fake_checkout(tmp_path, "import sys\nsys.exit('no such bot')\n")
    monkeypatch.setenv(ts.FRAMEWORK_VARIABLE, str(root))
    monkeypatch.setenv(ts.PYTHON2_VARIABLE, sys.executable)
    with pytest.raises(RuntimeError, match="competition.py failed.*no such bot"):
        ts.tournament_vienna_speed(quick=True)
    monkeypatch.setenv(ts.PYTHON2_VARIABLE, str(tmp_path / "no-python2"))
    with pytest.raises(RuntimeError, match="SPYGLASS_PYTHON2=.*could not be run"):
        ts.tournament_vienna_speed(quick=True)
