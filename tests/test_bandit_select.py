"""``select_child`` picks exactly the child a plain argmax of the bandit formulas picks.

Its UCB-Tuned branch is written inline (shared sub-expressions, 0/1-reward shortcut,
skipping children that cannot win; issue 12); these tests compare it with an argmax of
:func:`ucb_tuned_value` / :func:`ucb1_value`, ties to the first child, over random
statistics in pools with and without sums of squares.
"""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.search.bandits import (
    UCB1,
    UCB_TUNED,
    select_child,
    ucb1_value,
    ucb_tuned_value,
)
from spyglass.search.tree import NodePool, add_child


def _reference(pool: NodePool, u: int, kind: int, c: float) -> int:
    n = pool.visits(u)
    log_n = math.log(n) if n > 1 else 0.0
    best, best_v = -1, -math.inf
    for ch in pool.children(u):
        n_j = pool.visits(ch)
        if n_j == 0:
            return ch
        total, sumsq = pool.reward_sums(ch)
        if kind == UCB1:
            v = ucb1_value(total, n_j, log_n, c)
        else:
            v = ucb_tuned_value(total, sumsq, n_j, log_n)
        if v > best_v:
            best, best_v = ch, v
    return best


_arm = st.tuples(st.integers(1, 5000), st.floats(0, 1), st.floats(0, 1))


@settings(max_examples=200, deadline=None)
@given(arms=st.lists(_arm, min_size=1, max_size=130), binary=st.booleans(),
       extra=st.integers(0, 10_000), kind=st.sampled_from([UCB_TUNED, UCB1]),
       dup=st.booleans())
def test_select_child_matches_the_argmax_of_the_formulas(arms, binary, extra, kind, dup):
    pool = NodePool(256, binary_rewards=binary)
    u = int(pool.new_roots(1)[0])
    if dup:  # exact ties: the first child in the list must win
        arms = arms + arms
    for q, (n_j, frac, spread) in enumerate(arms):
        ch = int(add_child(pool.data, pool.fdata, pool.meta, u, q))
        total = float(round(frac * n_j)) if binary else frac * n_j
        if binary:
            pool.set_stats(ch, n_j, total)
        else:
            lo = total * total / n_j  # rewards in [0, 1]: total²/n <= sumsq <= total
            pool.set_stats(ch, n_j, total, lo + spread * (total - lo))
    pool.set_stats(u, sum(a[0] for a in arms) + extra, 0.0, 0.0)
    got = int(select_child(pool.data, pool.fdata, u, kind, 0.7))
    assert got == _reference(pool, u, kind, 0.7)
