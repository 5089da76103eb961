"""Speed of Mini Dou Di Zhu and of every search agent at the first move
(``spyglass bench --game minidoudizhu``): random games per second, and iterations per
second of each agent deciding player 0's first lead of deal 0 at 10,000 iterations
(ensembles 40 x 250), best of a few repeats after one that compiles or loads the code.
"""

from __future__ import annotations

import time

from spyglass.agents import registry
from spyglass.bench import benchmark
from spyglass.rng import make_rng

AGENTS = {
    "soismcts": {"iterations": 10_000},
    "soismcts_pom": {"iterations": 10_000},
    "moismcts": {"iterations": 10_000},
    "pimc": {"d": 40, "s": 250},
    "cheatinguct": {"iterations": 10_000},
    "cheatingensemble": {"d": 40, "s": 250},
}


def playout_rate(n_games: int) -> float:
    from spyglass.games.minidoudizhu import kernel as K

    rng = make_rng(1)

    def run(n: int) -> None:
        for _ in range(n):
            K.playout(K.deal(rng), rng)

    run(10)
    t0 = time.perf_counter()
    run(n_games)
    return n_games / (time.perf_counter() - t0)


@benchmark("minidoudizhu", game="minidoudizhu")
def minidoudizhu_speed(quick: bool) -> dict[str, float]:
    """Random games/s (deal and playout driven from Python) and agents' iterations/s."""
    from spyglass.games.minidoudizhu.game import MiniDouDiZhu

    game = MiniDouDiZhu()
    state = game.new_state(0)
    out = {"random_games_per_s_python_loop": playout_rate(2_000 if quick else 20_000)}
    legal = game.legal_actions(state)
    for name, settings in AGENTS.items():
        seen = state if registry.get(name).omniscient else game.view(state, 0)
        best = 0.0
        for r in range((1 if quick else 3) + 1):
            agent = registry.make(name, **settings)
            agent.start(game, 0, seen, r)
            t0 = time.perf_counter()
            agent.act(seen, legal)
            if r:
                best = max(best, agent.last.iterations / (time.perf_counter() - t0))
        out[f"{name}_iterations_per_s"] = best
    return out
