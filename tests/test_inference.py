"""Particle-filter inference (Cowling et al. 2015, §V eq. 2; Whitehouse 2014, §7.3 Algorithm 7) and
hard constraints."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.knowledge import consistent_configurations
from spyglass.games.resistance.observation import MissionResult
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import fails_constraint, search_spec
from spyglass.games.resistance.tables import mask_to_seats, spy_configurations
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.bots.mtismcts import MTISMCTSBot
from spyglass.rng import make_rng
from spyglass.search.inference import Belief, TreeWalk, particle_filter_update
from spyglass.search.mtismcts import MTISMCTS, SearchResult
from spyglass.search.tree import VISITS, NodePool, add_child


# --- eq. 2 by hand --------------------------------------------------------------------
def test_eq2_hand_computed():
    # phi = (.5, .3, .2); N = 100 iterations; v visited 40 times: 10, 30, 0 per d.
    # w = 40/100 = .4; phi' = .6 * phi + .4 * c/40 = (.3 + .1, .18 + .3, .12 + 0).
    new = particle_filter_update(np.array([0.5, 0.3, 0.2]), 40, 100, np.array([10, 30, 0]))
    assert new == pytest.approx([0.4, 0.48, 0.12])
    assert new.sum() == pytest.approx(1.0)
    # n(v) = N: the counts replace the belief entirely.
    assert particle_filter_update(np.array([0.5, 0.5]), 8, 8, np.array([2, 6])) == \
        pytest.approx([0.25, 0.75])
    with pytest.raises(ValueError, match="n\\(v\\)"):
        particle_filter_update(np.array([1.0]), 0, 10, np.array([0]))
    with pytest.raises(ValueError, match="shape"):
        particle_filter_update(np.array([0.5, 0.5]), 1, 10, np.array([1]))


def _hand_tree():
    """A decision node D (N = 50) with own choices 0 and 1; under choice 1 an opponent's
    hidden move (one child) and then a public move with two outcomes (keys 7 and 9)."""
    pool = NodePool()
    (d,) = pool.new_roots(1)
    a = pool.data, pool.fdata, pool.meta
    c0 = add_child(*a, d, 0)
    c1 = add_child(*a, d, 1)
    h = add_child(*a, c1, 100)
    v7 = add_child(*a, h, 7)
    v9 = add_child(*a, h, 9)
    visits = {d: 50, c0: 20, c1: 30, h: 30, v7: 20, v9: 10}
    for node, n in visits.items():
        pool.data[node, VISITS] = n
    # Three determinizations; the middle one is outside the belief's support (never
    # sampled), so it has no column in the count table.
    det_slot = np.array([0, -1, 1], dtype=np.int32)
    counts = np.zeros((4, 2), dtype=np.int32)
    counts[0] = (5, 15)  # v7: d0 five times, d2 fifteen
    counts[1] = (9, 1)  # v9
    owner = SimpleNamespace(generation=1)
    result = SearchResult(
        action_index=1, iterations=50, seconds=0.0, decision_node=d, decision_tree=0,
        tree_roots=np.array([d]), pool=pool, det_slot=det_slot, counts=counts,
        slot_map={v7: 0, v9: 1}, n_slots=2, slots_full=False, bytes_peak=0,
        _owner=owner, _generation=1,
    )
    return result, (d, c1, h, v7, v9), owner


def test_walk_on_a_hand_built_tree():
    result, (d, c1, h, v7, v9), owner = _hand_tree()
    belief = Belief([0.5, 0.0, 0.5])
    walk = TreeWalk(result)
    assert walk.n_total == 50
    walk.step(("own", 1), belief)  # own move: descend, no update
    assert walk.node == c1 and belief.phi == pytest.approx([0.5, 0.0, 0.5])
    walk.step(("obs", 100, False), belief)  # a hidden move: no evidence
    assert walk.node == h and belief.phi == pytest.approx([0.5, 0.0, 0.5])
    walk.step(("obs", 7, True), belief)
    # w = 20/50 = .4: phi' = .6*(.5, 0, .5) + .4*(5, 0, 15)/20 = (.3+.1, 0, .3+.3)
    assert walk.node == v7 and belief.phi == pytest.approx([0.4, 0.0, 0.6])
    assert walk.updates == 1
    walk.step(("obs", 42, True), belief)  # not in the tree: the walk ends, no update
    assert walk.node == -1 and belief.phi == pytest.approx([0.4, 0.0, 0.6])
    walk.step(("obs", 7, True), belief)  # stays out
    assert walk.node == -1 and walk.updates == 1


def test_walk_other_outcome_and_stale_trees():
    result, (d, c1, h, v7, v9), owner = _hand_tree()
    belief = Belief([0.5, 0.0, 0.5])
    walk = TreeWalk(result)
    walk.walk([("own", 1), ("obs", 100, False), ("obs", 9, True)], belief)
    # w = 10/50 = .2: phi' = .8*(.5, 0, .5) + .2*(9, 0, 1)/10 = (.4+.18, 0, .4+.02)
    assert belief.phi == pytest.approx([0.58, 0.0, 0.42])
    walk2 = TreeWalk(result)
    owner.generation = 2  # a newer search overwrote the pool
    walk2.step(("own", 1), belief)
    assert walk2.node == -1
    with pytest.raises(RuntimeError, match="overwritten"):
        result.counts_of(v7)


# --- hard constraints --------------------------------------------------------------------
def test_fails_constraint_5p():
    configs = spy_configurations(5)
    team = 0b00011
    one = fails_constraint(configs, team, 1)
    two = fails_constraint(configs, team, 2)
    for c, k1, k2 in zip(configs.tolist(), one, two, strict=True):
        on = bin(c & team).count("1")
        assert k1 == (on >= 1) and k2 == (on >= 2)
    assert two.sum() == 1 and fails_constraint(configs, team, 0).all()
    # Matches the knowledge module (Cowling et al. 2015, §V: f fails need f spies on the team).
    mission = MissionResult(1, 0, mask_to_seats(team), 1, True)
    assert set(configs[one].tolist()) == set(
        consistent_configurations(5, [mission]).tolist())


def test_belief_constraints_are_permanent_and_renormalised():
    b = Belief([1, 1, 1, 1])
    b.constrain([True, False, True, True])
    assert b.phi == pytest.approx([1 / 3, 0, 1 / 3, 1 / 3])
    b.update(10, 10, np.array([0, 10, 0, 0]))  # evidence for a ruled-out d is ignored
    assert b.phi[1] == 0 and b.phi.sum() == pytest.approx(1)
    with pytest.raises(ValueError, match="rules out every"):
        b.constrain([False, True, False, False])
    with pytest.raises(ValueError, match="non-negative"):
        Belief([0, 0])


# --- counts from a real search -----------------------------------------------------------
def test_counts_add_up_to_visits_on_every_tracked_node():
    n, seat = 5, 1
    track = PublicTrack(n, seat, 0, 0)
    track.propose(0b00101)
    configs = spy_configurations(n)
    phi = ((configs >> seat) & 1 == 0).astype(float)
    phi[np.flatnonzero(phi)[0]] *= 3  # a non-uniform belief
    m = MTISMCTS(search_spec(n))
    r = m.search(track.root(), phi, make_rng(5), searcher=seat, chain=track.chain(),
                 iterations=4000)
    assert r.n_slots > 1 and not r.slots_full
    assert r.decision_node in r.slot_map
    for node in r.slot_map:
        c = r.counts_of(node)
        assert c.sum() == m.pool.visits(node)
        assert np.all(c[phi == 0] == 0)  # never sampled outside the searcher's knowledge
    # At the decision node the counts follow the sampling belief (law of large numbers).
    c = r.counts_of(r.decision_node)
    share = c / c.sum()
    assert share == pytest.approx(phi / phi.sum(), abs=0.03)
    # Tracking stops at the searcher's next decision: a rejected vote makes seat 1 the
    # next leader, so that proposal node is tracked and nothing below it is.
    pool = m.pool
    rejected = 0
    for own in pool.children(r.decision_node):
        (h2,) = pool.children(own)
        (h3,) = pool.children(h2)
        for reveal in pool.children(h3):
            mask = pool.key(reveal) - K.OBS_VOTES
            assert 0 <= mask < 32 and (mask >> 1) & 1 == pool.key(own)
            assert reveal in r.slot_map
            if bin(mask).count("1") <= 2:
                rejected += 1
                kids = pool.children(reveal)
                assert all(k not in r.slot_map for k in kids)
    assert rejected > 0
    untracked = MTISMCTS(search_spec(n)).search(
        track.root(), phi, make_rng(5), searcher=seat, chain=track.chain(), iterations=500,
        track=False)
    assert untracked.n_slots == 0 and untracked.counts_of(untracked.decision_node) is None


# --- the bot's belief API ------------------------------------------------------------------
def _game(inference: bool, seed: int = 7, n: int = 5, iterations: int = 300):
    bots = [MTISMCTSBot(iterations=iterations, inference=inference) for _ in range(n)]
    result = play_game(bots, seed=seed, track_suspicion=True)
    assert result.error is None, result.error
    return bots, result


def test_belief_api_and_trajectory_in_the_record():
    bots, result = _game(True)
    rec = result.to_record()
    n = 5
    configs = spy_configurations(n)
    spies = set(result.spies)
    events = len(rec["events"])  # proposals and missions
    for seat, bot in enumerate(bots):
        phi = bot.belief()
        assert phi.shape == (len(configs),) and phi.sum() == pytest.approx(1)
        m = bot.spy_marginals()
        assert m.sum() == pytest.approx(2) and m[seat] == (1.0 if seat in spies else 0.0)
        extra = rec["extra"][str(seat)]
        assert extra["configs"] == configs.tolist()
        traj = extra["belief"]
        assert [e["event"] for e in traj] == list(range(len(traj)))
        # start + one per proposal + one per vote + one per mission
        votes = sum(1 for e in rec["events"] if e["type"] == "proposal" and e["votes"])
        assert len(traj) == 1 + events + votes
        assert traj[-1]["phi"] == pytest.approx(phi.tolist(), abs=1e-5)
        if seat in spies:  # a spy knows the configuration all along
            truth = configs.tolist().index(sum(1 << s for s in spies))
            assert all(e["phi"][truth] == 1.0 for e in traj)
        sus = bot.suspicion()
        assert set(sus) == set(range(n)) - {seat}
    # The referee sampled suspicion() after every mission.
    assert set(result.suspicion) == set(range(n))


def test_without_inference_only_hard_constraints_move_the_belief():
    bots, result = _game(False, seed=8)
    rec = result.to_record()
    configs = spy_configurations(5)
    missions = [MissionResult(e["mission"], 0, tuple(e["team"]), e["fails"], e["sabotaged"])
                for e in rec["events"] if e["type"] == "mission"]
    for seat, bot in enumerate(bots):
        if seat in result.spies:
            continue
        allowed = consistent_configurations(5, missions, seat=seat)
        expect = np.isin(configs, allowed) / len(allowed)
        assert bot.belief() == pytest.approx(expect)


def test_inference_moves_the_belief_beyond_hard_constraints():
    bots, result = _game(True, seed=8, iterations=1500)
    moved = 0
    for seat, bot in enumerate(bots):
        if seat in result.spies:
            continue
        traj = result.extra[seat]["belief"]
        # After the first vote the belief is no longer uniform on its support.
        supp = [p for p in traj[2]["phi"] if p > 0]
        moved += max(supp) - min(supp) > 1e-3
        assert bot.walk is None or bot.walk.updates >= 0
    assert moved >= 1
    # The true configuration gains on average over the game (Cowling et al. 2015 Fig. 4).
    configs = spy_configurations(5).tolist()
    truth = configs.index(sum(1 << s for s in result.spies))
    finals = [result.extra[s]["belief"][-1]["phi"][truth] for s in range(5)
              if s not in result.spies]
    assert np.mean(finals) > 1 / 6


def test_public_track_steps():
    tr = PublicTrack(5, 2, 0, 0)
    assert tr.propose(0b00110) == [("obs", K.OBS_TEAM | 0b00110, True)]
    steps = tr.votes([True, False, True, True, False])
    assert steps[:2] == [("obs", K.OBS_HIDDEN, False)] * 2
    assert steps[2] == ("own", 1)
    assert steps[-1] == ("obs", K.OBS_VOTES | 0b01101, True)
    # Team {1, 2}: seat 1 plays first (hidden), then seat 2, the last card, sees the total.
    steps = tr.mission(1, my_card=0)
    assert steps == [("obs", K.OBS_HIDDEN, False), ("own", 0), ("obs", K.OBS_FAILS | 1, True)]
    tr.check(2, 1, 1)
    with pytest.raises(RuntimeError, match="out of step"):
        tr.check(2, 1, 3)


def test_count_table_bound_stops_tracking_new_nodes():
    n, seat = 5, 1
    track = PublicTrack(n, seat, 0, 0)
    track.propose(0b00101)
    phi = ((spy_configurations(n) >> seat) & 1 == 0).astype(float)
    m = MTISMCTS(search_spec(n), max_count_bytes=64 * 6 * 4)  # 64 slots of 6 counts
    r = m.search(track.root(), phi, make_rng(5), searcher=seat, chain=track.chain(),
                 iterations=3000)
    assert r.slots_full and r.n_slots == 64
    for node in r.slot_map:  # the nodes that did get a slot are still counted exactly
        assert r.counts_of(node).sum() == m.pool.visits(node)
