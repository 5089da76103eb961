"""Bots think in worker processes, never in the web server's event loop.

Why processes of our own rather than a ``ProcessPoolExecutor``: an agent keeps state
across a whole game (its view, its search, its beliefs), so a table's bots must live in
one process for the game, and a bot that hangs must be stoppable -- a pool can neither
pin a task to a process nor kill one. A :class:`WorkerPool` keeps a few long-lived
processes (``multiprocessing``, spawn context: safe beside the server's threads); a
table is pinned to one of them. Each request (start a table's bots, tell them the moves,
ask one for its action, finish) is a message on a pipe, answered within a time limit.
A worker that does not answer in time is killed and restarted: its tables' bots are
reported as failed, and the table replaces them with random agents so the game goes on.
"""

from __future__ import annotations

import multiprocessing as mp
import threading
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from spyglass.arena.match import check_action


class WorkerDied(Exception):
    """A worker did not answer in time (or crashed) and was restarted."""


def _serve(conn: Any) -> None:
    """The worker process: a loop of requests over ``conn`` (see :class:`Worker`)."""
    from spyglass.games import registry
    from spyglass.web.seats import make_agent

    tables: dict[str, dict[int, Any]] = {}
    games: dict[str, Any] = {}
    while True:
        try:
            op, table, payload = conn.recv()
        except EOFError:
            return
        errors: dict[int, str] = {}
        out: Any = None
        if op == "start":
            tables[table] = {}
        agents = tables.get(table, {})

        def call(seat: int, fn: Any, *args: Any, errors=errors, agents=agents) -> Any:
            try:
                return fn(*args)
            except Exception as exc:  # noqa: BLE001 — reported to the table, not raised
                errors[seat] = f"{type(exc).__name__}: {exc}"
                agents.pop(seat, None)
                traceback.print_exc()
                return None

        if op == "start":
            game = registry.make(payload["game"], payload["players"], **payload["options"])
            games[table] = game
            for seat, name, settings, classic, view, seed in payload["seats"]:
                try:
                    agents[seat] = make_agent(name, settings, classic)
                except Exception as exc:  # noqa: BLE001
                    errors[seat] = f"{type(exc).__name__}: {exc}"
                    continue
                call(seat, agents[seat].start, game, seat, view, seed)
        elif op == "step":
            for seat, obs, actor, view in payload["observe"]:
                if seat in agents:
                    call(seat, agents[seat].observe, obs, actor, view)
            act = payload.get("act")
            if act is not None:
                seat, view, legal = act
                if seat in agents:
                    t0 = time.perf_counter()
                    answer = call(seat, agents[seat].act, view, legal)
                    spent = time.perf_counter() - t0
                    if seat in agents:
                        action, why = check_action(answer, legal)
                        if action is None:
                            errors[seat] = f"answered {answer!r}: {why}"
                            agents.pop(seat, None)
                        out = {"action": action, "seconds": spent}
        elif op == "finish":
            extras = {}
            for seat, agent in list(agents.items()):
                call(seat, agent.finish, payload["rewards"])
                fn = getattr(agent, "record_extra", None)
                if fn is not None and seat in agents:
                    value = call(seat, fn)
                    if value is not None:
                        extras[seat] = value
            out = extras
            tables.pop(table, None)
            games.pop(table, None)
        elif op == "drop":
            tables.pop(table, None)
            games.pop(table, None)
        elif op == "ping":
            out = "pong"
        conn.send((out, errors))


class Worker:
    """One bot process and the pipe to it; one request at a time."""

    def __init__(self, ctx: Any) -> None:
        self.ctx = ctx
        self.lock = threading.Lock()
        self.closed = False
        self._spawn()

    def _spawn(self) -> None:
        self.conn, child = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_serve, args=(child,), daemon=True)
        self.proc.start()
        child.close()
        self.generation = getattr(self, "generation", 0) + 1

    def request(self, op: str, table: str, payload: Any, timeout: float) -> tuple[Any, dict]:
        """Send one request and wait at most ``timeout`` s; :class:`WorkerDied` otherwise."""
        with self.lock:
            try:
                self.conn.send((op, table, payload))
                if self.conn.poll(timeout):
                    return self.conn.recv()
                why = f"did not answer within {timeout:g}s"
            except (EOFError, OSError, BrokenPipeError) as exc:
                why = f"crashed ({type(exc).__name__})"
            if self.closed:  # the server is stopping: no new process
                raise WorkerDied(why)
            self.restart()
            raise WorkerDied(why)

    def restart(self) -> None:
        """Kill the process (it holds only bots) and start a fresh one."""
        try:
            self.proc.kill()
            self.proc.join(5)
        finally:
            self.conn.close()
            self._spawn()

    def close(self) -> None:
        self.closed = True
        self.proc.kill()
        self.proc.join(5)
        self.conn.close()


class WorkerPool:
    """A few bot processes; tables are pinned to one by :meth:`pick` (least loaded)."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"a worker pool needs at least one process, not {size}")
        ctx = mp.get_context("spawn")
        self.workers = [Worker(ctx) for _ in range(size)]
        self.load = [0] * size
        # One thread per worker: its requests are serialised anyway, a slow worker never
        # holds up another's, and the event loop never blocks on a pipe.
        self.threads = [ThreadPoolExecutor(max_workers=1, thread_name_prefix=f"bots{i}")
                        for i in range(size)]

    def pick(self) -> int:
        i = min(range(len(self.workers)), key=self.load.__getitem__)
        self.load[i] += 1
        return i

    def release(self, i: int) -> None:
        self.load[i] = max(0, self.load[i] - 1)

    async def request(self, i: int, op: str, table: str, payload: Any,
                      timeout: float) -> tuple[Any, dict]:
        import asyncio

        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self.threads[i], self.workers[i].request, op, table, payload, timeout
        )

    def close(self) -> None:
        for w in self.workers:
            w.close()
        for t in self.threads:
            t.shutdown(wait=False, cancel_futures=True)
