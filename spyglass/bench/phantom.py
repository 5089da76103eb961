"""Speed of Phantom 4,4,4 and of every search agent at its first move (``--game phantom``).

Each agent searches the first decision of 4,4,4 (seat 0, empty board) as it would in a
game, at the thesis's budget of 10,000 iterations per move (Whitehouse 2014, §6.3.2;
ensembles as 40 trees x 250), after one untimed search that compiles or loads the code;
the best of a few repeats is reported. ``moismcts_iterations_per_s_100k`` is one deeper
search of 100,000 iterations. Rates are per second of this process's CPU time
(``time.process_time``): the searches are single-threaded, and on a shared machine CPU
time varies far less than wall time (wall time is what a player's clock sees; on an idle
machine the two agree).
"""

from __future__ import annotations

import time

from spyglass.agents import registry
from spyglass.bench import benchmark
from spyglass.rng import make_rng

# The game is imported when the benchmark runs, so listing benchmarks never needs it.

AGENTS = {
    "soismcts": {"iterations": 10_000},
    "soismcts_pom": {"iterations": 10_000},
    "moismcts": {"iterations": 10_000},
    "pimc": {"d": 40, "s": 250},
    "cheatinguct": {"iterations": 10_000},
    "cheatingensemble": {"d": 40, "s": 250},
}


def first_move_rate(name: str, settings: dict, repeats: int) -> tuple[float, float]:
    """Best iterations/s of agent ``name`` at the first move of 4,4,4, and its tree's bytes
    per iteration (0 for the ensembles, whose trees are rebuilt per determinization)."""
    from spyglass.games.phantom.game import Phantom

    game = Phantom()
    state = game.new_state(0)
    seen = state if registry.get(name).omniscient else game.view(state, 0)
    legal = game.legal_actions(state)
    best, per_it = 0.0, 0.0
    for r in range(repeats + 1):
        agent = registry.make(name, **settings)
        agent.start(game, 0, seen, r)
        t0 = time.process_time()
        agent.act(seen, legal)
        spent = time.process_time() - t0
        if r == 0:
            continue  # compiling or loading from the cache
        result = agent.last
        best = max(best, result.iterations / spent)
        pool = getattr(result, "pool", None)
        if pool is not None:
            per_it = max(per_it, pool.bytes_used / result.iterations)
    return best, per_it


def playout_rate(n_games: int) -> float:
    """Random games of 4,4,4 per second, from the empty board (compiled loop)."""
    from spyglass.games.phantom import kernel as K

    rng = make_rng(1)
    K.random_games(4, 4, 4, 10, rng)
    t0 = time.process_time()
    K.random_games(4, 4, 4, n_games, rng)
    return n_games / (time.process_time() - t0)


@benchmark("phantom", game="phantom")
def phantom_speed(quick: bool) -> dict[str, float]:
    """Random playouts/s and each search agent's iterations/s at the first move of 4,4,4."""
    repeats = 2 if quick else 5
    out = {"random_playouts_per_s": playout_rate(50_000 if quick else 500_000)}
    for name, settings in AGENTS.items():
        rate, per_it = first_move_rate(name, settings, repeats)
        out[f"{name}_iterations_per_s"] = rate
        if name == "moismcts":
            out["moismcts_bytes_per_iteration"] = per_it
    deep = {"iterations": 20_000 if quick else 100_000}
    out["moismcts_iterations_per_s_100k"] = first_move_rate("moismcts", deep, 1)[0]
    return out
