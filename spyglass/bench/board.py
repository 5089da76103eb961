"""Speed of a perfect-information board game beside OpenSpiel (Othello, Checkers).

UCT (UCB1, c = 0.7, one node per iteration, uniformly random playouts) searches the
opening position; OpenSpiel's C++ ``MCTSBot`` with a ``RandomRolloutEvaluator`` (one
rollout per leaf, the same kind of search) searches the same position in the same run
when OpenSpiel is installed (``pip install open_spiel``), and the ratio of the two rates
is reported. The best of a few repeats, after one untimed search that compiles or loads
the code. One module for every such game, so that their figures are measured alike.
"""

from __future__ import annotations

import importlib
import time

from spyglass.agents import registry
from spyglass.games import registry as games
from spyglass.rng import make_rng


def uct_rate(name: str, iterations: int, repeats: int) -> float:
    """Best UCT iterations/s at the opening of game ``name``."""
    game = games.make(name)
    state = game.new_state(0)
    view, legal = game.view(state, 0), game.legal_actions(state)
    best = 0.0
    for r in range(repeats + 1):
        agent = registry.make("uct", iterations=iterations if r else 200)
        agent.start(game, 0, view, r)
        t0 = time.perf_counter()
        agent.act(view, legal)
        spent = time.perf_counter() - t0
        if r:
            best = max(best, agent.last.iterations / spent)
    return best


def openspiel_rate(name: str, iterations: int, repeats: int) -> float | None:
    """Best iterations/s of OpenSpiel's C++ MCTSBot at the opening of its game ``name``;
    None without OpenSpiel."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game(name)
    best = 0.0
    for r in range(repeats):
        evaluator = pyspiel.RandomRolloutEvaluator(1, r)
        # (game, evaluator, uct_c, max_simulations, max_memory_mb, solve, seed, verbose)
        bot = pyspiel.MCTSBot(game, evaluator, 1.4, iterations, 1 << 30, False, r, False)
        state = game.new_initial_state()
        t0 = time.perf_counter()
        bot.step(state)
        best = max(best, iterations / (time.perf_counter() - t0))
    return best


def playout_rate(name: str, n_games: int) -> float:
    """Random games per second from the opening (the kernel's compiled ``random_games``)."""
    kernel = importlib.import_module(f"spyglass.games.{name}.kernel")
    rng = make_rng(1)
    kernel.random_games(10, rng)
    t0 = time.perf_counter()
    kernel.random_games(n_games, rng)
    return n_games / (time.perf_counter() - t0)


def board_speed(name: str, quick: bool, openspiel_iterations: tuple[int, int]
                ) -> dict[str, float]:
    """Random playouts/s, UCT iterations/s at the opening and OpenSpiel MCTSBot's rate
    (``openspiel_iterations``: per search with ``quick``, and without)."""
    repeats = 2 if quick else 4
    out = {"random_playouts_per_s": playout_rate(name, 20_000 if quick else 200_000)}
    rate = uct_rate(name, 20_000 if quick else 100_000, repeats)
    out["uct_iterations_per_s"] = rate
    theirs = openspiel_rate(name, openspiel_iterations[0 if quick else 1], repeats)
    if theirs is not None:
        out["openspiel_mctsbot_iterations_per_s"] = theirs
        out["uct_vs_openspiel_ratio"] = rate / theirs
    return out
