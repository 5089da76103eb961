"""Tournaments of any game: a pool of agents, seat rotation, win rates with intervals,
resumable results directories, local processes or Ray.

Seating is :mod:`spyglass.arena.rotation` (every group of agents plays every seat from
the same deals, which balances seats and hidden roles); statistics are
:mod:`spyglass.arena.game_stats`; the workers are :mod:`spyglass.arena.game_workers`.

A results directory holds ``tournament.json`` (the manifest: game, options, pool, seed,
number of games), ``games.jsonl`` (one action-history record per game, appended as chunks
finish; each carries its game index), ``results.json``, ``agents.csv`` and
``winrates.png``. Resuming reads the manifest and the records, counts each game index
once (a torn last line from a crash is cut; a duplicate index is ignored), and plays only
the missing games, which are the same games the first run would have played.
"""

from __future__ import annotations

import json
import math
import os
import pickle
import secrets
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spyglass.arena.agent_spec import AgentSpec, AgentSpecError, parse_agent, resolve_agents
from spyglass.arena.game_stats import (
    AgentResult,
    GameTally,
    agent_results,
    head_to_head,
    seat_results,
)
from spyglass.arena.game_workers import GameChunk, run_chunks
from spyglass.arena.history import FORMAT
from spyglass.arena.match import unique_labels
from spyglass.arena.records import iter_records
from spyglass.arena.rotation import balanced_games, schedule
from spyglass.arena.stats import INTERVAL_METHODS, Rate
from spyglass.games import registry
from spyglass.games.base import Game

MANIFEST = "tournament.json"
GAMES = "games.jsonl"
RESULTS = "results.json"
AGENTS_CSV = "agents.csv"
PLOT = "winrates.png"
MANIFEST_KIND = "spyglass-game-tournament"
DEFAULT_INTERVAL = "wilson"


class GameTournamentError(ValueError):
    """A tournament that cannot be set up or resumed (names the problem)."""


@dataclass
class GameTournamentResults:
    """Everything a tournament produced so far."""

    game: Game
    labels: list[str]
    seed: int
    planned: int
    tally: GameTally
    interval: str = DEFAULT_INTERVAL
    out: Path | None = None
    interrupted: bool = False
    message: str = ""
    played_now: int = 0
    seconds: float = 0.0
    omniscient: list[str] = field(default_factory=list)

    @property
    def agents(self) -> list[AgentResult]:
        return agent_results(self.tally, self.interval)

    @property
    def seats(self) -> list[Rate]:
        return seat_results(self.tally)

    @property
    def balanced(self) -> bool:
        return self.planned % balanced_games(len(self.labels), self.game.n_players) == 0

    def to_dict(self) -> dict:
        """Plain data for ``results.json`` (NaN as null)."""
        h2h = head_to_head(self.tally, self.interval)
        return _no_nan({
            "game": self.game.config(),
            "seed": self.seed,
            "planned": self.planned,
            "games": self.tally.games,
            "errors": self.tally.errors,
            "balanced": self.balanced,
            "interval": self.interval,
            "win_score": self.game.win_statistic,
            "omniscient_agents": self.omniscient,
            "agents": [a.to_dict() for a in self.agents],
            "seats": [s.to_dict() for s in self.seats],
            "head_to_head": {a: {b: r.to_dict() for b, r in row.items()}
                             for a, row in h2h.items()},
            "interrupted": self.interrupted,
            "message": self.message,
        })


def _no_nan(x: Any) -> Any:
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _no_nan(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_no_nan(v) for v in x]
    return x


def _make_game(game: str | Game, players: int | None, options: dict | None) -> Game:
    if isinstance(game, Game):
        if players is not None and players != game.n_players or options:
            raise GameTournamentError("give players/options with a game name, not a Game")
        return game
    try:
        return registry.make(game, players, **(options or {}))
    except (ValueError, TypeError) as exc:
        raise GameTournamentError(str(exc)) from None


def _truncate_torn_tail(path: Path) -> None:
    """Cut a half-written last line (a crash mid-write) so that appends start clean."""
    if not path.exists() or path.stat().st_size == 0:
        return
    data = path.read_bytes()
    if data.endswith(b"\n"):
        return
    cut = data.rfind(b"\n")
    with open(path, "rb+") as fh:
        fh.truncate(cut + 1 if cut >= 0 else 0)


def _read_done(path: Path, planned: int) -> dict[int, dict]:
    """Finished games by index (the first record of an index counts; others are ignored)."""
    done: dict[int, dict] = {}
    if not path.exists():
        return done
    for rec in iter_records(path):
        index = rec.get("tournament", {}).get("index") if isinstance(rec, dict) else None
        if type(index) is int and 0 <= index < planned and index not in done:
            done[index] = rec
    return done


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _manifest(game: Game, labels, sources, seed, planned, time_limit, interval) -> dict:
    return {"kind": MANIFEST_KIND, "record_format": FORMAT, **game.config(), "seed": seed,
            "games": planned, "agents": list(labels), "sources": list(sources),
            "time_limit": time_limit, "interval": interval}


def _chunks(game, specs, labels, todo, size, time_limit) -> Iterator[GameChunk]:
    options = tuple(sorted(game.settings.items()))
    for i in range(0, len(todo), size):
        yield GameChunk(type(game), game.n_players, options, tuple(specs), tuple(labels),
                        tuple(todo[i:i + size]), time_limit)


def _progress(enabled: bool):
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    return Progress(TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
                    TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
                    console=Console(stderr=True), disable=not enabled)


def _pool(agents: Sequence[Any], stored: dict | None) -> tuple[list[AgentSpec], list[str]]:
    if stored is not None and not agents:
        sources = stored.get("sources") or []
        if any(s is None for s in sources) or not sources:
            raise GameTournamentError(
                "this tournament's agents were Python objects: pass the same agents again "
                "to resume it")
        try:
            specs = [parse_agent(s) for s in sources]
        except AgentSpecError as exc:
            raise GameTournamentError(f"cannot rebuild the stored agents: {exc}") from None
        return specs, list(stored["agents"])
    if not agents:
        raise GameTournamentError("name at least one agent")
    try:
        specs = resolve_agents(agents)
        for s in specs:
            s.make()  # fail before any game, with a clear message
    except (AgentSpecError, ValueError, TypeError) as exc:
        raise GameTournamentError(f"cannot build an agent: {exc}") from None
    return specs, list(unique_labels([s.label for s in specs]))


def _isolate(specs: list[AgentSpec], mode: str, time_limit: float | None) -> list[AgentSpec]:
    from spyglass.arena.agent_isolation import isolated, needs_isolation
    from spyglass.arena.sandbox import DEFAULT_TIME_LIMIT
    from spyglass.arena.watchdog import hard_stop_after

    # The worker is killed where the in-process watchdog would stop a decision.
    timeout = DEFAULT_TIME_LIMIT if time_limit is None else hard_stop_after(time_limit)
    try:
        return [isolated(s, timeout) if needs_isolation(s, mode) else s for s in specs]
    except (AgentSpecError, ValueError) as exc:
        raise GameTournamentError(str(exc)) from None


def _check_picklable(specs: Sequence[AgentSpec], game: Game) -> None:
    """Worker processes receive agents and the game class pickled: say clearly which one
    cannot be (a lambda, a class defined inside a function) rather than fail mid-run."""
    for s in specs:
        try:
            pickle.dumps(s)
        except Exception as exc:  # noqa: BLE001 — pickling fails with many exception types
            raise GameTournamentError(
                f"agent {s.label!r} cannot be sent to worker processes ({exc}); define it "
                "at module level, or play in this process (workers=1)") from None
    try:
        pickle.dumps(type(game))
    except Exception as exc:  # noqa: BLE001
        raise GameTournamentError(
            f"the game class {type(game).__name__} cannot be sent to worker processes "
            f"({exc}); play in this process (workers=1)") from None


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
) -> GameTournamentResults:
    """Play a tournament of ``game`` (a registered name or a :class:`Game`) between the
    pool ``agents`` (specs, classes, instances or factories: see
    :mod:`spyglass.arena.agent_spec`) and return its results.

    ``out``: a results directory (see the module docstring); ``resume=True`` continues the
    tournament stored there (``agents`` may then be omitted if they were given as names).
    Games ended by an error are kept in the records and left out of the rates.
    ``isolate``: ``none``, ``all`` or ``auto`` (agents from outside Spyglass) play in
    their own worker processes (:mod:`spyglass.arena.agent_isolation`).
    """
    if interval not in INTERVAL_METHODS:
        raise GameTournamentError(
            f"unknown interval {interval!r}; choose one of {', '.join(INTERVAL_METHODS)}")
    out_dir = Path(out) if out is not None else None
    stored = None
    if resume:
        if out_dir is None or not (out_dir / MANIFEST).is_file():
            raise GameTournamentError(f"no tournament to resume in {str(out_dir)!r}")
        stored = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
        if stored.get("kind") != MANIFEST_KIND:
            raise GameTournamentError(f"{str(out_dir)!r} does not hold a game tournament")
        the_game = _make_game(stored["game"], stored["players"], stored["options"])
        if isinstance(game, str) and game.strip().lower() != the_game.name:
            raise GameTournamentError(
                f"{str(out_dir)!r} holds a tournament of {the_game.name}, not {game}")
        seed, planned = stored["seed"], stored["games"]
        time_limit, interval = stored.get("time_limit"), stored.get("interval", interval)
    else:
        the_game = _make_game(game, players, options)
        if type(games) is not int or games < 1:
            raise GameTournamentError(f"games must be a positive integer, not {games!r}")
        planned = games
        if seed is None:
            seed = secrets.randbelow(2**63)
        if time_limit is not None and not time_limit > 0:
            raise GameTournamentError(f"time_limit must be positive, not {time_limit!r}")
    specs, labels = _pool(agents, stored)
    if stored is not None and labels != stored["agents"]:
        raise GameTournamentError(
            f"the agents given ({', '.join(labels)}) differ from the stored pool "
            f"({', '.join(stored['agents'])})")
    omniscient = [s.label for s in specs if getattr(type(s.make()), "omniscient", False)]
    if isolate != "none":
        specs = _isolate(specs, isolate, time_limit)
    if backend == "ray" or (workers or os.cpu_count() or 1) > 1:
        _check_picklable(specs, the_game)
    tally = GameTally(labels, the_game.n_players, scorer=the_game.win_scores)
    done: dict[int, dict] = {}
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        games_path = out_dir / GAMES
        if stored is None:
            if (out_dir / MANIFEST).exists():
                raise GameTournamentError(
                    f"{str(out_dir)!r} already holds a tournament: resume it or choose "
                    "another directory")
            sources = [s.source for s in specs]
            _write_json(out_dir / MANIFEST, _manifest(the_game, labels, sources, seed, planned,
                                                      time_limit, interval))
            games_path.write_text("", encoding="utf-8")
        else:
            _truncate_torn_tail(games_path)
            done = _read_done(games_path, planned)
    for rec in done.values():
        tally.add_record(rec)
    todo = [s for s in schedule(planned, len(labels), the_game.n_players, seed)
            if s.index not in done]
    results = GameTournamentResults(the_game, labels, seed, planned, tally, interval, out_dir,
                                    omniscient=omniscient)
    size = chunk or max(1, min(16, len(todo) // (4 * (workers or os.cpu_count() or 1)) or 1))
    t0 = time.perf_counter()
    fh = open(out_dir / GAMES, "a", encoding="utf-8") if out_dir is not None else None
    try:
        with _progress(progress) as bar:
            task = bar.add_task(f"{the_game.name} tournament", total=planned,
                                completed=len(done))
            for records in run_chunks(_chunks(the_game, specs, labels, todo, size, time_limit),
                                      backend, workers, address):
                if fh is not None:
                    fh.writelines(json.dumps(r, separators=(",", ":")) + "\n" for r in records)
                    fh.flush()
                for r in records:
                    tally.add_record(r)
                results.played_now += len(records)
                bar.update(task, advance=len(records))
    except KeyboardInterrupt:
        results.interrupted = True
        results.message = "stopped by Ctrl-C; continue with --resume"
    finally:
        if fh is not None:
            fh.close()
        results.seconds = time.perf_counter() - t0
    if out_dir is not None:
        write_outputs(results)
    return results


def write_outputs(results: GameTournamentResults) -> None:
    """``results.json``, ``agents.csv`` and ``winrates.png`` in the results directory."""
    from spyglass.arena.game_report import plot_winrates, write_agents_csv

    out = results.out
    _write_json(out / RESULTS, results.to_dict())
    write_agents_csv(results, out / AGENTS_CSV)
    if results.tally.games:
        plot_winrates(results, out / PLOT)
