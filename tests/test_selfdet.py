"""Self-determinization and bluffing (Cowling et al. 2015, §VI; Whitehouse 2014, §7.4).

Each variant's defining behaviour on small hand-checkable cases: eq. 3 on hand numbers,
ψ uniform and blind to the player's role, PURE's decision tree fed only by true
determinizations, SPLIT's phases, TWOSTEP's untouched opponent trees, the visit-
proportional opponent policy, and the merged-tree walk that updates ψ.
"""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from spyglass.games.resistance.options import Rules
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import search_spec
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.bots.mtismcts import MTISMCTSBot
from spyglass.rng import make_rng
from spyglass.search.inference import Belief, MergedTreeWalk
from spyglass.search.mtismcts import MTISMCTS, Phase, SearchResult, sample_by_visits
from spyglass.search.selfdet import bluff_choice, plan_phases, uniform_psi
from spyglass.search.tree import TOTAL, VISITS, NodePool, add_child

N = 5
SPEC = search_spec(N)
CONFIGS = SPEC.dets[:, 0]
TRUE = int(np.flatnonzero(CONFIGS == 0b00011)[0])  # seats 0 and 1 are the spies


def spy_phi(index: int = TRUE) -> np.ndarray:
    phi = np.zeros(len(CONFIGS))
    phi[index] = 1.0
    return phi


def psi() -> np.ndarray:
    return uniform_psi(len(CONFIGS))


def subtree(pool: NodePool, u: int) -> list:
    """A tree's content (keys and statistics, child order ignored), for comparisons."""
    n, mean, var = pool.stats(u)
    kids = sorted(subtree(pool, c) for c in pool.children(u))
    return [pool.key(u), n, round(mean, 6), round(var, 6), kids]


# --- eq. 3 -----------------------------------------------------------------------------------
def test_bluff_choice_hand_numbers():
    # a* = 0 (most visits). a=1: 0.60-0.55 = 0.05 < min(0.10, 0.20) -> in A*.
    # a=2: 0.20 < min(0.10, 0.30)? no. a=3: 0.02 < min(0.10, 0.0)? no.
    stats = {0: (100, 0.60, 0.10), 1: (80, 0.55, 0.20), 2: (50, 0.40, 0.30),
             3: (10, 0.58, 0.0)}
    assert bluff_choice(stats, {0: 150, 1: 400, 2: 900, 3: 1000}) == 1
    assert bluff_choice(stats, {0: 500, 1: 400, 2: 900, 3: 1000}) == 0
    # The bound is strict: a gap of exactly one sigma is out.
    assert bluff_choice({0: (9, 0.5, 0.25), 1: (8, 0.25, 0.25)}, {0: 1, 1: 99}) == 0
    # a* stays a candidate even with sigma 0 (all its playouts agreed).
    assert bluff_choice({0: (3, 1.0, 0.0), 1: (2, 0.9, 0.3)}, {0: 0, 1: 50}) == 0
    # Ties in merged visits go to a*; ties in decision visits to the lowest index.
    assert bluff_choice({0: (5, 0.5, 0.5), 1: (5, 0.5, 0.5)}, {0: 7, 1: 7}) == 0
    assert bluff_choice({2: (5, 0.5, 0.5), 1: (5, 0.5, 0.5)}, {2: 9, 1: 7}) == 2
    with pytest.raises(ValueError, match="visited"):
        bluff_choice({0: (0, 0.0, 0.0)}, {})


def test_plan_phases():
    phi, ps = spy_phi(), psi()
    (only,) = plan_phases("trueonly", phi, None, iterations=100)
    assert only.belief is phi and only.iterations == 100 and not only.count_merged
    (pure,) = plan_phases("pure", phi, ps, iterations=100)
    assert pure.belief is ps and pure.count_merged
    for v in ("split", "twostep", "bluff"):
        first, second = plan_phases(v, phi, ps, iterations=100, t1=30)
        assert (first.belief, first.iterations, first.count_merged) == (ps, 30, True)
        assert (second.belief, second.iterations) == (phi, 70)
        assert second.fixed_opponents == (v == "twostep") and not first.fixed_opponents
    assert plan_phases("split", phi, ps, iterations=101)[0].iterations == 50  # half
    assert [p.seconds for p in plan_phases("bluff", phi, ps, seconds=2.0)] == [1.0, 1.0]
    (all_self,) = plan_phases("split", phi, ps, iterations=10, t1=10)  # T1 = budget: PURE
    assert all_self.belief is ps
    with pytest.raises(ValueError, match="unknown bluff variant"):
        plan_phases("sneaky", phi, ps, iterations=10)
    with pytest.raises(ValueError, match="t1"):
        plan_phases("split", phi, ps, iterations=10, t1=11)
    with pytest.raises(ValueError, match="psi"):
        plan_phases("pure", phi, None, iterations=10)


# --- the core: phases, merged counts, fixed opponents -----------------------------------------
def test_pure_decision_tree_only_learns_from_true_determinizations():
    track = PublicTrack(N, 0, 0, 0)
    m = MTISMCTS(SPEC)
    r = m.search(track.root(), spy_phi(), make_rng(1), searcher=0,
                 phases=[Phase(psi(), 3000, count_merged=True)], track=False)
    assert r.iterations == 3000  # the first proposal: every iteration reaches the root
    own = SPEC.trees_of_player(0)
    # Every iteration used exactly one of the searcher's trees, the one of its d.
    assert sum(m.pool.visits(int(r.tree_roots[t])) for t in own) == 3000
    c = r.merged_counts_of(r.decision_node)
    assert c.sum() == r.decision_visits() and np.flatnonzero(c).tolist() == [TRUE]
    assert 0.07 < r.decision_visits() / 3000 < 0.13  # psi(true) = 1/10
    merged_n = sum(int(r.merged_counts_of(int(u)).sum()) for u in r.decision_nodes if u >= 0)
    assert merged_n == 3000
    # Root visits summed over the searcher's trees add up to all iterations.
    assert sum(r.merged_action_visits().values()) == 3000
    assert r.counts_of(r.decision_node) is None  # no phi counting for a spy


def test_pure_merged_tree_is_blind_to_the_players_role():
    """ψ's evidence does not depend on what the player knows: the same search as a spy
    of one configuration, of another, or as a resistance member builds identical trees."""
    track = PublicTrack(N, 0, 0, 0)
    other = int(np.flatnonzero(CONFIGS == 0b00101)[0])
    resistance = ((CONFIGS & 1) == 0).astype(float)
    trees, merged = [], []
    for phi in (spy_phi(TRUE), spy_phi(other), resistance):
        m = MTISMCTS(SPEC)
        r = m.search(track.root(), phi, make_rng(4), searcher=0,
                     phases=[Phase(psi(), 2000, count_merged=True)], track=False)
        trees.append([subtree(m.pool, int(u)) for u in r.tree_roots])
        merged.append(r.merged_action_visits())
        walk = MergedTreeWalk(r)
        belief = Belief(psi())
        walk.walk(track.propose(0b00110), belief)
        merged.append(belief.phi.round(12).tolist())
        track = PublicTrack(N, 0, 0, 0)
    assert trees[0] == trees[1] == trees[2]
    assert merged[0] == merged[2] == merged[4] and merged[1] == merged[3] == merged[5]


def test_split_merged_counts_sum_every_tree_or_only_the_first_phase():
    """Cowling et al. 2015, §VI: ψ's merged tree sums "the visit counts across all trees,
    including the decision tree" (the default); ``psi_counts="phase1"`` keeps only the
    self-determinizing phase's (the earlier departure, an option)."""
    track = PublicTrack(N, 0, 0, 0)
    for psi_counts, merged_total in (("all", 2000), ("phase1", 800)):
        m = MTISMCTS(SPEC)
        r = m.search(track.root(), spy_phi(), make_rng(2), searcher=0,
                     phases=plan_phases("split", spy_phi(), psi(), iterations=2000, t1=800,
                                        psi_counts=psi_counts))
        assert r.phase_iterations == (800, 1200)
        c = r.merged_counts_of(r.decision_node)
        # The spy's phase 2 samples only the true configuration: with every tree merged its
        # 1,200 iterations are in c[TRUE], else only in the decision tree's own visits.
        assert r.decision_visits() == c[TRUE] + (0 if psi_counts == "all" else 1200)
        assert sum(int(r.merged_counts_of(int(u)).sum())
                   for u in r.decision_nodes if u >= 0) == merged_total
    with pytest.raises(ValueError, match="psi_counts"):
        plan_phases("split", spy_phi(), psi(), iterations=10, psi_counts="some")


def test_twostep_second_phase_leaves_opponent_trees_unchanged():
    track = PublicTrack(N, 0, 0, 0)
    own = set(SPEC.trees_of_player(0).tolist())
    first_only, both = MTISMCTS(SPEC), MTISMCTS(SPEC)
    r1 = first_only.search(track.root(), spy_phi(), make_rng(3), searcher=0,
                           phases=[Phase(psi(), 1500, count_merged=True)])
    r2 = both.search(track.root(), spy_phi(), make_rng(3), searcher=0,
                     phases=plan_phases("twostep", spy_phi(), psi(), iterations=3000))
    assert r2.phase_iterations == (1500, 1500)
    for t in range(SPEC.n_trees):
        a = subtree(first_only.pool, int(r1.tree_roots[t]))
        b = subtree(both.pool, int(r2.tree_roots[t]))
        if t in own and t == r2.decision_tree:
            assert b[1] == a[1] + 1500  # the decision tree learnt from phase 2
        elif t in own:
            assert a == b  # the true phase never uses other self-determinization trees
        else:
            assert a == b, f"opponent tree {t} changed in phase 2"


def test_split_second_phase_does_update_opponent_trees():
    # The contrast to TWOSTEP: without fixed opponents phase 2 feeds their trees.
    track = PublicTrack(N, 0, 0, 0)
    m = MTISMCTS(SPEC)
    r = m.search(track.root(), spy_phi(), make_rng(3), searcher=0,
                 phases=plan_phases("split", spy_phi(), psi(), iterations=3000))
    partner_tree = SPEC.tree_of[TRUE, 1]
    assert m.pool.visits(int(r.tree_roots[partner_tree])) >= 1500


def test_sample_by_visits_is_proportional():
    pool = NodePool()
    (u,) = pool.new_roots(1)
    a = pool.data, pool.fdata, pool.meta
    kids = [add_child(*a, u, k) for k in range(3)]
    for c, n in zip(kids, (1, 3, 0), strict=True):
        pool.data[c, VISITS] = n
        pool.fdata[c, TOTAL] = 0.0
    rng = make_rng(9)
    draws = [pool.key(sample_by_visits(pool.data, u, rng)) for _ in range(4000)]
    share = np.bincount(draws, minlength=3) / 4000
    assert share[2] == 0 and share[1] == pytest.approx(0.75, abs=0.03)
    (empty,) = pool.new_roots(1)
    add_child(*a, empty, 0)
    assert sample_by_visits(pool.data, empty, rng) == -1


def test_phase_arguments_are_checked():
    m = MTISMCTS(SPEC)
    root = PublicTrack(N, 0, 0, 0).root()
    with pytest.raises(ValueError, match="phases, not"):
        m.search(root, spy_phi(), make_rng(1), searcher=0, iterations=5,
                 phases=[Phase(psi(), 5)])
    with pytest.raises(ValueError, match="phase belief"):
        m.search(root, spy_phi(), make_rng(1), searcher=0, phases=[Phase(np.ones(3), 5)])
    with pytest.raises(ValueError, match="exactly one budget"):
        m.search(root, spy_phi(), make_rng(1), searcher=0, phases=[Phase(psi())])
    with pytest.raises(ValueError, match="information sets"):  # φ must be one info set
        m.search(root, psi(), make_rng(1), searcher=0, phases=[Phase(psi(), 5)])


# --- the merged-tree walk (ψ's eq. 2) ----------------------------------------------------------
def _hand_merged():
    """Two trees of the player (roots D0, D1) at its own hidden vote (choices 0/1), each
    followed by the reveal (keys 20 / 21). Merged counts over determinizations d0, d1:
    tree 0 is used under d0 only, tree 1 under d1 only."""
    pool = NodePool()
    d0, d1 = pool.new_roots(2)
    a = pool.data, pool.fdata, pool.meta
    nodes = {}
    for root, tag in ((d0, 0), (d1, 1)):
        for choice in (0, 1):
            c = add_child(*a, root, choice)
            nodes[tag, choice] = c
            for key in (20, 21):
                nodes[tag, choice, key] = add_child(*a, c, key)
    # merged counts per node: (c(., d0), c(., d1))
    table = {d0: (40, 0), d1: (0, 60),
             nodes[0, 0]: (30, 0), nodes[0, 1]: (10, 0),
             nodes[1, 0]: (0, 15), nodes[1, 1]: (0, 45),
             nodes[0, 0, 20]: (20, 0), nodes[0, 0, 21]: (10, 0),
             nodes[0, 1, 20]: (4, 0), nodes[0, 1, 21]: (6, 0),
             nodes[1, 0, 20]: (0, 5), nodes[1, 0, 21]: (0, 10),
             nodes[1, 1, 20]: (0, 40), nodes[1, 1, 21]: (0, 5)}
    slot_map = {node: i for i, node in enumerate(table)}
    counts = np.zeros((len(table), 2), dtype=np.int32)  # psi_col = 0 (no φ columns here)
    for node, i in slot_map.items():
        counts[i] = table[node]
        pool.data[node, VISITS] = sum(table[node])
    owner = SimpleNamespace(generation=1)
    result = SearchResult(
        action_index=0, iterations=100, seconds=0.0, decision_node=d0, decision_tree=0,
        tree_roots=np.array([d0, d1]), pool=pool, det_slot=np.array([0, 1], dtype=np.int32),
        counts=counts, slot_map=slot_map, n_slots=len(table), slots_full=False,
        bytes_peak=0, _owner=owner, _generation=1, decision_nodes=np.array([d0, d1]),
        psi_col=0, phi_tracked=False)
    return result


def test_merged_walk_hides_own_hidden_moves_and_updates_on_the_reveal():
    result = _hand_merged()
    walk = MergedTreeWalk(result)
    assert walk.n_total == 100
    belief = Belief([0.5, 0.5])
    walk.step(("own", 1), belief)  # my vote: hidden from the observer, no update
    assert belief.phi.tolist() == [0.5, 0.5] and len(walk.frontier) == 4
    walk.step(("obs", 20, True), belief)  # the reveal: both own choices still possible
    # merged node: d0 20 + 4 = 24, d1 5 + 40 = 45; n(v) = 69, N = 100
    w = 69 / 100
    expected = (1 - w) * np.array([0.5, 0.5]) + w * np.array([24, 45]) / 69
    assert belief.phi == pytest.approx(expected)
    assert walk.updates == 1


def test_merged_walk_counts_public_own_moves_as_evidence():
    result = _hand_merged()
    walk = MergedTreeWalk(result)
    belief = Belief([0.5, 0.5])
    walk.step(("own", 1, True), belief)  # a public own move: the others learn from it
    w = 55 / 100
    expected = (1 - w) * np.array([0.5, 0.5]) + w * np.array([10, 45]) / 55
    assert belief.phi == pytest.approx(expected)
    walk.step(("obs", 99, True), belief)  # off the tree: nothing more
    assert not walk.in_tree and belief.phi == pytest.approx(expected)


# --- the bot ------------------------------------------------------------------------------------
@pytest.mark.parametrize("variant", ["pure", "split", "twostep", "bluff"])
def test_variant_spies_play_and_record_psi(variant):
    bots = [MTISMCTSBot(iterations=300, bluff=variant) if s < 2 else MTISMCTSBot(iterations=150)
            for s in range(N)]
    result = play_game(bots, seed=11, spies=[0, 1], rules=Rules(fifth_rejection="forced"))
    assert result.error is None, result.error
    for s in (0, 1):
        traj = result.extra[s]["belief"]
        assert traj[0]["psi"] == pytest.approx([0.1] * 10)  # uniform, though a spy
        assert sum(traj[-1]["psi"]) == pytest.approx(1, abs=1e-4)
        assert traj[-1]["psi"] != traj[0]["psi"]  # updated during the game
        assert traj[-1]["phi"][TRUE] == 1.0
    assert "psi" not in result.extra[2]["belief"][0]  # TRUEONLY keeps no ψ


def test_psi_starts_uniform_whatever_the_role():
    for spies in ([0, 1], [2, 3]):
        bot = MTISMCTSBot(iterations=100, bluff="split")
        play_game([bot] + [MTISMCTSBot(iterations=50) for _ in range(4)], seed=3, spies=spies)
        assert bot.trajectory[0]["psi"] == pytest.approx([0.1] * 10)


@pytest.mark.parametrize(("params", "message"), [
    ({"bluff": "sneaky"}, "unknown bluff variant"),
    ({"bluff": "split", "t1": 5, "iterations": 4}, "cannot exceed"),
    ({"bluff": "pure", "t1": 2, "iterations": 4}, "t1 is for"),
    ({"bluff": "split", "t1": 2, "seconds": 1.0}, "t1 counts iterations"),
    ({"bluff": "split", "t1": -1, "iterations": 4}, "non-negative"),
])
def test_bad_bluff_parameters_are_named(params, message):
    with pytest.raises(ValueError, match=message):
        MTISMCTSBot(**params)


_NOJIT = """
import json
import numpy as np
from spyglass.games.resistance.search_kernel import search_spec
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.search.mtismcts import MTISMCTS
from spyglass.search.selfdet import plan_phases, uniform_psi
from spyglass.rng import make_rng
spec = search_spec(5)
phi = (spec.dets[:, 0] == 0b00011).astype(float)
t = PublicTrack(5, 0, 0, 0)
m = MTISMCTS(spec)
r = m.search(t.root(), phi, make_rng(7), searcher=0,
             phases=plan_phases("twostep", phi, uniform_psi(10), iterations=300))
print(json.dumps({"data": m.pool.data[: m.pool.used].tolist(),
                  "merged": r.merged_counts_of(r.decision_node).tolist()}))
"""


def test_twostep_search_runs_uncompiled_and_matches_the_compiled_search():
    import json
    import os
    import subprocess
    import sys

    out = {}
    for jit in ("0", "1"):
        env = dict(os.environ, NUMBA_DISABLE_JIT=jit)
        proc = subprocess.run([sys.executable, "-c", _NOJIT], env=env, capture_output=True,
                              text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr[-2000:]
        out[jit] = json.loads(proc.stdout.strip().splitlines()[-1])
    assert out["0"] == out["1"]  # same RNG stream, same trees and counts
