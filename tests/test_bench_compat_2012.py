"""The compat benchmark's optional side-by-side run with the 2012 framework (issue 27):
the checkout's own Vienna files through compat, interleaved with its competition.py."""

from __future__ import annotations

import sys

import pytest

from spyglass.bench import compat as bc
from spyglass.bench import tournament_speed as ts


@pytest.fixture
def timed(monkeypatch):
    """Spyglass's side as fixed rates (it is timed for real by ``spyglass bench``)."""
    runs = []

    def rate(specs, games, isolate, folder, tag):
        runs.append((list(specs), games, isolate))
        return 100.0 if isolate == "none" else 20.0

    monkeypatch.setattr(bc, "compat_rate", rate)
    return runs


def test_without_the_variable_no_framework_is_run(timed, monkeypatch):
    monkeypatch.delenv(ts.FRAMEWORK_VARIABLE, raising=False)
    out = bc.compat_speed(quick=True)
    assert out["compat_games_per_cpu_s_inprocess"] == 100.0
    assert not any(key.startswith("compat_vienna") for key in out)


def test_a_folder_that_is_no_checkout_is_a_clear_error(timed, monkeypatch, tmp_path):
    monkeypatch.setenv(ts.FRAMEWORK_VARIABLE, str(tmp_path))
    with pytest.raises(FileNotFoundError, match="SPYGLASS_2012_FRAMEWORK=.*competition.py"):
        bc.compat_speed(quick=True)


def test_the_checkouts_files_are_played_beside_its_competition(timed, monkeypatch, tmp_path):
    (tmp_path / "bots" / "1").mkdir(parents=True)
    for spec in ts.VIENNA_2012:
        (tmp_path / "bots" / "1" / (spec.split(".")[0] + ".py")).write_text("")
    (tmp_path / "competition.py").write_text("print('TOTAL')\n")
    monkeypatch.setenv(ts.FRAMEWORK_VARIABLE, str(tmp_path))
    monkeypatch.setenv(ts.PYTHON2_VARIABLE, sys.executable)
    out = bc.compat_speed(quick=True)
    files = {tuple(specs) for specs, _, _ in timed if "/bots/1/" in specs[0]}
    assert files == {tuple(f"{tmp_path}/bots/1/{s.split('.')[0]}.py:{s.split('.')[1]}"
                           for s in ts.VIENNA_2012)}
    assert [(g, i) for s, g, i in timed if "/bots/1/" in s[0]] == [
        (10, "none"), (300, "none"), (100, "auto"), (300, "none"), (100, "auto")]
    fw = out["compat_vienna_framework_games_per_cpu_s"]
    assert fw > 0
    assert out["compat_vienna_inprocess_vs_2012_framework"] == pytest.approx(100.0 / fw)
    assert out["compat_vienna_isolated_vs_2012_framework"] == pytest.approx(20.0 / fw)
