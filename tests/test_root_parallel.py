"""Root-parallel MT-ISMCTS (``mtismcts:workers=N``): deterministic for a seed and worker
count, statistics merged at the root, inference over the workers' summed counts."""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import search_spec
from spyglass.resistance.arena.referee import play_game
from spyglass.rng import make_rng
from spyglass.search.inference import Belief, TreeWalk
from spyglass.search.mtismcts import Phase
from spyglass.search.root_parallel import ParallelTreeWalk, RootParallelMTISMCTS


def _setup(n=5, leader=0):
    spec = search_spec(n)
    belief = (((spec.dets[:, 0] >> 0) & 1) == 0).astype(np.float64)
    return spec, PublicTrack(n, 0, leader, 0).root(), belief


def _summary(res):
    return (res.action_index, res.iterations, res.action_stats(), res.merged_action_visits())


def test_same_seed_and_workers_same_search_and_budget_split():
    spec, root, belief = _setup()
    searcher = RootParallelMTISMCTS(spec, workers=2)
    a = _summary(searcher.search(root, belief, make_rng(3), searcher=0, iterations=3001))
    b_res = searcher.search(root, belief, make_rng(3), searcher=0, iterations=3001)
    assert _summary(b_res) == a
    assert [p.iterations for p in b_res.parts] == [1501, 1500]
    visits = {k: v[0] for k, v in b_res.action_stats().items()}
    # the move is the action with the most visits summed over the workers
    assert b_res.action_index == max(visits, key=lambda k: (visits[k], -k))
    assert sum(visits.values()) == b_res.decision_visits() == 3001  # summed over workers
    c = searcher.search(root, belief, make_rng(4), searcher=0, iterations=3001)
    assert _summary(c) != a


def test_phases_are_split_too_and_bad_workers_rejected():
    spec, root, belief = _setup()
    searcher = RootParallelMTISMCTS(spec, workers=3)
    res = searcher.search(root, belief, make_rng(1), searcher=0,
                          phases=[Phase(np.ones(spec.n_dets), 300), Phase(None, 601)])
    assert [p.phase_iterations[:2] for p in res.parts] == [(100, 201), (100, 200), (100, 200)]
    with pytest.raises(ValueError, match="workers"):
        RootParallelMTISMCTS(spec, workers=0)
    with pytest.raises(ValueError, match="at least one iteration per worker"):
        searcher.search(root, belief, make_rng(1), searcher=0, iterations=2)
    # phases smaller than the worker count: remainders go round-robin, none is left idle
    res = searcher.search(root, belief, make_rng(1), searcher=0,
                          phases=[Phase(np.ones(spec.n_dets), 1), Phase(None, 2)])
    assert [p.phase_iterations[0] for p in res.parts] == [1, 1, 1]


def test_one_part_walk_is_the_plain_walk():
    """With one worker the merged inference is exactly eq. 2 on that worker's tree."""
    spec, _, belief = _setup()
    track = PublicTrack(5, 0, 1, 0)  # seat 1 leads; seat 0 (the searcher) votes first
    track.propose(0b00110)
    res = RootParallelMTISMCTS(spec, workers=1).search(track.root(), belief, make_rng(2),
                                                       searcher=0, iterations=4000)
    steps = track.votes((True, False, True, False, False))
    plain, merged = Belief(belief.copy()), Belief(belief.copy())
    TreeWalk(res.parts[0]).walk(steps, plain)
    walk = ParallelTreeWalk(res)
    walk.walk(steps, merged)
    assert walk.updates > 0 and not np.allclose(merged.phi, belief / belief.sum())
    np.testing.assert_array_equal(plain.phi, merged.phi)


def test_bot_with_two_workers_plays_the_same_game_twice():
    def record(seed):
        r = play_game(["mtismcts:iterations=200,workers=2"] * 2 + ["randombot"] * 3, seed=seed)
        assert r.error is None, r.error
        return r.to_record()

    a = record(5)
    assert a == record(5)
    assert a["extra"]["0"]["belief"]


def test_single_worker_records_name_no_workers_param():
    r = play_game(["mtismcts:iterations=60"] + ["randombot"] * 4, seed=1).to_record()
    assert "workers" not in str(r["setup"].get("sources", "")) + str(r.get("extra", {}))


def test_two_worker_walk_sums_the_workers_counts():
    spec, _, belief = _setup()
    track = PublicTrack(5, 0, 1, 0)
    track.propose(0b00110)
    res = RootParallelMTISMCTS(spec, workers=2).search(track.root(), belief, make_rng(6),
                                                       searcher=0, iterations=4000)
    steps = track.votes((True, False, True, False, False))
    walk = ParallelTreeWalk(res)
    assert walk.n_total == res.decision_visits() == 4000
    # the first informative step by hand: n(v) and c(v, d) summed over the two trees
    parts = [TreeWalk(p) for p in res.parts]
    first = next(i for i, st in enumerate(steps) if st[0] != "own" and st[2])
    for st in steps[:first + 1]:
        for wk in parts:
            wk.step(st, None)
    n_v = sum(wk.result.pool.visits(wk.node) for wk in parts if wk.node >= 0)
    c_v = sum(wk.result.counts_of(wk.node) for wk in parts if wk.node >= 0)
    expected = Belief(belief.copy())
    expected.update(n_v, 4000, c_v)
    got = Belief(belief.copy())
    walk.walk(steps[:first + 1], got)
    assert walk.updates == 1
    np.testing.assert_allclose(got.phi, expected.phi)
    assert np.all(got.phi[belief == 0] == 0)
