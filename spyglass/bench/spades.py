"""Speed of Spades and of every search agent at its first play (``--game spades``):
random games to 500 (mercy rule on) and single rounds per second, and iterations per
second of each agent deciding the first card of a round (after random-seeded bids)
at 10,000 iterations (ensembles 40 x 250), best of a few repeats after a compile run.
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


def playout_rate(n: int, target: int) -> float:
    from spyglass.games.spades import kernel as K

    rng = make_rng(1)
    K.random_games(10, K.F_MERCY, target, rng)
    t0 = time.perf_counter()
    K.random_games(n, K.F_MERCY, target, rng)
    return n / (time.perf_counter() - t0)


@benchmark("spades", game="spades")
def spades_speed(quick: bool) -> dict[str, float]:
    """Random games/rounds per second and agents' iterations/s at the first card."""
    from spyglass.games.spades.game import Spades

    n = 20_000 if quick else 200_000
    out = {"random_games_to_500_per_s": playout_rate(n // 4, 500),
           "random_rounds_per_s": playout_rate(n, 0)}
    game = Spades(target=0)
    s = game.new_state(0)
    for _ in range(4):  # bids: 3 each
        game.kernel.apply(s, 52 + 3)
    seat = int(game.kernel.actor(s))
    legal = game.legal_actions(s)
    for name, settings in AGENTS.items():
        seen = s if registry.get(name).omniscient else game.view(s, seat)
        best = 0.0
        for r in range((1 if quick else 3) + 1):
            agent = registry.make(name, **settings)
            agent.start(game, seat, seen, r)
            t0 = time.perf_counter()
            agent.act(seen, legal)
            if r:
                best = max(best, agent.last.iterations / (time.perf_counter() - t0))
        out[f"{name}_first_card_iterations_per_s"] = best
    return out
