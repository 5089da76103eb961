"""MT-ISMCTS trees: node pool, bandit formulas, one tree per information set, determinism.

Cowling, Whitehouse & Powley 2015, §IV (Algorithm 1) and Whitehouse 2014, §7.2
(Algorithm 6): one tree per player per information set that player could hold at the root;
every node one information set.
"""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from itertools import combinations

import numpy as np
import pytest

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import info_set_table, search_spec, trees_per_player
from spyglass.games.resistance.tables import spy_configurations
from spyglass.rng import make_rng
from spyglass.search.bandits import (
    UCB1,
    UCB_TUNED,
    bandit_code,
    select_child,
    ucb1_value,
    ucb_tuned_value,
)
from spyglass.search.mtismcts import MTISMCTS
from spyglass.search.tree import (
    BINARY_NODE_BYTES,
    CHILD,
    KEY,
    NODE_BYTES,
    SIBLING,
    NodePool,
    add_child,
    backpropagate,
)


def resistance_belief(n: int, seat: int) -> np.ndarray:
    configs = spy_configurations(n)
    return ((configs >> seat) & 1 == 0).astype(np.float64)


def search(n=5, seat=0, iterations=2000, seed=1, track=None, votes_first=None, bandit="ucbt"):
    """Search the first proposal (leader 0) or, with ``votes_first``, the vote on it."""
    track_ = PublicTrack(n, seat, 0, 0)
    if votes_first is not None:
        track_.propose(votes_first)
    m = MTISMCTS(search_spec(n), bandit=bandit)
    r = m.search(track_.root(), resistance_belief(n, seat), make_rng(seed), searcher=seat,
                 chain=track_.chain(), iterations=iterations,
                 track=True if track is None else track)
    return m, r


# --- the node pool ---------------------------------------------------------------------
def test_node_is_24_or_20_bytes_and_pool_grows_keeping_nodes():
    # issue 17: 24 bytes, 20 without a sum of squares (0/1 rewards), down from 32
    assert (NODE_BYTES, BINARY_NODE_BYTES) == (24, 20)
    assert NodePool(16).node_bytes == 24
    assert NodePool(16, binary_rewards=True).node_bytes == 20
    pool = NodePool(16)
    (root,) = pool.new_roots(1)
    kids = [add_child(pool.data, pool.fdata, pool.meta, root, k) for k in range(40)]
    assert -1 in kids  # the pool was full: compiled code never writes past its end
    pool.ensure(100)
    assert pool.capacity >= pool.used + 100
    more = [add_child(pool.data, pool.fdata, pool.meta, root, k) for k in range(40, 50)]
    assert min(more) >= 0
    keys = [pool.key(c) for c in pool.children(root)]
    assert keys == sorted(keys, reverse=True)  # newest first; earlier nodes survived growth
    assert pool.child(root, 3) >= 0 and pool.child(root, 99) == -1


def test_stats_mean_and_variance():
    pool = NodePool()
    (u,) = pool.new_roots(1)
    for r in (1.0, 0.0, 1.0, 1.0):
        backpropagate(pool.data, pool.fdata, pool.meta, u, r)
    n, mean, var = pool.stats(u)
    assert (n, mean, var) == (4, 0.75, pytest.approx(0.1875))


# --- bandits (Whitehouse 2014, §3.1; Auer, Cesa-Bianchi & Fischer 2002) ------------------------
def test_ucb1_and_ucb_tuned_formulas():
    log_n = math.log(100)
    assert ucb1_value(6.0, 10, log_n, 0.7) == pytest.approx(0.6 + 0.7 * math.sqrt(log_n / 10))
    # V = sumsq/n - mean^2 + sqrt(2 ln n / n); bound = sqrt(ln n / n * min(1/4, V))
    v = 6.0 / 10 - 0.36 + math.sqrt(2 * log_n / 10)
    assert v > 0.25
    assert ucb_tuned_value(6.0, 6.0, 10, log_n) == pytest.approx(
        0.6 + math.sqrt(log_n / 10 * 0.25))
    # A low-variance arm with many pulls: the variance term, not 1/4, binds.
    log_n = math.log(10**6)
    v = 0.0 - 0.0 + math.sqrt(2 * log_n / 10**5)
    assert v < 0.25
    assert ucb_tuned_value(0.0, 0.0, 10**5, log_n) == pytest.approx(
        math.sqrt(log_n / 10**5 * v))
    assert bandit_code("UCBT") == UCB_TUNED and bandit_code("ucb1") == UCB1
    with pytest.raises(ValueError, match="unknown bandit"):
        bandit_code("exp4")


def test_select_child_prefers_unvisited_then_the_best_index():
    pool = NodePool()
    (u,) = pool.new_roots(1)
    a = add_child(pool.data, pool.fdata, pool.meta, u, 0)
    b = add_child(pool.data, pool.fdata, pool.meta, u, 1)
    for node, n, total in ((u, 20, 10.0), (a, 10, 8.0), (b, 10, 2.0)):
        pool.set_stats(node, n, total)
    assert select_child(pool.data, pool.fdata, u, UCB1, 0.7) == a
    assert select_child(pool.data, pool.fdata, u, UCB_TUNED, 0.0) == a
    # A large constant makes the less visited arm win under UCB1.
    pool.set_stats(b, 2, 0.5)
    assert select_child(pool.data, pool.fdata, u, UCB1, 5.0) == b
    c = add_child(pool.data, pool.fdata, pool.meta, u, 2)
    assert select_child(pool.data, pool.fdata, u, UCB1, 0.7) == c


# --- information sets and trees (Cowling et al. 2015, §IV)
# ------------------------------------------
@pytest.mark.parametrize("n", range(5, 11))
def test_one_tree_per_player_per_information_set(n):
    tree_of, n_trees = info_set_table(n)
    configs = spy_configurations(n)
    k = {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}[n]
    assert trees_per_player(n) == 1 + math.comb(n - 1, k - 1)  # 5p: 1 + C(4,1) = 5
    assert n_trees == n * trees_per_player(n)
    for j in range(n):
        res = {tree_of[i, j] for i, d in enumerate(configs) if not (d >> j) & 1}
        spy = [tree_of[i, j] for i, d in enumerate(configs) if (d >> j) & 1]
        assert len(res) == 1  # every configuration without j: j's one resistance tree
        assert len(set(spy)) == len(spy) == math.comb(n - 1, k - 1)  # one per configuration
        assert res.isdisjoint(spy)
    # Trees of different players never coincide.
    owners = {}
    for i in range(len(configs)):
        for j in range(n):
            assert owners.setdefault(int(tree_of[i, j]), j) == j


def test_only_trees_consistent_with_the_searchers_knowledge_are_visited():
    n, seat, iterations = 5, 0, 3000
    m, r = search(n, seat, iterations)
    tree_of, _ = info_set_table(n)
    configs = spy_configurations(n)
    possible = [i for i, d in enumerate(configs) if not (d >> seat) & 1]
    visited = {int(t) for i in possible for t in tree_of[i]}
    for t, root in enumerate(r.tree_roots):
        assert (m.pool.visits(root) > 0) == (t in visited), t
    # The searcher's own spy trees are never used; it has a single (resistance) tree.
    assert {int(tree_of[i, seat]) for i in possible} == {r.decision_tree}
    # Every iteration passes through exactly one root tree of each player.
    for j in range(n):
        per_player = sum(m.pool.visits(r.tree_roots[t]) for t in set(tree_of[:, j].tolist()))
        assert per_player == r.iterations == iterations
    # Under each configuration, a spy's tree is visited as often as that configuration.
    counts = {i: m.pool.visits(r.tree_roots[tree_of[i, 1]]) for i in possible
              if (configs[i] >> 1) & 1}
    assert sum(counts.values()) > 0 and all(v > 0 for v in counts.values())


def _all_nodes(pool: NodePool):
    return range(pool.used)


def test_every_node_is_one_information_set_and_visits_add_up():
    m, r = search(5, 0, 3000)
    pool = m.pool
    for u in _all_nodes(pool):
        kids = pool.children(u)
        keys = [pool.key(c) for c in kids]
        assert len(keys) == len(set(keys)), "two children for the same observation"
        assert sum(pool.visits(c) for c in kids) <= pool.visits(u)
        assert all(pool.visits(c) >= 1 for c in kids)  # created nodes are backpropagated
    assert r.bytes_peak / r.iterations < 200  # the memory budget of the brief


def test_hidden_vote_chain_one_child_for_others_two_for_the_voter():
    # Seat 2 votes on the first team; seats 0 and 1 vote before it, hidden.
    team = 0b00011
    m, r = search(5, 2, 3000, votes_first=team)
    pool = m.pool
    d = r.decision_node
    root = int(r.tree_roots[r.decision_tree])
    hidden1 = pool.children(root)
    assert [pool.key(c) for c in hidden1] == [K.OBS_HIDDEN]
    hidden2 = pool.children(hidden1[0])
    assert [pool.key(c) for c in hidden2] == [K.OBS_HIDDEN] and hidden2[0] == d
    assert sorted(pool.key(c) for c in pool.children(d)) == [0, 1]  # reject / approve
    # Seat 0 (first voter, resistance tree): its root holds its own two votes.
    tree_of, _ = info_set_table(5)
    configs = spy_configurations(5)
    i = next(i for i, c in enumerate(configs) if not (c >> 2) & 1 and not c & 1)
    root0 = int(r.tree_roots[tree_of[i, 0]])
    assert sorted(pool.key(c) for c in pool.children(root0)) == [0, 1]
    # Below the voter's own choice, seat 1's hidden vote: one child each.
    for c in pool.children(root0):
        assert [pool.key(g) for g in pool.children(c)] == [K.OBS_HIDDEN]
    # The last voter (seat 4) sees the reveal: its choice nodes branch on the vote masks.
    j = next(t for t in tree_of[:, 4] if pool.visits(int(r.tree_roots[t])) > 0)
    node = int(r.tree_roots[j])
    for _ in range(4):
        (node,) = pool.children(node)
        assert pool.key(node) == K.OBS_HIDDEN
    choices = pool.children(node)
    assert sorted(pool.key(c) for c in choices) == [0, 1]
    for c in choices:
        masks = [pool.key(g) - K.OBS_VOTES for g in pool.children(c)]
        assert masks and all(0 <= mk < 32 for mk in masks)
        assert all(((mk >> 4) & 1) == pool.key(c) for mk in masks)  # its own vote inside


def test_first_proposal_leader_has_a_child_per_team_and_others_see_the_team():
    m, r = search(5, 0, 3000)
    pool = m.pool
    teams = [sum(1 << s for s in c) for c in combinations(range(5), 2)]
    kids = pool.children(r.decision_node)
    assert sorted(pool.key(c) for c in kids) == list(range(10))
    tree_of, _ = info_set_table(5)
    for t in {int(x) for x in tree_of[:, 3]}:
        root = int(r.tree_roots[t])
        keys = {pool.key(c) for c in pool.children(root)}
        assert keys <= {K.OBS_TEAM | tm for tm in teams}
    assert 0 <= r.action_index < 10
    visits = {k: v[0] for k, v in r.action_stats().items()}
    assert visits[r.action_index] == max(visits.values())


# --- determinism -------------------------------------------------------------------------
def test_same_seed_same_search_different_seed_different_search():
    m1, r1 = search(5, 2, 1500, seed=11, votes_first=0b00110)
    m2, r2 = search(5, 2, 1500, seed=11, votes_first=0b00110)
    assert r1.action_index == r2.action_index
    assert m1.pool.used == m2.pool.used
    assert np.array_equal(m1.pool.data[: m1.pool.used], m2.pool.data[: m2.pool.used])
    m3, _ = search(5, 2, 1500, seed=12, votes_first=0b00110)
    assert not (m3.pool.used == m1.pool.used and np.array_equal(
        m3.pool.data[: m3.pool.used], m1.pool.data[: m1.pool.used]))


def test_search_reuse_gives_identical_trees():
    track = PublicTrack(5, 0, 0, 0)
    m = MTISMCTS(search_spec(5))
    b = resistance_belief(5, 0)
    r1 = m.search(track.root(), b, make_rng(3), searcher=0, iterations=500)
    first = m.pool.data[: m.pool.used].copy()
    assert not r1.stale
    m.search(track.root(), b, make_rng(3), searcher=0, iterations=500)
    assert r1.stale
    assert np.array_equal(first, m.pool.data[: m.pool.used])


def test_bad_search_arguments_are_named():
    m = MTISMCTS(search_spec(5))
    root = PublicTrack(5, 0, 0, 0).root()
    b = resistance_belief(5, 0)
    with pytest.raises(ValueError, match="exactly one budget"):
        m.search(root, b, make_rng(1), searcher=0)
    with pytest.raises(ValueError, match="iterations"):
        m.search(root, b, make_rng(1), searcher=0, iterations=0)
    with pytest.raises(ValueError, match="belief"):
        m.search(root, b[:3], make_rng(1), searcher=0, iterations=10)
    with pytest.raises(ValueError, match="searcher"):
        m.search(root, b, make_rng(1), searcher=7, iterations=10)
    with pytest.raises(ValueError, match="information sets"):
        m.search(root, np.ones(10), make_rng(1), searcher=0, iterations=10)
    with pytest.raises(ValueError, match="exploration constant"):
        MTISMCTS(search_spec(5), c=-1)


def test_seconds_budget_runs_batches():
    track = PublicTrack(5, 0, 0, 0)
    m = MTISMCTS(search_spec(5))
    r = m.search(track.root(), resistance_belief(5, 0), make_rng(1), searcher=0, seconds=0.05)
    assert r.iterations >= 64 and r.seconds >= 0.05


@pytest.mark.parametrize("n", [6, 7, 8, 9, 10])
def test_search_runs_at_every_size(n):
    m, r = search(n, 0, 600)  # the leader's proposal
    assert 0 <= r.action_index < int(K.TEAM_COUNT[n, K.TEAM_SIZE[n, 0]])
    m, r = search(n, n - 1, 600, votes_first=(1 << int(K.TEAM_SIZE[n, 0])) - 1)
    assert r.action_index in (0, 1)  # the last voter
    with pytest.raises(RuntimeError, match="does not act"):
        search(n, 1, 10)


_NOJIT = """
import json
from spyglass.games.resistance.search_kernel import search_spec
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.tables import spy_configurations
from spyglass.search.mtismcts import MTISMCTS
from spyglass.rng import make_rng
t = PublicTrack(5, 2, 0, 0)
t.propose(0b00011)
b = ((spy_configurations(5) >> 2) & 1 == 0).astype(float)
m = MTISMCTS(search_spec(5))
r = m.search(t.root(), b, make_rng(7), searcher=2, chain=t.chain(), iterations=120)
print(json.dumps({"action": r.action_index, "data": m.pool.data[: m.pool.used].tolist()}))
"""


def test_search_runs_uncompiled_and_matches_the_compiled_search():
    code = _NOJIT
    out = {}
    for jit in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=jit)
        proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        out[jit] = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["0"] == out["1"]  # same RNG stream, same tree, with and without numba


def test_chain_reaches_decision_even_with_a_tiny_budget():
    m, r = search(5, 4, 5, votes_first=0b00011)
    assert m.pool.data[r.decision_node, CHILD] >= 0
    assert r.iterations >= 5
    # Sibling links stay consistent (move-to-front keeps every child reachable once).
    for u in _all_nodes(m.pool):
        seen, c = set(), int(m.pool.data[u, CHILD])
        while c >= 0:
            assert c not in seen
            seen.add(c)
            c = int(m.pool.data[c, SIBLING])
        assert len(seen) == m.pool.n_children(u)
    assert m.pool.key(r.decision_node) == K.OBS_HIDDEN
    assert int(m.pool.data[r.decision_node, KEY]) == K.OBS_HIDDEN


def test_frozen_trees_are_neither_updated_nor_grown():
    # TWOSTEP's hook (Cowling et al. 2015, §VI): a per-tree update flag; a frozen tree stays as it
    # is.
    track = PublicTrack(5, 0, 0, 0)
    m = MTISMCTS(search_spec(5))
    tree_of, _ = info_set_table(5)
    frozen = sorted({int(t) for t in tree_of[:, 3]})
    m.tree_update[frozen] = 0
    r = m.search(track.root(), resistance_belief(5, 0), make_rng(2), searcher=0,
                 iterations=800)
    configs = spy_configurations(5)
    used = {int(t) for i, d in enumerate(configs) if not d & 1 for t in tree_of[i]}
    for t, root in enumerate(r.tree_roots):
        if t in frozen or t not in used:
            assert m.pool.visits(root) == 0
        else:
            assert m.pool.visits(root) > 0
    assert not any(m.pool.children(int(r.tree_roots[t])) for t in frozen)  # not grown
