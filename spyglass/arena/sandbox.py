"""Run untrusted agent code in its own worker process, behind a tiny validated protocol.

Why a process: inside the referee's process a bot can walk ``sys._getframe()`` up to the
referee, scan ``gc.get_objects()`` for other bots' roles, call ``os._exit``, ignore
``SIGALRM`` or loop in C code where no Python-level watchdog can reach it. A worker
process started fresh (``subprocess``, a new interpreter: nothing is inherited from the
referee's memory, unlike ``fork``) holds only what the parent sends it, and the parent
can always kill it.

Protocol (game-neutral): one JSON array per line. The parent sends
``[method, args]``; the worker answers, in order, ``["ok", value, seconds]`` or
``["err", kind, message, detail]``. Calls whose answer is not needed at once
(notifications) are *posted*: they are sent together with the next call, in one write
(issue 27: one wake-up of the worker per decision, not one per notification), and their
answers are read with that call's, which saves a round trip each. The first call,
``__init__``, names a *host* (``"package.module:function"``) that the worker imports and
calls with plain arguments to build the object that handles every later call:
``handler.call(method, args) -> plain answer``. The API-specific code (a :class:`Host`:
:mod:`spyglass.arena.agent_isolation` for agents, :mod:`spyglass.resistance.arena.isolation`
for The Resistance's bots) is such a host. Both sides
check the shape of every message and cap its size; the parent trusts nothing it reads.

Warnings: the worker's stderr goes nowhere, so Python warnings that the agent's code
raises (``warnings.warn``, a ``DeprecationWarning`` of a library it calls, a
``SyntaxWarning`` while its file compiles) are collected there, after the worker's
filters have had their say (so a warning repeated at the same place is sent once, as in
process), and sent with the call's answer as an optional last element, a list of
``[category, message, filename, lineno]``. The parent re-emits each through its own
``warnings`` machinery, prefixed with the agent's name (see :meth:`Worker.call`).

Time: :meth:`Worker.call` waits at most ``timeout`` seconds, then kills the worker's
whole process group (SIGKILL cannot be caught or ignored). A worker that exits, crashes
or answers garbage is reported as a :class:`SandboxError` and is dead from then on.

Run as ``python -m spyglass.arena.sandbox`` this module is the worker's main loop.
"""

from __future__ import annotations

import builtins
import collections
import json
import os
import select
import signal
import subprocess
import sys
import time
import traceback
import warnings
from pathlib import Path
from typing import Any, ClassVar

from spyglass.arena.sanitize import NotPlain, plain

#: A decision may not take longer than this when no time limit is given (seconds).
DEFAULT_TIME_LIMIT = 10.0
#: Address-space limit of a worker (bytes): a bot cannot exhaust the machine's memory.
DEFAULT_MEMORY_LIMIT = 4 << 30
#: Largest message either side accepts (bytes, one line).
MAX_MESSAGE = 1 << 20
#: Seconds a worker may take to start and build its host (imports included).
START_TIMEOUT = 60.0
#: Most warnings a worker sends with one answer (the rest are counted in one more).
MAX_WARNINGS = 20
# One encoder and decoder for every message, both sides (``json.dumps`` with options
# builds a new encoder per call; ``json.loads`` of bytes guesses their encoding first).
_encode = json.JSONEncoder(separators=(",", ":"), allow_nan=False).encode
_decode = json.JSONDecoder().decode


#: Which players a referee runs in worker processes (one policy for every game and API):
#: ``auto`` those from Python files (code from outside any installed package), ``all``,
#: or ``none``.
ISOLATION_MODES = ("auto", "all", "none")


def check_isolation(mode: object) -> str:
    """``mode`` if it is one of :data:`ISOLATION_MODES`, else a ValueError naming them."""
    if not isinstance(mode, str) or mode not in ISOLATION_MODES:
        raise ValueError(f"isolate must be one of {', '.join(ISOLATION_MODES)}, not {mode!r}")
    return mode


def isolates(mode: str, from_file: bool) -> bool:
    """Whether ``mode`` runs a player in a worker process; ``from_file``: its code comes
    from a Python file (registered names, installed modules and Python objects handed
    over in the caller's process are trusted: they already run there)."""
    check_isolation(mode)
    return mode == "all" or (mode == "auto" and from_file)


class SandboxError(Exception):
    """An isolated call failed; ``reason`` says how, for an error record.

    ``kind``: ``raised`` (the agent's code raised; ``detail`` is its traceback),
    ``timeout`` (killed after the time limit), ``died`` (the worker exited or crashed),
    ``protocol`` (an answer that is not a valid message), ``unusable`` (the agent's
    answer is not a plain bounded value, see :mod:`spyglass.arena.sanitize`).
    """

    def __init__(self, kind: str, reason: str, detail: str = "") -> None:
        self.kind, self.reason, self.detail = kind, reason[:1000], detail[-8000:]
        #: The call that failed, when it was an earlier posted one (see Worker.post).
        self.method: str | None = None
        super().__init__(self.reason)


def _package_root() -> str:
    return str(Path(__file__).resolve().parents[2])


class Worker:
    """One worker process hosting one untrusted agent (parent side).

    ``host`` is ``"module:function"``; ``init`` its plain-JSON argument. Raises
    :class:`SandboxError` if the worker cannot start or build its host. ``name`` (the
    agent's, for people) prefixes the warnings the worker forwards.
    """

    def __init__(
        self,
        host: str,
        init: Any,
        *,
        memory_limit: int | None = DEFAULT_MEMORY_LIMIT,
        start_timeout: float = START_TIMEOUT,
        name: str = "isolated agent",
    ) -> None:
        self.name = name
        env = dict(os.environ)
        # The worker imports the same Spyglass as this process, whatever the install.
        env["PYTHONPATH"] = os.pathsep.join(
            p for p in (_package_root(), env.get("PYTHONPATH", "")) if p)
        env["PYTHONHASHSEED"] = "0"  # reproducible set/dict order inside agents
        self.proc = subprocess.Popen(  # noqa: S603 — our own interpreter and module
            [sys.executable, "-m", "spyglass.arena.sandbox"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
            start_new_session=True,  # own process group: no terminal Ctrl-C, killable as one
            close_fds=True, env=env,
        )
        self._out = self.proc.stdin
        self._in = self.proc.stdout.fileno()
        os.set_blocking(self._in, False)
        self._buf = bytearray()
        self._pending: collections.deque = collections.deque()
        self._outbox: list[bytes] = []  # posted calls not yet written (see :meth:`post`)
        self.dead: str | None = None
        self.calls = 0
        hello = self.call("__init__", [host, init, memory_limit], timeout=start_timeout)
        #: What the host said of itself once it was built (:meth:`Host.hello`): a plain
        #: dict, untrusted like every answer (an empty dict when it said nothing).
        self.hello: dict = hello if type(hello) is dict else {}

    @property
    def alive(self) -> bool:
        return self.dead is None and self.proc.poll() is None

    def post(self, method: str, args: list, *, timeout: float,
             limit: float | None = None) -> None:
        """Send a call whose answer is not needed now (a notification): its answer is read,
        and any failure of it raised, by the next :meth:`call` or :meth:`settle`.

        Pipelining notifications saves a round trip each, and they are written with the
        next :meth:`call` or :meth:`settle` (one write, one wake-up of the worker); the
        worker still runs and answers every call in order. ``timeout`` (kill) and ``limit``
        (too slow) apply to this call as to one sent by :meth:`call`.
        """
        self._send(method, args)
        self._pending.append((method, timeout, limit))

    def call(self, method: str, args: list, *, timeout: float,
             limit: float | None = None) -> Any:
        """Send one call and wait for its plain answer (and those of posted calls first).

        The worker is killed when the answers take longer than the sum of the calls'
        ``timeout``; a call that the worker reports slower than ``limit`` s fails.
        """
        self._send(method, args)
        self._pending.append((method, timeout, limit))
        self._flush(method)
        return self._collect()

    def settle(self) -> None:
        """Wait for the answers of every posted call; raise the first failure."""
        if self._pending:
            self._flush(self._pending[-1][0])
            self._collect()

    def _send(self, method: str, args: list) -> None:
        if self.dead is not None:
            err = SandboxError("died", f"its worker process is no longer running ({self.dead})")
            err.method = method
            raise err
        try:
            data = _encode([method, args])
        except (TypeError, ValueError) as exc:  # a bug of the caller, not of the agent
            raise ValueError(f"cannot send {method!r} to a worker: {exc}") from None
        self._outbox.append(data.encode() + b"\n")
        self.calls += 1

    def _flush(self, method: str) -> None:
        """Write every call sent since the last flush, in one go."""
        data, self._outbox = b"".join(self._outbox), []
        try:
            self._out.write(data)
            self._out.flush()
        except (BrokenPipeError, OSError):
            if self.proc.poll() is not None:
                return  # it exited: reading its answers names the call it died in
            err = self._died("exited")
            err.method = method
            raise err from None

    def _collect(self) -> Any:
        total = sum(t for _, t, _ in self._pending)
        deadline = time.monotonic() + total
        first: SandboxError | None = None
        value = None
        forwarded: list[list] = []
        try:
            while self._pending:
                method, timeout, limit = self._pending.popleft()
                try:
                    value = self._answer(self._read_line(deadline, total), limit, forwarded)
                except SandboxError as err:
                    err.method = method
                    if self.dead is not None:  # killed or gone: nothing more will come
                        self._pending.clear()
                        raise
                    first = first or err
        finally:
            # Every answer is read first: a warning turned into an error by the caller's
            # filters (``-W error``) then leaves no answer behind in the pipe.
            self._reemit(forwarded)
        if first is not None:
            raise first
        return value

    def _reemit(self, forwarded: list[list]) -> None:
        """Warn, in this process, each warning the worker sent (see the module docstring)."""
        for category, message, filename, lineno in forwarded:
            cls = getattr(builtins, category, None)
            if not (isinstance(cls, type) and issubclass(cls, Warning)):
                # The agent's own class cannot be loaded here (its code is not trusted).
                cls, message = UserWarning, f"{category}: {message}"
            warnings.warn_explicit(f"{self.name}: {message}", cls, filename, lineno,
                                   module=f"isolated.{self.name}")

    def _read_line(self, deadline: float, timeout: float) -> bytes:
        while True:
            cut = self._buf.find(b"\n")
            if cut >= 0:
                line = bytes(self._buf[:cut])
                del self._buf[: cut + 1]
                return line
            if len(self._buf) > MAX_MESSAGE:
                self.kill("answer too large")
                raise SandboxError("protocol", f"sent an answer over {MAX_MESSAGE} bytes "
                                   "and was stopped")
            left = deadline - time.monotonic()
            if left <= 0:
                self.kill("timeout")
                raise SandboxError(
                    "timeout", f"did not answer within {timeout:g}s and was stopped (its "
                    "worker process was killed)")
            ready, _, _ = select.select([self._in], [], [], left)
            if not ready:
                continue
            try:
                chunk = os.read(self._in, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                raise self._died("exited")
            self._buf += chunk

    def _answer(self, line: bytes, limit: float | None, forwarded: list[list]) -> Any:
        try:
            msg = _decode(line.decode())  # not UTF-8: a ValueError too
        except (ValueError, RecursionError):
            self.kill("garbage")
            raise SandboxError("protocol", "answered with something that is not a message "
                               "and was stopped") from None
        if type(msg) is list and len(msg) in (4, 5) and msg[0] in ("ok", "err"):
            if len(msg) == (4 if msg[0] == "ok" else 5):  # warnings came with the answer
                sent = msg.pop()
                if not _valid_warnings(sent):
                    self.kill("garbage")
                    raise SandboxError("protocol", "sent malformed warnings and was stopped")
                forwarded.extend(sent)
        if (type(msg) is list and len(msg) == 3 and msg[0] == "ok"
                and type(msg[2]) in (int, float)):
            if limit is not None and msg[2] > limit:
                raise SandboxError("slow", f"took {msg[2]:.3f}s, over the time limit of "
                                   f"{limit:g}s")
            return msg[1]
        if (type(msg) is list and len(msg) == 4 and msg[0] == "err"
                and all(type(x) is str for x in msg[1:])):
            kind = msg[1] if msg[1] in ("raised", "refused", "unusable") else "raised"
            raise SandboxError(kind, msg[2], msg[3])
        self.kill("garbage")
        raise SandboxError("protocol", "answered with a malformed message and was stopped")

    def _died(self, what: str) -> SandboxError:
        try:
            code = self.proc.wait(timeout=1.0)
        except subprocess.TimeoutExpired:
            code = None
        self.kill(what)
        how = ("exited" if code is None else
               f"exited with code {code}" if code >= 0 else f"was killed by signal {-code}")
        return SandboxError("died", f"its worker process {how}")

    def kill(self, why: str = "stopped") -> None:
        """Stop the worker and everything it started (its process group), at once."""
        if self.dead is None:
            self.dead = why
        self._pending.clear()
        self._outbox = []
        if self.proc.returncode is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
            try:
                self.proc.wait(timeout=5.0)
            except subprocess.TimeoutExpired:  # pragma: no cover — SIGKILL always works
                pass
        for fh in (self.proc.stdin, self.proc.stdout):
            try:
                fh.close()
            except OSError:
                pass

    close = kill

    def __del__(self) -> None:
        proc = getattr(self, "proc", None)
        if proc is not None and proc.returncode is None:
            self.kill("collected")


def _valid_warnings(sent: Any) -> bool:
    """Whether a worker's warnings have the shape of the protocol (see the docstring)."""
    return (type(sent) is list and len(sent) <= MAX_WARNINGS + 1 and all(
        type(w) is list and len(w) == 4 and all(type(x) is str for x in w[:3])
        and type(w[3]) is int and len(w[0]) <= 200 and len(w[1]) <= 2000
        and len(w[2]) <= 1000 for w in sent))


class WorkerPool:
    """Live workers by key, reused across games (one process per agent per chunk).

    A dead worker (killed after an overrun, crashed) is replaced on the next :meth:`get`.
    """

    def __init__(self, **worker_options: Any) -> None:
        self._workers: dict[Any, Worker] = {}
        self._options = worker_options

    def get(self, key: Any, host: str, init: Any, name: str = "isolated agent") -> Worker:
        worker = self._workers.get(key)
        if worker is None or not worker.alive:
            if worker is not None:
                worker.kill()
            worker = self._workers[key] = Worker(host, init, name=name, **self._options)
        return worker

    def discard(self, key: Any) -> Worker | None:
        """Forget the worker of ``key`` (it must not serve another game) and return it."""
        return self._workers.pop(key, None)

    def close(self) -> None:
        for worker in self._workers.values():
            worker.kill("closed")
        self._workers.clear()

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()


# --- the worker side ------------------------------------------------------------------------
#: How a player's ``record_extra`` (its own data for the game's record) is sent, in every API.
RECORD_EXTRA = {"max_items": 10_000}


class Host:
    """The worker side of an isolated player, what every API's host shares: a call is one
    of :attr:`ANSWERS`'s methods (anything else is refused), :meth:`run` plays it, and its
    answer is sent as the method's entry says."""

    #: method -> how its answer is sent: keyword bounds of
    #: :func:`~spyglass.arena.sanitize.plain`, a function of the answer, or None (a
    #: notification: nothing is sent back).
    ANSWERS: ClassVar[dict[str, Any]] = {}

    def call(self, method: str, args: list) -> Any:
        if method not in self.ANSWERS:
            raise ValueError(f"unknown call {method!r}")
        answer = self.run(method, args)
        how = self.ANSWERS[method]
        if how is None:
            return None
        return how(answer) if callable(how) else plain(answer, **how)

    def run(self, method: str, args: list) -> Any:
        """Play one call on the player; its answer (made plain by :meth:`call`)."""
        raise NotImplementedError

    def hello(self) -> dict | None:
        """What the parent learns once, as the answer of ``__init__`` (e.g. which optional
        calls the player can answer at all, so that the parent need not ask every game).
        The parent may trust it only where a lie could cost the player alone."""
        return None


def _limit_memory(limit: Any) -> None:
    if type(limit) is not int or limit <= 0:
        return
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    except (ImportError, ValueError, OSError):  # pragma: no cover — not on this platform
        pass


def _die_with_parent() -> None:
    """Linux: the kernel kills this worker when the parent dies, even mid-``sleep``."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None, use_errno=True).prctl(1, signal.SIGKILL)  # PR_SET_PDEATHSIG
    except (OSError, AttributeError):  # pragma: no cover
        return
    if os.getppid() == 1:  # the parent died before prctl took effect
        os._exit(1)


_WARNINGS: list[list] = []  # warnings shown in this worker since the last answer
_DROPPED = [0]


def _keep_warning(message: Any, category: type, filename: str, lineno: int,
                  file: Any = None, line: Any = None) -> None:
    """``warnings.showwarning`` of a worker: keep the warning for the next answer."""
    if len(_WARNINGS) >= MAX_WARNINGS:
        _DROPPED[0] += 1
        return
    try:
        name, text = getattr(category, "__name__", "Warning"), str(message)
    except BaseException:  # noqa: BLE001 — an agent's warning whose str() fails
        name, text = "Warning", "(a warning that could not be shown)"
    _WARNINGS.append([name[:200], text[:2000], str(filename)[:1000],
                      lineno if type(lineno) is int else 0])


def _take_warnings() -> list[list]:
    sent = list(_WARNINGS)
    if _DROPPED[0]:
        sent.append(["RuntimeWarning", f"{_DROPPED[0]} more warning(s) in this call were "
                     "not forwarded", "<isolated worker>", 0])
    _WARNINGS.clear()
    _DROPPED[0] = 0
    return sent


def _serve() -> None:  # pragma: no cover — runs in the worker process (tested end to end)
    _die_with_parent()
    warnings.showwarning = _keep_warning  # stderr goes nowhere: warnings go to the parent
    # The protocol gets private copies of stdin/stdout; the agent's prints go nowhere.
    proto_in, proto_out = os.dup(0), os.dup(1)
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(devnull, 1)
    sys.stdin = open(os.devnull)  # noqa: SIM115
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's business
    reader = os.fdopen(proto_in, "rb")
    writer = os.fdopen(proto_out, "wb")
    handler = None

    def reply(msg: list) -> None:
        if _WARNINGS or _DROPPED[0]:
            msg = [*msg, _take_warnings()]
        try:
            data = _encode(msg).encode()
        except (TypeError, ValueError) as exc:
            data = json.dumps(["err", "raised", f"returned a value that cannot be sent: "
                               f"{exc}"[:1000], ""]).encode()
        if len(data) > MAX_MESSAGE:
            data = json.dumps(["err", "raised", "returned a value that is too large", ""]
                              ).encode()
        writer.write(data + b"\n")
        writer.flush()

    while True:
        line = reader.readline(MAX_MESSAGE + 1)
        if not line:
            return
        try:
            msg = _decode(line.decode())
            if not (type(msg) is list and len(msg) == 2 and type(msg[0]) is str
                    and type(msg[1]) is list):
                raise ValueError("malformed call")
        except (ValueError, RecursionError):
            reply(["err", "refused", "the worker received a malformed call", ""])
            continue
        method, args = msg
        started = time.perf_counter()
        try:
            if method == "__init__":
                host, init, memory_limit = args
                _limit_memory(memory_limit)
                module_name, _, fn_name = host.partition(":")
                import importlib

                handler = getattr(importlib.import_module(module_name), fn_name)(init)
                hello = getattr(handler, "hello", None)
                answer = plain(hello(), max_items=64, max_depth=2) if hello else None
            elif handler is None:
                raise RuntimeError("the worker was not initialised")
            else:
                answer = handler.call(method, args)
        except NotPlain as exc:  # the agent answered with something no referee may use
            reply(["err", "unusable", str(exc)[:1000], ""])
            continue
        except BaseException as exc:  # noqa: BLE001 — whatever the agent does, answer
            try:
                text = f"raised {type(exc).__name__}: {exc}"
            except BaseException:  # noqa: BLE001
                text = f"raised {type(exc).__name__}"
            try:
                detail = traceback.format_exc()
            except BaseException:  # noqa: BLE001
                detail = ""
            reply(["err", "raised", text[:1000], detail[-8000:]])
            continue
        reply(["ok", answer, time.perf_counter() - started])


if __name__ == "__main__":  # pragma: no cover
    _serve()
