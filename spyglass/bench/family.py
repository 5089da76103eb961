"""Speed of the ISMCTS-family searches at the first decision of a game (one core)."""

from __future__ import annotations

import time

import numpy as np

from spyglass.bench import benchmark
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.family_search import run_ismcts, run_pimc
from spyglass.games.resistance.search_kernel import MAX_DEPTH
from spyglass.games.resistance.tables import spy_configurations
from spyglass.resistance.bots.marsh_model import run_searchagent
from spyglass.rng import make_rng
from spyglass.search.pimc import PIMC
from spyglass.search.so_ismcts import ISMCTS


def ismcts_rate(mode: str, n: int, iterations: int, repeats: int) -> float:
    """Best iterations/s of a resistance first leader's search (compiled beforehand)."""
    configs = spy_configurations(n).astype(np.int64)
    belief = ((configs & 1) == 0).astype(np.float64)
    searcher = ISMCTS(run_ismcts, n, configs.reshape(-1, 1), mode=mode,
                      max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH)
    root = K.new_state(n, 0, 0, 0)
    searcher.search(root, belief, make_rng(0), searcher=0, iterations=100)
    best = 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        searcher.search(root, belief, make_rng(r + 1), searcher=0, iterations=iterations)
        best = max(best, iterations / (time.perf_counter() - t0))
    return best


def uct_rate(run, n: int, iterations: int, repeats: int) -> float:
    """Best iterations/s of a 4-tree UCT ensemble (PIMC or SearchAgent playouts)."""
    configs = spy_configurations(n).astype(np.int64)
    states = [K.new_state(n, int(c), 0, 0) for c in configs[:4]]
    w = np.full(len(configs), 1.0 / len(configs))
    searcher = PIMC(run, max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH, binary_rewards=True)
    searcher.search(states, make_rng(0), iterations=50, cfg=configs, w=w)
    best = 0.0
    for r in range(repeats):
        t0 = time.perf_counter()
        searcher.search(states, make_rng(r + 1), iterations=iterations // 4, cfg=configs, w=w)
        best = max(best, iterations / (time.perf_counter() - t0))
    return best


@benchmark("family")
def family_speed(quick: bool) -> dict[str, float]:
    """SO-ISMCTS, SO+POM, MO-ISMCTS, PIMC and SearchAgent iterations per second."""
    iterations = 20_000 if quick else 100_000
    repeats = 2 if quick else 3
    return {
        "so_ismcts_iterations_per_s": ismcts_rate("so", 5, iterations, repeats),
        "so_ismcts_iterations_per_s_10p": ismcts_rate("so", 10, iterations, repeats),
        "so_pom_ismcts_iterations_per_s": ismcts_rate("pom", 5, iterations, repeats),
        "mo_ismcts_iterations_per_s": ismcts_rate("mo", 5, iterations, repeats),
        "mo_ismcts_iterations_per_s_10p": ismcts_rate("mo", 10, iterations, repeats),
        "pimc_iterations_per_s": uct_rate(run_pimc, 5, iterations, repeats),
        "searchagent_iterations_per_s": uct_rate(run_searchagent, 5, iterations, repeats),
    }
