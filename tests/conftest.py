"""Shared test fixtures: the official table, a scripted bot, and the command line."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable

import pytest
from typer.testing import CliRunner

from spyglass.resistance.bots.base import Bot

try:  # the dev extra's pytest-xdist; without it the suite runs in one process (-n0)
    from xdist.scheduler import LoadFileScheduling
except ImportError:  # pragma: no cover
    LoadFileScheduling = None

# The 2012 files' conversion cache (spyglass.resistance.compat.py2) goes to a throwaway
# folder in the tests, not to the user's ~/.cache (a test that needs its own sets the
# variable itself).
os.environ.setdefault("SPYGLASS_CACHE_DIR", tempfile.mkdtemp(prefix="spyglass-test-cache-"))

# The official table for 5-10 players, written out again from shared/seeds/README.md
# ("Facts not in the seeds that the rules need") so that the tests check the package's
# tables against the specification rather than against themselves.
OFFICIAL = {
    # players: (spies, team sizes per mission, fail cards needed per mission)
    5: (2, (2, 3, 2, 3, 3), (1, 1, 1, 1, 1)),
    6: (2, (2, 3, 4, 3, 4), (1, 1, 1, 1, 1)),
    7: (3, (2, 3, 3, 4, 4), (1, 1, 1, 2, 1)),
    8: (3, (3, 4, 4, 5, 5), (1, 1, 1, 2, 1)),
    9: (3, (3, 4, 4, 5, 5), (1, 1, 1, 2, 1)),
    10: (4, (3, 4, 4, 5, 5), (1, 1, 1, 2, 1)),
}
SIZES = tuple(OFFICIAL)


@pytest.fixture
def official() -> dict:
    """players -> (spies, team sizes, fails needed), from the seeds' README table."""
    return OFFICIAL


class ScriptBot(Bot):
    """A bot whose decisions are given as functions of the bot (or constants).

    ``select(bot, players, count)``, ``vote(bot, team)`` and ``sabotage(bot)``; by default
    it proposes ``count`` seats starting from its own, approves, and plays success.
    Every call is appended to ``calls`` as ``(name, args)``.
    """

    def __init__(self, select=None, vote=True, sabotage=False) -> None:
        super().__init__()
        self._select, self._vote, self._sabotage = select, vote, sabotage
        self.calls: list[tuple[str, tuple]] = []

    @staticmethod
    def _value(rule, *args):
        return rule(*args) if callable(rule) else rule

    def select(self, players, count):
        self.calls.append(("select", (players, count)))
        if self._select is None:
            n = len(players)
            return [(self.seat + i) % n for i in range(count)]
        return self._select(self, players, count)

    def vote(self, team):
        self.calls.append(("vote", (team,)))
        return self._value(self._vote, self, team)

    def sabotage(self):
        self.calls.append(("sabotage", ()))
        return self._value(self._sabotage, self)

    def on_game_revealed(self, players, spies):
        self.calls.append(("on_game_revealed", (players, spies)))

    def on_mission_attempt(self, mission, attempt, leader):
        self.calls.append(("on_mission_attempt", (mission, attempt, leader)))

    def on_team_selected(self, leader, team):
        self.calls.append(("on_team_selected", (leader, team)))

    def on_vote_complete(self, votes):
        self.calls.append(("on_vote_complete", (votes,)))

    def on_mission_complete(self, fails):
        self.calls.append(("on_mission_complete", (fails,)))

    def on_game_complete(self, resistance_won, spies):
        self.calls.append(("on_game_complete", (resistance_won, spies)))


@pytest.fixture
def script_bot() -> type[ScriptBot]:
    """The :class:`ScriptBot` class."""
    return ScriptBot


@pytest.fixture
def cli() -> Callable:
    """Run ``spyglass ARGS...`` in-process: ``cli("game", "--seed", "3", input=None)``."""
    from spyglass.cli import _load_commands
    from spyglass.cli.app import app

    _load_commands()
    runner = CliRunner(env={"COLUMNS": "200"})  # wide, so that lines do not wrap

    def run(*args: str, input: str | None = None):
        return runner.invoke(app, [str(a) for a in args], input=input, catch_exceptions=False)

    return run


#: Test files that compile a game's search loops cold (SO, POM, MO, UCT, MT and the ICARUS
#: loops: a minute or two each) test by test, a game named in each test's parameters: their
#: tests of one game form one work unit ``game:<name>`` under ``--dist loadfile``, so that one
#: worker compiles that game's loops once (numba's on-disk cache then serves them to any later
#: process) while the other worker compiles another game's, instead of both compiling the same
#: loops at once from different files. A test naming no game (in its parameters or its name)
#: goes to the game given here (None: the unit of its file).
PER_GAME = {"tests/test_icarus_every_game.py": "hearts",
            "tests/test_icarus_so_every_game.py": "phantom",
            "tests/test_search_identity_games.py": None, "tests/test_icarus.py": "othello",
            "tests/test_checkers_icarus.py": "checkers"}
#: Whole files that are long for their number of tests (a cold compile of every loop for a
#: generated game, a browser): handed out right after the game units, so that no long unit
#: is left for the end while the other worker has finished.
LONG_FILES = ("tests/test_bindings_toy.py", "tests/test_web_browser.py")


def _game_unit(nodeid: str, games: frozenset[str]) -> str | None:
    """``game:<name>`` for a test of :data:`PER_GAME`: the first game named in its parameter
    id, else in its name."""
    path, _, rest = nodeid.partition("::")
    if path not in PER_GAME:
        return None
    name, _, params = rest.partition("[")
    named = [w for w in [*params.rstrip("]").split("-"), *name.split("_")] if w in games]
    game = named[0] if named else PER_GAME[path]
    return f"game:{game}" if game else None


if LoadFileScheduling is not None:

    class _FileScheduling(LoadFileScheduling):
        """``--dist loadfile``, with the tests of :data:`PER_GAME` grouped by game, and the
        game units and :data:`LONG_FILES` handed out first (the longest work first)."""

        _games = frozenset()
        _ordered = False

        def _split_scope(self, nodeid: str) -> str:
            if not self._games:
                from spyglass.games import registry

                type(self)._games = frozenset(registry.names())
            return _game_unit(nodeid, self._games) or super()._split_scope(nodeid)

        def _assign_work_unit(self, node) -> None:
            if not self._ordered:  # the queue is complete at the first assignment
                self._ordered = True
                first = [s for s in self.workqueue if s.startswith("game:")]
                first += [s for s in LONG_FILES if s in self.workqueue]
                for scope in first[::-1]:
                    self.workqueue.move_to_end(scope, last=False)
            super()._assign_work_unit(node)

    @pytest.hookimpl(tryfirst=True)  # before xdist's own scheduler for loadfile
    def pytest_xdist_make_scheduler(config, log):
        if config.getvalue("dist") == "loadfile":
            return _FileScheduling(config, log)
        return None


@pytest.fixture(autouse=True)
def _one_ray_cluster_at_a_time(request, tmp_path_factory):
    """Ray tests start a local cluster sized to the whole machine: under pytest-xdist
    (``-n 2 --dist loadfile`` in pyproject's addopts; each file runs whole in one worker)
    two of them in different files would start two clusters at once, so they take an
    exclusive lock in the directory that the workers' temporary directories share."""
    if request.node.get_closest_marker("ray") is None:
        yield
        return
    import fcntl

    with open(tmp_path_factory.getbasetemp().parent / "spyglass-ray.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


@pytest.fixture(autouse=True)
def _played_games_dir(tmp_path_factory, monkeypatch):
    """Games a person plays in a test are kept in a temporary directory, not the home."""
    monkeypatch.setenv("SPYGLASS_DATA_DIR", str(tmp_path_factory.mktemp("spyglass-data")))
