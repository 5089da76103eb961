"""Speed of Hearts and of every search agent at its first decisions (``--game hearts``).

Random playouts are whole games to 50 points (the thesis's game, Whitehouse 2014,
§4.2.3) and single deals. Each agent searches two decisions of a single deal (the
game OpenSpiel's ``hearts`` is): seat 0's first pass and the first choice of the first
trick (the first play with more than one legal card), at 10,000 iterations per move
(ensembles as 40 trees x 250), after one untimed search that compiles or loads the
code; the best of a few repeats is reported.
"""

from __future__ import annotations

import time

import numpy as np

from spyglass.bench import benchmark
from spyglass.bench.game_speed import decision_rate
from spyglass.rng import make_rng

AGENTS = {
    "soismcts": {"iterations": 10_000},
    "soismcts_pom": {"iterations": 10_000},
    "moismcts": {"iterations": 10_000},
    "pimc": {"d": 40, "s": 250},
    "cheatinguct": {"iterations": 10_000},
    "cheatingensemble": {"d": 40, "s": 250},
}


def decision_states(game, seed: int = 0) -> dict[str, np.ndarray]:
    """The first pass decision and the first choice of the first trick of deal ``seed``
    (passes and forced cards taken as the lowest legal card)."""
    k = game.kernel
    s = game.new_state(seed)
    out = {"first_pass": s.copy()}
    from spyglass.games.hearts import kernel as K

    while True:
        legal = game.legal_actions(s)
        if int(s[K.PHASE]) == K.PLAYING and len(legal) > 1:
            out["first_trick"] = s.copy()
            return out
        k.apply(s, legal[0])


def playout_rate(n_games: int, target: int) -> float:
    """Random games (to ``target``; 0 = one deal) per second (compiled loop)."""
    from spyglass.games.hearts import kernel as K

    rng = make_rng(1)
    K.random_games(10, K.DEFAULT_FLAGS, target, -1, rng)
    t0 = time.perf_counter()
    K.random_games(n_games, K.DEFAULT_FLAGS, target, -1, rng)
    return n_games / (time.perf_counter() - t0)


@benchmark("hearts", game="hearts")
def hearts_speed(quick: bool) -> dict[str, float]:
    """Random playouts/s and each search agent's iterations/s at two Hearts decisions."""
    from spyglass.games.hearts.game import Hearts

    repeats = 1 if quick else 3
    n = 20_000 if quick else 200_000
    out = {"random_games_to_50_per_s": playout_rate(n // 4, 50),
           "random_deals_per_s": playout_rate(n, 0)}
    game = Hearts(target=0)
    states = decision_states(game)
    for name, settings in AGENTS.items():
        for where, state in states.items():
            out[f"{name}_{where}_iterations_per_s"] = decision_rate(
                game, state, name, settings, repeats, clock=time.perf_counter)
    return out
