"""Where 10-player MT-ISMCTS iterations go: tree steps and child-list scan lengths.

Usage: ``PYTHONPATH=. python tools/search_treework.py [iterations]`` (docs/search-speed.md).

From the finished trees of a first-decision search (as spyglass bench runs it):
* steps: node visits summed over all trees / iterations (= nodes backpropagated, and
  find-or-add steps, per iteration);
* scan: expected child-list positions walked per iteration by the move-to-front lookups,
  from the stationary MTF formula E[pos_i] = 1 + sum_j p_j / (p_i + p_j) with p from the
  children's visits (observation parents), and the full child-list length at decision
  parents (the bandit scans every child).
"""
import sys

import numpy as np

from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import search_spec
from spyglass.rng import make_rng
from spyglass.search.mtismcts import MTISMCTS

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
for n in (5, 10):
    spec = search_spec(n)
    track = PublicTrack(n, 0, 0, 0)
    belief = ((spec.dets[:, 0] & 1) == 0).astype(np.float64)
    s = MTISMCTS(spec)
    res = s.search(track.root(), belief, make_rng(1), searcher=0, iterations=iters)
    pool = res.pool
    used = pool.used
    steps = 0
    obs_scan = 0.0
    dec_scan = 0.0
    by_kind = {}
    stack = [int(r) for r in res.tree_roots]
    while stack:
        u = stack.pop()
        kids = pool.children(u)
        if not kids:
            continue
        vs = np.array([pool.visits(c) for c in kids], dtype=float)
        steps += vs.sum()
        keys = [pool.key(c) for c in kids]
        obs = keys[0] >= (1 << 20)
        tot = vs.sum()
        if tot <= 0:
            stack.extend(kids)
            continue
        if obs:
            p = vs / tot
            pos = np.ones(len(p))
            for i in range(len(p)):
                others = np.delete(p, i)
                pos[i] += np.sum(others / (p[i] + others))
            cost = float(np.sum(vs * pos))
            obs_scan += cost
            tag = keys[0] >> 20
            by_kind[tag] = by_kind.get(tag, 0.0) + cost
        else:
            dec_scan += tot * len(kids)
        stack.extend(kids)
    names = {1: "team", 2: "own", 3: "hidden", 4: "votes", 5: "fails"}
    print(f"{n}p: nodes/it {used/iters:.2f}  tree steps/it {steps/iters:.1f}  "
          f"obs scan/it {obs_scan/iters:.1f} ("
          + ", ".join(f"{names.get(k,k)} {v/iters:.1f}" for k, v in sorted(by_kind.items()))
          + f")  bandit scan/it {dec_scan/iters:.1f}", flush=True)
