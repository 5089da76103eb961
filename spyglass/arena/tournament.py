"""Running a tournament: schedule, backend, progress, and a results directory that survives.

The results directory holds ``tournament.json`` (the manifest: configuration, schedule
hash, version, status), ``games.jsonl`` (one game record per line, appended chunk by
chunk as chunks finish), and at the end ``results.json``, ``bots.csv`` and
``winrates.png``. Every record carries its game index, so a resumed run plays only the
games that are missing and never counts a game twice.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import spyglass
from spyglass.arena.backends import ChunkJob, ChunkResult, make_backend
from spyglass.arena.records import iter_records
from spyglass.arena.schedule import DEFAULT_CHUNK, Schedule, build_schedule
from spyglass.arena.spec import BotSpec, BotSpecError, parse_spec
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
from spyglass.games.resistance.options import Rules

MANIFEST = "tournament.json"
GAMES = "games.jsonl"
RESULTS = "results.json"
BOTS_CSV = "bots.csv"
PLOT = "winrates.png"
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

    def specs(self) -> tuple[BotSpec, ...]:
        return tuple(
            BotSpec(b["source"], tuple((k, v) for k, v in b["params"]), b.get("label"))
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


def resolve_bots(bots: Sequence[str | BotSpec]) -> list[BotSpec]:
    """Parse bot arguments into specs and build each once, so a bad bot fails early."""
    specs: list[BotSpec] = []
    for b in bots:
        try:
            found = parse_spec(b)
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
            spec.make()
        except Exception as exc:  # noqa: BLE001 — name the bot whatever went wrong
            raise TournamentError(f"cannot build bot {spec.source!r}: {exc}") from None


def _rules_dict(rules: Rules | str | dict | None) -> dict:
    if rules is None:
        return Rules().to_dict()
    if isinstance(rules, Rules):
        return rules.to_dict()
    if isinstance(rules, str):
        rules = {"fifth_rejection": rules}
    try:
        return Rules.from_dict(rules).to_dict()
    except (TypeError, ValueError) as exc:
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


def _read_done(path: Path, labels: Sequence[str], schedule: Schedule) -> tuple[Tally, set[int]]:
    """Statistics and game indices of the records already in ``games.jsonl``."""
    tally = Tally(list(labels))
    done: set[int] = set()
    if not path.exists():
        return tally, done
    for rec in iter_records(path):
        t = rec.get("tournament") or {}
        index = t.get("game")
        if not isinstance(index, int) or not 0 <= index < len(schedule):
            raise TournamentError(f"{path}: a record without a valid game index ({index!r})")
        if index in done:
            continue  # never count a game twice
        done.add(index)
        try:
            rows = [labels.index(p) for p in t["players"]]
        except (ValueError, KeyError, TypeError):
            raise TournamentError(
                f"{path}: game {index} was played by bots {t.get('players')!r}, not by this "
                f"tournament's {list(labels)!r}"
            ) from None
        tally.add_games(np.array([rows]), seat_counts(rec)[None], [game_ok(rec)],
                        [rec["outcome"]["winner"] == "spies"], [tuple(rec["roles"]["spies"])])
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


def _jobs(config, specs, labels, schedule, chunks) -> Iterator[ChunkJob]:
    for c in chunks:
        yield ChunkJob(c, schedule.chunk(c), specs, labels, config.rules, config.time_limit,
                       config.track_suspicion, config.model)


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


def _prepare_out(config, schedule, labels, out_dir, resuming) -> tuple[Tally, set[int]]:
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
    return _read_done(out_dir / GAMES, labels, schedule)


def run_tournament(
    config: TournamentConfig,
    *,
    out: str | Path | None = None,
    resuming: bool = False,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    progress: bool = True,
) -> TournamentResults:
    """Play (or continue) the tournament ``config`` and write its results directory."""
    if config.interval not in INTERVAL_METHODS:
        raise TournamentError(f"unknown interval method {config.interval!r}; choose one of "
                              + ", ".join(INTERVAL_METHODS))
    specs = config.specs()
    check_buildable(specs)  # a stored tournament's bots may no longer load
    labels = pool_labels(specs)
    schedule = build_schedule(config.model, len(specs), players=config.players,
                              games=config.games, seed=config.seed, burst=config.burst,
                              chunk_size=config.chunk)
    runner = make_backend(backend, workers, address)
    if not resuming:
        runner.start()  # everything is pending: fail (Ray missing, ...) before writing
    out_dir = Path(out) if out is not None else None
    games_path = out_dir / GAMES if out_dir else None
    try:
        tally, done = _prepare_out(config, schedule, labels, out_dir, resuming)
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
        runner.start()  # before the progress bar's thread starts: the pool may fork
    t0 = time.perf_counter()
    fh = open(games_path, "a", encoding="utf-8") if games_path else None  # noqa: SIM115
    last_sync = time.monotonic()
    try:
        with bar:
            task = bar.add_task("games", total=len(schedule), completed=len(done))
            for res in runner.imap_unordered(_jobs(config, specs, labels, schedule, pending)):
                played_now += _absorb(res, done, tally, fh)
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
def new_config(
    bots: Sequence[str | BotSpec],
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
) -> TournamentConfig:
    """Validate the arguments of a new tournament into a :class:`TournamentConfig`."""
    specs = resolve_bots(bots)
    if seed is None:
        seed = secrets.randbits(63)
    if time_limit is not None and time_limit <= 0:
        raise TournamentError(f"the time limit must be positive, not {time_limit}")
    config = TournamentConfig(
        bots=[{"source": s.source, "params": [list(p) for p in s.params], "label": s.label}
              for s in specs],
        games=games, players=players, seed=int(seed), model=model, burst=burst, chunk=chunk,
        rules=_rules_dict(rules), time_limit=time_limit, track_suspicion=track_suspicion,
        interval=interval,
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
    return TournamentResults(config, labels, schedule, tally, len(done) == len(schedule),
                             out=Path(out))


def check_new_out(out: str | Path) -> None:
    """Refuse to start a new tournament in a directory that already holds one."""
    if (Path(out) / MANIFEST).exists():
        raise TournamentError(
            f"{out} already holds a tournament; continue it with --resume {out} "
            "or choose another --out"
        )

