"""Playing a chunk of The Resistance's tournament games: the 2012 referee, one cross-game
memory per chunk, and each finished game's line kept at once in a partial file.

This is The Resistance's *table* for the one tournament engine
(:mod:`spyglass.arena.tournament`): a chunk (see :mod:`spyglass.resistance.arena.schedule`) is
played start to finish by one worker with one fresh cross-game memory, and comes back as
a :class:`ChunkResult`: the JSON lines of its games plus their statistics counts, so that
the parent only writes and adds (no per-game inter-process traffic, no JSON parsing in the
parent). Because a chunk's games depend only on the schedule, every backend
(:mod:`spyglass.arena.backends`) and worker count gives the same games.

So that a run killed mid-chunk loses no finished game, a worker on this machine also
appends each game's line, as it finishes, to a partial file of its own attempt at the
chunk (``ChunkJob.partial`` names the chunk; see
:func:`spyglass.arena.results_dir.attempt_path`).
"""

from __future__ import annotations

import contextlib
import json
import time
import traceback
from dataclasses import dataclass

import numpy as np

from spyglass.arena.results_dir import PartialSink, attempt_path
from spyglass.arena.sandbox import WorkerPool
from spyglass.arena.sanitize import clip_text
from spyglass.games.resistance.options import Rules
from spyglass.resistance.arena.counts import seat_counts
from spyglass.resistance.arena.referee import RECORD_VERSION, play_game
from spyglass.resistance.arena.schedule import GameSpec
from spyglass.resistance.arena.spec import BotSpec


@dataclass
class ChunkJob:
    """Everything a worker needs to play one chunk; small and picklable."""

    chunk: int
    games: list[GameSpec]
    specs: tuple[BotSpec, ...]  # the pool, indexed by GameSpec.lineup
    labels: tuple[str, ...]  # pool labels, one per spec
    rules: dict
    time_limit: float | None
    track_suspicion: bool
    model: str
    isolate: str = "auto"  # which bots run in worker processes (see play_game)
    partial: str | None = None  # the chunk's partial file stem (see attempt_path), or None
    attempt: int = 0  # how many times this chunk was handed out before (a replay: > 0)


@dataclass
class ChunkResult:
    """A played chunk: per game its index, JSON line and statistics counts."""

    chunk: int
    indices: np.ndarray  # (games,)
    lineups: np.ndarray  # (games, players) pool indices
    counts: np.ndarray  # (games, players, K) from spyglass.resistance.arena.counts.seat_counts
    ok: np.ndarray  # (games,) bool
    spies_won: np.ndarray  # (games,) bool
    spies: list[tuple[int, ...]]
    lines: list[str]
    seconds: float


_SPEC_CACHE: dict[tuple, BotSpec] = {}


def _resolved(spec: BotSpec) -> BotSpec:
    """The same spec with its class loaded once per process (pickling drops it)."""
    key = (spec.source, spec.params, spec.label)
    cached = _SPEC_CACHE.get(key)
    if cached is None:
        cached = _SPEC_CACHE[key] = BotSpec(spec.source, spec.params, spec.label,
                                            trusted=spec.trusted)
        if spec._cls is not None:  # a class handed over in Python, in this very process
            object.__setattr__(cached, "_cls", spec._cls)
        cached.bot_class()
    return cached


def _failed_record(g: GameSpec, names: tuple[str, ...], rules: Rules, exc: Exception) -> dict:
    """A record for a game the referee could not even run (e.g. a bot failed to build)."""
    return {
        "version": RECORD_VERSION,
        "setup": {"seed": g.seed, "players": len(g.lineup), "rules": rules.to_dict(),
                  "bots": list(names), "sources": [], "first_leader": None},
        "roles": {"spies": list(g.spies)},
        "events": [],
        "outcome": {"winner": None, "reason": "the game could not be played"},
        "error": {"bot": None, "seat": None, "decision": "setup", "value": None,
                  "reason": clip_text(f"{type(exc).__name__}: {exc}", 1000),
                  "message": clip_text(str(exc), 1000),
                  "detail": clip_text(traceback.format_exc(), 8000)},
    }


def play_chunk(job: ChunkJob) -> ChunkResult:
    """Play every game of a chunk in order, sharing one fresh memory between them."""
    t0 = time.perf_counter()
    specs = [_resolved(s) for s in job.specs]
    rules = Rules.from_dict(job.rules)
    memory: dict = {}
    n = len(job.games)
    players = len(job.games[0].lineup) if n else 0
    lines: list[str] = []
    counts = []
    ok = np.zeros(n, dtype=bool)
    spies_won = np.zeros(n, dtype=bool)
    # The chunk is always played from its start (a replay after a kill rebuilds the same
    # cross-game memory), into a partial file of this attempt's own.
    sink = PartialSink(attempt_path(job.partial, job.attempt)) if job.partial else None
    # One worker process per isolated bot identity, reused by every game of the chunk
    # (cross-game memory lives there), all stopped when the chunk ends.
    with WorkerPool() as workers, sink or contextlib.nullcontext():
        for i, g in enumerate(job.games):
            names = g.names or tuple(job.labels[b] for b in g.lineup)
            tour = {"game": g.index, "chunk": g.chunk, "model": job.model,
                    "lineup": list(g.lineup), "players": [job.labels[b] for b in g.lineup]}
            try:
                rec = play_game(
                    [specs[b] for b in g.lineup], seed=g.seed, rules=rules, spies=g.spies,
                    time_limit=job.time_limit, memory=memory, names=names,
                    track_suspicion=job.track_suspicion, isolate=job.isolate, workers=workers,
                ).to_record()
                rec["tournament"] = tour
                line = json.dumps(rec, separators=(",", ":"), allow_nan=False)
            except Exception as exc:  # noqa: BLE001 — one broken game must not stop the chunk
                rec = _failed_record(g, names, rules, exc)
                rec["tournament"] = tour
                line = json.dumps(rec, separators=(",", ":"), allow_nan=False)
            counts.append(seat_counts(rec))
            ok[i] = rec.get("error") is None and rec["outcome"]["winner"] is not None
            spies_won[i] = rec["outcome"]["winner"] == "spies"
            lines.append(line)
            if sink is not None:
                sink.write_line(line)  # in the OS's hands: survives this process being killed
    return ChunkResult(
        chunk=job.chunk,
        indices=np.array([g.index for g in job.games], dtype=np.int64),
        lineups=np.array([g.lineup for g in job.games], dtype=np.int64).reshape(n, players),
        counts=np.stack(counts) if counts else np.zeros((0, players, 0), dtype=np.int64),
        ok=ok,
        spies_won=spies_won,
        spies=[g.spies for g in job.games],
        lines=lines,
        seconds=time.perf_counter() - t0,
    )
