"""Every registered game as a PettingZoo AEC environment (spyglass.envs, the ``envs`` extra):
PettingZoo's own API and seed tests, and Spyglass agents playing inside the environment
exactly the games the referee and ``spyglass tournament`` play from the same seeds."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="PettingZoo is not installed (the envs extra)")
from pettingzoo.test import api_test, seed_test  # noqa: E402

from spyglass.arena.match import play_match  # noqa: E402
from spyglass.envs import AgentPolicy, pettingzoo_env, play_game  # noqa: E402
from spyglass.games import registry  # noqa: E402


@pytest.mark.parametrize("name", registry.names())
def test_pettingzoo_api_and_seed_tests_pass(name):
    with warnings.catch_warnings():
        # PettingZoo suggests a Box observation space; ours is its documented Dict of the
        # view and the action mask (as PettingZoo's own classic games use).
        warnings.simplefilter("ignore", UserWarning)
        api_test(pettingzoo_env(name, render_mode="ansi"), num_cycles=60)
        seed_test(lambda: pettingzoo_env(name), num_cycles=60)


def test_observations_are_the_seats_views_and_masks_the_legal_actions():
    env = pettingzoo_env("phantom")
    env.reset(seed=11)
    game = env.game
    for agent in env.agent_iter():
        obs, _, done, _, info = env.last()
        if done:
            env.step(None)
            continue
        j = env.possible_agents.index(agent)
        state = env.full_state()
        assert np.array_equal(obs["observation"], game.view(state, j))
        assert np.flatnonzero(obs["action_mask"]).tolist() == game.legal_actions(state)
        assert info["legal"] == game.legal_actions(state)
        assert info["text"] == game.view_text(game.view(state, j), j)
        other = env.possible_agents[1 - j]
        assert not env.observe(other)["action_mask"].any()
        env.step(info["legal"][0])
    assert env.agents == []


def test_illegal_action_is_refused_with_the_legal_ones():
    env = pettingzoo_env("phantom")
    env.reset(seed=1)
    env.step(0)
    with pytest.raises(ValueError, match="not a legal action"):
        env.step(True)


def test_render_uses_the_games_words_and_shows_only_the_actors_view():
    env = pettingzoo_env("hearts", render_mode="ansi")
    env.reset(seed=2)
    text = env.render()
    j = env.possible_agents.index(env.agent_selection)
    assert text.endswith(env.game.view_text(env.game.view(env.full_state(), j), j))


@pytest.mark.parametrize("name", ["phantom", "minidoudizhu"])
def test_spyglass_agents_in_the_env_play_the_referees_game(name):
    """Same seed, same agents: the environment's game is move for move the referee's."""
    specs = ["random", "moismcts:iterations=30"] + ["random"] * 5
    env = pettingzoo_env(name)
    specs = specs[: env.game.n_players]
    policies = {a: AgentPolicy(s) for a, s in zip(env.possible_agents, specs, strict=True)}
    for seed in (3, 4, 4):  # the same policies, game after game (the same seed twice too)
        ref = play_match(env.game, specs, seed=seed)
        rewards = play_game(env, policies, seed=seed)
        assert env.referee_moves() == ref.actions
        assert tuple(rewards[a] for a in env.possible_agents) == ref.rewards


def test_a_tournament_replayed_through_the_env_gives_the_same_outcomes(tmp_path):
    """The example's check (tools/pettingzoo_vs_tournament.py) at a small size: random vs
    MO-ISMCTS, every tournament game played again through the environment."""
    from spyglass import tournament
    from spyglass.envs.check import replay_tournament, win_rates

    tournament.run(["random", "moismcts:iterations=30"], game="phantom", games=4, seed=5,
                   out=tmp_path / "t", workers=1, progress=False)
    games = replay_tournament(tmp_path / "t")
    assert len(games) == 4 and all(g.same_moves for g in games)
    assert [g.through_env for g in games] == [g.recorded for g in games]
    assert win_rates(games, "through_env") == win_rates(games, "recorded")
