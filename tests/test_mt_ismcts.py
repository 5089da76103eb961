"""MT-ISMCTS with particle-filter inference (``mtismcts_pf``) on every registered game:
whole games through the referee, determinism, particles consistent with the agent's view
after every move, weights that react to an informative move, the tree cap and
self-determinization, and a small seeded strength check against SO-ISMCTS."""

from __future__ import annotations

import numpy as np
import pytest
from agent_play import play

from spyglass.agents import registry
from spyglass.agents.mt_ismcts import MTISMCTSPFAgent, mt_entry
from spyglass.agents.search_support import search_settings, shape_of
from spyglass.arena.match import play_match
from spyglass.games import registry as games
from spyglass.rng import make_rng
from spyglass.search.particles import ParticleFilter, PublicParticleFilter
from spyglass.search.sampled.mt_driver import MTSearch
from spyglass.search.selfdet import plan_phases

SMALL = {"iterations": 60, "particles": 8, "model_iterations": 8}


class Checked(MTISMCTSPFAgent):
    """The agent, asserting after every observation that each particle shows its seat
    exactly the view it was given (the game's consistency check: equal views)."""

    agent_name = "mtismcts_pf"
    checks = 0

    def observe(self, obs, actor, view):
        super().observe(obs, actor, view)
        b = self.belief
        for i in range(b.n):
            assert b.consistent(i, np.asarray(view)), f"particle {i} is inconsistent"
        assert b.weights.sum() == pytest.approx(1.0)
        Checked.checks += 1


@pytest.mark.parametrize("name", games.names())
def test_plays_every_game_through_the_referee_with_consistent_particles(name):
    game = games.make(name)
    agents = [Checked(**SMALL, bluff="split", t1=0.25)] + ["random"] * (game.n_players - 1)
    before = Checked.checks
    result = play_match(game, agents, seed=3)
    assert result.error is None, result.error
    assert Checked.checks - before == len(result.to_record()["actions"])


@pytest.mark.parametrize("name", ["phantom", "cheat"])
def test_same_seed_same_decisions(name):
    game = games.make(name)

    def actions(seed):
        agents = [registry.make("mtismcts_pf", **SMALL, bluff="twostep", t1=0.3),
                  registry.make("mtismcts_pf", **SMALL, model="playout")]
        return play(game, agents, seed)[1]

    assert actions(5) == actions(5)
    assert actions(5) != actions(6)


def test_weights_react_to_an_informative_claim_in_cheat():
    """After the opponent's first claim in Cheat (its cards are face down), particles
    whose opponent hand makes the claim more likely under the search model gain weight."""
    game = games.make("cheat")
    for seed in range(20):
        s = game.new_state(seed)
        if game.kernel.actor(s) == 1:
            break
    k = game.kernel
    agent = registry.make("mtismcts_pf", particles=32, model_iterations=32, seed=1,
                          resample_below=0.0)
    agent.start(game, 0, game.view(s, 0), 1)
    a = game.legal_actions(s)[-1]  # a claim (claims have the largest ids)
    obs = int(k.observe(s, a, 0))
    k.apply(s, a)
    agent.observe(obs, 1, game.view(s, 0))
    w = agent.belief.weights
    assert w.sum() == pytest.approx(1.0)
    assert w.max() > 1.5 * w.min(), "the claim moved no weight"
    assert agent.belief.ess() < agent.belief.n


def test_hard_constraints_rule_particles_out_and_resampling_restores_them():
    game = games.make("phantom")
    k = game.kernel
    rng = make_rng(2)
    s = game.new_state(0)
    pf = ParticleFilter(k, game.state_size, game.view_size, 1, 16, rng)
    pf.reset(game.view(s, 1))
    for _ in range(6):
        if k.is_terminal(s):
            break
        actor = int(k.actor(s))
        a = game.legal_actions(s)[0]
        obs = int(k.observe(s, a, 1))
        k.apply(s, a)
        pf.update(obs, actor, game.view(s, 1))
        assert all(pf.consistent(i, game.view(s, 1)) for i in range(pf.n))
    assert pf.resamples + pf.collapses >= 0 and len(pf.ess_history) == 6


def test_tree_cap_and_self_determinization_reach_other_trees():
    game = games.make("cheat")
    s = game.new_state(4)
    seat = int(game.kernel.actor(s))
    rng = make_rng(3)
    pf = ParticleFilter(game.kernel, game.state_size, game.view_size, seat, 16, rng)
    pf.reset(game.view(s, seat))
    st = search_settings({"iterations": 400})
    mt = MTSearch(mt_entry(game), shape_of(game), st, max_trees=4)
    res = mt.search(pf.particles, pf.weights, seat, rng)
    trees = mt.trees_per_player()
    assert trees[seat] == 1  # true determinizations: one information set
    assert 1 < trees[1 - seat] <= 4  # the opponent's hands, capped
    psi = PublicParticleFilter(pf, game.n_players, 16, rng)
    psi.reset(game.view(s, seat))
    res = mt.search(pf.particles, pf.weights, seat, rng,
                    plan_phases("split", None, psi.belief, iterations=400))
    assert mt.trees_per_player()[seat] > 1  # own hand redrawn as the opponent sees it
    assert res.phase_iterations == (200, 200)
    assert res.pool.visits(res.decision_node) < 400  # ψ's states mostly miss it
    with pytest.raises(ValueError, match="Phase"):
        mt.search(pf.particles, pf.weights, seat, rng, [])
    with pytest.raises(ValueError, match="weights"):
        mt.search(pf.particles, np.zeros(16), seat, rng)


def test_parameters_are_declared_and_validated():
    with pytest.raises(ValueError, match="model"):
        registry.make("mtismcts_pf", model="oracle")
    with pytest.raises(ValueError, match="particles"):
        registry.make("mtismcts_pf", particles=0)
    a = registry.make("mtismcts_pf", particles="16", bluff="split", t1="0.25")
    assert a.settings["particles"] == 16 and a.settings["t1"] == 0.25
    with pytest.raises(ValueError, match="bluff"):
        registry.make("mtismcts_pf", bluff="sometimes")
    with pytest.raises(ValueError, match="t1 is for"):
        registry.make("mtismcts_pf", bluff="pure", t1=0.25)
    registry.make("mtismcts_pf", bluff="pure", t1=0.5)  # the default: a full settings dict


def _strength(game, n_games, its, seed0=0):
    score = 0.0
    for g in range(n_games):
        seat = g % 2
        agents = [registry.make("soismcts", iterations=its),
                  registry.make("soismcts", iterations=its)]
        agents[seat] = registry.make("mtismcts_pf", iterations=its)
        score += play(game, agents, seed0 + g)[0][seat]
    return score / n_games


def test_not_weaker_than_soismcts_at_phantom_333_small():
    """12 seeded games of Phantom 3,3,3 at 300 iterations, seats alternating: MT-ISMCTS
    with inference scores at least 0.25 against SO-ISMCTS (a broken search, e.g. one that
    plays from the wrong tree, loses nearly every game)."""
    game = games.make("phantom", m=3, n=3, k=3)
    assert _strength(game, 12, 300) >= 0.25


@pytest.mark.slow
def test_strength_against_soismcts_phantom_444():
    """100 games of Phantom 4,4,4 at 2,000 iterations (docs/inference.md's table)."""
    game = games.make("phantom")
    assert _strength(game, 100, 2000, seed0=100) >= 0.35
