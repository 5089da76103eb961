"""The Resistance's table for the tournament engine (:mod:`spyglass.arena.tournament`):
configuration, competition models, records and resume; statistics through every game's
tally plus the 2012 columns (:mod:`spyglass.resistance.arena.stats`).

The results directory (:mod:`spyglass.arena.results_dir`) holds ``tournament.json`` (the
manifest: configuration, schedule hash, version, status), ``games.jsonl`` (one game
record per line, appended chunk by chunk as chunks finish), and at the end
``results.json``, ``bots.csv``, ``agents.csv`` and ``winrates.png``. Every record carries
its game index, so a resumed run plays only the games that are missing and never counts
a game twice.

Games are kept as they finish, whatever the chunk size: a worker on this machine
appends each finished game to ``partial/chunk-<c>.<attempt>.jsonl`` (one file per attempt
at the chunk, see :mod:`spyglass.resistance.arena.chunks`), removed once its chunk is in
``games.jsonl``. When a run stops (Ctrl-C, an error) or is resumed after a kill, the games
of partial files that ``games.jsonl`` lacks are moved into it and counted. A chunk that
was cut short is then played again *from its start*, because its games share one
cross-game memory: replaying the recorded games rebuilds that memory exactly (games
depend only on the schedule), and the replayed copies of recorded games are dropped by
index, so the run ends with the same records as an uninterrupted one and counts each game
once. (Ray workers may run on other machines, so Ray runs keep whole chunks only.)
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import spyglass
from spyglass.arena.game_stats import AgentResult, agent_results, results_section, seat_results
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
from spyglass.arena.sandbox import check_isolation, isolates
from spyglass.arena.stats import INTERVAL_2012, INTERVAL_METHODS, Rate, rate_interval
from spyglass.arena.watchdog import check_time_limit
from spyglass.games.resistance.options import Rules
from spyglass.resistance.arena.chunks import ChunkJob, ChunkResult, play_chunk
from spyglass.resistance.arena.counts import game_ok, seat_counts
from spyglass.resistance.arena.entrants import pool_spec, spec_trusted
from spyglass.resistance.arena.referee import as_rules
from spyglass.resistance.arena.schedule import DEFAULT_CHUNK, MAX_GAMES, Schedule, build_schedule
from spyglass.resistance.arena.spec import BotSpec, BotSpecError
from spyglass.resistance.arena.stats import (
    EXCLUSION_NOTE,
    BotStats,
    ResistanceTally,
    bot_stats,
    spy_team_rate,
)
from spyglass.resistance.bots.base import Bot
from spyglass.rng import check_seed, fresh_seed

BOTS_CSV = "bots.csv"
#: The manifest's ``kind`` (every tournament's manifest states its kind; manifests written
#: before it was added have none and are read as The Resistance's).
MANIFEST_KIND = "spyglass-resistance-tournament"
MANIFEST_FORMAT = 1


class TournamentError(ValueError):
    """A tournament that cannot be run as asked; the message says why."""


# --- configuration ----------------------------------------------------------------------------
@dataclass
class TournamentConfig:
    """What defines a tournament's games and statistics (everything but how it is run)."""

    bots: list[dict]  # {"source", "params", "label"} per pool entry
    games: int
    players: int
    seed: int
    model: str = "permutations"
    burst: int | None = None
    chunk: int = DEFAULT_CHUNK
    rules: dict = field(default_factory=dict)
    time_limit: float | None = None
    track_suspicion: bool = False
    interval: str = INTERVAL_2012
    isolate: str = "auto"  # auto: untrusted bots in worker processes; all; none

    def specs(self) -> tuple[BotSpec, ...]:
        return tuple(
            BotSpec(b["source"], tuple((k, v) for k, v in b["params"]), b.get("label"),
                    trusted=b.get("trusted"))
            for b in self.bots
        )

    def to_dict(self) -> dict:
        return dict(self.__dict__)

    @classmethod
    def from_dict(cls, d: dict) -> TournamentConfig:
        return cls(**d)


def pool_labels(specs: Sequence[BotSpec]) -> tuple[str, ...]:
    """One label per pool entry; a bot entered twice becomes ``name`` and ``name(2)``."""
    seen: dict[str, int] = {}
    out = []
    for spec in specs:
        name = spec.name
        seen[name] = seen.get(name, 0) + 1
        out.append(name if seen[name] == 1 else f"{name}({seen[name]})")
    return tuple(out)


def resolve_bots(bots: Sequence[Any]) -> list[BotSpec]:
    """Parse bot arguments (spec strings, BotSpecs, Bot classes, instances, factories) into
    specs and build each once, so a bad bot fails early."""
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise TypeError(f"bots must be a list of bots, not {type(bots).__name__}")
    specs: list[BotSpec] = []
    seen: dict[int, int] = {}
    for i, b in enumerate(bots):
        if isinstance(b, Bot):
            if id(b) in seen:
                raise ValueError(f"bots[{i}] is the same Bot instance as bots[{seen[id(b)]}]")
            seen[id(b)] = i
        try:
            found = pool_spec(b, f"bots[{i}]")
        except (BotSpecError, ValueError, KeyError, FileNotFoundError, ImportError) as exc:
            msg = exc.args[0] if isinstance(exc, KeyError) and exc.args else exc
            raise TournamentError(f"bad bot {b!r}: {msg}") from None
        check_buildable(found)
        specs.extend(found)
    if not specs:
        raise TournamentError("a tournament needs at least one bot")
    return specs


def check_buildable(specs: Sequence[BotSpec]) -> None:
    """Build each bot once here, so that a bot that cannot load fails before any game."""
    for spec in specs:
        try:
            bot = spec.make()
        except Exception as exc:  # noqa: BLE001 — name the bot whatever went wrong
            raise TournamentError(f"cannot build bot {spec.source!r}: {exc}") from None
        if getattr(type(bot), "interactive", False) is True:
            raise TournamentError(f"bot {spec.name!r} waits for a person at the terminal: it "
                                  "cannot play in a tournament (use `spyglass play`)")


def _rules_dict(rules: Rules | str | dict | None) -> dict:
    try:
        return as_rules(rules).to_dict()
    except ValueError as exc:
        raise TournamentError(str(exc)) from None


# --- results ---------------------------------------------------------------------------------
@dataclass
class TournamentResults:
    """The outcome of a tournament (possibly partial): statistics and where they are stored."""

    config: TournamentConfig
    labels: tuple[str, ...]
    schedule: Schedule
    tally: ResistanceTally
    complete: bool
    interrupted: bool = False
    out: Path | None = None
    seconds: float = 0.0
    games_played_now: int = 0
    message: str = ""

    @property
    def games(self) -> int:
        """Games counted in the statistics (finished without an error)."""
        return self.tally.ok

    @property
    def games_per_s(self) -> float:
        return self.games_played_now / self.seconds if self.seconds > 0 else float("nan")

    @property
    def agents(self) -> list[AgentResult]:
        """Every game's per-agent figures (overall, per seat, per role)."""
        return agent_results(self.tally.games, self.config.interval)

    @property
    def seats(self) -> list[Rate]:
        """Mean reward of each seat, whoever sat there."""
        return seat_results(self.tally.games)

    @property
    def bots(self) -> list[BotStats]:
        """Per-bot statistics, best overall win rate first."""
        return bot_stats(self.tally, self.config.interval)

    def bot(self, label: str) -> BotStats:
        for b in self.bots:
            if b.label == label:
                return b
        raise KeyError(f"no bot {label!r} in this tournament; bots: {', '.join(self.labels)}")

    def failed_bots(self) -> list[str]:
        """Bots that sat in games but in none that counted: every game of theirs ended in
        an error (theirs or another bot's), so the tournament says nothing about them."""
        return [lab for lab in self.labels
                if self.tally.get(lab, "played") > 0 and self.tally.get(lab, "games") == 0]

    @property
    def spy_team(self) -> Rate:
        """The spies' win rate over counted games (the balanced model's headline number)."""
        return spy_team_rate(self.tally, self.config.interval)

    def by_config(self) -> dict[str, Rate]:
        """Spy win rate per spy configuration (seats), in seat order."""
        return {
            ",".join(map(str, sp)): rate_interval(w, n, self.config.interval)
            for sp, (n, w) in sorted(self.tally.configs.items())
        }

    def isolation(self) -> dict:
        """Which bots ran in their own worker process (the security mode of the run)."""
        specs = self.config.specs()
        mode = self.config.isolate
        isolated = [lab for lab, sp in zip(self.labels, specs, strict=True)
                    if isolates(mode, not spec_trusted(sp))]
        return {"mode": mode, "isolated_bots": isolated,
                "in_process_bots": [lab for lab in self.labels if lab not in isolated]}

    def to_dict(self) -> dict:
        """The content of ``results.json`` (deterministic: no timings; NaN as null)."""
        return no_nan(self._to_dict())

    def _to_dict(self) -> dict:
        s = self.schedule
        d: dict[str, Any] = {
            "games": self.games,
            "games_recorded": self.tally.played,
            "games_with_errors": self.tally.errors,
            "games_scheduled": len(s),
            "complete": self.complete,
            "note": EXCLUSION_NOTE,
            "model": self.config.model,
            "players": self.config.players,
            "seed": self.config.seed,
            "interval": self.config.interval,
            "isolation": self.isolation(),
            "set_size": s.set_size,
            "sets": s.sets,
            "whole_sets": s.whole_sets,
            "bots": {b.label: b.to_dict() for b in self.bots},
            # every game's figures (per agent, per seat, per role), by the same code
            "win_score": "1 for each member of the winning side",
            **results_section(self.tally.games, self.config.interval),
        }
        if self.config.model == "burst":
            d["burst"] = self.config.burst
            d["bursts"] = s.n_chunks
        if self.config.model == "balanced":
            d["balanced"] = {
                "spy_bot": self.labels[0],
                "resistance_bot": self.labels[-1],
                "spy_team": self.spy_team.to_dict(),
                "by_configuration": {k: r.to_dict() for k, r in self.by_config().items()},
            }
        return d


# --- the run ----------------------------------------------------------------------------------
def _check(labels: Sequence[str], rec: dict, t: dict, index: int) -> list[int]:
    """The pool rows of a record's seats, if it is a game of this pool (else BadRecord)."""
    try:
        rows = [labels.index(p) for p in t["players"]]
        _ = (rec["outcome"]["winner"], tuple(rec["roles"]["spies"]))  # present?
    except (ValueError, KeyError, TypeError):
        raise BadRecord(f"game {index} was played by bots {t.get('players')!r}, not "
                        f"by this tournament's {list(labels)!r}") from None
    return rows


def _scan(path: Path, labels: Sequence[str], schedule: Schedule) -> tuple[Found, dict]:
    """Every usable record of a records file by game index, and every bad line (see
    :func:`spyglass.arena.results_dir.scan_records`)."""
    return scan_records(path, key="game", total=len(schedule),
                        check=functools.partial(_check, labels))


def _read_done(path: Path, labels: Sequence[str], schedule: Schedule,
               repair: bool = False) -> tuple[ResistanceTally, set[int]]:
    """Statistics and game indices of the records already in ``games.jsonl``.

    A bad line stops with its line number, unless ``repair``: then bad lines are dropped
    (the original is kept as ``games.jsonl.bak``) and those games are played again.
    """
    tally = ResistanceTally(list(labels), schedule.players)
    done: set[int] = set()
    good = read_records(path, lambda p: _scan(p, labels, schedule), repair, TournamentError)
    for index, (_, _, rec, rows) in sorted(good.items()):
        done.add(index)
        _count(tally, rec, rows)
    return tally, done


def _manifest(config: TournamentConfig, schedule: Schedule, status: str, **extra) -> dict:
    return {
        "kind": MANIFEST_KIND,
        "format": MANIFEST_FORMAT,
        "spyglass_version": spyglass.__version__,
        "status": status,
        "config": config.to_dict(),
        "schedule": {"hash": schedule.digest(), "games": len(schedule),
                     "chunks": schedule.n_chunks, "set_size": schedule.set_size},
        **extra,
    }


def _jobs(config, specs, labels, schedule, chunks, partial_dir) -> Iterator[ChunkJob]:
    for c in chunks:
        partial = str(partial_stem(partial_dir, c)) if partial_dir is not None else None
        yield ChunkJob(c, schedule.chunk(c), specs, labels, config.rules, config.time_limit,
                       config.track_suspicion, config.model, config.isolate, partial)


def _partial_records(out_dir: Path, labels, schedule, done: set[int]) -> Found:
    """The usable records of partial chunk files that ``done`` lacks, by game index."""
    return partial_records(out_dir, lambda p: _scan(p, labels, schedule), done)


def _fold_partials(out_dir: Path, labels, schedule, done: set[int],
                   tally: ResistanceTally) -> int:
    """Move the games of partial chunk files into ``games.jsonl`` and count them once;
    then remove the partial files. Returns the number of games added."""
    return fold_partials(out_dir, lambda p: _scan(p, labels, schedule), done,
                         lambda rec, rows: _count(tally, rec, rows))


def _count(tally: ResistanceTally, rec: dict, rows: list[int]) -> None:
    tally.add_games(np.array([rows]), seat_counts(rec)[None], [game_ok(rec)],
                    [rec["outcome"]["winner"] == "spies"], [tuple(rec["roles"]["spies"])])


def _prepare_out(config, schedule, labels, out_dir, resuming,
                 repair=False) -> tuple[ResistanceTally, set[int]]:
    """Write the manifest of a new run, or check a resumed one and read its games."""
    if out_dir is None:
        return ResistanceTally(list(labels), schedule.players), set()
    manifest_path = out_dir / MANIFEST
    if resuming:
        old = json.loads(manifest_path.read_text(encoding="utf-8"))
        if old["schedule"]["hash"] != schedule.digest():
            raise TournamentError(
                f"{out_dir}: the schedule rebuilt from the manifest differs from the one "
                f"recorded (made by spyglass {old.get('spyglass_version')}); cannot resume"
            )
    else:
        out_dir.mkdir(parents=True, exist_ok=True)
        write_json(manifest_path, _manifest(config, schedule, "running"))
    truncate_torn_tail(out_dir / GAMES)
    tally, done = _read_done(out_dir / GAMES, labels, schedule, repair)
    _fold_partials(out_dir, labels, schedule, done, tally)  # games of a killed run's chunks
    return tally, done


def _absorb(res: ChunkResult, done: set[int], tally: ResistanceTally, fh) -> int:
    """Write and count the games of a chunk that are not recorded yet; returns how many."""
    fresh = [i for i, index in enumerate(res.indices.tolist()) if index not in done]
    if not fresh:
        return 0
    if len(fresh) < len(res.indices):
        sel = np.array(fresh)
        lines = [res.lines[i] for i in fresh]
        tally.add_games(res.lineups[sel], res.counts[sel], res.ok[sel], res.spies_won[sel],
                        [res.spies[i] for i in fresh])
    else:
        lines = res.lines
        tally.add_games(res.lineups, res.counts, res.ok, res.spies_won, res.spies)
    if fh is not None:
        fh.write("\n".join(lines) + "\n")
        fh.flush()
    done.update(res.indices[fresh].tolist())
    return len(fresh)


def write_outputs(results: TournamentResults) -> None:
    """``results.json``, ``bots.csv`` and ``winrates.png`` in the results directory."""
    from spyglass.arena.report import plot_winrates, write_agents_csv
    from spyglass.resistance.arena.report import write_bots_csv

    out = results.out
    if out is None:
        return
    write_json(out / RESULTS, results.to_dict())
    write_bots_csv(results, out / BOTS_CSV)
    write_agents_csv(results.agents, results.config.players, out / AGENTS_CSV)
    if results.games:
        plot_winrates(results.agents, out / PLOT, _plot_title(results))


def _plot_title(results: TournamentResults) -> str:
    method = ("Agresti–Coull (2012)" if results.config.interval == INTERVAL_2012
              else results.config.interval)
    return f"{results.config.model}: {results.games} games, 95% intervals: {method}"


class ResistanceTable:
    """The Resistance's :class:`~spyglass.arena.tournament.Table`: its schedule, jobs,
    records and counts.

    Built from a :class:`TournamentConfig` (its bots are built once here, so that a
    stored tournament whose bots no longer load fails before any game). ``until``: play
    and count only what the first ``until`` games lack (whole chunks), leaving the rest
    for a later resume."""

    play = staticmethod(play_chunk)
    error = TournamentError
    description = "games"

    def __init__(self, config: TournamentConfig, out: str | Path | None = None,
                 until: int | None = None) -> None:
        if config.interval not in INTERVAL_METHODS:
            raise TournamentError(f"unknown interval method {config.interval!r}; choose one "
                                  "of " + ", ".join(INTERVAL_METHODS))
        self.config = config
        self.specs = config.specs()
        check_buildable(self.specs)  # a stored tournament's bots may no longer load
        self.labels = pool_labels(self.specs)
        self.schedule = build_schedule(config.model, len(self.specs), players=config.players,
                                       games=config.games, seed=config.seed,
                                       burst=config.burst, chunk_size=config.chunk)
        self.tally = ResistanceTally(list(self.labels), config.players)
        self.done: set[int] = set()
        self.out: Path | None = Path(out) if out is not None else None
        self.until = until

    def check_backend(self, backend: str) -> None:
        if backend == "ray" and any(s.source.startswith("python:") for s in self.specs):
            raise TournamentError("bots given as Python instances or factories cannot travel "
                                  "to Ray workers: give a class, a module path or a file")

    def prepare_out(self, resuming: bool, repair: bool) -> None:
        if self.out is not None:
            self.tally, self.done = _prepare_out(self.config, self.schedule, self.labels,
                                                 self.out, resuming, repair)

    @property
    def planned(self) -> int:
        """Games this run is to have: all, or the first ``until``."""
        n = len(self.schedule)
        return n if self.until is None else min(self.until, n)

    def pending_chunks(self) -> list[int]:
        """The chunks with a game not recorded yet among the planned ones (each chunk is
        played from its start)."""
        starts = self.schedule.chunk_starts
        end = self.planned
        return [c for c in range(self.schedule.n_chunks)
                if any(i not in self.done for i in range(starts[c], min(starts[c + 1], end)))]

    def pending(self) -> int:
        return len(self.pending_chunks())

    def notes(self) -> list[str]:
        notes = [self.schedule.describe()]
        if self.until is not None and self.until < len(self.schedule):
            notes.append(f"Playing the first {self.until} games only.")
        if self.done:
            notes.append(f"Resuming: {self.done_count()} of {self.planned} games already "
                         "played.")
        return notes

    def jobs(self, partial_dir: Path | None, workers: int | None) -> Iterator[ChunkJob]:
        return _jobs(self.config, self.specs, self.labels, self.schedule,
                     self.pending_chunks(), partial_dir)

    def done_count(self) -> int:
        if self.until is None:
            return len(self.done)
        return sum(1 for i in self.done if i < self.until)

    def absorb(self, result: ChunkResult, fh) -> int:
        return _absorb(result, self.done, self.tally, fh)

    def fold_partials(self) -> int:
        return _fold_partials(self.out, self.labels, self.schedule, self.done, self.tally)

    def stopped(self, message: str) -> str:
        if self.out is None:
            return message
        return (message + f"; {len(self.done)} of {len(self.schedule)} games kept — continue "
                f"with `spyglass tournament --resume {self.out}`")

    def results(self, run: Any) -> TournamentResults:
        return TournamentResults(self.config, self.labels, self.schedule, self.tally,
                                 len(self.done) == len(self.schedule), run.interrupted,
                                 self.out, run.seconds, run.played_now, run.message)

    def write_outputs(self, results: TournamentResults, run: Any, runner: Any) -> None:
        """Results files, then the manifest with its status and the run's speed."""
        write_outputs(results)
        status = "complete" if results.complete else "interrupted"
        write_json(self.out / MANIFEST, _manifest(
            self.config, self.schedule, status, games_done=len(self.done),
            last_run_seconds=round(run.seconds, 3),
            last_run_games_per_s=round(results.games_per_s, 1)
            if math.isfinite(results.games_per_s) else None,
            last_run_backend=runner.name, last_run_workers=runner.workers,
        ))


# --- entry points ----------------------------------------------------------------------------
def _int_arg(value: Any, what: str, low: int, high: int) -> int:
    if type(value) is not int and not isinstance(value, np.integer):
        raise TypeError(f"{what} must be an integer, not {value!r}")
    if not low <= int(value) <= high:
        raise TournamentError(f"{what} must be a positive integer (at most {high:,}), "
                              f"not {value}")
    return int(value)


def new_config(
    bots: Sequence[Any],
    *,
    games: int,
    players: int = 5,
    seed: int | None = None,
    model: str = "permutations",
    burst: int | None = None,
    chunk: int = DEFAULT_CHUNK,
    rules: Rules | str | dict | None = None,
    time_limit: float | None = None,
    track_suspicion: bool = False,
    interval: str = INTERVAL_2012,
    isolate: str = "auto",
) -> TournamentConfig:
    """Validate the arguments of a new tournament into a :class:`TournamentConfig`.

    Every argument is checked by type and range (``TypeError``, or
    :class:`TournamentError`, a ``ValueError``, naming it)."""
    games = _int_arg(games, "games", 1, MAX_GAMES)
    if type(players) is not int:
        raise TypeError(f"players must be an integer, not {players!r}")
    chunk = _int_arg(chunk, "chunk", 1, MAX_GAMES)
    if burst is not None:
        burst = _int_arg(burst, "burst", 1, MAX_GAMES)
    try:
        seed = fresh_seed() if seed is None else check_seed(seed)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    if type(track_suspicion) is not bool:
        raise TypeError(f"track_suspicion must be True or False, not {track_suspicion!r}")
    for name, value in (("model", model), ("interval", interval), ("isolate", isolate)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be a string, not {value!r}")
    try:
        time_limit = check_time_limit(time_limit)
        check_isolation(isolate)
    except ValueError as exc:
        raise TournamentError(str(exc)) from None
    if interval not in INTERVAL_METHODS:
        raise TournamentError(f"unknown interval method {interval!r}; choose one of "
                              + ", ".join(INTERVAL_METHODS))
    specs = resolve_bots(bots)
    if isolate == "all" and any(s.source.startswith("python:") for s in specs):
        raise TournamentError("isolate='all' needs every bot as a class, spec or name: a Bot "
                              "instance or factory can only play in this process")
    config = TournamentConfig(
        bots=[{"source": s.source, "params": [list(p) for p in s.params], "label": s.label,
               **({"trusted": s.trusted} if s.trusted is not None else {})}
              for s in specs],
        games=games, players=players, seed=seed, model=model, burst=burst, chunk=chunk,
        rules=_rules_dict(rules), time_limit=time_limit, track_suspicion=track_suspicion,
        interval=interval, isolate=isolate,
    )
    # Check the schedule now, for a clear error before anything is written.
    build_schedule(model, len(specs), players=players, games=games, seed=config.seed,
                   burst=burst, chunk_size=chunk)
    return config


def load_config(out: str | Path) -> TournamentConfig:
    """The configuration stored in a results directory's manifest."""
    path = Path(out) / MANIFEST
    if not path.is_file():
        raise TournamentError(f"{out} holds no tournament ({MANIFEST} is missing)")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return TournamentConfig.from_dict(data["config"])
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise TournamentError(f"{path} is not a valid tournament manifest: {exc}") from None


def load_results(out: str | Path) -> TournamentResults:
    """A finished or partial tournament, with statistics recomputed from ``games.jsonl``."""
    config = load_config(out)
    specs = config.specs()
    labels = pool_labels(specs)
    schedule = build_schedule(config.model, len(specs), players=config.players,
                              games=config.games, seed=config.seed, burst=config.burst,
                              chunk_size=config.chunk)
    tally, done = _read_done(Path(out) / GAMES, labels, schedule)
    for index, (_, _, rec, rows) in sorted(_partial_records(Path(out), labels, schedule,
                                                            done).items()):
        done.add(index)  # a killed run's games not yet moved into games.jsonl (read only)
        _count(tally, rec, rows)
    return TournamentResults(config, labels, schedule, tally, len(done) == len(schedule),
                             out=Path(out))


def extend_config(out: str | Path, games: int) -> TournamentConfig:
    """Make the tournament stored in ``out`` longer: ``games`` games, of which the first
    are exactly the games it already schedules, so no record changes meaning; the
    manifest is rewritten and a resume then plays the new games.

    Holds for the balanced and permutations models when the stored length is a whole
    number of sets (both draw whole shuffled sets in turn, and every game's seed depends
    on its index only); any other case is refused, naming the first game that would
    change."""
    out = Path(out)
    config = load_config(out)
    games = _int_arg(games, "games", 1, MAX_GAMES)
    if games < config.games:
        raise TournamentError(f"{out} already schedules {config.games} games; a tournament "
                              f"cannot shrink to {games} (read its first games instead)")
    if games == config.games:
        return config
    n_bots = len(config.bots)
    old = build_schedule(config.model, n_bots, players=config.players, games=config.games,
                         seed=config.seed, burst=config.burst, chunk_size=config.chunk)
    longer = TournamentConfig.from_dict({**config.to_dict(), "games": games})
    new = build_schedule(longer.model, n_bots, players=longer.players, games=games,
                         seed=longer.seed, burst=longer.burst, chunk_size=longer.chunk)
    m = config.games
    same = [np.array_equal(a[:m], b) for a, b in ((new.lineups, old.lineups),
                                                   (new.spy_masks, old.spy_masks),
                                                   (new.seeds, old.seeds))]
    if old.identities is not None:
        same.append(new.identities is not None
                    and np.array_equal(new.identities[:m], old.identities))
    starts = new.chunk_starts[new.chunk_starts < m]
    same.append(np.array_equal(starts, old.chunk_starts[:-1]))
    if not all(same):
        differ = next((i for i in range(m) if new.game(i) != old.game(i)), None)
        where = f"game {differ}" if differ is not None else "the chunks of its games"
        raise TournamentError(
            f"{out}: the {config.model} schedule of {games} games does not begin with the "
            f"{m} already scheduled ({where} would change; a stored length that is a whole "
            f"number of sets of {old.set_size} extends): cannot extend")
    write_json(out / MANIFEST, _manifest(longer, new, "interrupted"))
    return longer


def check_new_out(out: str | Path) -> None:
    """Refuse to start a new tournament in a directory that already holds one."""
    if (Path(out) / MANIFEST).exists():
        raise TournamentError(
            f"{out} already holds a tournament; continue it with --resume {out} "
            "or choose another --out"
        )

