"""Where a tournament of any game plays its games: in this process, in a local process
pool, or on Ray.

Work is cut into small chunks of games (:class:`GameChunk`): plain picklable data (the game
class and options, agent specs, seatings), so any worker can play any chunk and returns
plain game records. The local pool is :class:`concurrent.futures.ProcessPoolExecutor`
(public API only); Ray is optional (``pip install 'spyglass[ray]'``). Results come back in
completion order; the caller's statistics do not depend on it.
"""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
from collections.abc import Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass

from spyglass.arena.agent_spec import AgentSpec
from spyglass.arena.match import play_match
from spyglass.arena.rotation import Seating
from spyglass.games.base import Game

BACKENDS = ("local", "ray")


class WorkerError(RuntimeError):
    """The workers cannot run (Ray missing, a pool that keeps dying)."""


@dataclass(frozen=True)
class GameChunk:
    """Games to play in one worker, in order."""

    game_class: type[Game]
    players: int
    options: tuple[tuple[str, object], ...]
    pool: tuple[AgentSpec, ...]
    labels: tuple[str, ...]
    seatings: tuple[Seating, ...]
    time_limit: float | None


def play_chunk(chunk: GameChunk) -> list[dict]:
    """The records of a chunk's games (a bad setup becomes an error record, not a crash)."""
    try:
        return _play_chunk(chunk)
    finally:
        # Isolated agents' worker processes live for a chunk (reused across its games).
        isolation = sys.modules.get("spyglass.arena.agent_isolation")
        if isolation is not None:
            isolation.close_workers()


def _play_chunk(chunk: GameChunk) -> list[dict]:
    game = chunk.game_class(chunk.players, **dict(chunk.options))
    out = []
    for seat in chunk.seatings:
        lineup = [chunk.labels[i] for i in seat.lineup]
        book = {"tournament": {"index": seat.index, "block": seat.block, "lineup": lineup}}
        try:
            agents = [chunk.pool[i].make() for i in seat.lineup]
            result = play_match(game, agents, seat.seed, time_limit=chunk.time_limit,
                                labels=lineup, deal=seat.deal)
            out.append(result.to_record(**book))
        except Exception as exc:  # noqa: BLE001 — an agent that cannot be built is an error
            out.append({
                "format": "spyglass-game", "version": 1, **game.config(), "seed": seat.seed,
                "deal": seat.deal,
                "agents": lineup, "omniscient": [], "actions": [], "rewards": None,
                "error": {"agent": None, "seat": -1, "decision": "setup", "move": 0,
                          "value": None, "reason": f"{type(exc).__name__}: {exc}",
                          "message": f"the game could not be set up: {exc}", "detail": ""},
                "extra": {}, **book,
            })
    return out


def _ignore_sigint() -> None:
    # Ctrl-C is for the parent, which stops handing out chunks and keeps finished games.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def run_inline(chunks: Iterable[GameChunk]) -> Iterator[list[dict]]:
    """Play chunks one after another in this process."""
    for chunk in chunks:
        yield play_chunk(chunk)


def run_local(chunks: Iterable[GameChunk], workers: int) -> Iterator[list[dict]]:
    """Play chunks in a pool of ``workers`` processes, a bounded number in flight."""
    # fork on Linux: workers inherit loaded agents and compiled kernels (no __main__ guard).
    ctx = mp.get_context("fork" if sys.platform.startswith("linux") else None)
    todo = iter(chunks)
    inflight: set = set()
    with ProcessPoolExecutor(workers, mp_context=ctx, initializer=_ignore_sigint) as pool:
        try:
            while True:
                while len(inflight) < 2 * workers + 1:
                    chunk = next(todo, None)
                    if chunk is None:
                        break
                    inflight.add(pool.submit(play_chunk, chunk))
                if not inflight:
                    return
                done, inflight = wait(inflight, return_when=FIRST_COMPLETED)
                for fut in done:
                    try:
                        yield fut.result()
                    except BrokenProcessPool:
                        raise WorkerError(
                            "a worker process died; finished games are kept (resume the run)"
                        ) from None
        finally:
            pool.shutdown(wait=True, cancel_futures=True)


def run_ray(chunks: Iterable[GameChunk], workers: int | None,
            address: str | None) -> Iterator[list[dict]]:
    """Play chunks as Ray tasks (a local Ray, or the cluster at ``address``)."""
    try:
        import ray
    except ImportError:
        raise WorkerError("the ray backend needs Ray: pip install 'spyglass[ray]'") from None
    owns = not ray.is_initialized()
    if owns:
        kwargs: dict = {"include_dashboard": False, "log_to_driver": False}
        if address is None:
            kwargs["num_cpus"] = workers or os.cpu_count()
        try:
            ray.init(address=address, **kwargs)
        except Exception as exc:  # noqa: BLE001 — report any connection failure clearly
            raise WorkerError(f"cannot start or join Ray at {address!r}: {exc}") from exc
    remote = ray.remote(num_cpus=1, max_retries=3)(play_chunk)
    window = 2 * int(ray.cluster_resources().get("CPU", 1)) + 1
    todo = iter(chunks)
    inflight: list = []
    try:
        while True:
            while len(inflight) < window:
                chunk = next(todo, None)
                if chunk is None:
                    break
                inflight.append(remote.remote(chunk))
            if not inflight:
                return
            done, inflight = ray.wait(inflight, num_returns=1)
            try:
                yield ray.get(done[0])
            except ray.exceptions.RayError as exc:
                raise WorkerError(f"a Ray task failed: {exc}") from exc
    finally:
        for ref in inflight:
            ray.cancel(ref, force=True)
        if owns and ray.is_initialized():
            ray.shutdown()


def run_chunks(chunks: Iterable[GameChunk], backend: str = "local", workers: int | None = None,
               address: str | None = None) -> Iterator[list[dict]]:
    """Play ``chunks`` on ``backend``; yields each chunk's records as it finishes."""
    if backend not in BACKENDS:
        raise WorkerError(f"unknown backend {backend!r}; choose one of {', '.join(BACKENDS)}")
    if workers is not None and workers < 1:
        raise WorkerError(f"the number of workers must be at least 1, not {workers}")
    if address is not None and backend != "ray":
        raise WorkerError("an address is for the ray backend")
    if backend == "ray":
        return run_ray(chunks, workers, address)
    n = workers or os.cpu_count() or 1
    return run_inline(chunks) if n == 1 else run_local(chunks, n)
