"""Self-determinization through the game-general MT-ISMCTS (``mtismcts_pf``, ``bluff=``):
Cowling, Whitehouse & Powley 2015, §VI; Whitehouse 2014, §7.4 (TRUEONLY, PURE, SPLIT,
TWOSTEP, BLUFF), with ψ a second particle set drawn from the public history
(:class:`~spyglass.search.particles.PublicParticleFilter`). Tiny budgets: these check
the machinery, not strength."""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.agents import registry
from spyglass.agents.mt_ismcts import MTISMCTSPFAgent, mt_entry
from spyglass.agents.search_support import search_settings, shape_of
from spyglass.arena.match import play_match
from spyglass.games import registry as games
from spyglass.games.scotlandyard import kernel as SY
from spyglass.rng import make_rng
from spyglass.search.particles import ParticleFilter, PublicParticleFilter
from spyglass.search.sampled.mt_driver import MTSearch
from spyglass.search.selfdet import VARIANTS, Phase, plan_phases

TINY = {"iterations": 24, "particles": 6, "model_iterations": 4}
#: Short games with a hidden side that can bluff: Mr X (seat 0), the saboteurs, the spies.
GAMES = {
    "scotlandyard": dict(detectives=2, rounds=5),
    "saboteur": dict(n_players=3),
    "resistance": {},
}


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_variant_plays_a_whole_game(name, variant):
    game = games.make(name, **GAMES[name])
    agent = registry.make("mtismcts_pf", **TINY, bluff=variant)
    result = play_match(game, [agent] + ["random"] * (game.n_players - 1), seed=5)
    assert result.error is None, result.error
    assert (agent.psi is None) == (variant == "trueonly")
    assert agent.last is not None  # it searched


def _mrx_start(seed=2):
    """Scotland Yard at Mr X's first move: (game, state, Mr X's view)."""
    game = games.make("scotlandyard", detectives=2, rounds=5)
    s = game.new_state(seed)
    assert int(game.kernel.actor(s)) == 0
    return game, s, game.view(s, 0)


class _Spy:
    """Wraps a game's MT entry point, keeping every belief a batch sampled from."""

    def __init__(self, run):
        self.run, self.beliefs = run, []

    def __call__(self, *args):
        parts, cumw = args[4], args[5]
        w = np.diff(np.concatenate(([0.0], cumw)))
        self.beliefs.append(parts[w > 0].copy())
        return self.run(*args)


@pytest.mark.parametrize("variant", ["trueonly", "pure"])
def test_pure_samples_outside_the_information_set_and_trueonly_never(variant):
    """§VI: PURE draws every determinization from ψ, which spreads over Mr X's possible
    stations (states that contradict what Mr X knows: his true station); TRUEONLY draws
    from φ, always his true station."""
    game, s, view = _mrx_start()
    agent = registry.make("mtismcts_pf", iterations=60, particles=16, model="playout",
                          bluff=variant)
    agent.start(game, 0, view, seed=4)
    spy = _Spy(agent.search.run_mt)
    agent.search.run_mt = spy
    agent.act(view, game.legal_actions(s))
    first = spy.beliefs[0][:, SY.MRX_POS]
    true_pos = int(s[SY.MRX_POS])
    if variant == "pure":
        assert (first != true_pos).any()
        assert agent.search.trees_per_player()[0] > 1  # sampled: other trees of Mr X
    else:
        assert all((b[:, SY.MRX_POS] == true_pos).all() for b in spy.beliefs)
        assert agent.search.trees_per_player()[0] == 1


def test_psi_follows_the_public_history_not_the_true_state():
    """ψ's particles explain every move as the seekers saw it (the ticket, not the
    station): each shows the seekers exactly their true view, while Mr X's station in
    them stays spread."""
    game, s, view = _mrx_start()
    k = game.kernel

    def follow(state):
        state = state.copy()
        agent = registry.make("mtismcts_pf", iterations=30, particles=12, model="playout",
                              bluff="split")
        agent.start(game, 0, game.view(state, 0), seed=9)
        for _ in range(6):
            p = int(k.actor(state))
            if p < 0:
                break
            legal = game.legal_actions(state)
            a = agent.act(game.view(state, 0), legal) if p == 0 else legal[0]
            obs = int(k.observe(state, a, 0))
            k.apply(state, a)
            agent.observe(obs, p, game.view(state, 0))
            psi = agent.psi
            assert psi.weights.sum() == pytest.approx(1.0)
            for i in range(psi.n):  # every ψ particle shows the seekers their view
                sv = np.zeros(game.view_size, dtype=np.int64)
                k.view(psi.particles[i], 1, sv)
                if psi.weights[i] > 0 and int(psi.observer[i]) == 1:
                    assert np.array_equal(sv, game.view(state, 1))
        return agent.psi.particles.copy(), agent.psi.weights.copy(), state

    parts, weights, end = follow(s)
    assert len(set(parts[:, SY.MRX_POS].tolist())) > 1  # not pinned to the true station
    parts2, weights2, _ = follow(s)  # seeded: the same again
    assert np.array_equal(parts, parts2) and np.array_equal(weights, weights2)


def test_saboteur_psi_does_not_read_the_hidden_state():
    """Two deals seat 0 cannot tell apart (same role, same hand, other seats' roles and
    hands different) give the same ψ and the same decision, searched partly from ψ:
    nothing but the view reaches the agent. (Its own move would already differ: it
    draws a different card.)"""
    game = games.make("saboteur", n_players=4)
    k = game.kernel
    s1 = game.new_state(3)
    v = game.view(s1, 0)
    s2 = np.zeros_like(s1)
    rng = make_rng(11)
    for _ in range(50):
        assert k.sample(v, 0, rng, s2)
        if not np.array_equal(s1, s2):
            break
    assert not np.array_equal(s1, s2) and np.array_equal(game.view(s2, 0), v)

    def run(state):
        agent = registry.make("mtismcts_pf", iterations=20, particles=8, model="playout",
                              bluff="pure")
        agent.start(game, 0, game.view(state, 0), seed=1)
        a = agent.act(game.view(state, 0), game.legal_actions(state))
        return a, agent.psi.particles.copy(), agent.psi.weights.copy()

    a1, p1, w1 = run(s1.copy())
    a2, p2, w2 = run(s2.copy())
    assert a1 == a2 and np.array_equal(p1, p2) and np.array_equal(w1, w2)
    # ψ redraws seat 0's own hand and role (what the others might believe of it)
    own = np.zeros(game.view_size, dtype=np.int64)
    differ = 0
    for x in p1:
        k.view(x, 0, own)
        differ += not np.array_equal(own, game.view(s1, 0))
    assert differ > 0


def _mt(game, iterations=200):
    st = search_settings({"iterations": iterations})
    return MTSearch(mt_entry(game), shape_of(game), st)


def _opponent_root_visits(mt, seat):
    pool = mt.pool
    return sorted(pool.visits(int(r)) for r in mt.troots[1 - seat] if r >= 0)


def test_twostep_second_phase_freezes_the_opponents_trees():
    """TWOSTEP (§VI): in the second phase the opponents' trees are neither updated nor
    grown; the searcher's decision tree still is."""
    game, s, view = _mrx_start()
    pf = ParticleFilter(game.kernel, game.state_size, game.view_size, 0, 8, make_rng(1))
    pf.reset(view)
    mt = _mt(game)
    first = [Phase(None, 100)]
    mt.search(pf.particles, pf.weights, 0, make_rng(5), first)
    before = _opponent_root_visits(mt, 0)
    used1 = mt.pool.used
    res2 = mt.search(pf.particles, pf.weights, 0, make_rng(5),
                     first + [Phase(None, 100, fixed_opponents=True)])
    assert _opponent_root_visits(mt, 0) == before and sum(before) == 100
    assert res2.pool.visits(res2.decision_node) == 200
    assert mt.pool.used > used1  # only the searcher's trees grew
    # with no first phase the opponents have no tree, so none is made
    mt.search(pf.particles, pf.weights, 0, make_rng(5),
              [Phase(None, 50, fixed_opponents=True)])
    assert mt.trees_per_player()[1] == 0


def test_merged_visits_sum_every_tree_of_the_searcher():
    """BLUFF's eq. 3 reads the root visits summed over all of the searcher's trees: with
    every phase counting them, they add up to every iteration of the search."""
    game, s, view = _mrx_start()
    pf = ParticleFilter(game.kernel, game.state_size, game.view_size, 0, 8, make_rng(1))
    pf.reset(view)
    psi = PublicParticleFilter(pf, game.n_players, 8, make_rng(2))
    psi.reset(view)
    mt = _mt(game)
    res = mt.search(pf.particles, pf.weights, 0, make_rng(3),
                    plan_phases("bluff", None, psi.belief, iterations=120))
    assert res.phase_iterations == (60, 60)
    assert sum(res.merged_visits.values()) == res.iterations == 120
    stats = res.bluff_stats()
    assert sum(n for n, _, _ in stats.values()) < 120  # ψ's other stations miss it
    for a, (n, _, sd) in stats.items():
        assert res.merged_visits[a] >= n and sd >= 0.0


def test_own_moves_reach_psi_although_they_reveal_hidden_chance():
    """In Saboteur the player's own move shows it the card it draws, which no φ
    particle predicted: ψ still learns how the others saw the move (from the φ particle
    the filter repaired) instead of starting afresh after every own move."""
    game = games.make("saboteur", n_players=4)
    seen = []

    class Watch(MTISMCTSPFAgent):
        def observe(self, obs, actor, view):
            before = self.psi.collapses
            super().observe(obs, actor, view)
            if actor == self.seat:
                seen.append((self.belief.own_keys is not None, self.psi.collapses - before))

    watched = Watch(**TINY, bluff="split")
    result = play_match(game, [watched] + ["random"] * 3, seed=4)
    assert result.error is None, result.error
    assert len(seen) >= 3 and all(ok for ok, _ in seen)
    assert sum(c for _, c in seen) == 0


def test_no_inference_draws_each_decision_afresh_and_takes_no_bluff():
    """``model=none`` is Whitehouse 2014 §7.5.1's non-inference player (Fig. 7.7's seekers
    without inference): a whole game runs; no move reweights its particles; each decision
    searches fresh, equally weighted draws consistent with its view; it refuses a bluffing
    variant by name."""
    game = games.make("scotlandyard", detectives=2, rounds=5)
    seekers = registry.make("mtismcts_pf", iterations=24, particles=8, model="none")
    result = play_match(game, ["random", seekers], seed=3)
    assert result.error is None, result.error
    assert seekers.belief.resamples == 0 and seekers.belief.collapses == 0
    s = game.new_state(7)
    while int(game.kernel.actor(s)) != 1:
        game.kernel.apply(s, game.legal_actions(s)[0])
    agent = registry.make("mtismcts_pf", iterations=24, particles=8, model="none")
    agent.start(game, 1, game.view(s, 1), seed=1)
    before = agent.belief.particles.copy()
    agent.act(game.view(s, 1), game.legal_actions(s))
    b = agent.belief
    assert (b.weights == 1.0 / 8).all()
    assert all(b.consistent(i, game.view(s, 1)) for i in range(8))
    assert not (b.particles == before).all()  # drawn afresh
    with pytest.raises(ValueError, match="needs an opponent model"):
        registry.make("mtismcts_pf", model="none", bluff="split")
