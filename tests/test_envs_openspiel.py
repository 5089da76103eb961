"""Every registered game as an OpenSpiel game (spyglass.envs.register_openspiel): the game
types, OpenSpiel's own random-simulation test on each, information states and
resampling that keep what a seat knows, and an exploitability figure with OpenSpiel's tools
for Spyglass agents' policies on a small Phantom board."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel is not installed (crosscheck extra)")
from open_spiel.python import policy as os_policy  # noqa: E402
from open_spiel.python.algorithms import exploitability  # noqa: E402

from spyglass.envs import register_openspiel  # noqa: E402
from spyglass.games import registry  # noqa: E402

#: options that keep a random simulation short (one deal of Hearts and Spades)
SHORT = {"hearts": "(target=0)", "spades": "(target=0)", "backgammon": "(max_turns=60)",
         "cheat": "(max_rounds=12)"}
Type = pyspiel.GameType


@pytest.fixture(scope="module", autouse=True)
def registered():
    return register_openspiel()


def test_every_game_is_registered_with_its_type(registered):
    assert registered == [f"spyglass_{n}" for n in registry.names()]
    assert set(registered) <= set(pyspiel.registered_names())
    assert register_openspiel() == registered  # again: harmless
    for name in registry.names():
        cls = registry.game_class(name)
        t = pyspiel.load_game(f"spyglass_{name}").get_type()
        assert t.dynamics == Type.Dynamics.SEQUENTIAL
        assert t.utility == (Type.Utility.CONSTANT_SUM if cls.max_players == 2
                             else Type.Utility.GENERAL_SUM)
        perfect = t.information == Type.Information.PERFECT_INFORMATION
        assert perfect == (name in ("othello", "checkers"))
        dealt = t.chance_mode == Type.ChanceMode.EXPLICIT_STOCHASTIC
        assert dealt == (name not in ("phantom", "othello", "checkers"))


@pytest.mark.parametrize("name", registry.names())
def test_openspiel_random_simulation_test_passes(name):
    game = pyspiel.load_game(f"spyglass_{name}{SHORT.get(name, '')}")
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", ["minidoudizhu", "cheat", "resistance", "phantom"])
def test_two_player_rewards_add_up_and_resampling_keeps_the_information_state(name):
    game = pyspiel.load_game(f"spyglass_{name}{SHORT.get(name, '')}")
    rng = np.random.default_rng(3)
    state = game.new_initial_state()
    uniform = iter(rng.random(10_000)).__next__
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.integers(len(outcomes))][0])
            continue
        p = state.current_player()
        again = state.resample_from_infostate(p, uniform)
        assert again.information_state_string(p) == state.information_state_string(p)
        assert again.information_state_tensor(p) == state.information_state_tensor(p)
        assert again.legal_actions() == state.legal_actions()
        state.apply_action(int(rng.choice(state.legal_actions())))
    if game.num_players() == 2:
        assert sum(state.returns()) == pytest.approx(1.0)


def test_information_states_are_perfect_recall_and_hide_the_deal():
    """Two deals that give seat 0 the same hand and seat 1 different ones: seat 0's
    information state is the same at the start, seat 1's differs."""
    game = pyspiel.load_game("spyglass_minidoudizhu(deals=200)")
    starts = [game.new_initial_state() for _ in range(game.max_chance_outcomes())]
    for i, s in enumerate(starts):
        s.apply_action(i)
    by_seat0: dict[str, list] = {}
    for s in starts:
        by_seat0.setdefault(s.information_state_string(0), []).append(s)
    same = [group for group in by_seat0.values() if len(group) > 1]
    assert same, "no two deals of 200 gave seat 0 the same hand"
    a, b = same[0][:2]
    assert a.information_state_string(1) != b.information_state_string(1)


def test_exploitability_of_spyglass_agents_with_openspiels_tools():
    """Phantom (3,1,2): a line of three squares, two in a row win. OpenSpiel's exploitability
    of the uniform policy, and of SO-ISMCTS's policy (its choices over 4 seeds at every
    information state): the search plays near a best response against every reply."""
    from spyglass.envs.openspiel_policy import agent_policy

    game = pyspiel.load_game("spyglass_phantom(m=3,n=1,k=2)")
    uniform = exploitability.exploitability(game, os_policy.UniformRandomPolicy(game))
    assert uniform == pytest.approx(1 / 6)
    so = exploitability.exploitability(game, agent_policy(game, "soismcts:iterations=200",
                                                          samples=4, seed=1))
    assert so < uniform / 4
