"""Speed of LOTR: The Confrontation and of every search agent at Dark's first move.

``--game lotrc``. Random playouts/s from the fixed setup, and each agent's iterations/s
at the first decision (Dark to move, seat 0) at the thesis's budget of 10,000 iterations
per move (Whitehouse 2014, §6.3.2; ensembles 40 trees x 250), after one untimed search
that compiles or loads the code; the best of a few repeats. Rates are per second of
this process's CPU time (``time.process_time``), as for Phantom (spyglass/bench/phantom.py).
The issue's target: every search at least half the random playout rate, which an
iteration's one playout bounds from above.
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
    "moismcts_exp3": {"iterations": 10_000, "exp3": True},
    "moismcts_epic": {"iterations": 10_000, "enhance": "epic"},
    "pimc": {"d": 40, "s": 250},
    "cheatinguct": {"iterations": 10_000},
    "cheatingensemble": {"d": 40, "s": 250},
}


def first_move_rate(label: str, settings: dict, repeats: int) -> float:
    """Best iterations/s of an agent (``label``: its registry name, or name_variant) at
    Dark's first move from the fixed setup."""
    from spyglass.games.lotrc.game import Confrontation

    name = label.split("_exp3")[0].split("_epic")[0]
    game = Confrontation()
    state = game.new_state(0)
    seen = state if registry.get(name).omniscient else game.view(state, 0)
    legal = game.legal_actions(state)
    best = 0.0
    for r in range(repeats + 1):
        agent = registry.make(name, **settings)
        agent.start(game, 0, seen, r)
        t0 = time.process_time()
        agent.act(seen, legal)
        spent = time.process_time() - t0
        if r:  # r == 0 compiles or loads from the cache
            best = max(best, agent.last.iterations / spent)
    return best


def playout_rate(n_games: int) -> float:
    """Random games per second from the fixed setup (compiled loop)."""
    from spyglass.games.lotrc import kernel as K
    from spyglass.games.lotrc.game import Confrontation

    s0 = Confrontation().new_state(0)
    rng = make_rng(1)
    K.random_games(s0, 10, rng)
    t0 = time.process_time()
    K.random_games(s0, n_games, rng)
    return n_games / (time.process_time() - t0)


@benchmark("lotrc", game="lotrc")
def lotrc_speed(quick: bool) -> dict[str, float]:
    """Random playouts/s and each search's iterations/s at the first move (and the ratio)."""
    repeats = 1 if quick else 3
    playouts = playout_rate(5_000 if quick else 50_000)
    out = {"random_playouts_per_s": playouts}
    for label, settings in AGENTS.items():
        if quick:
            settings = {k: (v // 5 if k in ("iterations", "s") else v)
                        for k, v in settings.items()}
        rate = first_move_rate(label, settings, repeats)
        out[f"{label}_iterations_per_s"] = rate
        out[f"{label}_vs_playouts_ratio"] = rate / playouts
    return out
