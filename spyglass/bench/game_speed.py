"""Speed of any registered game: random playouts/s and every search agent's iterations/s
at each seat's first decision (``spyglass bench --game G --only speed``).

Written once for every game, from what the game declares: no game needs a benchmark
module of its own for these figures (issue 26). The random playouts are the kernel's own
``playout`` (its default policy) from the game dealt by seed 0, in a compiled loop. Each
search agent decides at the first state where each seat is to act (reached by playing
the lowest legal action from that deal), after one untimed search that compiles or loads
its code; the best of a few repeats is reported, per second of this process's CPU time
(``time.process_time``: steadier than wall time on a shared machine). A search that
does not apply to the game (e.g. EXP3 without simultaneous moves, EPIC without episodes)
is left out with a note.
"""

from __future__ import annotations

import time
from collections.abc import Callable

import numpy as np

from spyglass.rng import make_rng

ITERATIONS = 10_000
#: label -> (agent, settings, applies(game)): the searches of the ISMCTS family and the
#: ICARUS loops (Whitehouse 2014, ch. 5-8), ensembles as 40 trees x 250 iterations.
SEARCHES: dict[str, tuple[str, dict, Callable[[object], bool]]] = {
    "soismcts": ("soismcts", {"iterations": ITERATIONS}, lambda g: True),
    "soismcts_pom": ("soismcts_pom", {"iterations": ITERATIONS}, lambda g: True),
    "moismcts": ("moismcts", {"iterations": ITERATIONS}, lambda g: True),
    "moismcts_exp3": ("moismcts", {"iterations": ITERATIONS, "exp3": True},
                      lambda g: g.capability("simultaneous") is not None),
    "mtismcts_pf": ("mtismcts_pf", {"iterations": ITERATIONS},
                    lambda g: g.information != "perfect"),
    "pimc": ("pimc", {"d": 40, "s": 250}, lambda g: True),
    "cheatinguct": ("cheatinguct", {"iterations": ITERATIONS}, lambda g: True),
    "cheatingensemble": ("cheatingensemble", {"d": 40, "s": 250}, lambda g: True),
    "icarus_so_mast": ("soismcts", {"iterations": ITERATIONS, "enhance": "mast"},
                       lambda g: True),
    "icarus_mo_rave": ("moismcts", {"iterations": ITERATIONS, "enhance": "rave"},
                       lambda g: True),
    "icarus_mo_epic": ("moismcts", {"iterations": ITERATIONS, "enhance": "epic"},
                       lambda g: g.capability("episode") is not None),
    # UCT on the game itself (and its ICARUS loop) needs perfect information
    "uct": ("uct", {"iterations": ITERATIONS}, lambda g: g.information == "perfect"),
    "icarus_uct_mast": ("uct", {"iterations": ITERATIONS, "enhance": "mast"},
                        lambda g: g.information == "perfect"),
}


def first_decisions(game, seed: int = 0, max_moves: int = 400) -> dict[int, np.ndarray]:
    """Each seat's first decision: the first state where it is to act, playing the
    lowest legal action from the deal of ``seed`` (seats that never act are left out)."""
    s = game.new_state(seed)
    out: dict[int, np.ndarray] = {}
    for _ in range(max_moves):
        if game.kernel.is_terminal(s) or len(out) == game.n_players:
            break
        seat = int(game.kernel.actor(s))
        if 0 <= seat < game.n_players and seat not in out:
            out[seat] = s.copy()
        game.kernel.apply(s, game.legal_actions(s)[0])
    return out


def playout_rate(game, n_games: int, seed: int = 0) -> float:
    """Random playouts (the kernel's ``playout``) per CPU second from the deal of ``seed``."""
    from numba import njit

    playout = game.kernel.playout

    @njit
    def games(start: np.ndarray, n: int, rng: np.ndarray) -> int:
        s = start.copy()
        for _ in range(n):
            s[:] = start
            playout(s, rng)
        return n

    start, rng = game.new_state(seed), make_rng(1)
    games(start, 10, rng)  # compiles
    t0 = time.process_time()
    games(start, n_games, rng)
    return n_games / max(time.process_time() - t0, 1e-9)


def decision_rate(game, state: np.ndarray, name: str, settings: dict, repeats: int,
                  clock: Callable[[], float] = time.process_time) -> float:
    """Best iterations per second of agent ``name`` deciding at ``state`` (``clock``: CPU
    time by default; wall time where a figure is compared with another program's)."""
    from spyglass.agents import registry

    seat = int(game.kernel.actor(state))
    seen = state if registry.get(name).omniscient else game.view(state, seat)
    legal = game.legal_actions(state)
    best = 0.0
    for r in range(repeats + 1):
        agent = registry.make(name, **settings)
        agent.start(game, seat, seen, r)
        t0 = clock()
        agent.act(seen, legal)
        spent = max(clock() - t0, 1e-9)
        if r:  # the first search compiles or loads the code
            best = max(best, agent.last.iterations / spent)
    return best


def game_speed(game_name: str, quick: bool, searches: list[str] | None = None) -> dict:
    """Random playouts/s, and each applicable search's iterations/s at each seat's first
    decision with its ratio to the playout rate (a string value is a note)."""
    from spyglass.games import registry as games

    game = games.make(game_name)
    repeats = 1 if quick else 3
    out: dict[str, float | str] = {
        "random_playouts_per_s": playout_rate(game, 2_000 if quick else 20_000)}
    states = first_decisions(game)
    for label in searches or list(SEARCHES):
        name, settings, applies = SEARCHES[label]
        if not applies(game):
            out[f"{label}_note"] = f"{label}: not applicable to {game_name}"
            continue
        if quick and "iterations" in settings:
            settings = dict(settings, iterations=2_000)
        for seat, state in states.items():
            rate = decision_rate(game, state, name, settings, repeats)
            out[f"{label}_seat{seat}_iterations_per_s"] = rate
            out[f"{label}_seat{seat}_vs_playouts"] = rate / out["random_playouts_per_s"]
    return out
