"""Running a tournament: schedule, backend, progress, and a results directory that survives.

The results directory holds ``tournament.json`` (the manifest: configuration, schedule
hash, version, status), ``games.jsonl`` (one game record per line, appended chunk by
chunk as chunks finish), and at the end ``results.json``, ``bots.csv`` and
``winrates.png``. Every record carries its game index, so a resumed run plays only the
games that are missing and never counts a game twice.

Games are kept as they finish, whatever the chunk size: a worker on this machine
appends each finished game to ``partial/chunk-<c>.<attempt>.jsonl`` (one file per attempt
at the chunk, see :mod:`spyglass.arena.backends`), removed once its chunk is in
``games.jsonl``. When a
run stops (Ctrl-C, an error) or is resumed after a kill, the games of partial files that
``games.jsonl`` lacks are moved into it and counted. A chunk that was cut short is then
played again *from its start*, because its games share one cross-game memory: replaying
the recorded games rebuilds that memory exactly (games depend only on the schedule), and
the replayed copies of recorded games are dropped by index, so the run ends with the
same records as an uninterrupted one and counts each game once. (Ray workers may run on
other machines, so Ray runs keep whole chunks only.)
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import spyglass
from spyglass.arena.backends import ChunkJob, ChunkResult, make_backend
from spyglass.arena.entrants import check_isolate, pool_spec, spec_trusted
from spyglass.arena.referee import as_rules, check_seed, check_time_limit, fresh_seed
from spyglass.arena.schedule import DEFAULT_CHUNK, MAX_GAMES, Schedule, build_schedule
from spyglass.arena.spec import BotSpec, BotSpecError
from spyglass.arena.stats import (
    EXCLUSION_NOTE,
    INTERVAL_2012,
    INTERVAL_METHODS,
    BotStats,
    Rate,
    Tally,
    bot_stats,
    game_ok,
    rate_interval,
    seat_counts,
    spy_team_rate,
)
from spyglass.bots.base import Bot
from spyglass.games.resistance.options import Rules

MANIFEST = "tournament.json"
GAMES = "games.jsonl"
RESULTS = "results.json"
BOTS_CSV = "bots.csv"
PLOT = "winrates.png"
PARTIAL = "partial"  # per-chunk files of games finished in chunks not yet complete
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
    tally: Tally
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
                    if mode == "all" or (mode == "auto" and not spec_trusted(sp))]
        return {"mode": mode, "isolated_bots": isolated,
                "in_process_bots": [lab for lab in self.labels if lab not in isolated]}

    def to_dict(self) -> dict:
        """The content of ``results.json`` (deterministic: no timings; NaN as null)."""
        return _no_nan(self._to_dict())

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


def _no_nan(x: Any) -> Any:
    """Rates of nothing (a bot never a spy) are NaN; JSON has null for them."""
    if isinstance(x, float) and math.isnan(x):
        return None
    if isinstance(x, dict):
        return {k: _no_nan(v) for k, v in x.items()}
    if isinstance(x, list):
        return [_no_nan(v) for v in x]
    return x


# --- the run ----------------------------------------------------------------------------------
def _truncate_torn_tail(path: Path) -> None:
    """Cut a half-written last line (a crash mid-write) so that appends start clean."""
    if not path.exists() or path.stat().st_size == 0:
        return
    with open(path, "rb+") as fh:
        fh.seek(-1, os.SEEK_END)
        if fh.read(1) == b"\n":
            return
        size = fh.seek(0, os.SEEK_END)
        pos = max(0, size - (1 << 16))
        while True:
            fh.seek(pos)
            block = fh.read(size - pos)
            cut = block.rfind(b"\n")
            if cut >= 0 or pos == 0:
                fh.truncate(pos + cut + 1 if cut >= 0 else 0)
                return
            pos = max(0, pos - (1 << 16))


def _scan(path: Path, labels: Sequence[str], schedule: Schedule):
    """Every usable record of ``games.jsonl`` by game index, and every bad line.

    Bad: not JSON, no valid game index, bots not of this tournament, or one of two
    *different* records of the same game (which one is right cannot be known, so both
    are bad; an exact repeat of a line is harmless and read once).
    """
    good: dict[int, tuple[int, str, dict, list[int]]] = {}
    bad: dict[int, str] = {}
    with open(path, encoding="utf-8") as fh:
        for number, line in enumerate(fh, 1):
            text = line.strip()
            if not text:
                continue
            try:
                rec = json.loads(text)
                t = rec.get("tournament") or {}
                index = t.get("game")
            except (ValueError, AttributeError, RecursionError):
                bad[number] = "not a valid game record"
                continue
            if type(index) is not int or not 0 <= index < len(schedule):
                bad[number] = f"no valid game index ({index!r})"
                continue
            try:
                rows = [labels.index(p) for p in t["players"]]
                _ = (rec["outcome"]["winner"], tuple(rec["roles"]["spies"]))  # present?
            except (ValueError, KeyError, TypeError):
                bad[number] = (f"game {index} was played by bots {t.get('players')!r}, not "
                               f"by this tournament's {list(labels)!r}")
                continue
            if index in good:
                first = good[index]
                if first[1] != text:
                    bad[first[0]] = f"game {index} is recorded differently on line {number}"
                    bad[number] = f"game {index} is recorded differently on line {first[0]}"
                continue
            good[index] = (number, text, rec, rows)
    conflicted = {good[i][0] for i in good} & set(bad)
    return {i: v for i, v in good.items() if v[0] not in conflicted}, bad


def _read_done(path: Path, labels: Sequence[str], schedule: Schedule,
               repair: bool = False) -> tuple[Tally, set[int]]:
    """Statistics and game indices of the records already in ``games.jsonl``.

    A bad line (see :func:`_scan`) stops with its line number, unless ``repair``: then
    bad lines are dropped (the original is kept as ``games.jsonl.bak``) and those games
    are played again.
    """
    tally = Tally(list(labels))
    done: set[int] = set()
    if not path.exists():
        return tally, done
    good, bad = _scan(path, labels, schedule)
    if bad and not repair:
        shown = "; ".join(f"line {n}: {why}" for n, why in sorted(bad.items())[:5])
        more = f" (and {len(bad) - 5} more)" if len(bad) > 5 else ""
        raise TournamentError(
            f"{path}: {len(bad)} bad line(s): {shown}{more}. Nothing was chosen for you: "
            "continue with --repair to drop them (their games are played again)")
    if bad:
        backup = path.with_name(path.name + ".bak")
        os.replace(path, backup)
        with open(path, "w", encoding="utf-8") as fh:
            for _number, text, _, _ in sorted(good.values()):
                fh.write(text + "\n")
    for index, (_, _, rec, rows) in sorted(good.items()):
        done.add(index)
        _count(tally, rec, rows)
    return tally, done


def _write_json(path: Path, data: dict) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2, allow_nan=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def _manifest(config: TournamentConfig, schedule: Schedule, status: str, **extra) -> dict:
    return {
        "format": MANIFEST_FORMAT,
        "spyglass_version": spyglass.__version__,
        "status": status,
        "config": config.to_dict(),
        "schedule": {"hash": schedule.digest(), "games": len(schedule),
                     "chunks": schedule.n_chunks, "set_size": schedule.set_size},
        **extra,
    }


def _partial_path(partial_dir: Path, chunk: int) -> Path:
    """The stem of a chunk's partial files: each attempt at it writes
    ``<stem>.<attempt>.jsonl`` (see :func:`spyglass.arena.backends.attempt_path`)."""
    return partial_dir / f"chunk-{chunk:06d}"


def _remove_partials(partial_dir: Path, chunk: int) -> None:
    """Remove every attempt's partial file of a chunk whose games are in ``games.jsonl``."""
    for path in partial_dir.glob(f"{_partial_path(partial_dir, chunk).name}.*.jsonl"):
        path.unlink(missing_ok=True)


def _jobs(config, specs, labels, schedule, chunks, partial_dir) -> Iterator[ChunkJob]:
    for c in chunks:
        partial = str(_partial_path(partial_dir, c)) if partial_dir is not None else None
        yield ChunkJob(c, schedule.chunk(c), specs, labels, config.rules, config.time_limit,
                       config.track_suspicion, config.model, config.isolate, partial)


def _partial_records(out_dir: Path, labels, schedule, done: set[int]):
    """The usable records of partial chunk files that ``done`` lacks, by game index.

    Every attempt at a chunk has its own file; a game found in several is kept once (the
    first found: attempts at a chunk play the same games). A torn or otherwise bad line of
    a partial file is skipped: its game is played again."""
    found: dict[int, tuple[int, str, dict, list[int]]] = {}
    folder = out_dir / PARTIAL
    if not folder.is_dir():
        return found
    for path in sorted(folder.glob("chunk-*.jsonl")):
        good, _bad = _scan(path, labels, schedule)
        for index, item in good.items():
            if index not in done and index not in found:
                found[index] = item
    return found


def _fold_partials(out_dir: Path, labels, schedule, done: set[int], tally: Tally) -> int:
    """Move the games of partial chunk files into ``games.jsonl`` and count them once;
    then remove the partial files. Returns the number of games added."""
    found = _partial_records(out_dir, labels, schedule, done)
    if found:
        with open(out_dir / GAMES, "a", encoding="utf-8") as fh:
            fh.write("".join(found[i][1] + "\n" for i in sorted(found)))
            fh.flush()
            os.fsync(fh.fileno())
    for index in sorted(found):
        _, _, rec, rows = found[index]
        _count(tally, rec, rows)
        done.add(index)
    folder = out_dir / PARTIAL
    if folder.is_dir():
        for path in folder.glob("chunk-*.jsonl"):
            path.unlink(missing_ok=True)
        with contextlib.suppress(OSError):
            folder.rmdir()  # only if empty
    return len(found)


def _count(tally: Tally, rec: dict, rows: list[int]) -> None:
    tally.add_games(np.array([rows]), seat_counts(rec)[None], [game_ok(rec)],
                    [rec["outcome"]["winner"] == "spies"], [tuple(rec["roles"]["spies"])])


def _progress(enabled: bool):
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class GamesPerSecond(ProgressColumn):
        def render(self, task) -> Text:
            speed = task.finished_speed or task.speed
            return Text("–  games/s" if not speed else f"{speed:,.0f} games/s", style="cyan")

    return Progress(
        TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
        GamesPerSecond(), TimeElapsedColumn(), TextColumn("ETA"), TimeRemainingColumn(),
        console=Console(stderr=True), disable=not enabled, transient=False,
    )


def _prepare_out(config, schedule, labels, out_dir, resuming,
                 repair=False) -> tuple[Tally, set[int]]:
    """Write the manifest of a new run, or check a resumed one and read its games."""
    if out_dir is None:
        return Tally(list(labels)), set()
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
        _write_json(manifest_path, _manifest(config, schedule, "running"))
    _truncate_torn_tail(out_dir / GAMES)
    tally, done = _read_done(out_dir / GAMES, labels, schedule, repair)
    _fold_partials(out_dir, labels, schedule, done, tally)  # games of a killed run's chunks
    return tally, done


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
) -> TournamentResults:
    """Play (or continue) the tournament ``config`` and write its results directory.

    ``repair`` (resuming): drop bad lines of ``games.jsonl`` instead of stopping."""
    if config.interval not in INTERVAL_METHODS:
        raise TournamentError(f"unknown interval method {config.interval!r}; choose one of "
                              + ", ".join(INTERVAL_METHODS))
    specs = config.specs()
    check_buildable(specs)  # a stored tournament's bots may no longer load
    labels = pool_labels(specs)
    schedule = build_schedule(config.model, len(specs), players=config.players,
                              games=config.games, seed=config.seed, burst=config.burst,
                              chunk_size=config.chunk)
    if backend == "ray" and any(s.source.startswith("python:") for s in specs):
        raise TournamentError("bots given as Python instances or factories cannot travel to "
                              "Ray workers: give a class, a module path or a file")
    runner = make_backend(backend, workers, address)
    if not resuming:
        runner.start()  # everything is pending: fail (Ray missing, ...) before writing
    out_dir = Path(out) if out is not None else None
    games_path = out_dir / GAMES if out_dir else None
    partial_dir = out_dir / PARTIAL if out_dir is not None and runner.name != "ray" else None
    try:
        tally, done = _prepare_out(config, schedule, labels, out_dir, resuming, repair)
    except BaseException:
        runner.close(kill=True)
        raise
    starts = schedule.chunk_starts
    pending = [c for c in range(schedule.n_chunks)
               if any(i not in done for i in range(starts[c], starts[c + 1]))]
    bar = _progress(progress)
    if progress:
        bar.console.print(schedule.describe())
        if done:
            bar.console.print(f"Resuming: {len(done)} of {len(schedule)} games already played.")
    interrupted, message = False, ""
    played_now = 0
    if pending:
        if partial_dir is not None:
            partial_dir.mkdir(exist_ok=True)
        runner.start()  # before the progress bar's thread starts: the pool may fork
    t0 = time.perf_counter()
    fh = open(games_path, "a", encoding="utf-8") if games_path else None  # noqa: SIM115
    last_sync = time.monotonic()
    try:
        with bar:
            task = bar.add_task("games", total=len(schedule), completed=len(done))
            jobs = _jobs(config, specs, labels, schedule, pending, partial_dir)
            for res in runner.imap_unordered(jobs):
                played_now += _absorb(res, done, tally, fh)
                if partial_dir is not None:  # its games are in games.jsonl now
                    _remove_partials(partial_dir, res.chunk)
                if fh is not None and time.monotonic() - last_sync > 1.0:
                    os.fsync(fh.fileno())
                    last_sync = time.monotonic()
                bar.update(task, completed=len(done))
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
            played_now += _fold_partials(out_dir, labels, schedule, done, tally)
    seconds = time.perf_counter() - t0
    complete = len(done) == len(schedule)
    if interrupted and out_dir is not None:
        message += (f"; {len(done)} of {len(schedule)} games kept — continue with "
                    f"`spyglass tournament --resume {out_dir}`")
    results = TournamentResults(config, labels, schedule, tally, complete, interrupted,
                                out_dir, seconds, played_now, message)
    if out_dir is not None:
        write_outputs(results)
        status = "complete" if complete else "interrupted"
        _write_json(out_dir / MANIFEST, _manifest(
            config, schedule, status, games_done=len(done), last_run_seconds=round(seconds, 3),
            last_run_games_per_s=round(results.games_per_s, 1)
            if math.isfinite(results.games_per_s) else None,
            last_run_backend=runner.name, last_run_workers=runner.workers,
        ))
    return results


def _absorb(res: ChunkResult, done: set[int], tally: Tally, fh) -> int:
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
    from spyglass.arena.report import plot_winrates, write_bots_csv

    out = results.out
    if out is None:
        return
    _write_json(out / RESULTS, results.to_dict())
    write_bots_csv(results, out / BOTS_CSV)
    if results.games:
        plot_winrates(results, out / PLOT)


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
        check_isolate(isolate)
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


def check_new_out(out: str | Path) -> None:
    """Refuse to start a new tournament in a directory that already holds one."""
    if (Path(out) / MANIFEST).exists():
        raise TournamentError(
            f"{out} already holds a tournament; continue it with --resume {out} "
            "or choose another --out"
        )

