"""The game-general referee (spyglass.arena.match) and action-history records
(spyglass.arena.history), on a toy hidden-information game (tests/toy_game.py)."""

from __future__ import annotations

import copy
import time

import numpy as np
import pytest
from toy_game import FirstLegal, RandomToy, Recorder, SecretNumbers

from spyglass.agents.base import Agent
from spyglass.arena.agent_spec import AgentSpecError, resolve_agent
from spyglass.arena.history import (
    HistoryError,
    is_history,
    replay_history,
    transcript_lines,
)
from spyglass.arena.match import check_action, derive_seed, play_match
from spyglass.games import registry


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "toy_game:SecretNumbers")


class Answer(Agent):
    """Answers a fixed value (whatever it is) at its first decision."""

    agent_name = "answer"

    def __init__(self, value):
        super().__init__()
        self.value = value

    def act(self, view, legal):
        return self.value


class Raises(Agent):
    agent_name = "raises"

    def act(self, view, legal):
        raise RuntimeError("boom")


class Slow(Agent):
    agent_name = "slow"

    def act(self, view, legal):
        time.sleep(0.05)
        return legal[0]


class Hangs(Agent):
    agent_name = "hangs"

    def act(self, view, legal):
        while True:
            time.sleep(0.01)


class CatchAll(Agent):
    """Tries to swallow the watchdog's interruption."""

    agent_name = "catchall"

    def act(self, view, legal):
        try:
            while True:
                time.sleep(0.01)
        except Exception:  # noqa: BLE001
            return legal[0]


class Scribbler(Agent):
    """Tries to write into the view it is given."""

    agent_name = "scribbler"

    def act(self, view, legal):
        view[0] = 99
        return legal[0]


class Cheat(Agent):
    agent_name = "cheat"
    omniscient = True

    def act(self, view, legal):
        self.seen = view.copy()
        return legal[0]


class MyInt(int):
    def __eq__(self, other):
        return True

    __hash__ = int.__hash__


def test_a_game_plays_to_the_end_and_replays():
    game = SecretNumbers(2)
    result = play_match(game, [RandomToy, FirstLegal], seed=5)
    assert result.ok and len(result.actions) == 4
    assert sum(result.rewards) == pytest.approx(1.0)
    rec = result.to_record()
    assert is_history(rec) and rec["version"] == 1
    rep = replay_history(rec)
    assert rep.rewards == result.rewards
    assert np.array_equal(rep.state, result.state)
    assert any("seat 1 (first)" in line for line in transcript_lines(rec))


def test_same_seed_same_game_and_different_seed_different_deals():
    game = SecretNumbers(3)
    a = play_match(game, [RandomToy] * 3, seed=11).to_record()
    b = play_match(game, [RandomToy] * 3, seed=11).to_record()
    assert a == b
    deals = {tuple(game.new_state(s)[3:6]) for s in range(20)}
    assert len(deals) > 5
    seeds = {derive_seed(11, 1, j) for j in range(3)}
    assert len(seeds) == 3
    assert derive_seed(5, 1, 0) != derive_seed(5 + 2**63, 1, 0)  # 64-bit seeds stay distinct
    assert play_match(game, [RandomToy] * 3, seed=2**64 - 1).ok


@pytest.mark.parametrize(
    ("value", "words"),
    [
        (True, "bool"),
        (np.bool_(True), "bool"),
        (1.0, "float"),
        ("1", "str"),
        (np.array([1]), "ndarray"),
        (MyInt(1), "int subclass"),
        (None, "NoneType"),
        (7, "not a legal action"),
    ],
)
def test_bad_answers_end_the_game_with_a_clear_error(value, words):
    result = play_match(SecretNumbers(2), [Answer(value), FirstLegal], seed=1)
    err = result.error
    assert err is not None and not result.ok
    assert (err.seat, err.decision, err.move, err.agent) == (0, "act", 0, "answer")
    assert words in err.reason
    rec = result.to_record()
    assert rec["error"]["seat"] == 0 and rec["rewards"] is None
    replay_history(rec)  # a game ended by an error still replays (its moves so far)


def test_numpy_integers_are_accepted_as_ints():
    assert check_action(np.int64(2), [1, 2, 3]) == (2, "")
    assert type(check_action(np.int32(2), [2])[0]) is int


def test_exception_timeouts_and_hangs():
    err = play_match(SecretNumbers(2), [FirstLegal, Raises], seed=1).error
    assert err.seat == 1 and "RuntimeError: boom" in err.reason and err.move == 1
    err = play_match(SecretNumbers(2), [Slow, FirstLegal], seed=1, time_limit=0.01).error
    assert err.seat == 0 and "over the time limit" in err.reason
    t0 = time.perf_counter()
    err = play_match(SecretNumbers(2), [FirstLegal, Hangs], seed=1, time_limit=0.05).error
    assert err.seat == 1 and "was stopped" in err.reason
    assert time.perf_counter() - t0 < 5
    err = play_match(SecretNumbers(2), [CatchAll, FirstLegal], seed=1, time_limit=0.05).error
    assert err.seat == 0 and "was stopped" in err.reason


def test_a_partial_game_is_kept():
    result = play_match(SecretNumbers(2, rounds=3), [FirstLegal, Raises], seed=2)
    assert result.actions == [(0, result.actions[0][1])]
    assert result.to_record()["actions"] == [list(result.actions[0])]


def test_views_are_read_only_copies():
    result = play_match(SecretNumbers(2), [Scribbler, FirstLegal], seed=3)
    assert result.error.seat == 0 and "read-only" in result.error.reason


def _inputs(initial, agents):
    """Play the toy game from a given initial state; return each agent's recorded inputs."""

    class Fixed(SecretNumbers):
        def new_state(self, seed):
            return initial.copy()

    result = play_match(Fixed(2), agents, seed=1)
    assert result.error is None, result.error
    return [getattr(a, "log", None) for a in agents]


def test_no_leak_through_the_referee():
    """Two deals that differ only in seat 1's secret give seat 0 identical inputs."""
    base = SecretNumbers(2).new_state(0)
    base[3], base[4] = 2, 0
    other = base.copy()
    other[4] = 3  # seat 1's secret differs; its moves (n1 then n1... ) stay legal below

    class Same(Agent):
        agent_name = "same"

        def act(self, view, legal):
            return 1  # legal for secrets 0 and 3

    r0, r1 = Recorder(), Recorder()
    log_a = _inputs(base, [r0, Same()])[0]
    log_b = _inputs(other, [r1, Same()])[0]
    assert log_a == log_b
    assert all(entry[-1] is False for entry in log_a if entry[0] != "act")
    # ... while seat 1 itself does see the difference
    s0, s1 = Recorder(), Recorder()
    _inputs(base, [Same(), s0])
    _inputs(other, [Same(), s1])
    assert s0.log != s1.log


def test_omniscient_agents_see_the_state_and_are_recorded():
    cheat = Cheat()
    result = play_match(SecretNumbers(2), [cheat, FirstLegal], seed=4)
    assert result.omniscient == (0,) and result.to_record()["omniscient"] == [0]
    assert len(cheat.seen) == SecretNumbers(2).state_size  # the full state, not a view


def test_instances_are_copied_per_game_and_specs_are_checked():
    proto = RandomToy()
    spec = resolve_agent(proto)
    assert spec.make() is not proto and isinstance(spec.make(), RandomToy)
    assert resolve_agent("toy_game.RandomToy:bias=0.5").make().settings == {"bias": 0.5}
    with pytest.raises(AgentSpecError, match="bias must be at most"):
        resolve_agent("toy_game.RandomToy:bias=2")
    with pytest.raises(AgentSpecError, match="unknown parameter"):
        resolve_agent("toy_game.RandomToy:speed=2")
    with pytest.raises(AgentSpecError, match="not an Agent"):
        resolve_agent(int)
    with pytest.raises(AgentSpecError, match="no agent named"):
        resolve_agent("no_such_agent_xyz")
    assert resolve_agent(lambda: RandomToy()).make().settings == {"bias": 0.0}


def test_agents_from_python_files(tmp_path):
    (tmp_path / "two.py").write_text(
        "from spyglass.agents.base import Agent\n"
        "from spyglass.params import Param\n"
        "class Low(Agent):\n"
        "    params = (Param('k', int, 0, low=0, high=3),)\n"
        "    def act(self, view, legal):\n"
        "        return legal[min(self.settings['k'], len(legal) - 1)]\n"
        "class High(Agent):\n"
        "    def act(self, view, legal):\n"
        "        return legal[-1]\n")
    path = str(tmp_path / "two.py")
    low = resolve_agent(f"{path}:Low:k=1")
    assert low.label == "Low:k=1" and low.make().settings == {"k": 1}
    assert resolve_agent(f"{path}:High").label == "High"
    assert play_match(SecretNumbers(2), [low, f"{path}:High"], seed=1).ok
    with pytest.raises(AgentSpecError, match="defines 2 Agent classes"):
        resolve_agent(path)
    with pytest.raises(AgentSpecError, match="no Agent class 'Mid'"):
        resolve_agent(f"{path}:Mid")
    with pytest.raises(AgentSpecError, match="does not exist"):
        resolve_agent(str(tmp_path / "none.py"))
    (tmp_path / "broken.py").write_text("raise RuntimeError('no')\n")
    with pytest.raises(AgentSpecError, match="RuntimeError: no"):
        resolve_agent(str(tmp_path / "broken.py"))


def test_bad_setups_raise():
    with pytest.raises(ValueError, match="2 seats"):
        play_match(SecretNumbers(2), [FirstLegal], seed=1)
    with pytest.raises(ValueError, match="time_limit"):
        play_match(SecretNumbers(2), [FirstLegal] * 2, seed=1, time_limit=0)
    with pytest.raises(ValueError, match="seed"):
        play_match(SecretNumbers(2), [FirstLegal] * 2, seed=-1)


# --- records ---------------------------------------------------------------------------
def _record():
    return play_match(SecretNumbers(3), [RandomToy] * 3, seed=9).to_record()


@pytest.mark.parametrize(
    ("corrupt", "message"),
    [
        (lambda r: r.update(version=2), "version 2 is not supported"),
        (lambda r: r.update(format="other"), "not a 'spyglass-game' record"),
        (lambda r: r.pop("actions"), "lacks actions"),
        (lambda r: r["actions"].pop(), "not over"),
        (lambda r: r["actions"][0].__setitem__(0, 1), "seat 0 was to act"),
        (lambda r: r["actions"][0].__setitem__(1, 9), "illegal"),
        (lambda r: r["actions"][1].__setitem__(1, "1"), "two integers"),
        (lambda r: r["actions"].append([0, 0]), "already over"),
        (lambda r: r.update(rewards=[1.0, 1.0, 1.0]), "differ from the rules"),
        (lambda r: r.update(options={"rounds": 7}), "cannot be set up"),
        (lambda r: r.update(game="nope"), "cannot be set up"),
        (lambda r: r["agents"].pop(), "one name per seat"),
    ],
)
def test_corrupted_records_fail_clearly(corrupt, message):
    rec = copy.deepcopy(_record())
    replay_history(rec)
    corrupt(rec)
    with pytest.raises(HistoryError, match=message):
        replay_history(rec)


def test_a_changed_seed_is_caught():
    rec = _record()
    caught = 0
    for seed in range(1, 30):
        try:
            replay_history(dict(rec, seed=rec["seed"] + seed))
        except HistoryError:
            caught += 1
    assert caught > 0  # another deal makes some recorded move illegal or the rewards differ
