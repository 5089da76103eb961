"""2012 bot files through Spyglass: games per CPU-second in this process (``--isolate
none``) and isolated (the default for files: each bot in a worker process of its own).

The bots are a small 2012-framework file written here (``from player import Bot``,
module-level ``random``, 1-based ``index`` arithmetic avoided), so the figure times
Spyglass's compat path (the adapter, Python 2 semantics, the private ``random``
streams, the worker round trips), not a particular bot. The private-stream change of
issue 27 is measured side by side in the same run: ``compat_games_per_cpu_s_copying``
forces the older state-copying path (:mod:`spyglass.resistance.compat.legacy_random`).
The comparison with the original 2012 framework is in docs/search-speed.md; with
``SPYGLASS_2012_FRAMEWORK`` set to a checkout of it (see
:data:`spyglass.bench.tournament_speed.FRAMEWORK_VARIABLE`), this benchmark also plays
that checkout's Vienna entries (the original files) through compat, in-process and
isolated, interleaved with its own ``competition.py`` on the same line-up, in the same run
(issue 27's targets: 1.0x in-process, 0.5x isolated, per CPU-second).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from spyglass.bench import benchmark

# Five simple 2012-style bots of different habits (Spyglass's own text, not 2012 code).
BOTS_2012 = '''
import random
from player import Bot


class Doubter(Bot):
    def onGameRevealed(self, players, spies):
        self.spies = spies
        self.doubt = dict((p, 0.0) for p in players)

    def select(self, players, count):
        others = sorted(self.others(), key=lambda p: (self.doubt[p], random.random()))
        return [self] + others[:count - 1]

    def vote(self, team):
        if self.spy:
            return len([p for p in team if p in self.spies]) > 0
        return self.game.tries == 5 or max(self.doubt[p] for p in team) < 0.5

    def onMissionComplete(self, sabotaged):
        for p in self.game.team:
            self.doubt[p] += float(sabotaged) / len(self.game.team)

    def sabotage(self):
        return True


class Coin(Bot):
    def select(self, players, count):
        return [self] + random.sample(self.others(), count - 1)

    def vote(self, team):
        return random.random() < 0.7

    def sabotage(self):
        return random.choice([True, True, False])


class Follower(Doubter):
    def vote(self, team):
        return self.game.leader in team or self.game.tries >= 4


class Counter(Bot):
    def onGameRevealed(self, players, spies):
        self.seen = {}

    def onVoteComplete(self, votes):
        for p, v in zip(self.game.players, votes):
            self.seen[p.name] = self.seen.get(p.name, 0) + int(v)

    def select(self, players, count):
        ranked = sorted(self.others(), key=lambda p: self.seen.get(p.name, 0))
        return [self] + ranked[:count - 1]

    def vote(self, team):
        return self in team or self.game.tries == 5

    def sabotage(self):
        return self.game.losses < 2 or random.random() < 0.9


class Shuffler(Coin):
    def select(self, players, count):
        pool = list(players)
        random.shuffle(pool)
        return pool[:count]
'''

CLASSES = ("Doubter", "Coin", "Follower", "Counter", "Shuffler")


def _specs(folder: Path) -> list[str]:
    path = folder / "bench_bots_2012.py"
    path.write_text(BOTS_2012)
    return [f"{path}:{name}" for name in CLASSES]


@contextlib.contextmanager
def _copying_path() -> Iterator[None]:
    """The state-copying random path, as before issue 27, for the side-by-side figure."""
    from spyglass.resistance.compat import legacy_random

    fast = legacy_random._global_generator_bound_elsewhere
    legacy_random._global_generator_bound_elsewhere = lambda: True
    try:
        yield
    finally:
        legacy_random._global_generator_bound_elsewhere = fast


def _cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def compat_rate(specs: list[str], games: int, isolate: str, folder: Path, tag: str) -> float:
    """Games per CPU-second (this process and its workers) of one 5-player tournament."""
    from spyglass import tournament

    c0 = _cpu()
    res = tournament.run(specs, games=games, seed=0, out=folder / tag, workers=1,
                         isolate=isolate, progress=False)
    spent = _cpu() - c0
    assert res.complete and res.games == games
    return games / spent


def vienna_files(checkout: str) -> list[str]:
    """The Vienna line-up as the 2012 checkout's own files (``bots/1/<module>.py:Class``)."""
    from spyglass.bench.tournament_speed import VIENNA_2012

    folder = Path(checkout) / "bots" / "1"
    return [f"{folder / (spec.split('.')[0] + '.py')}:{spec.split('.')[1]}"
            for spec in VIENNA_2012]


def vienna_side_by_side(checkout: str, python2: str, games: int, folder: Path,
                        rounds: int = 2) -> dict[str, float]:
    """The checkout's ``competition.py`` and its Vienna files through compat (in-process,
    and isolated on a third of the games), interleaved, ``rounds`` times; the best round
    of each, per CPU-second, and compat's ratios to the framework."""
    from spyglass.bench.tournament_speed import framework_2012_run

    framework_2012_run(10, checkout, python2)  # checks the checkout first (a clear error)
    specs = vienna_files(checkout)
    compat_rate(specs, 10, "none", folder, "vienna-warm")
    best: dict[str, float] = {}
    for round_ in range(rounds):
        _, fw_cpu = framework_2012_run(games, checkout, python2)
        rates = {"framework": games / max(fw_cpu, 1e-9),
                 "inprocess": compat_rate(specs, games, "none", folder, f"vienna-in{round_}"),
                 "isolated": compat_rate(specs, games // 3, "auto", folder,
                                         f"vienna-iso{round_}")}
        for key, rate in rates.items():
            best[key] = max(best.get(key, 0.0), rate)
    return {
        "compat_vienna_framework_games_per_cpu_s": best["framework"],
        "compat_vienna_games_per_cpu_s_inprocess": best["inprocess"],
        "compat_vienna_games_per_cpu_s_isolated": best["isolated"],
        "compat_vienna_inprocess_vs_2012_framework": best["inprocess"] / best["framework"],
        "compat_vienna_isolated_vs_2012_framework": best["isolated"] / best["framework"],
    }


@benchmark("compat")
def compat_speed(quick: bool) -> dict[str, float]:
    """2012 bot files: in-process and isolated games per CPU-second (and the older
    state-copying random path beside the in-process figure)."""
    games = 60 if quick else 600
    with tempfile.TemporaryDirectory(prefix="spyglass-bench-") as tmp:
        folder = Path(tmp)
        specs = _specs(folder)
        compat_rate(specs, 20, "none", folder, "warm")  # imports, conversion of the file
        out = {}
        for round_ in range(2):  # interleaved: fast, copying, fast, copying
            fast = compat_rate(specs, games, "none", folder, f"fast{round_}")
            with _copying_path():
                copying = compat_rate(specs, games, "none", folder, f"copy{round_}")
            out.setdefault("fast", []).append(fast)
            out.setdefault("copying", []).append(copying)
        t0 = time.perf_counter()
        isolated = compat_rate(specs, games // 3, "auto", folder, "isolated")
        isolated_wall = (games // 3) / (time.perf_counter() - t0)
        result = {
            "compat_games_per_cpu_s_inprocess": max(out["fast"]),
            "compat_games_per_cpu_s_copying": max(out["copying"]),
            "compat_games_per_cpu_s_isolated": isolated,
            "compat_games_per_s_isolated_wall": isolated_wall,
        }
        from spyglass.bench.tournament_speed import FRAMEWORK_VARIABLE, PYTHON2_VARIABLE

        checkout = os.environ.get(FRAMEWORK_VARIABLE)
        if checkout:
            python2 = os.environ.get(PYTHON2_VARIABLE) or "python2"
            result.update(vienna_side_by_side(checkout, python2, 300 if quick else 1200,
                                              folder))
    return result
