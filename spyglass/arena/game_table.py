"""The table of every game but The Resistance for the tournament engine
(:mod:`spyglass.arena.tournament`): a pool of agents, seat rotation, win rates with
intervals.

Seating is :mod:`spyglass.arena.rotation` (every group of agents plays every seat from
the same deals, which balances seats and hidden roles); statistics are
:mod:`spyglass.arena.game_stats` (reports: :mod:`spyglass.arena.report`); chunks are
played by :mod:`spyglass.arena.game_chunks`.

A results directory (:mod:`spyglass.arena.results_dir`) holds ``tournament.json`` (the
manifest: game, options, pool, seed, number of games), ``games.jsonl`` (one action-history
record per game, appended as chunks finish; each carries its game index),
``results.json``, ``agents.csv`` and ``winrates.png``. Resuming reads the manifest and the
records as The Resistance's table does (:func:`spyglass.arena.results_dir.scan_records`:
a torn last line from a crash is cut, an exact repeat is read once, a bad or conflicting
line stops the run unless ``repair``), folds the partial files of chunks cut short, and
plays only the missing games, which are the same games the first run would have played.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import pickle
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spyglass.arena.agent_spec import AgentSpec, AgentSpecError, parse_agent, resolve_agents
from spyglass.arena.game_chunks import GameChunk, GameChunkResult, play_chunk, record_line
from spyglass.arena.game_stats import (
    AgentResult,
    GameTally,
    agent_results,
    results_section,
    seat_results,
)
from spyglass.arena.history import FORMAT
from spyglass.arena.match import unique_labels
from spyglass.arena.results_dir import (
    AGENTS_CSV,
    GAMES,
    MANIFEST,
    PLOT,
    RESULTS,
    BadRecord,
    Found,
    fold_partials,
    no_nan,
    partial_records,
    partial_stem,
    read_records,
    scan_records,
    truncate_torn_tail,
    write_json,
)
from spyglass.arena.rotation import Seating, balanced_games, schedule
from spyglass.arena.stats import INTERVAL_METHODS, Rate
from spyglass.arena.watchdog import check_time_limit
from spyglass.games import registry
from spyglass.games.base import Game
from spyglass.rng import check_seed, fresh_seed

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
        return no_nan({
            "game": self.game.config(),
            "seed": self.seed,
            "planned": self.planned,
            "games": self.tally.games,
            "errors": self.tally.errors,
            "balanced": self.balanced,
            "interval": self.interval,
            "win_score": self.game.win_statistic,
            "omniscient_agents": self.omniscient,
            **results_section(self.tally, self.interval),
            "interrupted": self.interrupted,
            "message": self.message,
        })


def _make_game(game: str | Game, players: int | None, options: dict | None) -> Game:
    if isinstance(game, Game):
        if players is not None and players != game.n_players or options:
            raise GameTournamentError("give players/options with a game name, not a Game")
        return game
    try:
        return registry.make(game, players, **(options or {}))
    except (ValueError, TypeError) as exc:
        raise GameTournamentError(str(exc)) from None


def _check(labels: Sequence[str], rec: dict, t: dict, index: int) -> None:
    """Refuse (BadRecord) a record that is not a game of this pool."""
    lineup = t.get("lineup")
    if (not isinstance(lineup, list) or not all(x in labels for x in lineup)
            or not isinstance(rec, dict) or "rewards" not in rec):
        raise BadRecord(f"game {index} was played by agents {lineup!r}, not by this "
                        f"tournament's {list(labels)!r}")


def _scan(path: Path, labels: Sequence[str], planned: int) -> tuple[Found, dict]:
    """Every usable record of a records file by game index, and every bad line (see
    :func:`spyglass.arena.results_dir.scan_records`)."""
    return scan_records(path, key="index", total=planned,
                        check=functools.partial(_check, labels))


def _manifest(game: Game, labels, sources, seed, planned, time_limit, interval) -> dict:
    return {"kind": MANIFEST_KIND, "record_format": FORMAT, **game.config(), "seed": seed,
            "games": planned, "agents": list(labels), "sources": list(sources),
            "time_limit": time_limit, "interval": interval}


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
    from spyglass.arena.agent_isolation import isolate_specs

    try:
        return isolate_specs(specs, mode, time_limit)
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


class GameTable:
    """A tournament of any game for the engine: its pool, schedule, records and counts.

    Build it with :meth:`setup` (which validates every argument, or reads a stored
    tournament when resuming)."""

    play = staticmethod(play_chunk)
    error = GameTournamentError

    def __init__(self, game: Game, specs: list[AgentSpec], labels: list[str], seed: int,
                 planned: int, time_limit: float | None, interval: str, out: Path | None,
                 stored: dict | None, omniscient: list[str], chunk: int | None = None) -> None:
        self.game, self.specs, self.labels, self.chunk = game, specs, labels, chunk
        self.seed, self.planned, self.time_limit = seed, planned, time_limit
        self.interval, self.out, self.stored, self.omniscient = interval, out, stored, omniscient
        self.tally = GameTally(labels, game.n_players, scorer=game.win_scores)
        self.done: set[int] = set()

    @classmethod
    def setup(cls, game: str | Game, agents: Sequence[Any], *, games: int, seed: int | None,
              players: int | None, options: dict | None, out: str | Path | None,
              resume: bool, backend: str, workers: int | None, time_limit: float | None,
              interval: str, isolate: str, chunk: int | None = None) -> GameTable:
        """Validate a new tournament, or read the stored one to resume (see
        :func:`spyglass.arena.tournament.run_game_tournament`)."""
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
            try:
                seed = fresh_seed() if seed is None else check_seed(seed)
                time_limit = check_time_limit(time_limit)
            except (TypeError, ValueError) as exc:
                raise GameTournamentError(str(exc)) from None
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
        return cls(the_game, specs, labels, seed, planned, time_limit, interval, out_dir,
                   stored, omniscient, chunk)

    @property
    def description(self) -> str:
        return f"{self.game.name} tournament"

    def check_backend(self, backend: str) -> None:
        """Nothing to check here: :meth:`setup` checked that the pool pickles."""

    def prepare_out(self, resuming: bool, repair: bool) -> None:
        """Write the manifest of a new run, or read the games a resumed one recorded
        (``repair``: drop bad lines of ``games.jsonl`` instead of stopping); whether this
        run resumes was settled by :meth:`setup`."""
        out_dir = self.out
        if out_dir is None:
            return
        out_dir.mkdir(parents=True, exist_ok=True)
        games_path = out_dir / GAMES
        if self.stored is None:
            if (out_dir / MANIFEST).exists():
                raise GameTournamentError(
                    f"{str(out_dir)!r} already holds a tournament: resume it or choose "
                    "another directory")
            sources = [s.source for s in self.specs]
            write_json(out_dir / MANIFEST, _manifest(self.game, self.labels, sources,
                                                     self.seed, self.planned,
                                                     self.time_limit, self.interval))
            games_path.write_text("", encoding="utf-8")
            return
        truncate_torn_tail(games_path)
        found = read_records(games_path, self._scan, repair, GameTournamentError)
        for index, (_, _, rec, _) in sorted(found.items()):
            self.tally.add_record(rec)
            self.done.add(index)
        self.fold_partials()  # games of a killed run's chunks

    def _scan(self, path: Path) -> tuple[Found, dict]:
        return _scan(path, self.labels, self.planned)

    def todo(self) -> list[Seating]:
        """The games not recorded yet, in schedule order."""
        return [s for s in schedule(self.planned, len(self.labels), self.game.n_players,
                                    self.seed) if s.index not in self.done]

    def pending(self) -> int:
        return len(self.todo())

    def notes(self) -> list[str]:
        return []

    def jobs(self, partial_dir: Path | None, workers: int | None) -> Iterator[GameChunk]:
        """Chunks of ``chunk`` games (default: enough for four per worker, at most 16)."""
        todo = self.todo()
        size = self.chunk or max(1, min(16, len(todo) // (4 * (workers or os.cpu_count() or 1))
                                         or 1))
        options = tuple(sorted(self.game.settings.items()))
        for c, i in enumerate(range(0, len(todo), size)):
            partial = str(partial_stem(partial_dir, c)) if partial_dir is not None else None
            yield GameChunk(c, type(self.game), self.game.n_players, options,
                            tuple(self.specs), tuple(self.labels), tuple(todo[i:i + size]),
                            self.time_limit, partial)

    def done_count(self) -> int:
        return len(self.done)

    def absorb(self, result: GameChunkResult, fh) -> int:
        records = [r for r in result.records if r["tournament"]["index"] not in self.done]
        if fh is not None and records:
            fh.writelines(record_line(r) + "\n" for r in records)
            fh.flush()
        for r in records:
            self.tally.add_record(r)
            self.done.add(r["tournament"]["index"])
        return len(records)

    def fold_partials(self) -> int:
        if self.out is None:
            return 0
        return fold_partials(self.out, self._scan, self.done,
                             lambda rec, _: self.tally.add_record(rec))

    def stopped(self, message: str) -> str:
        return (message + f"; {self.done_count()} of {self.planned} games kept"
                + (" — continue with --resume" if self.out is not None else ""))

    def results(self, run: Any) -> GameTournamentResults:
        return GameTournamentResults(self.game, self.labels, self.seed, self.planned,
                                     self.tally, self.interval, self.out, run.interrupted,
                                     run.message, run.played_now, run.seconds, self.omniscient)

    def write_outputs(self, results: GameTournamentResults, run: Any, runner: Any) -> None:
        write_outputs(results)


def write_outputs(results: GameTournamentResults) -> None:
    """``results.json``, ``agents.csv`` and ``winrates.png`` in the results directory."""
    from spyglass.arena.report import game_plot_title, plot_winrates, write_agents_csv

    out = results.out
    write_json(out / RESULTS, results.to_dict())
    write_agents_csv(results.agents, results.game.n_players, out / AGENTS_CSV)
    if results.tally.games:
        plot_winrates(results.agents, out / PLOT, game_plot_title(results))


def load_game_results(out: str | Path) -> GameTournamentResults:
    """A finished or partial tournament of any game stored in ``out``, with statistics
    recomputed from its records (and a killed run's partial files; nothing is written)."""
    out_dir = Path(out)
    try:
        stored = json.loads((out_dir / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise GameTournamentError(f"{str(out_dir)!r} holds no tournament ({exc})") from None
    if not isinstance(stored, dict) or stored.get("kind") != MANIFEST_KIND:
        raise GameTournamentError(f"{str(out_dir)!r} does not hold a game tournament")
    game = _make_game(stored["game"], stored["players"], stored["options"])
    labels, planned = list(stored["agents"]), stored["games"]
    tally = GameTally(labels, game.n_players, scorer=game.win_scores)

    def scan(path: Path) -> tuple[Found, dict]:
        return _scan(path, labels, planned)

    found = read_records(out_dir / GAMES, scan, False, GameTournamentError)
    found.update(partial_records(out_dir, scan, set(found)))
    for _index, (_, _, rec, _) in sorted(found.items()):
        tally.add_record(rec)
    omniscient: list[str] = []
    with contextlib.suppress(OSError, ValueError, AttributeError):
        omniscient = list(json.loads((out_dir / RESULTS).read_text(encoding="utf-8"))
                          .get("omniscient_agents") or [])
    return GameTournamentResults(game, labels, stored["seed"], planned, tally,
                                 stored.get("interval", DEFAULT_INTERVAL), out_dir,
                                 omniscient=omniscient)
