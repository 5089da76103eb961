"""Old vs new speed of the Resistance bots' searches, side by side, CPU time.

The method of ``tools/compare_search_speed.py`` (alternating subprocesses of the two
trees, several rounds, best of ``--repeats`` searches each, median of the per-round
ratios) for searches that are not agents: ``--family uct`` (default), the 4-tree
ensembles of ``pimc_enum`` (``run_pimc``) and Marsh's ``searchagent``
(``run_searchagent``), from four 5-player deals as ``spyglass/bench/family.py`` does,
with enumerated SO-ISMCTS as a control; ``--family ismcts``, the enumerated SO-ISMCTS,
SO-ISMCTS+POM and MO-ISMCTS (``soismcts_enum``, ``soismcts_pom_enum``,
``moismcts_enum``: :class:`spyglass.search.so_ismcts.ISMCTS`) at 5 and 10 players, a
first leader's search as ``spyglass/bench/family.py``'s ``ismcts_rate``.

    git worktree add --detach /tmp/old main
    python tools/compare_resistance_uct_speed.py /tmp/old . --rounds 6
    python tools/compare_resistance_uct_speed.py /tmp/old . --family ismcts --rounds 4
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

SNIPPET = r"""
import json, sys, time
import numpy as np
from spyglass.resistance.bots.marsh_model import run_searchagent
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.family_search import run_ismcts, run_pimc
from spyglass.games.resistance.search_kernel import MAX_DEPTH
from spyglass.games.resistance.tables import spy_configurations
from spyglass.rng import make_rng
from spyglass.search.pimc import PIMC
from spyglass.search.so_ismcts import ISMCTS
its, repeats, n = int(sys.argv[1]), int(sys.argv[2]), 5
configs = spy_configurations(n).astype(np.int64)
out = {}
for name, run in (("pimc_enum trees (run_pimc)", run_pimc),
                  ("searchagent trees (run_searchagent)", run_searchagent)):
    states = [K.new_state(n, int(c), 0, 0) for c in configs[:4]]
    w = np.full(len(configs), 1.0 / len(configs))
    searcher = PIMC(run, max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH, binary_rewards=True)
    searcher.search(states, make_rng(0), iterations=50, cfg=configs, w=w)
    best = 0.0
    for r in range(repeats):
        t0 = time.process_time()
        res = searcher.search(states, make_rng(r + 1), iterations=its // 4, cfg=configs, w=w)
        best = max(best, res.iterations / (time.process_time() - t0))
    out[name] = best
belief = ((configs & 1) == 0).astype(np.float64)
searcher = ISMCTS(run_ismcts, n, configs.reshape(-1, 1), mode="so", max_actions=K.MAX_ACTIONS,
                  max_depth=MAX_DEPTH)
root = K.new_state(n, 0, 0, 0)
searcher.search(root, belief, make_rng(0), searcher=0, iterations=100)
best = 0.0
for r in range(repeats):
    t0 = time.process_time()
    searcher.search(root, belief, make_rng(r + 1), searcher=0, iterations=its // 4)
    best = max(best, (its // 4) / (time.process_time() - t0))
out["enumerated SO-ISMCTS (control)"] = best
print(json.dumps(out))
"""


ISMCTS_SNIPPET = r"""
import json, sys, time
import numpy as np
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.family_search import run_ismcts
from spyglass.games.resistance.search_kernel import MAX_DEPTH
from spyglass.games.resistance.tables import spy_configurations
from spyglass.rng import make_rng
from spyglass.search.so_ismcts import ISMCTS
its, repeats = int(sys.argv[1]), int(sys.argv[2])
out = {}
for n in (5, 10):
    configs = spy_configurations(n).astype(np.int64)
    belief = ((configs & 1) == 0).astype(np.float64)
    root = K.new_state(n, 0, 0, 0)
    for mode in ("so", "pom", "mo"):
        kw = dict(mode=mode, max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH)
        try:  # the bots' pools before issue 26 item 4: 0/1 rewards, 20-byte nodes
            searcher = ISMCTS(run_ismcts, n, configs.reshape(-1, 1), binary_rewards=True, **kw)
        except TypeError:
            searcher = ISMCTS(run_ismcts, n, configs.reshape(-1, 1), **kw)
        searcher.search(root, belief, make_rng(0), searcher=0, iterations=100)
        best = 0.0
        for r in range(repeats):
            t0 = time.process_time()
            searcher.search(root, belief, make_rng(r + 1), searcher=0, iterations=its)
            best = max(best, its / (time.process_time() - t0))
        out[f"enumerated {mode.upper()}-ISMCTS, {n} players"] = best
print(json.dumps(out))
"""


def run(tree: str, iterations: int, repeats: int, family: str = "uct") -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    snippet = ISMCTS_SNIPPET if family == "ismcts" else SNIPPET
    got = subprocess.run([sys.executable, "-c", snippet, str(iterations), str(repeats)],
                         env=env, capture_output=True, text=True, cwd=os.path.abspath(tree))
    if got.returncode:
        raise SystemExit(f"{tree}: {got.stderr[-2000:]}")
    return json.loads(got.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--rounds", type=int, default=6)
    ap.add_argument("--iterations", type=int, default=20000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--family", choices=("uct", "ismcts"), default="uct")
    args = ap.parse_args()
    rates: dict[tuple[str, str], list[float]] = {}
    for rnd in range(args.rounds):
        for tree in (args.old, args.new) if rnd % 2 == 0 else (args.new, args.old):
            side = "old" if tree == args.old else "new"
            for name, rate in run(tree, args.iterations, args.repeats, args.family).items():
                rates.setdefault((name, side), []).append(rate)
    print(f"{args.rounds} rounds x best of {args.repeats} searches of {args.iterations} "
          "iterations, CPU time\n")
    print("| search | old it/s (median) | new it/s (median) | new/old, median of rounds "
          "| range |\n|---|---:|---:|---:|---|")
    for name in dict.fromkeys(n for n, _ in rates):
        o, n = rates[(name, "old")], rates[(name, "new")]
        ratios = [b / a for a, b in zip(o, n, strict=True)]
        print(f"| {name} | {statistics.median(o):,.0f} | {statistics.median(n):,.0f} | "
              f"{statistics.median(ratios):.3f} | {min(ratios):.3f}-{max(ratios):.3f} |")


if __name__ == "__main__":
    main()
