"""Cost of MT-ISMCTS with particle-filter inference (``mtismcts_pf``) beside MO-ISMCTS.

For Phantom 4,4,4, Hearts and Cheat: iterations/s of ``mtismcts_pf`` and ``moismcts`` at
the same budget (10,000 iterations; 2,000 with ``--quick``) at seat 0's first decision
(the best of a few repeats, after an untimed one that compiles or loads the code), and
the filter's cost per observed move (milliseconds of CPU time, default settings: 32
particles, a 64-iteration SO-ISMCTS opponent model) over the first moves of a game
against random play. Rates are per second of this process's CPU time.
"""

from __future__ import annotations

import time

import numpy as np

from spyglass.agents import registry
from spyglass.bench import benchmark


def _first_decision(game, seed: int = 0):
    s = game.new_state(seed)
    seat = int(game.kernel.actor(s))
    return s, seat


def decision_rate(game, name: str, iterations: int, repeats: int) -> float:
    """Best iterations/s of agent ``name`` at the first decision of ``game``."""
    s, seat = _first_decision(game)
    view = game.view(s, seat)
    legal = game.legal_actions(s)
    best = 0.0
    for r in range(repeats + 1):
        agent = registry.make(name, iterations=iterations)
        agent.start(game, seat, view, r)
        t0 = time.process_time()
        agent.act(view, legal)
        spent = time.process_time() - t0
        if r:
            best = max(best, agent.last.iterations / spent)
    return best


def update_ms(game, moves: int, seed: int = 1) -> float:
    """Mean CPU milliseconds of one particle-filter update, seat 0 observing random play."""
    k = game.kernel
    s = game.new_state(seed)
    agent = registry.make("mtismcts_pf")
    agent.start(game, 0, game.view(s, 0), seed)
    rng = np.random.default_rng(seed)
    spent, n = 0.0, 0
    for _ in range(moves):
        if k.is_terminal(s):
            break
        actor = int(k.actor(s))
        legal = game.legal_actions(s)
        a = legal[int(rng.integers(len(legal)))]
        obs = int(k.observe(s, a, 0))
        k.apply(s, a)
        t0 = time.process_time()
        agent.observe(obs, actor, game.view(s, 0))
        spent += time.process_time() - t0
        n += 1
    return 1000.0 * spent / max(n, 1)


def _measure(game, quick: bool) -> dict[str, float]:
    its = 2_000 if quick else 10_000
    repeats = 2 if quick else 4
    mt = decision_rate(game, "mtismcts_pf", its, repeats)
    mo = decision_rate(game, "moismcts", its, repeats)
    update_ms(game, 2)  # compile the filter's model search
    return {"mtismcts_pf_iterations_per_s": mt, "moismcts_iterations_per_s": mo,
            "mtismcts_pf_over_mo": mt / mo,
            "mtismcts_pf_update_ms_per_move": update_ms(game, 10 if quick else 30)}


@benchmark("mtismcts_pf_phantom", game="phantom")
def phantom_mt(quick: bool) -> dict[str, float]:
    """mtismcts_pf vs moismcts iterations/s at the first move of 4,4,4; filter cost."""
    from spyglass.games.phantom.game import Phantom

    return _measure(Phantom(), quick)


@benchmark("mtismcts_pf_hearts", game="hearts")
def hearts_mt(quick: bool) -> dict[str, float]:
    """mtismcts_pf vs moismcts iterations/s at the first decision of Hearts; filter cost."""
    from spyglass.games import registry as games

    return _measure(games.make("hearts"), quick)


@benchmark("mtismcts_pf_cheat", game="cheat")
def cheat_mt(quick: bool) -> dict[str, float]:
    """mtismcts_pf vs moismcts iterations/s at the first decision of Cheat; filter cost."""
    from spyglass.games import registry as games

    return _measure(games.make("cheat"), quick)
