"""The child index of the node pool (issue 12): lookups agree with a scan of the child list.

MT-ISMCTS finds an observation parent's child in a hash table once the parent has
``INDEX_FROM`` children (:mod:`spyglass.search.tree`). These tests build trees in random
orders, grow the table past its load several times, relayout and reset the pool, and
compare every lookup, present or absent, with a walk of the linked list.
"""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.search.tree import (
    INDEX_FROM,
    INDEX_LOAD_DEN,
    INDEX_LOAD_NUM,
    INDEXED,
    NodePool,
    add_child_indexed,
    find_child_indexed,
)

KEYS = 3 * INDEX_FROM  # labels 0..KEYS-1: some parents pass INDEX_FROM, some do not


def _build(ops: list[tuple[int, int]], n_roots: int = 3) -> tuple[NodePool, list[int]]:
    """A pool grown by ``(parent choice, key)`` steps; a step whose child exists is skipped."""
    pool = NodePool(16, binary_rewards=True)
    pool.index = np.full((16, 2), -1, dtype=np.int32)  # small, so that it must grow
    nodes = [int(r) for r in pool.new_roots(n_roots)]
    for pick, key in ops:
        parent = nodes[pick % len(nodes)]
        if pool.child(parent, key) >= 0:
            continue
        pool.ensure(1)
        pool.ensure_index(INDEX_FROM + 1)
        c = int(add_child_indexed(pool.data, pool.fdata, pool.meta, pool.index, parent, key))
        assert c >= 0
        nodes.append(c)
    return pool, nodes


def _check(pool: NodePool, nodes: list[int]) -> int:
    """Every lookup at an indexed parent agrees with the list; return the indexed parents."""
    indexed = 0
    entries = 0
    for u in nodes:
        k = pool.n_children(u)
        if k < INDEX_FROM:
            continue
        indexed += 1
        entries += len(pool.children(u))
        for key in range(-1, KEYS + 2):
            want = pool.child(u, key)  # a walk of the linked list
            assert find_child_indexed(pool.data, pool.index, u, key) == want, (u, key)
    assert int(pool.meta[INDEXED]) == entries  # every child of an indexed parent, once
    assert entries * INDEX_LOAD_DEN <= pool.index.shape[0] * INDEX_LOAD_NUM  # between batches
    return indexed


# Mostly the first roots (so they pass INDEX_FROM children), sometimes any node.
_ops = st.lists(
    st.tuples(st.one_of(st.integers(0, 2), st.integers(0, 10_000)), st.integers(0, KEYS - 1)),
    min_size=0, max_size=600,
)


@settings(max_examples=40, deadline=None)
@given(_ops)
def test_index_agrees_with_a_list_scan(ops):
    pool, nodes = _build(ops)
    _check(pool, nodes)


@settings(max_examples=15, deadline=None)
@given(_ops)
def test_index_survives_a_relayout(ops):
    pool, nodes = _build(ops)
    before = {(u, key): pool.child(u, key) for u in nodes for key in range(KEYS)}
    new_id = pool.relayout(3)
    moved = [int(new_id[u]) for u in nodes]
    _check(pool, moved)
    for (u, key), c in before.items():
        assert pool.child(int(new_id[u]), key) == (int(new_id[c]) if c >= 0 else -1)


def test_a_parent_passing_the_threshold_enters_every_child_and_reset_empties_it():
    ops = [(0, key) for key in range(INDEX_FROM + 5)]
    pool, nodes = _build(ops, n_roots=1)
    assert _check(pool, nodes) == 1
    assert int(pool.meta[INDEXED]) == INDEX_FROM + 5
    # One child fewer than the threshold: nothing indexed.
    pool2, nodes2 = _build([(0, key) for key in range(INDEX_FROM - 1)], n_roots=1)
    assert int(pool2.meta[INDEXED]) == 0
    pool.reset()
    assert int(pool.meta[INDEXED]) == 0 and (pool.index[:, 0] == -1).all()


def test_ten_player_searches_use_the_index():
    """The first 10-player proposal's team observations are indexed (and 5 players' not)."""
    from spyglass.games.resistance.public_track import PublicTrack
    from spyglass.games.resistance.search_kernel import search_spec
    from spyglass.rng import make_rng
    from spyglass.search.mtismcts import MTISMCTS

    used = {}
    for n in (5, 10):
        spec = search_spec(n)
        belief = ((spec.dets[:, 0] & 1) == 0).astype(np.float64)
        m = MTISMCTS(spec)
        r = m.search(PublicTrack(n, 0, 0, 0).root(), belief, make_rng(3), searcher=0,
                     iterations=1500)
        used[n] = int(m.pool.meta[INDEXED])
        # Every indexed parent's children are found by the table as by the list.
        pool = r.pool
        parents = {int(p) for p in pool.index[:, 0] if p >= 0}
        for u in parents:
            assert pool.n_children(u) >= INDEX_FROM
            for c in pool.children(u):
                assert find_child_indexed(pool.data, pool.index, u, pool.key(c)) == c
    assert used[10] > 0
    assert used[5] == 0
