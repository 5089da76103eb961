"""Tournament throughput: 5 random bots, every game refereed, recorded and counted."""

from __future__ import annotations

import os
import tempfile
import time

from spyglass.bench import benchmark


def tournament_rate(games: int, workers: int | None) -> float:
    """Games per second of a whole ``tournament.run`` (pool start and writing included)."""
    from spyglass import tournament

    with tempfile.TemporaryDirectory(prefix="spyglass-bench-") as tmp:
        t0 = time.perf_counter()
        res = tournament.run(["random"] * 5, games=games, seed=0, out=os.path.join(tmp, "t"),
                             workers=workers, progress=False)
        spent = time.perf_counter() - t0
    assert res.complete and res.games == games
    return games / spent


@benchmark("tournament")
def tournament_speed(quick: bool) -> dict[str, float]:
    """Games per second for 5 random bots on all cores, and on one worker for comparison."""
    tournament_rate(250, 1)  # warm-up: imports, bot loading, compiled kernels
    games = 3000 if quick else 30000
    return {
        "tournament_games_per_s": tournament_rate(games, None),
        "tournament_games_per_s_1_worker": tournament_rate(games // 3, 1),
        "tournament_workers": float(os.cpu_count() or 1),
    }


#: The five finalists of the 2012 Vienna competition as reimplemented here (Taylor 2014, §4).
VIENNA = ("pandsbot", "scepticbot", "magi", "rebounder", "garboa")


def vienna_rate(games: int) -> float:
    """Games per second of a 5-player tournament of :data:`VIENNA` on one worker."""
    from spyglass import tournament

    with tempfile.TemporaryDirectory(prefix="spyglass-bench-") as tmp:
        t0 = time.perf_counter()
        res = tournament.run(list(VIENNA), games=games, seed=0, out=os.path.join(tmp, "t"),
                             workers=1, progress=False)
        spent = time.perf_counter() - t0
    assert res.complete and res.games == games
    return games / spent


@benchmark("tournament_vienna")
def tournament_vienna_speed(quick: bool) -> dict[str, float]:
    """Games per second of the classic-bot line-up (PandSBot, ScepticBot, Magi, Rebounder,
    GarboA; 5 players) on one worker: the 2012 framework's ``competition.py`` played
    1,200 such games in 85 s (14 games/s) on the machine of issue 12."""
    vienna_rate(60)  # warm-up: imports and the bots' tables
    return {"tournament_vienna_games_per_s": vienna_rate(300 if quick else 1200)}
