"""MT-ISMCTS first-decision iterations/s at 5 and 10 players, interleaved in one process.

Usage: ``PYTHONPATH=<tree> python tools/mt_rate.py [iterations] [repeats] [vote]``; prints
one JSON line: per wall-second and per CPU-second rates (best and median of the repeats,
5 and 10 players alternating) and bytes/iteration, as ``spyglass bench --only search``
measures the first decision (seat 0 leads the first proposal, a resistance member,
inference on). With ``vote``: seat 2's vote on seat 0's first proposal instead.
Run it for two trees alternately to compare them side by side (docs/search-speed.md).
"""
import json
import statistics
import sys
import time

import numpy as np

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import search_spec
from spyglass.rng import make_rng
from spyglass.search.mtismcts import MTISMCTS

iters = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 3
vote = len(sys.argv) > 3 and sys.argv[3] == "vote"
seat = 2 if vote else 0


def track_for(n: int) -> PublicTrack:
    track = PublicTrack(n, seat, 0, 0)
    if vote:
        track.propose(int(K.legal_action(track.s, 1)))
    return track


setup = {}
for n in (5, 10):
    spec = search_spec(n)
    belief = ((spec.dets[:, 0] >> seat) & 1 == 0).astype(np.float64)
    m = MTISMCTS(spec)
    t = track_for(n)
    m.search(t.root(), belief, make_rng(0), searcher=seat, chain=t.chain(), iterations=100)
    setup[n] = (m, belief)
wall = {5: [], 10: []}
cpu = {5: [], 10: []}
per_it = {5: 0.0, 10: 0.0}
for r in range(repeats):
    for n in (5, 10):
        m, belief = setup[n]
        t0, c0 = time.perf_counter(), time.process_time()
        t = track_for(n)
        res = m.search(t.root(), belief, make_rng(r + 1), searcher=seat, chain=t.chain(),
                       iterations=iters)
        t1, c1 = time.perf_counter(), time.process_time()
        wall[n].append(iters / (t1 - t0))
        cpu[n].append(iters / max(c1 - c0, 1e-9))
        per_it[n] = max(per_it[n], res.bytes_peak / iters)
out = {}
for n in (5, 10):
    out[f"wall_best_{n}"] = round(max(wall[n]))
    out[f"wall_median_{n}"] = round(statistics.median(wall[n]))
    out[f"cpu_best_{n}"] = round(max(cpu[n]))
    out[f"cpu_median_{n}"] = round(statistics.median(cpu[n]))
    out[f"bytes_per_it_{n}"] = round(per_it[n], 1)
out["ratio_cpu_best"] = round(out["cpu_best_10"] / out["cpu_best_5"], 3)
print(json.dumps(out))
