"""OpenSpiel games Spyglass lacks, searched by Spyglass's SO-ISMCTS through the adapter.

For each game: a tournament of SO-ISMCTS against random (``spyglass.envs.openspiel_game``
through the one tournament engine), then SO-ISMCTS's iteration rate at the first
decision beside OpenSpiel's own ISMCTSBot (C++, random rollouts) on the same state,
interleaved, in CPU time. ISMCTSBot needs the game's ResampleFromInfostate, which
OpenSpiel implements for Leduc and Kuhn poker but not for Liar's dice or Goofspiel.

    python tools/openspiel_rates.py --games 40 --iterations 300 --rate-iterations 2000
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel

from spyglass.arena.tournament import run_game_tournament
from spyglass.envs.openspiel_adapter import openspiel_game
from spyglass.envs.sources import make_agent

GAMES = ("leduc_poker", "liars_dice", "goofspiel(num_cards=4,imp_info=True)", "kuhn_poker")


def first_decision(game):
    state = game.new_state(7)
    return state, int(game.kernel.actor(state))


def spyglass_rate(game, n: int) -> float:
    state, seat = first_decision(game)
    agent = make_agent(f"soismcts:iterations={n}")
    view = game.view(state, seat)
    agent.start(game, seat, view, 11)
    t = time.process_time()
    agent.act(view, game.legal_actions(state))
    return n / (time.process_time() - t)


def openspiel_rate(game, n: int) -> float | None:
    state, _ = first_decision(game)
    pstate = game.rules.state(state).clone()
    bot = pyspiel.ISMCTSBot(3, pyspiel.RandomRolloutEvaluator(1, 5), 0.7, n)
    t = time.process_time()
    try:
        bot.step(pstate)
    except pyspiel.SpielError:
        return None  # no ResampleFromInfostate for this game
    return n / (time.process_time() - t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--iterations", type=int, default=300)
    ap.add_argument("--rate-iterations", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=3)
    args = ap.parse_args()
    for spec in GAMES:
        game = openspiel_game(spec)
        t = time.process_time()
        res = run_game_tournament(game, [f"soismcts:iterations={args.iterations}", "random"],
                                  games=args.games, seed=2026, workers=1)
        spent = time.process_time() - t
        rates = "; ".join(
            f"{a.label}: win rate {a.win_rate.rate:.3f} [{a.win_rate.low:.3f}, "
            f"{a.win_rate.high:.3f}], mean reward {a.mean_reward.rate:.3f}"
            for a in res.agents)
        sg, osb = [], []
        for _ in range(args.repeats):  # interleaved, CPU time
            sg.append(spyglass_rate(game, args.rate_iterations))
            osb.append(openspiel_rate(game, args.rate_iterations))
        ours = float(np.median(sg))
        theirs = None if osb[0] is None else float(np.median(osb))
        print(f"{spec}: {args.games} games SO-ISMCTS({args.iterations}) vs random "
              f"({spent:.1f} s CPU)")
        print(f"  {rates}")
        print(f"  iterations/s at the first decision: Spyglass SO-ISMCTS (adapter, Python) "
              f"{ours:,.0f}; OpenSpiel ISMCTSBot (C++) "
              + ("n/a (no ResampleFromInfostate)" if theirs is None
                 else f"{theirs:,.0f} (ratio {ours / theirs:.2f})"))


if __name__ == "__main__":
    main()
