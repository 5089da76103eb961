"""Where tournament chunks are played: in this process, a local process pool, or Ray.

One backend path for every game: a *job* is a small picklable dataclass describing a chunk
of games, with an ``attempt`` field (how many times it was handed out before), and
``play(job)`` is a module-level function of the game's table that plays it in a worker
(:mod:`spyglass.resistance.arena.chunks` for The Resistance,
:mod:`spyglass.arena.game_chunks` for the other games). Results come back in completion
order; the engine (:mod:`spyglass.arena.tournament`) does not depend on that order.

A chunk whose worker died is played again from its start as a new attempt (its games are
the same: they depend only on the schedule); the Resistance's chunks write one partial
file per attempt (see :mod:`spyglass.arena.results_dir`), so a replay never truncates or
interleaves with a file that the killed attempt may still be writing.
"""

from __future__ import annotations

import collections
import ctypes
import multiprocessing as mp
import os
import signal
import sys
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import replace
from typing import TypeVar

BACKENDS = ("local", "ray")
_PR_SET_PDEATHSIG = 1  # <linux/prctl.h>
Job = TypeVar("Job")
R = TypeVar("R")


class BackendError(RuntimeError):
    """A backend that cannot run (Ray missing, a pool that keeps breaking, ...)."""


class InlineBackend:
    """Plays chunks one after another in this process (one worker; easiest to debug)."""

    name = "inline"
    workers = 1

    def start(self) -> None:
        pass

    def imap_unordered(self, jobs: Iterable[Job], play: Callable[[Job], R]) -> Iterator[R]:
        for job in jobs:
            yield play(job)

    def close(self, kill: bool = False) -> None:
        pass


def _worker_init(parent: int) -> None:
    # Ctrl-C is for the parent, which stops the pool itself and keeps finished chunks.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _die_with(parent)


def _die_with(parent: int) -> None:
    """End this worker when the process that started it dies (Linux).

    A parent killed outright (SIGTERM, SIGKILL, the out-of-memory killer) cannot close its
    pool; its workers would play on for nobody, using the cores and holding the results
    directory's lock, until their chunks ran out. Their finished games are in the partial
    files already, so ending them loses only games in progress.
    """
    if not sys.platform.startswith("linux"):
        return
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)
    except (OSError, AttributeError):  # no libc prctl: workers end with their chunks
        return
    if os.getppid() != parent:  # the parent died before prctl took effect
        os._exit(1)


class LocalBackend:
    """A pool of worker processes on this machine; a killed worker is replaced.

    A chunk whose worker died is played again from its start (its games are identical),
    as a new attempt (the job's ``attempt``) with a partial file of its own, up to
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
        self._others: frozenset = frozenset()  # this process's children not of the pool

    def _new_pool(self) -> ProcessPoolExecutor:
        # On Linux, fork: workers inherit the parent's loaded bots (notebook classes and
        # file bots included) and compiled kernels, and scripts need no __main__ guard.
        # The pool starts before the progress bar's thread, so no lock is held at fork.
        ctx = mp.get_context("fork" if sys.platform.startswith("linux") else None)
        # The pool's workers are the children this process gains from here on: known by
        # the public multiprocessing.active_children(), not the pool's private fields.
        self._others = frozenset(mp.active_children())
        pool = ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_worker_init,
                                   initargs=(os.getpid(),))
        try:
            pool.submit(int, 0).result()  # start the processes now
        except BaseException:
            _stop_pool(pool, self._others, kill=True)
            raise
        return pool

    def start(self) -> None:
        if self._pool is None:
            self._pool = self._new_pool()

    def imap_unordered(self, jobs: Iterable[Job], play: Callable[[Job], R]) -> Iterator[R]:
        self.start()
        todo = iter(jobs)
        inflight: dict = {}
        retry: collections.deque[Job] = collections.deque()
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
                    inflight[self._pool.submit(play, job)] = job
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
            _stop_pool(pool, self._others, kill)


def _stop_pool(pool: ProcessPoolExecutor, others: frozenset, kill: bool) -> None:
    """Shut a pool down and wait until its processes have exited; ``kill``: at once.

    The pool's processes are this process's children that are not in ``others`` (those
    it had before the pool started)."""
    processes = [p for p in mp.active_children() if p not in others]
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
        self._remote: dict | None = None

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
        self._remote = {}  # play function -> its Ray remote function
        self.workers = int(ray.cluster_resources().get("CPU", 1))

    def imap_unordered(self, jobs: Iterable[Job], play: Callable[[Job], R]) -> Iterator[R]:
        import ray

        if self._remote is None:
            self.start()
        remote = self._remote.get(play)
        if remote is None:
            remote = self._remote[play] = ray.remote(num_cpus=1, max_retries=3)(play)
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
                self._inflight.append(remote.remote(job))
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
