"""Before/after MT-ISMCTS speed at growing budgets, for two checkouts, interleaved.

Issue 17's numbers must be compared side by side on a shared, noisy machine: this runs
the same first-decision search (5 or 10 players, seat 0 leads, inference on) from two
source trees in alternating subprocesses, several rounds, and prints the range and best
of iterations/s (wall clock and process CPU time, which leaves out the time the process
was not scheduled) and bytes/iteration for each budget.

    git archive 175fc55 | tar -x -C /tmp/before
    python tools/compare_search_memory.py /tmp/before . --players 5 --rounds 3

Only the MTISMCTS API both trees share is used, so any two commits can be compared.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

SNIPPET = r"""
import json, sys, time
import numpy as np
from spyglass.games.resistance.search_kernel import search_spec

try:  # PublicTrack moved out of the search binding; older checkouts still have it there
    from spyglass.games.resistance.public_track import PublicTrack
except ImportError:
    from spyglass.games.resistance.search_kernel import PublicTrack
from spyglass.rng import make_rng
from spyglass.search.mtismcts import MTISMCTS
n = int(sys.argv[1]); budgets = json.loads(sys.argv[2])
spec = search_spec(n); track = PublicTrack(n, 0, 0, 0)
belief = ((spec.dets[:, 0] & 1) == 0).astype(np.float64)
m = MTISMCTS(spec)
m.search(track.root(), belief, make_rng(0), searcher=0, iterations=100)
out = {}
for it, reps in budgets:
    rows = []
    for r in range(reps):
        w0, c0 = time.perf_counter(), time.process_time()
        res = m.search(track.root(), belief, make_rng(r + 1), searcher=0, iterations=it)
        w, c = time.perf_counter() - w0, time.process_time() - c0
        rows.append([it / w, it / c, res.bytes_peak / it])
    out[it] = rows
print(json.dumps(out))
"""


def run(tree: str, players: int, budgets: list[tuple[int, int]]) -> dict:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    proc = subprocess.run([sys.executable, "-c", SNIPPET, str(players), json.dumps(budgets)],
                          env=env, capture_output=True, text=True, cwd=tree, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--players", type=int, default=5)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--budgets", default="10000:5,100000:3,1000000:2")
    args = ap.parse_args()
    budgets = [tuple(int(x) for x in b.split(":")) for b in args.budgets.split(",")]
    got: dict[str, dict[str, list]] = {"before": {}, "after": {}}
    for _ in range(args.rounds):
        for name, tree in (("before", args.before), ("after", args.after)):
            for it, rows in run(tree, args.players, budgets).items():
                got[name].setdefault(it, []).extend(rows)
    print(f"{args.players} players, {args.rounds} rounds interleaved; iterations/s "
          "as min-max (best); bytes/iteration")
    for it, _ in budgets:
        for name in ("before", "after"):
            rows = got[name][str(it)]
            wall = [r[0] for r in rows]
            cpu = [r[1] for r in rows]
            print(f"{it:>9,} {name:>6}: wall {min(wall):>9,.0f}-{max(wall):>9,.0f} "
                  f"({max(wall):>9,.0f})  cpu {min(cpu):>9,.0f}-{max(cpu):>9,.0f} "
                  f"({max(cpu):>9,.0f})  {rows[-1][2]:6.1f} B/it")
    print(json.dumps(got))


if __name__ == "__main__":
    main()
