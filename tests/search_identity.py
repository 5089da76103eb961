"""Fingerprints of seeded searches and games, to prove a memory-layout change changes nothing.

Issue 17 rearranges how the search trees are stored; the same seed must still give the
same game and the same search. This module hashes (a) seeded game records of every
search bot (MT-ISMCTS in each bluff variant at several player counts, SO-, MO-ISMCTS
and PIMC, which share the node pool) and (b) whole MT-/SO-ISMCTS search results for
fixed seeds: every tree's keys and statistics (children sorted by key, so the hash
does not depend on where nodes sit in memory), the particle-filter counts of every
tracked node, the decisions, and the beliefs after walking a tree.

``python tests/search_identity.py --record`` writes the hashes to
``tests/search_identity_hashes.json`` (do that only on code known to be right, and
say which commit in the file's "note"); ``tests/test_search_identity.py`` compares.
"""

from __future__ import annotations

import hashlib
import json
import struct
import sys
from pathlib import Path

import numpy as np

HASH_FILE = Path(__file__).with_name("search_identity_hashes.json")

# (bot spec, player counts, seeds): ~150 games in the full set, a slice by default.
GAME_SETS = [
    ("mtismcts:iterations=200", (5, 6, 7, 8, 10), range(10)),
    ("mtismcts:iterations=200,bluff=split", (5, 7, 10), range(8)),
    ("mtismcts:iterations=200,bluff=twostep", (5, 7, 10), range(8)),
    ("mtismcts:iterations=200,bluff=bluff", (5, 7, 10), range(8)),
    ("mtismcts:iterations=200,bluff=pure", (5, 8), range(6)),
    ("mtismcts:iterations=150,bandit=ucb1,inference=false", (5, 9), range(6)),
    ("soismcts_enum:iterations=200", (5, 10), range(6)),
    ("soismcts_enum:iterations=200,exp3=true", (5, 7), range(4)),
    ("moismcts_enum:iterations=200", (5, 10), range(6)),
    ("pimc_enum:d=4,s=50", (5, 10), range(6)),
    ("searchagent", (5, 8), range(4)),
]
QUICK_SEEDS = 2  # seeds per (spec, player count) in the default test run


def _digest(obj) -> str:
    return hashlib.sha256(json.dumps(obj, sort_keys=True).encode()).hexdigest()


def game_hashes(quick: bool) -> dict[str, str]:
    """One hash per (bot spec, player count): all its seeded game records, in order."""
    from spyglass.resistance.arena.referee import play_game

    out = {}
    for spec, counts, seeds in GAME_SETS:
        for n in counts:
            recs = []
            for seed in list(seeds)[: QUICK_SEEDS if quick else None]:
                r = play_game([spec] * n, seed=1000 * n + seed)
                if r.error is not None:
                    raise RuntimeError(f"{spec} at {n} players, seed {seed}: {r.error}")
                recs.append(r.to_record())
            out[f"games {spec} n={n}" + (" quick" if quick else "")] = _digest(recs)
    return out


def _f32(x: float) -> str:
    return struct.pack("<f", float(x)).hex()


def tree_content(pool, u: int, extra=None) -> list:
    """Node ``u``'s subtree: key, visits, reward sums (exact bits), children sorted by key."""
    n, _, _ = pool.stats(u)
    tot, sq = _tot_sq(pool, u)
    kids = sorted((tree_content(pool, c, extra) for c in pool.children(u)),
                  key=lambda t: t[0])
    node = [pool.key(u), n, _f32(tot), _f32(sq)]
    if extra is not None:
        node.append(extra(u))
    node.append(kids)
    return node


def _tot_sq(pool, u: int) -> tuple[float, float]:
    if hasattr(pool, "reward_sums"):
        return pool.reward_sums(u)
    return float(pool.fdata[u, 6]), float(pool.fdata[u, 7])


def _counts(result):
    def extra(u):
        phi = result.counts_of(u)
        psi = result.merged_counts_of(u)
        return [None if phi is None else phi.tolist(), None if psi is None else psi.tolist()]
    return extra


def search_hashes() -> dict[str, str]:
    """Hashes of whole MT-ISMCTS and SO-ISMCTS search results for fixed seeds."""
    from spyglass.games.resistance import kernel as K
    from spyglass.games.resistance.public_track import PublicTrack
    from spyglass.games.resistance.search_kernel import search_spec
    from spyglass.rng import make_rng
    from spyglass.search.inference import Belief, MergedTreeWalk, TreeWalk
    from spyglass.search.mtismcts import MTISMCTS
    from spyglass.search.selfdet import bluff_choice, plan_phases, uniform_psi

    out = {}
    for n in (5, 7, 10):
        spec = search_spec(n)
        configs = spec.dets[:, 0]
        m = MTISMCTS(spec)
        for seat, iters, seed in ((0, 3000, 1), (2, 1500, 2)):
            # The first proposal (seat 0 leads) or a vote on it (seat 2).
            track = PublicTrack(n, seat, 0, 0)
            if seat != 0:
                track.propose(int(K.legal_action(track.s, 1)))
            phi = ((configs >> seat) & 1 == 0).astype(np.float64)
            r = m.search(track.root(), phi, make_rng(seed), searcher=seat,
                         chain=track.chain(), iterations=iters)
            trees = [tree_content(m.pool, int(t), _counts(r)) for t in r.tree_roots]
            # Walk the decision tree along a plausible public continuation.
            b = Belief(phi)
            w = TreeWalk(r)
            w.walk([("own", r.action_index)] if seat == 0 else [], b)
            out[f"mt n={n} seat={seat}"] = _digest(
                [r.action_index, r.iterations, r.n_slots, trees, b.phi.tolist(),
                 r.action_stats()])
        # A spy's self-determinizing searches (merged counts, fixed opponents).
        spy = np.zeros(len(configs))
        spy[int(np.flatnonzero((configs & 1) == 1)[0])] = 1.0
        # "phase1" (ψ from the first phase's visits) is what was recorded before the
        # paper's every-tree count became the default; "all" pins the default.
        for variant, psi_counts in (*((v, "phase1") for v in ("split", "twostep", "bluff",
                                                              "pure")),
                                    *((v, "all") for v in ("split", "twostep", "bluff"))):
            track = PublicTrack(n, 0, 0, 0)
            phases = plan_phases(variant, spy, uniform_psi(len(configs)), iterations=2000,
                                 psi_counts=psi_counts)
            r = m.search(track.root(), spy, make_rng(5), searcher=0, phases=phases)
            trees = [tree_content(m.pool, int(t), _counts(r)) for t in r.tree_roots]
            psi = Belief(uniform_psi(len(configs)))
            mw = MergedTreeWalk(r)
            mw.walk([("own", r.action_index, True)], psi)
            key = f"mt n={n} {variant}" + (" psi=all" if psi_counts == "all" else "")
            out[key] = _digest(
                [r.action_index, r.phase_iterations, trees, psi.phi.tolist(),
                 bluff_choice(r.action_stats(), r.merged_action_visits()),
                 r.merged_action_visits()])
    out.update(_so_hashes())
    return out


def _avail(result, u: int) -> int:
    if hasattr(result, "avail"):  # issue 17: an array beside the pool (issue 26: a column)
        return int(result.avail[u])
    return int(result.pool.data[u, 5])  # the original 32-byte record's AVAIL column


def _so_hashes() -> dict[str, str]:
    """SO-ISMCTS, SO+POM and MO-ISMCTS (with availability counts) for fixed seeds."""
    from spyglass.games.resistance import kernel as K
    from spyglass.games.resistance.family_search import run_ismcts
    from spyglass.games.resistance.public_track import PublicTrack
    from spyglass.games.resistance.search_kernel import MAX_DEPTH
    from spyglass.games.resistance.tables import spy_configurations
    from spyglass.rng import make_rng
    from spyglass.search.so_ismcts import ISMCTS

    out = {}
    for n in (5, 8):
        configs = spy_configurations(n)
        phi = ((configs & 1) == 0).astype(np.float64)
        for mode, exp3 in (("so", False), ("pom", False), ("mo", False), ("so", True)):
            m = ISMCTS(run_ismcts, n, configs.reshape(-1, 1), mode=mode, exp3=exp3,
                       max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH)
            r = m.search(PublicTrack(n, 0, 0, 0).root(), phi, make_rng(3), searcher=0,
                         iterations=3000)
            trees = [tree_content(m.pool, int(t), lambda u, r=r: _avail(r, u))
                     for t in r.tree_roots]
            out[f"ismcts n={n} {mode} exp3={exp3}"] = _digest(
                [r.action_index, r.iterations, trees, r.action_stats()])
    return out


def all_hashes(quick: bool) -> dict[str, str]:
    out = search_hashes()
    out.update(game_hashes(quick))
    return out


if __name__ == "__main__":
    if "--record" in sys.argv:
        import subprocess

        commit = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                cwd=Path(__file__).parent).stdout.strip()
        hashes = {**all_hashes(quick=False), **game_hashes(quick=True)}
        HASH_FILE.write_text(json.dumps(
            {"note": f"recorded on commit {commit} (the layout before issue 17)",
             "hashes": hashes}, indent=1, sort_keys=True) + "\n")
        print(f"wrote {len(hashes)} hashes to {HASH_FILE}")
    else:
        print(json.dumps(all_hashes(quick="--quick" in sys.argv), indent=1))
