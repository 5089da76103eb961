"""The referee's contract on every registered game (plus the toy game): an agent is given
exactly its own seat's view and the moves as its seat observed them, nothing else; the
game record replays to the same final state; the same seed gives the same record.

Together with the games' own contract that a view holds only what its seat knows (two
states that differ only in another seat's hidden information give equal views and
observation keys), this is the no-leak property end to end.
"""

from __future__ import annotations

import importlib

import numpy as np
import pytest

from spyglass.agents.base import Agent
from spyglass.arena.history import replay_history
from spyglass.arena.match import play_match
from spyglass.games import registry

GAMES = [*registry.names(), "toy"]


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "toy_game:SecretNumbers")


def _game(name: str):
    module = registry.GAMES.get(name, "toy_game:SecretNumbers").partition(":")[0]
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and module.startswith(exc.name):
            pytest.skip(f"game {name!r} is not in this tree yet ({module})")
        raise
    return registry.make(name)


class Logger(Agent):
    """Random legal moves from its seed; keeps every input it is given."""

    agent_name = "logger"

    def start(self, game, seat, view, seed):
        super().start(game, seat, view, seed)
        self.rng = np.random.default_rng(seed)
        self.log = [("start", view.copy(), view.flags.writeable)]

    def observe(self, obs, actor, view):
        self.log.append(("observe", obs, actor, view.copy(), view.flags.writeable))

    def act(self, view, legal):
        self.log.append(("act", view.copy(), list(legal), view.flags.writeable))
        return legal[int(self.rng.integers(len(legal)))]


@pytest.mark.parametrize("name", GAMES)
def test_agents_get_exactly_their_views_and_observations(name):
    game = _game(name)
    agents = [Logger() for _ in range(game.n_players)]
    result = play_match(game, agents, seed=7)
    assert result.error is None, result.error
    rec = result.to_record()
    # Rebuild the game independently and compute what each seat should have been told.
    state = np.array(game.new_state(7), dtype=np.int64)
    k = game.kernel
    expected = [[("start", game.view(state, j))] for j in range(game.n_players)]
    for seat, action in rec["actions"]:
        expected[seat].append(("act", game.view(state, seat), game.legal_actions(state)))
        obs = [int(k.observe(state, action, j)) for j in range(game.n_players)]
        k.apply(state, action)
        for j in range(game.n_players):
            expected[j].append(("observe", obs[j], seat, game.view(state, j)))
    for j, agent in enumerate(agents):
        assert len(agent.log) == len(expected[j])
        for got, want in zip(agent.log, expected[j], strict=True):
            assert got[0] == want[0]
            assert got[-1] is False  # read-only
            if got[0] == "start":
                assert np.array_equal(got[1], want[1])
            elif got[0] == "act":
                assert np.array_equal(got[1], want[1]) and got[2] == want[2]
            else:
                assert got[1:3] == want[1:3] and np.array_equal(got[3], want[3])
    assert np.array_equal(replay_history(rec).state, state)


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_record(name):
    game = _game(name)
    a = play_match(game, [Logger() for _ in range(game.n_players)], seed=3).to_record()
    b = play_match(game, [Logger() for _ in range(game.n_players)], seed=3).to_record()
    assert a == b
