"""SO-ISMCTS against PIMC in Mini Dou Di Zhu (Whitehouse 2014, §5.2, "Mini Dou Di Zhu").

The thesis: player 2 always uses PIMC (determinized UCT) with 20 determinizations x
200 iterations; each of the 8,832 deals was played 10 times with player 1 using the
same PIMC and 10 times with player 1 using ISMCTS at 4,000 iterations. Player 1 won
62.7 % with PIMC and 67.2 % with ISMCTS.

Here deals are drawn by shuffling (deal ``i`` is the game's deal for seed ``seed +
i``), so the mean over deals estimates the win rate over randomly dealt games (the
thesis's 8,832 deals weighted by their probability). Each deal is played ``games``
times with each player 1 (paired: the same deals for both), every game with its own
agent seeds. Reported: each win rate with a Wilson 95 % interval, and the paired
difference with a normal 95 % interval over deals. The sizes that produced a result
are in its JSON; every game is kept as one record (``OUT.jsonl``: its player 1 as
``cell``, the deal index ``i``, the game ``g`` within the deal, ``deal``,
``game_seed``, the seats' specs, rewards and win ``scores``), so that the comparison can
be tested paired by deal from the games themselves.

Run: ``spyglass experiment minidoudizhu-ismcts-pimc --deals 150 --games 2 --seed 0
--out docs/figures/minidoudizhu_ismcts_vs_pimc`` (full thesis size: ``--deals 8832
--games 10``; needs days on two cores).
"""

from __future__ import annotations

import argparse
import json
import math
from pathlib import Path

import numpy as np

from spyglass.arena.match import play_match
from spyglass.arena.stats import rate_interval
from spyglass.games.base import top_or_tied
from spyglass.games.minidoudizhu.game import MiniDouDiZhu

THESIS = {"PIMC": 0.627, "ISMCTS": 0.672}
#: The per-game records' ``experiment``.
EXPERIMENT = "minidoudizhu-ismcts-pimc"


def player1(kind: str, iterations: int, d: int, s: int) -> str:
    if kind == "ISMCTS":
        return f"soismcts:iterations={iterations}"
    return f"pimc:d={d},s={s}"


def run(deals: int, games: int, seed: int = 0, iterations: int = 4000, d: int = 20,
        s: int = 200, records: list[dict] | None = None) -> dict:
    """Play the experiment; returns rates, intervals and the per-deal results.
    ``records``, if given, receives one record per game."""
    game = MiniDouDiZhu()
    opponent = f"pimc:d={d},s={s}"
    per_deal = {k: np.zeros(deals) for k in THESIS}
    for i in range(deals):
        for kind in THESIS:
            wins = 0
            for g in range(games):
                seats = [player1(kind, iterations, d, s), opponent]
                game_seed = (seed + i) * 1000 + g
                r = play_match(game, seats, seed=game_seed, deal=seed + i)
                if r.error is not None:
                    raise RuntimeError(f"deal {i}: {r.error}")
                wins += r.rewards[0] == 1.0
                if records is not None:
                    records.append({
                        "experiment": EXPERIMENT, "cell": kind, "seed": seed, "i": i,
                        "g": g, "deal": seed + i, "game_seed": game_seed, "seats": seats,
                        "rewards": [float(x) for x in r.rewards],
                        "scores": [int(x) for x in top_or_tied(r.rewards)],
                        "moves": len(r.actions)})
            per_deal[kind][i] = wins / games
    out: dict = {"deals": deals, "games_per_deal": games, "seed": seed,
                 "ismcts_iterations": iterations, "pimc": [d, s], "thesis": THESIS}
    for kind in THESIS:
        n = deals * games
        wins = int(round(per_deal[kind].sum() * games))
        rate = rate_interval(wins, n, method="wilson")
        out[kind] = {"win_rate": rate.rate, "low": rate.low, "high": rate.high}
    diff = per_deal["ISMCTS"] - per_deal["PIMC"]
    half = 1.96 * float(diff.std(ddof=1)) / math.sqrt(deals) if deals > 1 else float("nan")
    out["difference"] = {"mean": float(diff.mean()), "low": float(diff.mean()) - half,
                         "high": float(diff.mean()) + half}
    return out


def plot(result: dict, path: Path) -> None:
    """Bars: our win rates (95 % intervals) beside the thesis's."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(5, 3.2))
    ax = fig.subplots()
    kinds = list(THESIS)
    x = np.arange(len(kinds))
    ours = [result[k]["win_rate"] for k in kinds]
    err = [[result[k]["win_rate"] - result[k]["low"] for k in kinds],
           [result[k]["high"] - result[k]["win_rate"] for k in kinds]]
    ax.bar(x - 0.2, ours, 0.4, yerr=err, capsize=4, label="spyglass")
    ax.bar(x + 0.2, [THESIS[k] for k in kinds], 0.4, label="Whitehouse 2014")
    ax.set_xticks(x, [f"player 1 {k}" for k in kinds])
    ax.set_ylabel("player 1 win rate vs PIMC 20x200")
    ax.set_ylim(0, 1)
    ax.legend(loc="lower right")
    ax.set_title(f"Mini Dou Di Zhu, {result['deals']} deals x {result['games_per_deal']}")
    fig.tight_layout()
    fig.savefig(path)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--iterations", type=int, default=4000)
    ap.add_argument("--out", type=Path, default=None,
                    help="write OUT.json, OUT.png and the games' records OUT.jsonl")
    args = ap.parse_args(argv)
    records: list[dict] = []
    result = run(args.deals, args.games, args.seed, args.iterations, records=records)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.with_suffix(".json").write_text(text + "\n")
        args.out.with_suffix(".jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in records))
        plot(result, args.out.with_suffix(".png"))


if __name__ == "__main__":
    main()
