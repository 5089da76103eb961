"""Speed of Dou Di Zhu and of every search agent at the landlord's first lead
(``spyglass bench --game doudizhu``).

Random playouts are whole deals with the landlord fixed (Whitehouse 2014, §4.2.1),
uniform over our actions (base moves, then kickers), in the compiled loop. Each agent
decides the landlord's first lead of deal 0 (the widest decision of a deal) at 10,000
iterations (ensembles as 40 trees x 250), after one untimed search that compiles or
loads the code; the best of a few repeats is reported.
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


def playout_rate(n_games: int, flags: int) -> float:
    """Random deals per second (deal and playout in the compiled loop)."""
    from spyglass.games.doudizhu import kernel as K

    rng = make_rng(1)
    K.random_games(10, flags, rng)
    t0 = time.perf_counter()
    K.random_games(n_games, flags, rng)
    return n_games / (time.perf_counter() - t0)


@benchmark("doudizhu", game="doudizhu")
def doudizhu_speed(quick: bool) -> dict[str, float]:
    """Random playouts/s and each search agent's iterations/s at the first lead."""
    from spyglass.games.doudizhu.game import DouDiZhu

    game = DouDiZhu()
    out = {"random_playouts_per_s": playout_rate(2_000 if quick else 20_000, game.flags)}
    state = game.new_state(0)
    legal = game.legal_actions(state)
    out["first_lead_legal_actions"] = float(len(legal))
    seat = int(game.kernel.actor(state))
    for name, settings in AGENTS.items():
        seen = state if registry.get(name).omniscient else game.view(state, seat)
        best = 0.0
        for r in range((1 if quick else 3) + 1):
            agent = registry.make(name, **settings)
            agent.start(game, seat, seen, r)
            t0 = time.perf_counter()
            agent.act(seen, legal)
            if r:
                best = max(best, agent.last.iterations / (time.perf_counter() - t0))
        out[f"{name}_iterations_per_s"] = best
    return out
