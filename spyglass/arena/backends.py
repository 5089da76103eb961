"""Where tournament chunks are played: in this process, a local process pool, or Ray.

A chunk (see :mod:`spyglass.arena.schedule`) is played start to finish by one worker
with one fresh cross-game memory, and comes back as a :class:`ChunkResult`: the JSON
lines of its games plus their statistics counts, so that the parent only writes and adds
(no per-game inter-process traffic, no JSON parsing in the parent). Because a chunk's
games depend only on the schedule, every backend and worker count gives the same games.

So that a run killed mid-chunk loses no finished game, a worker on this machine also
appends each game's line, as it finishes, to a *partial file* of its own attempt at the
chunk (``ChunkJob.partial`` names the chunk; see :func:`attempt_path`); the parent folds
partial files into ``games.jsonl`` when a run stops or resumes (see
:mod:`spyglass.arena.tournament`). One file per attempt, each line written by one
``write`` call: a replay never truncates or interleaves with a file that the killed
attempt (or any process of a broken pool not yet reaped) may still be writing, and the
fold reads every attempt's complete lines and keeps each game index once.
"""

from __future__ import annotations

import collections
import contextlib
import json
import multiprocessing as mp
import os
import signal
import sys
import time
import traceback
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, replace

import numpy as np

from spyglass.arena.referee import RECORD_VERSION, play_game
from spyglass.arena.sandbox import WorkerPool
from spyglass.arena.sanitize import clip_text
from spyglass.arena.schedule import GameSpec
from spyglass.arena.spec import BotSpec
from spyglass.arena.stats import seat_counts
from spyglass.games.resistance.options import Rules

BACKENDS = ("local", "ray")


class BackendError(RuntimeError):
    """A backend that cannot run (Ray missing, a pool that keeps breaking, ...)."""


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
    counts: np.ndarray  # (games, players, K) from stats.seat_counts
    ok: np.ndarray  # (games,) bool
    spies_won: np.ndarray  # (games,) bool
    spies: list[tuple[int, ...]]
    lines: list[str]
    seconds: float


# --- playing a chunk (runs in workers) ----------------------------------------------------
_SPEC_CACHE: dict[tuple, BotSpec] = {}


def attempt_path(partial: str, attempt: int) -> str:
    """The partial file of one attempt at a chunk: ``<stem>.<attempt>.jsonl``."""
    return f"{partial}.{attempt}.jsonl"


class _PartialSink:
    """Appends whole lines to a new file, one ``write`` call per line.

    A process killed between two games leaves only complete lines; one killed inside the
    call leaves at most a torn last line, which the fold skips (that game is replayed)."""

    def __init__(self, path: str) -> None:
        flags = os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND | getattr(os, "O_CLOEXEC", 0)
        self._fd = os.open(path, flags, 0o644)

    def write_line(self, line: str) -> None:
        data = memoryview((line + "\n").encode("utf-8"))
        while data:  # a regular file takes it in one call; loop in case it does not
            data = data[os.write(self._fd, data):]

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1

    def __enter__(self) -> _PartialSink:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


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
    sink = _PartialSink(attempt_path(job.partial, job.attempt)) if job.partial else None
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


# --- backends ---------------------------------------------------------------------------------
class InlineBackend:
    """Plays chunks one after another in this process (one worker; easiest to debug)."""

    name = "inline"
    workers = 1

    def start(self) -> None:
        pass

    def imap_unordered(self, jobs: Iterable[ChunkJob]) -> Iterator[ChunkResult]:
        for job in jobs:
            yield play_chunk(job)

    def close(self, kill: bool = False) -> None:
        pass


def _worker_init() -> None:
    # Ctrl-C is for the parent, which stops the pool itself and keeps finished chunks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class LocalBackend:
    """A pool of worker processes on this machine; a killed worker is replaced.

    A chunk whose worker died is played again from its start (its games are identical),
    as a new attempt (``ChunkJob.attempt``) with a partial file of its own, up to
    ``restarts`` pool restarts; then :class:`BackendError` tells the caller to stop.

    A pool breaks asynchronously: its manager thread may notice a dead worker at any
    moment, so the break can surface from ``submit`` (between a finished chunk and the
    next submission, e.g. while the parent writes results), from a future, or from the
    start of a new pool. Each is handled the same way: chunks that finished keep their
    results, every other chunk in flight is replayed, once, on a fresh pool.
    """

    name = "local"

    def __init__(self, workers: int | None = None, restarts: int = 3) -> None:
        self.workers = max(1, workers or os.cpu_count() or 1)
        self.restarts = restarts
        self._pool: ProcessPoolExecutor | None = None

    def _new_pool(self) -> ProcessPoolExecutor:
        # On Linux, fork: workers inherit the parent's loaded bots (notebook classes and
        # file bots included) and compiled kernels, and scripts need no __main__ guard.
        # The pool starts before the progress bar's thread, so no lock is held at fork.
        ctx = mp.get_context("fork" if sys.platform.startswith("linux") else None)
        pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_worker_init)
        try:
            pool.submit(int, 0).result()  # start the processes now
        except BaseException:
            _stop_pool(pool, kill=True)
            raise
        return pool

    def start(self) -> None:
        if self._pool is None:
            self._pool = self._new_pool()

    def imap_unordered(self, jobs: Iterable[ChunkJob]) -> Iterator[ChunkResult]:
        self.start()
        todo = iter(jobs)
        inflight: dict = {}
        retry: collections.deque[ChunkJob] = collections.deque()
        restarts = 0
        window = 2 * self.workers + 1
        exhausted = False
        while True:
            broken = False
            while len(inflight) < window and (retry or not exhausted):
                if retry:
                    job = retry.popleft()
                else:
                    job = next(todo, None)
                    if job is None:
                        exhausted = True
                        break
                try:
                    inflight[self._pool.submit(play_chunk, job)] = job
                except BrokenProcessPool:  # a worker died since the last wait
                    retry.appendleft(job)
                    broken = True
                    break
            if not broken:
                if not inflight:
                    return
                done, _ = wait(inflight, return_when=FIRST_COMPLETED)
                for fut in done:
                    job = inflight.pop(fut)
                    try:
                        result = fut.result()
                    except BrokenProcessPool:
                        retry.append(replace(job, attempt=job.attempt + 1))
                        broken = True
                        continue
                    yield result
            if not broken:
                continue
            # Chunks that finished before the break keep their results; the others are
            # replayed from their start as new attempts.
            for fut in list(inflight):
                if fut.done() and not fut.cancelled() and fut.exception() is None:
                    del inflight[fut]
                    yield fut.result()
            retry.extend(replace(job, attempt=job.attempt + 1) for job in inflight.values())
            inflight.clear()
            pool = None
            while pool is None:  # a new pool may break while starting: that counts too
                restarts += 1
                pool = self._restart(restarts)
            self._pool = pool

    def _restart(self, restarts: int) -> ProcessPoolExecutor | None:
        """A fresh pool after a break (the old one's processes all stopped first), or None
        when the new pool broke while starting; BackendError after too many breaks."""
        if restarts > self.restarts:
            self.close(kill=True)
            raise BackendError(
                f"worker processes died {restarts} times; stopping (finished games "
                "are kept: continue with --resume)"
            )
        self.close(kill=True)
        try:
            return self._new_pool()
        except BrokenProcessPool:
            return None

    def close(self, kill: bool = False) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            _stop_pool(pool, kill)


def _stop_pool(pool: ProcessPoolExecutor, kill: bool) -> None:
    """Shut a pool down and wait until its processes have exited; ``kill``: at once."""
    processes = list((getattr(pool, "_processes", None) or {}).values())
    if kill:
        # Our own workers, by pid: stop chunks in progress at once.
        for proc in processes:
            if proc.is_alive():
                proc.terminate()
    pool.shutdown(wait=True, cancel_futures=True)
    for proc in processes:  # reaped: no old worker writes anything after this
        proc.join()


class RayBackend:
    """Chunks as Ray tasks: on a cluster (``address``) or a local Ray started here.

    Ray retries a task whose worker died, so a killed worker costs one chunk replay.
    Bots must be importable on every node (registry names, modules, or files present at
    the same path).
    """

    name = "ray"

    def __init__(self, workers: int | None = None, address: str | None = None) -> None:
        self.workers = workers
        self.address = address
        self._owns = False
        self._remote = None

    def start(self) -> None:
        if self._remote is not None:
            return
        try:
            import ray
        except ImportError:
            raise BackendError(
                "the ray backend needs Ray: pip install 'spyglass[ray]' (or 'ray[default]')"
            ) from None
        if not ray.is_initialized():
            kwargs: dict = {"include_dashboard": False, "log_to_driver": False}
            if self.address is None:
                kwargs["num_cpus"] = self.workers or os.cpu_count()
            try:
                ray.init(address=self.address, **kwargs)
            except Exception as exc:  # noqa: BLE001 — report any connection failure clearly
                raise BackendError(f"cannot start or join Ray at {self.address!r}: {exc}") from exc
            self._owns = True
        self._remote = ray.remote(num_cpus=1, max_retries=3)(play_chunk)
        self.workers = int(ray.cluster_resources().get("CPU", 1))

    def imap_unordered(self, jobs: Iterable[ChunkJob]) -> Iterator[ChunkResult]:
        import ray

        if self._remote is None:
            self.start()
        todo = iter(jobs)
        self._inflight: list = []
        window = 2 * max(1, self.workers) + 1
        exhausted = False
        while True:
            while not exhausted and len(self._inflight) < window:
                job = next(todo, None)
                if job is None:
                    exhausted = True
                    break
                self._inflight.append(self._remote.remote(job))
            if not self._inflight:
                return
            done, self._inflight = ray.wait(self._inflight, num_returns=1)
            try:
                yield ray.get(done[0])
            except ray.exceptions.RayError as exc:
                raise BackendError(f"a Ray task failed: {exc}") from exc

    def close(self, kill: bool = False) -> None:
        try:
            import ray
        except ImportError:
            return
        if kill:
            for ref in getattr(self, "_inflight", []):
                ray.cancel(ref, force=True)
        self._inflight = []
        if self._owns and ray.is_initialized():
            ray.shutdown()
            self._owns = False


def make_backend(name: str = "local", workers: int | None = None, address: str | None = None):
    """A backend by name: ``local`` (in-process when one worker) or ``ray``."""
    if name not in BACKENDS:
        raise BackendError(f"unknown backend {name!r}; choose one of {', '.join(BACKENDS)}")
    if workers is not None and not 1 <= workers <= 4096:
        raise BackendError(f"the number of workers must be at least 1 (and at most 4096), "
                           f"not {workers}")
    if address is not None and name != "ray":
        raise BackendError("--address is for the ray backend (--backend ray)")
    if name == "ray":
        return RayBackend(workers, address)
    if (workers or os.cpu_count() or 1) == 1:
        return InlineBackend()
    return LocalBackend(workers)
