"""The one tournament engine: every game, The Resistance included, runs through here.

A tournament is a schedule of games cut into chunks, played by a backend
(:mod:`spyglass.arena.backends`: this process, a local process pool, or Ray) and kept in a
results directory (:mod:`spyglass.arena.results_dir`: manifest, ``games.jsonl`` appended
as chunks finish, partial files of chunks in progress, ``results.json``, a CSV and a
plot). What differs between games is the *table* that the engine drives:

* The Resistance (:mod:`spyglass.arena.resistance_table`): the 2012 Bot API through its
  referee, the competition models of Taylor 2014, §4.4 and Cowling et al. 2015, §VII-A
  (:mod:`spyglass.arena.schedule`), one cross-game memory per chunk, bots isolated in
  worker processes, and the 2012 columns on top of every game's statistics; its chunks
  are played by :mod:`spyglass.arena.resistance_chunks`.
* Every other game (:mod:`spyglass.arena.game_table`): agents through the generic referee
  (:mod:`spyglass.arena.match`), seat rotation over shared deals
  (:mod:`spyglass.arena.rotation`), win rates with intervals per agent and seat; its
  chunks are played by :mod:`spyglass.arena.game_chunks`.

A table knows its schedule, makes the jobs of the chunks still to play, gives the
module-level function that plays a job in a worker, and absorbs a played chunk (writes
its records to ``games.jsonl`` and counts each game index once). The engine owns the run:
the backend, the progress bar, keeping ``games.jsonl`` on disk as chunks finish, folding
partial files, and stopping cleanly on Ctrl-C or an error, keeping every finished game so
that ``--resume`` plays only what is missing.
"""

from __future__ import annotations

import math
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
from spyglass.arena.resistance_table import (
    BOTS_CSV,
    MANIFEST_FORMAT,
    ResistanceTable,
    TournamentConfig,
    TournamentError,
    TournamentResults,
    check_new_out,
    extend_config,
    load_config,
    load_results,
    new_config,
    pool_labels,
    resolve_bots,
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
    "AGENTS_CSV", "BOTS_CSV", "DEFAULT_INTERVAL", "GAMES", "MANIFEST", "MANIFEST_FORMAT",
    "MANIFEST_KIND", "PLOT", "RESULTS", "BackendError", "GameTournamentError",
    "GameTournamentResults", "Table", "TournamentConfig", "TournamentError",
    "TournamentResults", "check_new_out", "load_config", "load_game_results", "load_results",
    "extend_config", "new_config", "play_chunks", "pool_labels", "resolve_bots",
    "run_game_tournament", "run_tournament",
]


class Table(Protocol):
    """What the engine needs from a game's tournament (see the module docstring)."""

    #: Plays one job in a worker; module-level, so that it pickles to any backend.
    play: Callable[[Any], Any]

    def done_count(self) -> int:
        """Games recorded so far."""

    def absorb(self, result: Any, fh: Any) -> int:
        """Write (to ``fh``, if any) and count the games of a played chunk that are not
        recorded yet; return how many."""

    def fold_partials(self) -> int:
        """Move games of partial chunk files into ``games.jsonl``; return how many."""


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


# --- The Resistance ---------------------------------------------------------------------------
def run_tournament(
    config: TournamentConfig,
    *,
    out: str | Path | None = None,
    resuming: bool = False,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: bool = True,
    repair: bool = False,
    until: int | None = None,
) -> TournamentResults:
    """Play (or continue) The Resistance's tournament ``config`` and write its results
    directory (see :mod:`spyglass.arena.resistance_table`).

    ``repair`` (resuming): drop bad lines of ``games.jsonl`` instead of stopping.
    ``until``: play only what the first ``until`` games lack (whole chunks), leaving the
    rest for a later resume."""
    table = ResistanceTable(config)
    if backend == "ray" and table.has_python_bots():
        raise TournamentError("bots given as Python instances or factories cannot travel to "
                              "Ray workers: give a class, a module path or a file")
    out_dir = Path(out) if out is not None else None
    with hold(out_dir, TournamentError):  # one run writes a directory at a time
        runner = make_backend(backend, workers, address)
        if not resuming:
            runner.start()  # everything is pending: fail (Ray missing, ...) before writing
        partial_dir = out_dir / PARTIAL if out_dir is not None and runner.name != "ray" else None
        try:
            table.prepare_out(out_dir, resuming, repair)
        except BaseException:
            runner.close(kill=True)
            raise
        schedule = table.schedule
        table.until = until
        pending = table.pending_chunks()
        notes = [schedule.describe()]
        if until is not None and until < len(schedule):
            notes.append(f"Playing the first {until} games only.")
        if table.done:
            notes.append(f"Resuming: {table.done_count()} of {table.planned} games already "
                         "played.")
        if pending:
            if partial_dir is not None:
                partial_dir.mkdir(exist_ok=True)
            runner.start()  # before the progress bar's thread starts: the pool may fork
        run = play_chunks(table, runner, table.jobs(pending, partial_dir), out_dir=out_dir,
                          partial_dir=partial_dir, total=table.planned, progress=progress,
                          description="games", notes=notes)
        message = run.message
        if run.interrupted and out_dir is not None:
            message += (f"; {len(table.done)} of {len(schedule)} games kept — continue with "
                        f"`spyglass tournament --resume {out_dir}`")
        results = table.results(out_dir, run.interrupted, run.seconds, run.played_now, message)
        if out_dir is not None:
            table.write_outputs(results)
            status = "complete" if results.complete else "interrupted"
            table.write_manifest(
                out_dir, status, games_done=len(table.done),
                last_run_seconds=round(run.seconds, 3),
                last_run_games_per_s=round(results.games_per_s, 1)
                if math.isfinite(results.games_per_s) else None,
                last_run_backend=runner.name, last_run_workers=runner.workers,
            )
        return results


# --- every other game -------------------------------------------------------------------------
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
    """Play a tournament of ``game`` (a registered name or a :class:`Game`) between the
    pool ``agents`` (specs, classes, instances or factories: see
    :mod:`spyglass.arena.agent_spec`) and return its results.

    ``out``: a results directory (see :mod:`spyglass.arena.game_table`); ``resume=True``
    continues the tournament stored there (``agents`` may then be omitted if they were
    given as names). Games ended by an error are kept in the records and left out of the
    rates. ``isolate``: ``none``, ``all`` or ``auto`` (agents from outside Spyglass) play
    in their own worker processes (:mod:`spyglass.arena.agent_isolation`). ``repair``
    (resuming): drop bad lines of ``games.jsonl`` instead of stopping.
    """
    if repair and not resume:
        raise GameTournamentError("repair is for continuing a tournament (with resume)")
    if chunk is not None and (type(chunk) is not int or chunk < 1):
        raise GameTournamentError(f"chunk must be a positive integer, not {chunk!r}")
    table = GameTable.setup(game, agents, games=games, seed=seed, players=players,
                            options=options, out=out, resume=resume, backend=backend,
                            workers=workers, time_limit=time_limit, interval=interval,
                            isolate=isolate)
    with hold(table.out, GameTournamentError):  # one run writes a directory at a time
        try:
            runner = make_backend(backend, workers, address)
        except BackendError as exc:
            raise GameTournamentError(str(exc)) from None
        if not resume:
            runner.start()  # everything is pending: fail (Ray missing, ...) before writing
        out_dir = table.out
        partial_dir = out_dir / PARTIAL if out_dir is not None and runner.name != "ray" else None
        try:
            table.prepare_out(repair)
        except BaseException:
            runner.close(kill=True)
            raise
        todo = table.todo()
        size = chunk or max(1, min(16, len(todo) // (4 * (workers or os.cpu_count() or 1)) or 1))
        if todo:
            if partial_dir is not None:
                partial_dir.mkdir(exist_ok=True)
            runner.start()  # before the progress bar's thread starts: the pool may fork
        run = play_chunks(table, runner, table.jobs(todo, size, partial_dir), out_dir=out_dir,
                          partial_dir=partial_dir, total=table.planned, progress=progress,
                          description=f"{table.game.name} tournament")
        message = run.message
        if run.interrupted:
            message += (f"; {table.done_count()} of {table.planned} games kept"
                        + (" — continue with --resume" if out_dir is not None else ""))
        results = table.results(run.interrupted, message, run.played_now, run.seconds)
        if out_dir is not None:
            table.write_outputs(results)
        return results
