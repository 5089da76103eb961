"""The one tournament engine: every game, The Resistance included, runs through here.

A tournament is a schedule of games cut into chunks, played by a backend
(:mod:`spyglass.arena.backends`: this process, a local process pool, or Ray) and kept in a
results directory (:mod:`spyglass.arena.results_dir`: manifest, ``games.jsonl`` appended
as chunks finish, partial files of chunks in progress, ``results.json``, a CSV and a
plot). What differs between games is the :class:`Table` that :func:`run_tournament`
drives:

* every game through the generic referee (:mod:`spyglass.arena.game_table`): agents
  (:mod:`spyglass.arena.match`), seat rotation over shared deals
  (:mod:`spyglass.arena.rotation`), win rates with intervals per agent and seat; its
  chunks are played by :mod:`spyglass.arena.game_chunks`;
* The Resistance's 2012 Bot API (:class:`spyglass.resistance.arena.table.ResistanceTable`, a
  layer above this one): its referee, competition models, one cross-game memory per
  chunk and the 2012 columns on top of every game's statistics.

A table knows its schedule, makes the jobs of the chunks still to play, gives the
module-level function that plays a job in a worker, and absorbs a played chunk (writes
its records to ``games.jsonl`` and counts each game index once). The engine owns the run:
the backend, the progress bar, keeping ``games.jsonl`` on disk as chunks finish, folding
partial files, and stopping cleanly on Ctrl-C or an error, keeping every finished game so
that ``--resume`` plays only what is missing. :func:`spyglass.tournament.run` builds the
table of any game and is the entry of the command line, notebooks and the web app.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from spyglass.arena.backends import BackendError, make_backend
from spyglass.arena.game_table import (
    AGENTS_CSV,
    DEFAULT_INTERVAL,
    MANIFEST_KIND,
    GameTable,
    GameTournamentError,
    GameTournamentResults,
    load_game_results,
)
from spyglass.arena.results_dir import (
    GAMES,
    MANIFEST,
    PARTIAL,
    PLOT,
    RESULTS,
    hold,
    progress_bar,
    remove_partials,
)
from spyglass.games.base import Game

__all__ = [
    "AGENTS_CSV", "DEFAULT_INTERVAL", "GAMES", "MANIFEST", "MANIFEST_KIND", "PLOT", "RESULTS",
    "BackendError", "GameTournamentError", "GameTournamentResults", "RunOutcome", "Table",
    "load_game_results", "play_chunks", "run_game_tournament", "run_tournament",
]


class Table(Protocol):
    """What the engine needs from a game's tournament (see the module docstring): one
    signature per method for every game."""

    #: Plays one job in a worker; module-level, so that it pickles to any backend.
    play: Callable[[Any], Any]
    #: The error of this game's tournaments (a bad argument, a directory in use, a backend
    #: that cannot start).
    error: type[Exception]
    #: The results directory (None: keep nothing on disk).
    out: Path | None
    #: Games this run is to have; the progress bar's label.
    planned: int
    description: str

    def check_backend(self, backend: str) -> None:
        """Raise :attr:`error` if this pool cannot be played on ``backend``."""

    def prepare_out(self, resuming: bool, repair: bool) -> None:
        """Write the manifest of a new run, or check a resumed one and read its games
        (``repair``: drop bad lines of ``games.jsonl`` instead of stopping)."""

    def pending(self) -> int:
        """How many chunks (or games) are still to play."""

    def notes(self) -> list[str]:
        """Lines printed above the progress bar."""

    def jobs(self, partial_dir: Path | None, workers: int | None) -> Iterable[Any]:
        """The jobs of what is still to play (partial files in ``partial_dir``)."""

    def done_count(self) -> int:
        """Games recorded so far."""

    def absorb(self, result: Any, fh: Any) -> int:
        """Write (to ``fh``, if any) and count the games of a played chunk that are not
        recorded yet; return how many."""

    def fold_partials(self) -> int:
        """Move games of partial chunk files into ``games.jsonl``; return how many."""

    def stopped(self, message: str) -> str:
        """``message`` (why a run stopped) with how to continue."""

    def results(self, run: RunOutcome) -> Any:
        """The results after ``run``."""

    def write_outputs(self, results: Any, run: RunOutcome, runner: Any) -> None:
        """Results files (and the manifest's account of ``run`` on ``runner``)."""


@dataclass
class RunOutcome:
    """How a run of the engine ended."""

    interrupted: bool
    message: str
    played_now: int
    seconds: float


def play_chunks(table: Table, runner: Any, jobs: Iterable[Any], *, out_dir: Path | None,
                partial_dir: Path | None, total: int, progress: bool, description: str,
                notes: Sequence[str] = ()) -> RunOutcome:
    """Play ``jobs`` on ``runner`` (a started backend) and keep every finished game.

    Each played chunk is absorbed by ``table`` into ``games.jsonl`` at once (synced to
    disk at least every second); its partial files are then removed. Ctrl-C or an error
    stops the run (an error with no results directory is raised): the backend is closed,
    games finished in chunks cut short are folded from their partial files, and the
    outcome says why it stopped."""
    bar = progress_bar(progress)
    if progress:
        for note in notes:
            bar.console.print(note)
    interrupted, message, played_now = False, "", 0
    t0 = time.perf_counter()
    fh = open(out_dir / GAMES, "a", encoding="utf-8") if out_dir else None  # noqa: SIM115
    last_sync = time.monotonic()
    try:
        with bar:
            task = bar.add_task(description, total=total, completed=table.done_count())
            for res in runner.imap_unordered(jobs, table.play):
                played_now += table.absorb(res, fh)
                if partial_dir is not None:  # its games are in games.jsonl now
                    remove_partials(partial_dir, res.chunk)
                if fh is not None and time.monotonic() - last_sync > 1.0:
                    os.fsync(fh.fileno())
                    last_sync = time.monotonic()
                bar.update(task, completed=table.done_count())
    except KeyboardInterrupt:
        interrupted, message = True, "interrupted (Ctrl-C)"
    except Exception as exc:
        if fh is None:
            raise
        interrupted, message = True, f"stopped by an error: {exc}"
    finally:
        runner.close(kill=interrupted)
        if fh is not None:
            fh.flush()
            os.fsync(fh.fileno())
            fh.close()
        if out_dir is not None:  # games finished in chunks cut short are kept too
            played_now += table.fold_partials()
    return RunOutcome(interrupted, message, played_now, time.perf_counter() - t0)


# --- the one entry point ------------------------------------------------------------------------
def run_tournament(table: Table, *, resuming: bool = False, backend: str = "local",
                   workers: int | None = None, address: str | None = None,
                   progress: bool = True, repair: bool = False) -> Any:
    """Play (or continue, ``resuming``) the tournament of ``table`` on ``backend`` and
    write its results directory; return its results.

    ``repair`` (resuming): drop bad lines of ``games.jsonl`` instead of stopping."""
    table.check_backend(backend)
    out_dir = table.out
    with hold(out_dir, table.error):  # one run writes a directory at a time
        try:
            runner = make_backend(backend, workers, address)
        except BackendError as exc:
            raise table.error(str(exc)) from None
        if not resuming:
            runner.start()  # everything is pending: fail (Ray missing, ...) before writing
        partial_dir = out_dir / PARTIAL if out_dir is not None and runner.name != "ray" else None
        try:
            table.prepare_out(resuming, repair)
        except BaseException:
            runner.close(kill=True)
            raise
        pending = table.pending()
        notes = table.notes()
        if pending:
            if partial_dir is not None:
                partial_dir.mkdir(exist_ok=True)
            runner.start()  # before the progress bar's thread starts: the pool may fork
        run = play_chunks(table, runner, table.jobs(partial_dir, workers), out_dir=out_dir,
                          partial_dir=partial_dir, total=table.planned, progress=progress,
                          description=table.description, notes=notes)
        if run.interrupted:
            run.message = table.stopped(run.message)
        results = table.results(run)
        if out_dir is not None:
            table.write_outputs(results, run, runner)
        return results


def run_game_tournament(
    game: str | Game,
    agents: Sequence[Any] = (),
    *,
    games: int = 100,
    seed: int | None = None,
    players: int | None = None,
    options: dict | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    time_limit: float | None = None,
    chunk: int | None = None,
    interval: str = DEFAULT_INTERVAL,
    progress: bool = False,
    isolate: str = "none",
    repair: bool = False,
) -> GameTournamentResults:
    """:func:`run_tournament` of a :class:`GameTable` of ``game`` (a registered name or a
    :class:`Game`) between the pool ``agents`` (specs, classes, instances or factories:
    see :mod:`spyglass.arena.agent_spec`).

    ``out``: a results directory (see :mod:`spyglass.arena.game_table`); ``resume=True``
    continues the tournament stored there (``agents`` may then be omitted if they were
    given as names). Games ended by an error are kept in the records and left out of the
    rates. ``isolate``: ``none``, ``all`` or ``auto`` (agents from outside Spyglass) play
    in their own worker processes (:mod:`spyglass.arena.agent_isolation`).
    """
    if repair and not resume:
        raise GameTournamentError("repair is for continuing a tournament (with resume)")
    if chunk is not None and (type(chunk) is not int or chunk < 1):
        raise GameTournamentError(f"chunk must be a positive integer, not {chunk!r}")
    table = GameTable.setup(game, agents, games=games, seed=seed, players=players,
                            options=options, out=out, resume=resume, backend=backend,
                            workers=workers, time_limit=time_limit, interval=interval,
                            isolate=isolate, chunk=chunk)
    return run_tournament(table, resuming=resume, backend=backend, workers=workers,
                          address=address, progress=progress, repair=repair)
