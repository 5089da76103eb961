"""Speed of Scotland Yard and of every search agent at its first decisions
(``--game scotlandyard``).

Random playouts are whole games of the thesis's setting (Whitehouse 2014, §4.2.12: Mr X
against 5 detectives played by one seeker player, 24 rounds) from a dealt start. Each
agent searches Mr X's first move and the seekers' first move (the first detective, after
Mr X's first move: the seekers' search then determinizes Mr X's station from the
constraint set) at 10,000 iterations per move (ensembles as 40 trees x 250), after one
untimed search that compiles or loads the code; the best of a few repeats is reported.
"""

from __future__ import annotations

import time

import numpy as np

from spyglass.bench import benchmark
from spyglass.bench.hearts import decision_rate
from spyglass.rng import make_rng

#: label -> (agent, settings); ICARUS as SO-ISMCTS + MAST and MO-ISMCTS + RAVE (ch. 8).
AGENTS = {
    "soismcts": ("soismcts", {"iterations": 10_000}),
    "soismcts_pom": ("soismcts_pom", {"iterations": 10_000}),
    "moismcts": ("moismcts", {"iterations": 10_000}),
    "soismcts_mast": ("soismcts", {"iterations": 10_000, "enhance": "mast"}),
    "moismcts_rave": ("moismcts", {"iterations": 10_000, "enhance": "rave"}),
    "mtismcts_pf": ("mtismcts_pf", {"iterations": 10_000}),
    "pimc": ("pimc", {"d": 40, "s": 250}),
    "cheatinguct": ("cheatinguct", {"iterations": 10_000}),
    "cheatingensemble": ("cheatingensemble", {"d": 40, "s": 250}),
}


def decision_states(game, seed: int = 0) -> dict[str, np.ndarray]:
    """Mr X's first decision and the seekers' first (after Mr X's lowest legal move)."""
    s = game.new_state(seed)
    out = {"mrx_first": s.copy()}
    game.kernel.apply(s, game.legal_actions(s)[0])
    out["seekers_first"] = s.copy()
    return out


def playout_rate(game, n_games: int) -> float:
    """Random games per second from a dealt start (compiled loop, wall time)."""
    from spyglass.games.scotlandyard import kernel as K

    s0 = game.new_state(0)
    rng = make_rng(1)
    K.random_games(s0, 10, rng)
    t0 = time.perf_counter()
    K.random_games(s0, n_games, rng)
    return n_games / (time.perf_counter() - t0)


@benchmark("scotlandyard", game="scotlandyard")
def scotlandyard_speed(quick: bool) -> dict[str, float]:
    """Random playouts/s and each search agent's iterations/s at two first decisions."""
    from spyglass.games import registry as games

    game = games.make("scotlandyard")
    repeats = 1 if quick else 3
    out = {"random_playouts_per_s": playout_rate(game, 5_000 if quick else 50_000)}
    for label, (name, settings) in AGENTS.items():
        for where, state in decision_states(game).items():
            out[f"{label}_{where}_iterations_per_s"] = decision_rate(
                game, state, name, settings, repeats)
    return out
