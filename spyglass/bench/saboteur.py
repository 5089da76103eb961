"""Speed of Saboteur and of every search agent at its first decision (``--game saboteur``).

Five players, as in the thesis's Saboteur experiment (one inference player against four
others; Whitehouse 2014, §7.5.5). Each agent searches seat 0's first decision of the
round dealt from seed 0 as it would in a game, after one untimed search that compiles
or loads the code; the best of a few repeats is reported. ``random_playouts_per_s`` is
uniformly random rounds from that deal (compiled loop). Rates are per second of this
process's CPU time (``time.process_time``), as :mod:`spyglass.bench.phantom` measures.
"""

from __future__ import annotations

import time

from spyglass.agents import registry
from spyglass.bench import benchmark
from spyglass.rng import make_rng

PLAYERS = 5

#: Agent name -> (registry name, settings). ICARUS: SO-ISMCTS with MAST and with RAVE
#: (EPIC needs episodes, which Saboteur does not declare).
AGENTS = {
    "soismcts": ("soismcts", {"iterations": 10_000}),
    "soismcts_pom": ("soismcts_pom", {"iterations": 10_000}),
    "moismcts": ("moismcts", {"iterations": 10_000}),
    "pimc": ("pimc", {"d": 40, "s": 250}),
    "mtismcts_pf": ("mtismcts_pf", {"iterations": 10_000}),
    "icarus_so_mast": ("soismcts", {"iterations": 10_000, "enhance": "mast"}),
    "icarus_so_rave": ("soismcts", {"iterations": 10_000, "enhance": "rave"}),
}


def _deal():
    from spyglass.games import registry as games

    game = games.make("saboteur", PLAYERS)
    return game, game.new_state(0)


def first_move_rate(name: str, settings: dict, repeats: int) -> float:
    """Best iterations/s of agent ``name`` at seat 0's first decision."""
    game, state = _deal()
    seen = state if registry.get(name).omniscient else game.view(state, 0)
    legal = game.legal_actions(state)
    best = 0.0
    for r in range(repeats + 1):
        agent = registry.make(name, **settings)
        agent.start(game, 0, seen, r)
        t0 = time.process_time()
        agent.act(seen, legal)
        spent = time.process_time() - t0
        if r:  # the first search compiles or loads the code
            best = max(best, agent.last.iterations / spent)
    return best


def playout_rate(n_games: int) -> float:
    """Uniformly random rounds per second from the deal (compiled loop)."""
    from spyglass.games.saboteur import kernel as K

    _, state = _deal()
    rng = make_rng(1)
    K.random_games(state, 10, rng)
    t0 = time.process_time()
    K.random_games(state, n_games, rng)
    return n_games / (time.process_time() - t0)


@benchmark("saboteur", game="saboteur")
def saboteur_speed(quick: bool) -> dict[str, float]:
    """Random playouts/s and each search agent's iterations/s at the first decision."""
    repeats = 1 if quick else 3
    out = {"random_playouts_per_s": playout_rate(5_000 if quick else 50_000)}
    for key, (name, settings) in AGENTS.items():
        if quick and "iterations" in settings:
            settings = dict(settings, iterations=2_000)
        rate = first_move_rate(name, settings, repeats)
        out[f"{key}_iterations_per_s"] = rate
        out[f"{key}_vs_playouts"] = rate / out["random_playouts_per_s"]
    return out
