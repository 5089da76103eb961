"""Tournament throughput: 5 random bots, every game refereed, recorded and counted."""

from __future__ import annotations

import os
import resource
import subprocess
import tempfile
import time
from pathlib import Path

from spyglass.bench import benchmark


def tournament_rate(games: int, workers: int | None) -> float:
    """Games per second of a whole ``tournament.run`` (pool start and writing included)."""
    from spyglass import tournament

    with tempfile.TemporaryDirectory(prefix="spyglass-bench-") as tmp:
        t0 = time.perf_counter()
        res = tournament.run(["randombot"] * 5, games=games, seed=0, out=os.path.join(tmp, "t"),
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


def _vienna_run(games: int) -> tuple[float, float]:
    """Wall and CPU seconds of a 5-player tournament of :data:`VIENNA` on one worker."""
    from spyglass import tournament

    with tempfile.TemporaryDirectory(prefix="spyglass-bench-") as tmp:
        t0, c0 = time.perf_counter(), time.process_time()
        res = tournament.run(list(VIENNA), games=games, seed=0, out=os.path.join(tmp, "t"),
                             workers=1, progress=False)
        spent, cpu = time.perf_counter() - t0, time.process_time() - c0
    assert res.complete and res.games == games
    return spent, cpu


def vienna_rate(games: int) -> float:
    """Games per second of a 5-player tournament of :data:`VIENNA` on one worker."""
    return games / _vienna_run(games)[0]


#: ``SPYGLASS_2012_FRAMEWORK``: a checkout of the 2012 framework (aigamedev/resistance,
#: with the Vienna entries in ``bots/1/``); ``SPYGLASS_PYTHON2``: its interpreter
#: (default ``python2``). With the first set, ``tournament_vienna`` also times the
#: framework's own ``competition.py`` on the same line-up, in the same run.
FRAMEWORK_VARIABLE = "SPYGLASS_2012_FRAMEWORK"
PYTHON2_VARIABLE = "SPYGLASS_PYTHON2"
#: :data:`VIENNA` as ``competition.py`` names it: module (a file of ``bots/1/``).class.
VIENNA_2012 = ("pands.PandSBot", "sceptic.ScepticBot", "mp.Magi", "rebounder.Rebounder",
               "garboa.GarboA")


def framework_2012_run(games: int, checkout: str, python2: str) -> tuple[float, float]:
    """Wall and CPU seconds of the 2012 framework's ``competition.py`` playing ``games``
    games of :data:`VIENNA_2012` (a subprocess in ``checkout``, interpreter start
    included as a Spyglass run's start is)."""
    root = Path(checkout)
    needed = [root / "competition.py"]
    needed += [root / "bots" / "1" / (spec.split(".")[0] + ".py") for spec in VIENNA_2012]
    missing = [str(p) for p in needed if not p.is_file()]
    if missing:
        raise FileNotFoundError(
            f"{FRAMEWORK_VARIABLE}={checkout} is not a checkout of the 2012 framework with "
            f"the Vienna entries in bots/1/: missing {', '.join(missing)}")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    try:
        proc = subprocess.run([python2, "competition.py", str(games), "bots/1", *VIENNA_2012],
                              cwd=root, capture_output=True, text=True, check=False,
                              timeout=600)  # it plays 1,200 games in seconds: a hang is a fault
    except OSError as exc:
        raise RuntimeError(f"{PYTHON2_VARIABLE}={python2} could not be run: {exc}") from exc
    except subprocess.TimeoutExpired as exc:
        raise RuntimeError("the 2012 framework's competition.py did not finish in 600 s") from exc
    spent = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        raise RuntimeError(f"the 2012 framework's competition.py failed (exit "
                           f"{proc.returncode}): {proc.stderr.strip()[-800:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return spent, cpu


@benchmark("tournament_vienna")
def tournament_vienna_speed(quick: bool) -> dict[str, float]:
    """Games per second of the classic-bot line-up (PandSBot, ScepticBot, Magi, Rebounder,
    GarboA; 5 players) on one worker: the 2012 framework's ``competition.py`` played
    1,200 such games in 85 s (14 games/s) on the machine of issue 12 (side by side on one
    machine it is faster than Spyglass: docs/search-speed.md). With
    ``SPYGLASS_2012_FRAMEWORK`` set (see :data:`FRAMEWORK_VARIABLE`), that framework
    plays the same number of games in the same run, and the rates per wall and per CPU
    second of both, and Spyglass's speed-up over it, are reported too."""
    vienna_rate(60)  # warm-up: imports and the bots' tables
    games = 300 if quick else 1200
    spent, cpu = _vienna_run(games)
    out = {"tournament_vienna_games_per_s": games / spent}
    checkout = os.environ.get(FRAMEWORK_VARIABLE)
    if checkout:
        python2 = os.environ.get(PYTHON2_VARIABLE) or "python2"
        fw_spent, fw_cpu = framework_2012_run(games, checkout, python2)
        out["vienna_2012_framework_games_per_s"] = games / fw_spent
        out["vienna_speedup_vs_2012_framework"] = fw_spent / spent
        out["tournament_vienna_games_per_cpu_s"] = games / cpu
        out["vienna_2012_framework_games_per_cpu_s"] = games / max(fw_cpu, 1e-9)
        out["vienna_cpu_speedup_vs_2012_framework"] = max(fw_cpu, 1e-9) / cpu
    return out
