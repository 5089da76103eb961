"""Warnings raised by bots and agents in worker processes reach the parent, named.

A worker's stderr goes nowhere (spyglass.arena.sandbox), so before this a warning of an
isolated bot (a deprecated call, a SyntaxWarning of a 2012 file, its own warnings.warn)
was lost. Each is now re-emitted in the referee's process with the bot's name.
"""

from __future__ import annotations

import os
import warnings
from pathlib import Path

import pytest

from spyglass.arena.agent_isolation import close_workers, isolated
from spyglass.arena.agent_spec import resolve_agent
from spyglass.arena.match import play_match
from spyglass.arena.sandbox import MAX_WARNINGS, Worker
from spyglass.games.registry import make
from spyglass.resistance.arena.referee import play_game

BOT_FILE = '''
import warnings

from spyglass.resistance.bots.random_bot import RandomBot


class OwnWarning(Warning):
    """A category of the bot's own: the parent must not import the bot's code for it."""


warnings.warn("warned while loading", FutureWarning)


class Warner(RandomBot):
    def vote(self, team):
        warnings.warn("voting with an old habit")
        warnings.warn("a warning class of its own", OwnWarning)
        return super().vote(team)


class Noisy(RandomBot):
    def vote(self, team):
        for i in range(100):
            warnings.warn(f"noise {i}")
        return super().vote(team)
'''


def _forwarded(caught, name: str) -> list[tuple[type, str, str]]:
    prefix = f"{name}: "
    return [(w.category, str(w.message)[len(prefix):], w.filename) for w in caught
            if str(w.message).startswith(prefix)]


def test_an_isolated_bots_warnings_are_reemitted_with_its_name(tmp_path):
    path = tmp_path / "warner.py"
    path.write_text(BOT_FILE)
    bots = [f"{path}:Warner", "randombot", "randombot", "randombot", "randombot"]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        result = play_game(bots, seed=3, isolate="auto")
    rec = result.to_record()
    assert "error" not in rec and rec["setup"]["isolated"] == [0]
    name = rec["setup"]["bots"][0]
    got = _forwarded(caught, name)
    # its own code's file and category; shown once per place, as in process
    assert (UserWarning, "voting with an old habit", str(path)) in got
    assert sum(m == "voting with an old habit" for _, m, _ in got) == 1
    assert (FutureWarning, "warned while loading", str(path)) in got
    # a category that only the bot's code defines arrives as a UserWarning naming it
    assert (UserWarning, "OwnWarning: a warning class of its own", str(path)) in got


def test_the_same_warnings_isolated_or_not(tmp_path):
    path = tmp_path / "warner.py"
    path.write_text(BOT_FILE)
    bots = [f"{path}:Warner", "randombot", "randombot", "randombot", "randombot"]
    runs = {}
    for mode in ("auto", "none"):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            rec = play_game(bots, seed=3, isolate=mode).to_record()
        name = rec["setup"]["bots"][0]
        # (the import-time warning is left out: the file may be loaded in this process too)
        runs[mode] = sorted(str(w.message).removeprefix(f"{name}: ").split(": ")[-1]
                            for w in caught if w.filename == str(path)
                            and "while loading" not in str(w.message))
    assert runs["auto"] == runs["none"] == ["a warning class of its own",
                                            "voting with an old habit"]


def test_a_flood_of_warnings_is_capped_per_answer(tmp_path):
    path = tmp_path / "noisy.py"
    path.write_text(BOT_FILE)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        rec = play_game([f"{path}:Noisy"] + ["randombot"] * 4, seed=3,
                        isolate="auto").to_record()
    got = _forwarded(caught, rec["setup"]["bots"][0])
    noise = [m for _, m, _ in got if m.startswith("noise ")]
    assert len(noise) == MAX_WARNINGS  # the first vote's; later votes repeat them (shown once)
    assert any("more warning(s) in this call were not forwarded" in m for _, m, _ in got)


def test_warnings_as_errors_leave_the_worker_usable(tmp_path, monkeypatch):
    """With the caller's ``-W error``, a forwarded warning raises after every answer of the
    call was read: the next call gets its own answer, not a stale one."""
    (tmp_path / "host_mod.py").write_text(
        "import warnings\n"
        "class Host:\n"
        "    def __init__(self, init):\n"
        "        pass\n"
        "    def call(self, method, args):\n"
        "        if method == 'warn':\n"
        "            warnings.warn('careful')\n"
        "        return [method, args]\n"
        "def make(init):\n"
        "    return Host(init)\n")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(
        filter(None, [str(tmp_path), os.environ.get("PYTHONPATH")])))
    worker = Worker("host_mod:make", None, name="hosted")
    try:
        worker.post("warn", [1], timeout=30)
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            with pytest.raises(UserWarning, match="hosted: careful"):
                worker.call("quiet", [2], timeout=30)
        assert worker.call("quiet", [3], timeout=30) == ["quiet", [3]]
    finally:
        worker.kill()


AGENT_FILE = '''
import warnings

from spyglass.agents.random_agent import RandomAgent


class WarningAgent(RandomAgent):
    def act(self, view, legal):
        warnings.warn("acting on a hunch", RuntimeWarning)
        return super().act(view, legal)
'''


def test_an_isolated_agents_warnings_are_reemitted_with_its_label(tmp_path):
    path = tmp_path / "warning_agent.py"
    path.write_text(AGENT_FILE)
    game = make("phantom", m=3, n=3, k=3)
    spec = isolated(resolve_agent(f"{path}:WarningAgent"), timeout=60)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("default")
            rec = play_match(game, [spec, "random"], seed=1).to_record()
    finally:
        close_workers()
    assert rec.get("error") is None
    got = [(w.category, str(w.message)) for w in caught]
    assert (RuntimeWarning, f"{spec.label}: acting on a hunch") in got
    assert any(Path(w.filename) == path for w in caught)
