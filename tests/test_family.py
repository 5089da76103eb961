"""The ISMCTS-family search cores on tiny budgets (Whitehouse 2014, §3.2.4, §5.2, §6.3).

Tree structure per algorithm (SO availability counts, POM observation edges, MO one tree
per player, PIMC votes), EXP3's probabilities against the formula, and determinism.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.family_search import run_ismcts, run_pimc
from spyglass.games.resistance.search_kernel import MAX_DEPTH
from spyglass.games.resistance.tables import spy_configurations
from spyglass.rng import make_rng
from spyglass.search.bandits import exp3_gamma, exp3_probabilities
from spyglass.search.pimc import PIMC, vote
from spyglass.search.so_ismcts import ISMCTS

N = 5
CONFIGS = spy_configurations(N).astype(np.int64)


def searcher(mode: str, exp3: bool = False) -> ISMCTS:
    return ISMCTS(run_ismcts, N, CONFIGS.reshape(-1, 1), mode=mode, exp3=exp3,
                  max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH)


def not_spy(seat: int) -> np.ndarray:
    return ((CONFIGS >> seat) & 1 == 0).astype(np.float64)


def mission_state(team: int) -> np.ndarray:
    """A 5-player state at the first card of mission 1 with ``team`` (approved)."""
    s = K.new_state(N, 0, 0, 0)
    K.apply(s, team)
    for _ in range(N):
        K.apply(s, 1)
    assert s[K.PHASE] == K.MISSION_PHASE
    return s


# --- EXP3 (Whitehouse 2014 eqs. 3.2-3.4) ----------------------------------------------------------

@pytest.mark.parametrize("scores,n", [([3.0, 1.0], 10), ([0.0, 5.0, 2.5], 40), ([7.0, 7.0], 3)])
def test_exp3_probabilities_match_auer_form(scores, n):
    k = len(scores)
    gamma = min(1.0, math.sqrt(k * math.log(k) / ((math.e - 1) * n)))  # eq. 3.3
    eta = gamma / k  # eq. 3.4
    # Auer et al.'s form: (1 - γ) softmax(η s) + γ / K, which eq. 3.2 rewrites stably.
    z = [math.exp(eta * x) for x in scores]
    want = [(1 - gamma) * zi / sum(z) + gamma / k for zi in z]
    out = np.zeros(k)
    exp3_probabilities(np.array(scores), k, n, out)
    assert out == pytest.approx(want, rel=1e-12)
    assert out.sum() == pytest.approx(1.0)
    assert exp3_gamma(k, n) == pytest.approx(gamma)


def test_exp3_explores_fully_when_few_trials():
    assert exp3_gamma(2, 1) < 1.0 and exp3_gamma(3, 1) == 1.0 and exp3_gamma(1, 50) == 1.0


# --- SO-ISMCTS availability counts (Whitehouse 2014, §5.2.3) ------------------------------------

def test_so_availability_counts_follow_the_determinizations():
    """Seat 1 plays the first card; searcher seat 0 thinks it a spy in half the deals.

    The fail card is legal only there: its availability count is the number of such
    iterations (binomial around N/2), while the success card is available every time.
    """
    team = 0b00110  # seats 1 and 2
    belief = not_spy(0)
    assert belief[(CONFIGS >> 1) & 1 == 1].sum() * 2 == belief.sum()
    n_iter = 2000
    res = searcher("so").search(mission_state(team), belief, make_rng(3), searcher=0,
                                iterations=n_iter)
    stats = res.action_stats()  # index -> (visits, availability, mean)
    assert set(stats) == {0, 1}
    (v0, a0, _), (v1, a1, _) = stats[0], stats[1]
    assert v0 + v1 == n_iter
    assert n_iter - 5 <= a0 <= n_iter
    assert abs(a1 - n_iter / 2) < 4 * math.sqrt(n_iter / 4)
    assert v1 <= a1 and v0 <= a0


def test_so_no_fail_card_when_never_a_spy():
    belief = not_spy(0) * not_spy(1)
    res = searcher("so").search(mission_state(0b00110), belief, make_rng(4), searcher=0,
                                iterations=300)
    assert set(res.action_stats()) == {0}


def test_so_edges_are_actions_and_pom_edges_are_observations():
    """At another player's (non-final) vote, SO branches on the vote, POM on the one
    observation 'someone voted' (Whitehouse 2014, §6.3)."""
    s = K.new_state(N, 0, 0, 0)
    K.apply(s, 0b00011)  # proposal by seat 0; seat 0 votes first
    belief = not_spy(2)
    so = searcher("so").search(s, belief, make_rng(5), searcher=2, iterations=400)
    assert set(so.action_stats()) == {0, 1}
    pom = searcher("pom").search(s, belief, make_rng(5), searcher=2, iterations=400)
    keys = [pom.pool.key(c) for c in pom.pool.children(pom.decision_node)]
    assert keys == [K.OBS_HIDDEN]
    assert pom.pool.visits(pom.decision_node) == 400


def test_so_grows_at_most_two_nodes_per_iteration():
    res = searcher("so").search(K.new_state(N, 0, 0, 0), not_spy(0), make_rng(6),
                                searcher=0, iterations=500)
    assert res.pool.used <= 2 * 500 + 1


# --- MO-ISMCTS (Whitehouse 2014 Algorithms 4-5) -----------------------------------------------

def test_mo_has_one_tree_per_player_keyed_by_its_observations():
    leader = 3
    n_iter = 600
    res = searcher("mo").search(K.new_state(N, 0, leader, 0), not_spy(0), make_rng(7),
                                searcher=0, iterations=n_iter)
    assert len(res.tree_roots) == N
    pool = res.pool
    n_teams = int(K.TEAM_COUNT[N, 2])
    for t, root in enumerate(res.tree_roots.tolist()):
        assert pool.visits(root) == n_iter
        keys = {pool.key(c) for c in pool.children(root)}
        if t == leader:  # the leader's own choice: action indices
            assert keys == set(range(n_teams))
        else:  # everyone else sees the team proposed
            assert all(k & K.OBS_TEAM for k in keys) and len(keys) == n_teams
    assert res.decision_node == res.tree_roots[0]


def test_mo_chain_reaches_the_searchers_vote():
    s = K.new_state(N, 0, 0, 0)
    K.apply(s, 0b00011)
    chain = [K.OBS_HIDDEN, K.OBS_HIDDEN]  # seats 0 and 1 vote before seat 2
    res = searcher("mo", exp3=True).search(s, not_spy(2), make_rng(8), searcher=2,
                                           chain=chain, iterations=500)
    assert res.pool.visits(res.decision_node) > 0
    assert set(res.action_stats()) == {0, 1}


def test_same_seed_same_search():
    def run(seed):
        r = searcher("pom", exp3=True).search(K.new_state(N, 0, 1, 0), not_spy(1),
                                              make_rng(seed), searcher=1, iterations=700)
        return r.action_index, r.action_stats()
    assert run(11) == run(11)


def test_bad_search_arguments_are_named():
    with pytest.raises(ValueError, match="mode"):
        searcher("xx")
    with pytest.raises(ValueError, match="chain"):
        searcher("so").search(K.new_state(N, 0, 0, 0), not_spy(0), make_rng(1), searcher=0,
                              chain=[1], iterations=10)
    with pytest.raises(ValueError, match="belief"):
        searcher("so").search(K.new_state(N, 0, 0, 0), np.zeros(len(CONFIGS)), make_rng(1),
                              searcher=0, iterations=10)


# --- PIMC ----------------------------------------------------------------------------------

def test_vote_is_majority_then_summed_visits_then_index():
    assert vote([{0: 5, 1: 3}, {1: 6, 0: 2}, {0: 4, 2: 4}])[0] == 0
    winner, votes, summed = vote([{0: 5, 1: 3}, {1: 6, 0: 2}])
    assert votes == {0: 1, 1: 1} and summed == {0: 7, 1: 9} and winner == 1


def test_pimc_builds_one_tree_per_determinization():
    states = []
    for cfg in CONFIGS[:4]:
        s = K.new_state(N, int(cfg), 0, 0)
        states.append(s)
    res = PIMC(run_pimc, max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH).search(
        states, make_rng(9), iterations=150)
    assert sum(res.votes.values()) == 4 and res.iterations == 600
    assert sum(res.visits.values()) == 600  # every iteration passes a root child
