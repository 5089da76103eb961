"""Speed of the rules: compiled random playouts, and whole refereed games between Python bots."""

from __future__ import annotations

import time

from spyglass.bench import benchmark
from spyglass.games.resistance.kernel import random_games
from spyglass.rng import make_rng


def playouts_per_s(n_players: int, quick: bool) -> float:
    """Best rate of uniformly random games (deal included) over a few timed batches."""
    rng = make_rng(n_players)
    random_games(n_players, 100, 0, rng)  # compile (or load from cache) outside the timing
    target = 0.05 if quick else 0.35  # seconds per batch
    batch = 10_000
    while True:  # grow the batch until one takes a measurable time
        t0 = time.perf_counter()
        random_games(n_players, batch, 0, rng)
        spent = time.perf_counter() - t0
        if spent >= target / 4:
            break
        batch *= 4
    batch = max(1, int(batch * target / spent))
    best = 0.0
    for _ in range(3 if quick else 5):
        t0 = time.perf_counter()
        random_games(n_players, batch, 0, rng)
        best = max(best, batch / (time.perf_counter() - t0))
    return best


def refereed_games_per_s(n_players: int, quick: bool) -> float:
    """Full games through the referee (Python bots, validation, records) per second."""
    from spyglass.resistance.arena.referee import play_game

    play_game(["randombot"] * n_players, seed=0)  # warm-up: imports and bot loading
    games = 20 if quick else 200
    t0 = time.perf_counter()
    for seed in range(games):
        play_game(["randombot"] * n_players, seed=seed)
    return games / (time.perf_counter() - t0)


def isolated_games_per_s(n_players: int, quick: bool) -> float:
    """The same games with every bot in its own worker process (``isolate="all"``), the
    workers started once and reused, as a tournament chunk does: the cost of isolation."""
    from spyglass.arena.sandbox import WorkerPool
    from spyglass.resistance.arena.referee import play_game

    with WorkerPool() as workers:
        play_game(["randombot"] * n_players, seed=0, isolate="all", workers=workers)  # start
        games = 5 if quick else 40
        t0 = time.perf_counter()
        for seed in range(games):
            play_game(["randombot"] * n_players, seed=seed, isolate="all", workers=workers)
        return games / (time.perf_counter() - t0)


@benchmark("rules")
def rules_speed(quick: bool) -> dict[str, float]:
    """Random playouts per second (5 and 10 players, one core) and refereed games per second."""
    return {
        "random_playouts_per_s": playouts_per_s(5, quick),
        "random_playouts_per_s_10p": playouts_per_s(10, quick),
        "referee_random_games_per_s": refereed_games_per_s(5, quick),
        "referee_games_per_s_isolated": isolated_games_per_s(5, quick),
    }
