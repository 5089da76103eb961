"""Game-general agents in their own worker process (spyglass.arena.agent_isolation)."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

pytest.importorskip("spyglass.arena.sandbox", reason="needs the sandbox (issue 11)")

from spyglass.agents.base import Agent  # noqa: E402
from spyglass.arena.agent_isolation import (  # noqa: E402
    IsolatedAgent,
    close_workers,
    isolated,
    needs_isolation,
)
from spyglass.arena.agent_spec import AgentSpecError, resolve_agent  # noqa: E402
from spyglass.arena.match import play_match  # noqa: E402
from spyglass.arena.tournament import run_game_tournament  # noqa: E402
from spyglass.games.registry import make  # noqa: E402


class Sleeper(Agent):
    """Never answers in time."""

    agent_name = "sleeper"

    def act(self, view, legal):
        time.sleep(60)
        return legal[0]


class Bad(Agent):
    agent_name = "bad"

    def act(self, view, legal):
        return 1.5


@pytest.fixture(autouse=True)
def tests_importable(monkeypatch):
    """Worker processes import this module's agents from the tests directory."""
    here = str(Path(__file__).parent)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [here, os.environ.get(
        "PYTHONPATH")])))
    yield
    close_workers()


@pytest.mark.parametrize("agents", [["random", "test_match_every_game.Logger"],
                                    ["random", "random"]])
def test_an_isolated_game_is_the_same_game(agents):
    game = make("phantom", m=3, n=3, k=3)
    plain_run = play_match(game, agents, seed=4).to_record()
    boxed = [isolated(resolve_agent(a), timeout=60) for a in agents]
    iso_run = play_match(game, boxed, seed=4, labels=["random", "logger"]).to_record()
    assert iso_run["actions"] == plain_run["actions"] and iso_run["rewards"] == plain_run[
        "rewards"]
    assert isinstance(boxed[0].make(), IsolatedAgent)
    assert iso_run["isolated"] == [0, 1] and plain_run["isolated"] == []


def test_overruns_and_bad_answers_are_errors_naming_the_agent():
    game = make("phantom", m=3, n=3, k=3)
    t0 = time.perf_counter()
    spec = isolated(resolve_agent("test_agent_isolation.Sleeper"), timeout=1.0)
    err = play_match(game, ["random", spec], seed=1).error
    assert err.seat == 1 and "did not answer within 1s" in err.reason
    assert time.perf_counter() - t0 < 30
    bad = isolated(resolve_agent("test_agent_isolation.Bad"), timeout=30)
    err = play_match(game, [bad, "random"], seed=1).error
    assert err.seat == 0 and "float" in err.reason


AGENT_FILE = """
from spyglass.agents.base import Agent

class Last(Agent):
    def act(self, view, legal):
        return legal[-1]
"""


def test_which_agents_are_isolated(tmp_path):
    (tmp_path / "last.py").write_text(AGENT_FILE)
    from_file = resolve_agent(str(tmp_path / "last.py"))
    installed = resolve_agent("test_agent_isolation.Bad")
    builtin = resolve_agent("random")
    assert needs_isolation(from_file, "auto")
    assert not needs_isolation(installed, "auto") and not needs_isolation(builtin, "auto")
    assert needs_isolation(builtin, "all") and not needs_isolation(from_file, "none")
    game = make("phantom", m=3, n=3, k=3)
    here = play_match(game, [from_file, "random"], seed=6).to_record()
    there = play_match(game, [isolated(from_file, 60), "random"], seed=6,
                       labels=["Last", "random"]).to_record()
    assert here["actions"] == there["actions"]
    with pytest.raises(AgentSpecError, match="Python object"):
        isolated(resolve_agent(lambda: Bad()))


def test_an_isolated_tournament(tmp_path):
    res = run_game_tournament("phantom", ["random", "test_match_every_game.Logger"],
                              options={"m": 3, "n": 3, "k": 3}, games=4, seed=2,
                              workers=1, isolate="auto")
    ref = run_game_tournament("phantom", ["random", "test_match_every_game.Logger"],
                              options={"m": 3, "n": 3, "k": 3}, games=4, seed=2, workers=1)
    assert res.tally.games == 4
    assert [a.to_dict() for a in res.agents] == [a.to_dict() for a in ref.agents]


def test_the_command_line_isolates_any_game(cli):
    import typer.main

    from spyglass.cli.app import app

    cli("games")  # loads every command
    names = {p.name for p in typer.main.get_command(app).commands["game"].params}
    if "isolate" not in names:
        pytest.skip("the game command has no --isolate option in this tree")
    args = ["game", "--game", "phantom", "--seed", "3", "-o", "m=3", "-o", "n=3", "-o", "k=3"]
    plain_run = cli(*args, "--isolate", "none")
    boxed = cli(*args, "--isolate", "all")
    assert boxed.exit_code == 0 and boxed.output == plain_run.output
    r = cli(*args, "--agent", "random", "--agent", "test_agent_isolation.Sleeper",
            "--time-limit", "0.2")
    assert r.exit_code == 1 and "did not answer within" in r.output


def test_one_isolation_policy_for_both_apis():
    """Issue 27: The Resistance's bots and every game's agents are isolated by one rule
    (spyglass.arena.sandbox.isolates) from one notion of a file source; a module path that
    merely contains ".py" is not a file."""
    from spyglass.arena.sandbox import check_isolation, isolates
    from spyglass.naming import is_file_source
    from spyglass.resistance.arena.entrants import spec_trusted
    from spyglass.resistance.arena.spec import BotSpec

    assert is_file_source("bots/x.py") and is_file_source("x.py:Bot:k=1")
    assert not is_file_source("pkg.python_bots.Bot") and not is_file_source("random")
    assert not spec_trusted(BotSpec("bots/x.py:Bot")) and spec_trusted(BotSpec("logicalbot"))
    assert [isolates(m, f) for m in ("auto", "all", "none") for f in (True, False)] == [
        True, False, True, True, False, False]
    with pytest.raises(ValueError, match="isolate must be one of auto, all, none"):
        check_isolation("some")
