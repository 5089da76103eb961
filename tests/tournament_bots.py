"""Bots for the tournament tests, importable by worker processes as ``tournament_bots.X``.

Each plays like the random bot apart from the one behaviour a test needs.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from pathlib import Path

from spyglass.resistance.bots.base import Bot


class Flaky(Bot):
    """Raises in ``vote`` with probability ``p`` (drawn from its seeded rng)."""

    bot_name = "flaky"

    def __init__(self, *, p: float = 0.1) -> None:
        super().__init__()
        self.p = p

    def vote(self, team):
        if self.rng.random() < self.p:
            raise RuntimeError("flaky bot failed on purpose")
        return self.rng.random() < 0.5


class Learner(Bot):
    """Counts the games its memory has seen and records what it knows in ``extra``."""

    bot_name = "learner"

    def on_game_revealed(self, players, spies):
        self.memory["games"] = self.memory.get("games", 0) + 1
        seen = self.memory.setdefault("names", [])
        for name in self.game.names:
            if name not in seen:
                seen.append(name)

    def suspicion(self):
        return {p: 0.5 for p in self.others()}

    def record_extra(self):
        return {"games": self.memory.get("games", 0), "name": self.name,
                "names_seen": len(self.memory.get("names", []))}


class Slow(Bot):
    """Sleeps ``ms`` milliseconds at the end of every game (slows a run, not its results)."""

    bot_name = "slow"

    def __init__(self, *, ms: float = 1.0) -> None:
        super().__init__()
        self.ms = ms

    def on_game_complete(self, resistance_won, spies):
        time.sleep(self.ms / 1000)


class Sleepy(Bot):
    """Takes ``ms`` milliseconds over every team selection (to break a time limit)."""

    bot_name = "sleepy"

    def __init__(self, *, ms: float = 20.0) -> None:
        super().__init__()
        self.ms = ms

    def select(self, players, count):
        time.sleep(self.ms / 1000)
        return self.rng.sample(list(players), count)


class Hangs(Bot):
    """Never answers a team selection: only the referee's watchdog can get the game back."""

    bot_name = "hangs"

    def select(self, players, count):
        time.sleep(3600)


_KILLER_GAMES: dict[str, int] = {}


class Killer(Bot):
    """Once per ``marker`` file: SIGKILLs the worker process it runs in (never the parent),
    once its seats have played more than ``after`` games in that process; with ``always``,
    in every worker process, every time (a pool that cannot make progress)."""

    bot_name = "killer"

    def __init__(self, *, marker: str = "", after: int = 0, always: bool = False) -> None:
        super().__init__()
        self.marker, self.after, self.always = marker, after, always

    def on_game_revealed(self, players, spies):
        _KILLER_GAMES[self.marker] = _KILLER_GAMES.get(self.marker, 0) + 1

    def on_mission_complete(self, fails):
        if multiprocessing.parent_process() is None or not self.marker:
            return
        if _KILLER_GAMES.get(self.marker, 0) <= self.after:
            return
        if self.always:  # every worker it plays in, every time
            os.kill(os.getpid(), signal.SIGKILL)
        try:
            fd = os.open(self.marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            return
        os.close(fd)
        os.kill(os.getpid(), signal.SIGKILL)


_GAMES_SEEN: dict[str, int] = {}


class Interrupter(Bot):
    """Once per ``marker`` file, after ``after`` games in this process: sends this process
    a real SIGINT mid-game, as Ctrl-C would (a bot merely *raising* KeyboardInterrupt is a
    bot error, not the user's Ctrl-C)."""

    bot_name = "interrupter"

    def __init__(self, *, marker: str = "", after: int = 0, always: bool = False) -> None:
        super().__init__()
        self.marker, self.after, self.always = marker, after, always

    def on_game_complete(self, resistance_won, spies):
        if not self.marker:
            return
        _GAMES_SEEN[self.marker] = n = _GAMES_SEEN.get(self.marker, 0) + 1
        path = Path(self.marker)
        if n > self.after and not path.exists():
            path.write_text("interrupted")
            os.kill(os.getpid(), signal.SIGINT)
