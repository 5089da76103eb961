"""The compact node pool of issue 17: huge-page arrays, packed fields, loud limits."""

from __future__ import annotations

import mmap

import numpy as np
import pytest

from spyglass.bench.latency import _chase, _sattolo, load_latency_ns
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import search_spec
from spyglass.rng import make_rng
from spyglass.search import huge_pages
from spyglass.search.mtismcts import MTISMCTS
from spyglass.search.protocol import SearchSpec
from spyglass.search.tree import (
    MAX_CHILD_COUNT,
    MAX_VISITS,
    NodePool,
    add_child,
    backpropagate,
)


def test_large_arrays_are_zeroed_aligned_and_writable():
    a = huge_pages.zeros((huge_pages.MIN_BYTES // 20 + 7, 5), np.int32)
    assert a.shape[1] == 5 and a.flags.c_contiguous and a.flags.writeable
    assert not a.any()
    if hasattr(mmap.mmap, "madvise") and huge_pages.huge_pages_mode() in ("madvise", "always"):
        assert a.ctypes.data % huge_pages.HUGE_PAGE == 0
    a[-1, -1] = 7
    assert a.sum() == 7
    small = huge_pages.zeros((3, 5), np.int32)  # below MIN_BYTES: a plain array
    assert small.shape == (3, 5) and not small.any()


def test_pool_growth_keeps_nodes_on_the_new_arrays():
    pool = NodePool(16, binary_rewards=True)
    (root,) = pool.new_roots(1)
    pool.ensure(huge_pages.MIN_BYTES // 20 + 100)  # past the huge-page threshold
    kid = add_child(pool.data, pool.fdata, pool.meta, root, 5)
    backpropagate(pool.data, pool.fdata, pool.meta, kid, 1.0)
    assert pool.children(root) == [kid] and pool.stats(kid) == (1, 1.0, 0.0)


def test_child_count_and_visits_share_a_field_without_mixing():
    pool = NodePool()
    (u,) = pool.new_roots(1)
    for k in range(MAX_CHILD_COUNT + 10):  # observation parents may saturate the count
        pool.ensure(1)
        add_child(pool.data, pool.fdata, pool.meta, u, k)
        backpropagate(pool.data, pool.fdata, pool.meta, u, 0.5)
    assert pool.n_children(u) == MAX_CHILD_COUNT
    assert pool.visits(u) == MAX_CHILD_COUNT + 10
    n, mean, var = pool.stats(u)
    assert (n, mean, var) == (MAX_CHILD_COUNT + 10, 0.5, 0.0)
    assert len(pool.children(u)) == MAX_CHILD_COUNT + 10


def test_binary_pool_rejects_other_rewards_loudly():
    pool = NodePool(binary_rewards=True)
    (u,) = pool.new_roots(1)
    backpropagate(pool.data, pool.fdata, pool.meta, u, 1.0)
    pool.check_rewards()  # 0/1: fine
    backpropagate(pool.data, pool.fdata, pool.meta, u, 0.5)
    with pytest.raises(ValueError, match="other than 0 or 1"):
        pool.check_rewards()
    with pytest.raises(ValueError, match="no separate sum of squares"):
        pool.set_stats(u, 2, 1.0, 0.5)


def test_limits_are_named():
    spec = search_spec(5)
    m = MTISMCTS(spec)
    root = PublicTrack(5, 0, 0, 0).root()
    phi = ((spec.dets[:, 0] & 1) == 0).astype(float)
    with pytest.raises(ValueError, match="limited to"):
        m.search(root, phi, make_rng(1), searcher=0, iterations=MAX_VISITS + 1)
    with pytest.raises(ValueError, match="max_actions"):
        SearchSpec(kernel=spec.kernel, run=spec.run, n_players=5, dets=spec.dets,
                   tree_of=spec.tree_of, n_trees=spec.n_trees, max_actions=300,
                   max_depth=spec.max_depth)


def test_resistance_search_uses_20_byte_nodes():
    spec = search_spec(5)
    m = MTISMCTS(spec)
    phi = ((spec.dets[:, 0] & 1) == 0).astype(float)
    r = m.search(PublicTrack(5, 0, 0, 0).root(), phi, make_rng(1), searcher=0,
                 iterations=2000)
    assert m.pool.node_bytes == 20
    assert r.bytes_peak >= 20 * m.pool.used and r.bytes_peak / r.iterations < 100


def test_latency_probe_chases_one_cycle():
    nxt = np.zeros(1000, dtype=np.int64)
    _sattolo(nxt, make_rng(3))
    seen, p = set(), 0
    for _ in range(1000):
        seen.add(p)
        p = int(nxt[p])
    assert len(seen) == 1000 and p == 0  # one cycle through every cell
    assert _chase(nxt, 1000) == 0
    assert 0 < load_latency_ns(1 << 16, steps=10_000, repeats=1) < 1e6


def _content(pool, u: int) -> list:
    n, mean, var = pool.stats(u)
    return [pool.key(u), n, mean, var, [_content(pool, c) for c in pool.children(u)]]


@pytest.mark.parametrize("variant", ["trueonly", "twostep"])
def test_depth_first_relayout_changes_no_result(variant):
    """Relayouts (forced early and often here) keep every tree, child order included."""
    from spyglass.search.selfdet import plan_phases, uniform_psi

    spec = search_spec(5)
    configs = spec.dets[:, 0]
    phi = np.zeros(len(configs))
    phi[int(np.flatnonzero(configs == 0b00011)[0])] = 1.0
    seen = []
    for relayout_from in (0, 64):
        m = MTISMCTS(spec, relayout_from=relayout_from)
        r = m.search(PublicTrack(5, 0, 0, 0).root(), phi, make_rng(4), searcher=0, batch=128,
                     phases=plan_phases(variant, phi, uniform_psi(len(configs)),
                                        iterations=3000))
        if relayout_from:
            assert m._next_relayout > 4 * relayout_from  # it did run, several times
        nodes = [n for n in range(m.pool.used) if r.counts_of(n) is not None]
        seen.append((r.action_index, [_content(m.pool, int(t)) for t in r.tree_roots],
                     sorted(tuple(r.counts_of(n).tolist()) for n in nodes),
                     r.merged_action_visits(), r.decision_visits()))
    assert seen[0] == seen[1]


def test_relayout_puts_first_children_next_to_their_parents():
    pool = NodePool()
    (root,) = pool.new_roots(1)
    a = pool.data, pool.fdata, pool.meta
    kids = [add_child(*a, root, k) for k in range(3)]  # list: 2, 1, 0
    grand = add_child(*a, kids[2], 9)  # under the first child
    new_id = pool.relayout(1)
    assert new_id[root] == 0 and new_id[kids[2]] == 1 and new_id[grand] == 2
    assert [pool.key(c) for c in pool.children(0)] == [2, 1, 0]
    assert [pool.key(c) for c in pool.children(1)] == [9]
