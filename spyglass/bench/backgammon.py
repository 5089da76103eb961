"""Speed of Backgammon: random playouts and UCT at the opening.

UCT here is the thesis's for Backgammon (Whitehouse 2014, §5.2.3): the future dice are
determinized afresh in each iteration, so the search is the information-set loop (see
:mod:`spyglass.agents.uct`); an iteration is one determinization, one descent and one
uniformly random playout to the end of the game. The best of a few repeats, after one
untimed search that compiles or loads the code.
"""

from __future__ import annotations

import time

from spyglass.agents import registry
from spyglass.bench import benchmark
from spyglass.rng import make_rng


def uct_rate(iterations: int, repeats: int) -> float:
    """Best UCT iterations/s at the opening of Backgammon (the first roll of seed 0)."""
    from spyglass.games.backgammon.game import Backgammon

    game = Backgammon()
    state = game.new_state(0)
    seat = int(game.kernel.actor(state))
    view, legal = game.view(state, seat), game.legal_actions(state)
    best = 0.0
    for r in range(repeats + 1):
        agent = registry.make("uct", iterations=iterations if r else 200)
        agent.start(game, seat, view, r)
        t0 = time.perf_counter()
        agent.act(view, legal)
        spent = time.perf_counter() - t0
        if r:
            best = max(best, agent.last.iterations / spent)
    return best


def playout_rate(n_games: int) -> float:
    """Random games of Backgammon per second from the opening (compiled loop)."""
    from spyglass.games.backgammon import kernel as K

    rng = make_rng(1)
    K.random_games(10, rng)
    t0 = time.perf_counter()
    K.random_games(n_games, rng)
    return n_games / (time.perf_counter() - t0)


@benchmark("backgammon", game="backgammon")
def backgammon_speed(quick: bool) -> dict[str, float]:
    """Random playouts/s and UCT iterations/s at the opening."""
    repeats = 2 if quick else 4
    return {"random_playouts_per_s": playout_rate(2_000 if quick else 20_000),
            "uct_iterations_per_s": uct_rate(2_000 if quick else 10_000, repeats)}
