"""Random vs MO-ISMCTS through the PettingZoo environment, against `spyglass tournament`.

Runs a tournament (random vs moismcts on a game), then plays every one of its games again
through ``spyglass.envs.pettingzoo_env`` with the same agents as policies and the same
seeds, and prints both win rates and how many games came out move for move the same.

    python tools/pettingzoo_vs_tournament.py --game phantom --games 1000 --iterations 200
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from spyglass import tournament
from spyglass.envs.check import replay_tournament, win_rates


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="phantom")
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--seed", type=int, default=2026)
    args = ap.parse_args()
    mo = f"moismcts:iterations={args.iterations}"
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp, "run")
        t0 = time.process_time()
        tournament.run(["random", mo], game=args.game, games=args.games, seed=args.seed,
                       out=out, workers=1, progress=False)
        t1 = time.process_time()
        games = replay_tournament(out)
        t2 = time.process_time()
    same = sum(g.same_moves and g.recorded == g.through_env for g in games)
    print(f"{args.game}: {len(games)} games, random vs {mo}, seed {args.seed}")
    print(f"  spyglass tournament: {win_rates(games, 'recorded')}  ({t1 - t0:.1f} s CPU)")
    print(f"  through PettingZoo:  {win_rates(games, 'through_env')}  ({t2 - t1:.1f} s CPU)")
    print(f"  identical games (moves and rewards): {same}/{len(games)}")


if __name__ == "__main__":
    main()
