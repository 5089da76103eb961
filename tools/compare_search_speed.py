"""Old vs new search speed on any registered game, side by side, interleaved, CPU time.

Issue 26 merges copied search loops; every search figure must stay at 0.97x or better.
This runs each agent's first decision of a game (seat to move at ``new_state(0)``, as
``spyglass bench`` does) from two source trees in alternating subprocesses, several
rounds; each subprocess loads the compiled code (one untimed search) and then times
``--repeats`` searches on this process's CPU time (``time.process_time``), keeping the
best. It prints, per (game, agent), each tree's median rate over the rounds, the median
of the per-round ratios new/old (round r's new against round r's old) and their range.
Include a search whose loop the change leaves alone as a control: its ratios show the
noise of the run.

    git worktree add --detach /tmp/old main
    python tools/compare_search_speed.py /tmp/old . --game phantom --rounds 3 \
        --agent soismcts:iterations=5000 --agent soismcts_pom:iterations=5000

Only the agent API both trees share is used, so any two commits can be compared.
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
from spyglass.agents import registry
from spyglass.games import registry as games
from spyglass.arena.agent_spec import parse_agent
OPTIONS = {"hearts": {"target": 0}, "spades": {"target": 0}}
game_name, specs, repeats = sys.argv[1], json.loads(sys.argv[2]), int(sys.argv[3])
g = games.make(game_name, **OPTIONS.get(game_name, {}))
s = g.new_state(0)
while len(g.legal_actions(s)) < 2:
    g.kernel.apply(s, g.legal_actions(s)[0])
seat = int(g.kernel.actor(s))
legal = g.legal_actions(s)
out = {}
for spec in specs:
    parsed = parse_agent(spec)
    best = 0.0
    for r in range(repeats + 1):
        agent = parsed.factory()
        seen = s.copy() if type(agent).omniscient else g.view(s, seat)
        agent.start(g, seat, seen, r)
        t0 = time.process_time()
        agent.act(seen, legal)
        spent = time.process_time() - t0
        if r:
            best = max(best, agent.last.iterations / spent)
    out[spec] = best
print(json.dumps(out))
"""


def run(tree: str, game: str, specs: list[str], repeats: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=os.path.abspath(tree))
    got = subprocess.run([sys.executable, "-c", SNIPPET, game, json.dumps(specs), str(repeats)],
                         env=env, capture_output=True, text=True, cwd=os.path.abspath(tree))
    if got.returncode:
        raise SystemExit(f"{tree} {game}: {got.stderr[-2000:]}")
    return json.loads(got.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("old")
    ap.add_argument("new")
    ap.add_argument("--game", action="append", required=True)
    ap.add_argument("--agent", action="append", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    rates: dict[tuple[str, str, str], list[float]] = {}
    for rnd in range(args.rounds):
        for game in args.game:
            order = (args.old, args.new) if rnd % 2 == 0 else (args.new, args.old)
            for tree in order:
                side = "old" if tree == args.old else "new"
                for spec, rate in run(tree, game, args.agent, args.repeats).items():
                    rates.setdefault((game, spec, side), []).append(rate)
    print(f"{args.rounds} rounds x best of {args.repeats} searches, CPU time\n")
    print("| game | search | old it/s (median) | new it/s (median) | new/old, median of rounds "
          "| range |\n|---|---|---:|---:|---:|---|")
    for game in args.game:
        for spec in args.agent:
            o, n = rates[(game, spec, "old")], rates[(game, spec, "new")]
            ratios = [b / a for a, b in zip(o, n, strict=True)]
            print(f"| {game} | `{spec}` | {statistics.median(o):,.0f} | "
                  f"{statistics.median(n):,.0f} | {statistics.median(ratios):.3f} | "
                  f"{min(ratios):.3f}-{max(ratios):.3f} |")

if __name__ == "__main__":
    main()
