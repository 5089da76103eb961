"""The game-general sampled searches (spyglass.search.sampled) on a toy phantom game:
hand-checked trees (availability counts, POM edges by observation, MO one tree per
player), determinism, compiled/uncompiled parity and the depth/pool/sampler errors."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import toy_phantom as T

from spyglass.rng import make_rng
from spyglass.search.sampled.driver import GameShape, ISMCTSSearch, SearchSettings, UCTSearch
from spyglass.search.sampled.ensemble import ensemble_search
from spyglass.search.sampled.pool import AVAIL, VISITS, Pool, decode_move_key, move_key

GAME = T.ToyPhantom()
SHAPE = GameShape.of(GAME)


def after(moves, game=GAME):
    s = game.new_state(0)
    for a in moves:
        game.kernel.apply(s, a)
    return s


def search(alg, view, seat, seed=1, iterations=500, **kw):
    srch = ISMCTSSearch(T.ENTRY, SHAPE, alg, SearchSettings(iterations=iterations, **kw))
    return srch, srch.search(view, seat, make_rng(seed))


@pytest.mark.parametrize("alg", ["so", "pom", "mo"])
def test_root_children_are_the_searchers_legal_actions(alg):
    s = after([4])  # player 0 took the centre; player 1 to move, sees nothing of it
    res = search(alg, GAME.view(s, 1), 1)[1]
    assert sorted(res.action_stats()) == list(range(9))
    assert res.action in range(9)
    assert res.iterations == 500
    # The root's children are always legal: child created at iteration i is available
    # in every iteration from i on (Whitehouse 2014, eq. 5.1 with full availability).
    avails = sorted((st[1] for st in res.action_stats().values()), reverse=True)
    assert avails == [500 - i for i in range(9)]


def test_availability_counts_match_legality_in_each_determinization():
    """Run SO one iteration at a time; replay each iteration's sampled determinization
    from a copy of the generator and check that exactly the children legal in it gained
    availability at the opponent's node (Whitehouse 2014, eq. 5.1)."""
    s = after([0, 4])  # p0 marked 0, p1 marked 4 (p0 cannot know where); p0 to move
    seat = 0
    view = GAME.view(s, seat)
    pool = Pool(capacity=1 << 12)
    xs = np.zeros(pool.capacity)
    root = int(pool.new_roots(1)[0])
    rng = make_rng(7)
    checked = partial = 0
    for _ in range(600):
        before = pool.data[: pool.used].copy()
        det = np.zeros(T.STATE_SIZE, dtype=np.int64)
        assert T.sample(view, seat, rng.copy(), det)  # the iteration's determinization
        T.ENTRY.so(view, seat, 9, T.STATE_SIZE, root, pool.data, pool.fdata, pool.meta, xs,
                   0, 0.7, False, 1, rng, SHAPE.width)
        for a_node in pool.children(root):
            if a_node >= len(before) or pool.visits(a_node) == before[a_node, VISITS]:
                continue  # not this iteration's choice
            a, who = decode_move_key(pool.key(a_node))
            assert who == 0
            d = det.copy()
            reveal = pool.child(a_node, int(T.observe(d, a, 0)))
            T.apply(d, a)
            if reveal < 0 or reveal >= len(before) or T.is_terminal(d) or T.actor(d) != 1:
                continue  # the iteration stopped here, or p0 was refused, or it ended
            legal = {move_key(T.legal_action(d, i), 1) for i in range(T.n_legal(d))}
            old = {pool.key(ch) for ch in pool.children(reveal) if ch < len(before)}
            gained = {pool.key(ch) for ch in pool.children(reveal) if ch < len(before)
                      and pool.data[ch, AVAIL] > before[ch, AVAIL]}
            assert gained == legal & old
            checked += 1
            partial += old - legal != set()
    assert checked > 100
    # p1's legal squares depend on where the sample put p1's mark, so some existing
    # children were unavailable in some iterations.
    assert partial > 10


def test_pom_opponent_edges_are_observations():
    s = after([4])
    res = search("pom", GAME.view(s, 1), 1, iterations=2000)[1]
    pool = res.pool
    opp_keys, own_keys = set(), set()
    for a_node in pool.children(res.decision_node):
        for reveal in pool.children(a_node):  # p1's own observation: square, accepted?
            assert pool.key(reveal) in range(18)
            for ch in pool.children(reveal):
                (own_keys if pool.key(ch) < 0 else opp_keys).add(pool.key(ch))
    # Player 1 sees player 0's moves only as accepted (1) or refused (2): never a square.
    assert opp_keys == {1, 2}
    # After a refusal p1 moves again: its own moves, by move key.
    assert own_keys and {decode_move_key(k)[1] for k in own_keys} == {1}
    # SO on the same view: p0's moves are edges by p0's move keys (squares).
    res_so = search("so", GAME.view(s, 1), 1, iterations=2000)[1]
    p = res_so.pool
    so_keys = {p.key(ch) for a in p.children(res_so.decision_node) for r in p.children(a)
               for ch in p.children(r)}
    assert len({decode_move_key(k) for k in so_keys if decode_move_key(k)[1] == 0}) > 2


def test_mo_keeps_one_tree_per_player():
    s = GAME.new_state(0)
    res = search("mo", GAME.view(s, 0), 0, iterations=1000)[1]
    pool = res.pool
    assert len(res.roots) == 2
    assert res.decision_node == res.roots[0]
    mine = [decode_move_key(pool.key(ch)) for ch in pool.children(res.roots[0])]
    assert sorted(mine) == [(a, 0) for a in range(9)]  # player 0's own moves
    theirs = pool.children(res.roots[1])
    # Player 1 sees player 0's first move only as "accepted" (key 1): one edge, every visit.
    assert [pool.key(ch) for ch in theirs] == [1]
    assert pool.visits(theirs[0]) == 1000
    # Below it, player 1's own moves, by move key.
    below = sorted(decode_move_key(pool.key(ch)) for ch in pool.children(theirs[0]))
    assert below == [(a, 1) for a in range(9)]


@pytest.mark.parametrize("alg", ["so", "pom", "mo"])
def test_same_seed_same_search(alg):
    view = GAME.view(after([4]), 1)
    a = search(alg, view, 1, seed=3, iterations=700)[1]
    b = search(alg, view, 1, seed=3, iterations=700)[1]
    assert a.action_stats() == b.action_stats()
    assert a.pool.used == b.pool.used


def test_batches_do_not_change_the_search():
    view = GAME.view(after([4]), 1)
    srch = ISMCTSSearch(T.ENTRY, SHAPE, "mo", SearchSettings(iterations=5000))
    srch.pool = Pool(capacity=16)  # forces many grow-and-resume steps
    a = srch.search(view, 1, make_rng(5))
    b = search("mo", view, 1, seed=5, iterations=5000)[1]
    assert a.action_stats() == b.action_stats()


def test_uct_and_ensemble_on_visible_game():
    vis = T.ToyTicTacToe()
    shape = GameShape.of(vis)
    uct = UCTSearch(T.VISIBLE_ENTRY, shape, SearchSettings(iterations=3000))
    s = after([0, 4, 1], vis)  # X threatens a1-b1-c1; O must block at 2
    res = uct.search(s, make_rng(1))
    assert res.action == 2
    assert sum(v for v, _, _ in res.action_stats().values()) == 3000
    ens = ensemble_search(UCTSearch(T.VISIBLE_ENTRY, shape, SearchSettings(iterations=300)),
                          [s] * 5, make_rng(2))
    assert ens.action == 2
    assert sum(ens.votes.values()) == 5
    assert ens.iterations == 1500


def test_depth_bound_is_an_error_not_a_truncation():
    small = GameShape(SHAPE.kernel, 2, 9, T.STATE_SIZE, max_moves=1)
    srch = ISMCTSSearch(T.ENTRY, small, "so", SearchSettings(iterations=200))
    with pytest.raises(RuntimeError, match="max_moves"):
        srch.search(GAME.view(GAME.new_state(0), 0), 0, make_rng(1))


def test_pool_cap_is_a_memory_error():
    srch = ISMCTSSearch(T.ENTRY, SHAPE, "mo", SearchSettings(iterations=5000, max_nodes=100))
    with pytest.raises(MemoryError, match="max_nodes"):
        srch.search(GAME.view(GAME.new_state(0), 0), 0, make_rng(1))


def test_impossible_view_is_a_sampler_error():
    view = GAME.view(after([4]), 1)
    view[T.V_OPPN] = 10  # more opponent stones than free squares
    with pytest.raises(RuntimeError, match="sampler"):
        search("so", view, 1)


def test_settings_are_checked():
    with pytest.raises(ValueError, match="budget"):
        SearchSettings(iterations=None)
    with pytest.raises(ValueError, match="bandit"):
        SearchSettings(bandit="ucb9")
    with pytest.raises(ValueError, match="exploration"):
        SearchSettings(c=-1.0)
    with pytest.raises(ValueError, match="algorithm"):
        ISMCTSSearch(T.ENTRY, SHAPE, "xx", SearchSettings())


_PARITY = """
import json, sys
sys.path.insert(0, sys.argv[1])
import toy_phantom as T
from spyglass.rng import make_rng
from spyglass.search.sampled.driver import GameShape, ISMCTSSearch, SearchSettings, UCTSearch
g = T.ToyPhantom(); s = g.new_state(0); T.apply(s, 4)
out = {}
for alg in ("so", "pom", "mo"):
    srch = ISMCTSSearch(T.ENTRY, GameShape.of(g), alg, SearchSettings(iterations=150))
    r = srch.search(g.view(s, 1), 1, make_rng(9))
    out[alg] = [[k, v[0], v[1], round(v[2], 12)] for k, v in r.action_stats().items()]
u = UCTSearch(T.VISIBLE_ENTRY, GameShape.of(T.ToyTicTacToe()), SearchSettings(iterations=150))
r = u.search(s, make_rng(9))
out["uct"] = [[k, v[0], round(v[2], 12)] for k, v in r.action_stats().items()]
print(json.dumps(out))
"""


def test_same_search_without_the_jit():
    tests = str(Path(__file__).parent)
    runs = []
    for flag in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=flag)
        out = subprocess.run([sys.executable, "-c", _PARITY, tests], env=env, check=True,
                             capture_output=True, text=True, timeout=600).stdout
        runs.append(json.loads(out))
    assert runs[0] == runs[1]
    assert runs[0]["mo"]


def test_exp3_sums_survive_pool_growth():
    """EXP3 keeps per-node sums beside the pool; growing the pool mid-search must keep them
    (same search with a tiny and a large initial pool)."""
    pytest.importorskip("spyglass.games.resistance.protocol",
                        reason="the game-general Resistance is not on this branch")
    from spyglass.agents.search_support import search_entry
    from spyglass.games.resistance.game import Resistance

    g = Resistance(5)
    s = g.new_state(3)
    shape = GameShape.of(g)
    k = g.kernel
    while k.actor(s) >= 0 and not k.n_legal(s) == 2:  # advance to the first vote
        k.apply(s, k.legal_action(s, 0))
    seat = int(k.actor(s))
    runs = []
    for cap in (16, 1 << 16):
        srch = ISMCTSSearch(search_entry(g), shape, "so",
                            SearchSettings(iterations=9000, exp3=True))
        srch.pool = Pool(capacity=cap)
        srch.xs = np.zeros(srch.pool.capacity)
        runs.append(srch.search(g.view(s, seat), seat, make_rng(4)).action_stats())
    assert runs[0] == runs[1]


@pytest.mark.parametrize("alg", ["pom", "mo"])
def test_unseen_moves_are_no_edges(alg):
    """In Phantom the opponent does not perceive a refused try (observation UNSEEN): no
    tree of POM or MO may hold an edge for it."""
    game_mod = pytest.importorskip("spyglass.games.phantom.game",
                                   reason="Phantom is not on this branch yet")
    from spyglass.games.phantom.search_entry import ENTRY
    from spyglass.search.protocol import UNSEEN

    g = game_mod.Phantom(m=3, n=3, k=3)
    s = g.new_state(0)
    for a in (4, 0, 8):  # p0 centre, p1 corner, p0 opposite corner: p1 to move
        g.kernel.apply(s, a)
    seat = int(g.kernel.actor(s))
    srch = ISMCTSSearch(ENTRY, GameShape.of(g), alg, SearchSettings(iterations=3000))
    res = srch.search(g.view(s, seat), seat, make_rng(2))
    pool = res.pool
    keys = {pool.key(u) for u in range(1, pool.used)} - {pool.key(r) for r in res.roots}
    assert UNSEEN not in keys
    assert any(k > 0 for k in keys)  # observation edges exist
