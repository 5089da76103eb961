"""Calling a player's code under a time limit, for any referee.

A decision slower than the limit is invalid (checked when it returns). A decision that
never returns must not hang a game or a tournament worker, so a POSIX interval timer
(``SIGALRM``, main thread only) interrupts it at :func:`hard_stop_after` seconds: the
same timer and the same words for both referees (:mod:`spyglass.arena.match` and the
Resistance referee :mod:`spyglass.resistance.arena.referee`). Where no timer can be armed
(other threads, Windows) the limit is still checked on return.
"""

from __future__ import annotations

import signal
import threading
import time
from collections.abc import Callable
from typing import Any

import numpy as np

#: The longest time limit a referee accepts (a day).
MAX_TIME_LIMIT = 24 * 3600.0


def check_time_limit(limit: Any, what: str = "time_limit") -> float | None:
    """The one time-limit rule of every referee and command: None, or a positive finite
    number of seconds (at most a day)."""
    if limit is None:
        return None
    if isinstance(limit, bool) or not isinstance(limit, (int, float, np.integer, np.floating)):
        raise TypeError(f"{what} must be a number of seconds or None, not {limit!r}")
    limit = float(limit)
    if not 0 < limit <= MAX_TIME_LIMIT:
        raise ValueError(f"{what} must be positive (seconds, at most {MAX_TIME_LIMIT:g}), "
                         f"not {limit:g}")
    return limit


class Overtime(BaseException):
    """Raised inside a call that overran its hard stop (a BaseException, so that player code
    catching ``Exception`` cannot swallow it)."""


def hard_stop_after(time_limit: float) -> float:
    """When a call slower than ``time_limit`` is interrupted rather than waited for: a
    generous margin, since merely slow answers are already refused on return."""
    return 2.0 * time_limit + 1.0


def can_interrupt() -> bool:
    """Whether a timer can interrupt a call here (POSIX, main thread)."""
    return hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()


def _overtime(signum, frame):  # noqa: ARG001 — signal handler signature
    raise Overtime


def arm(time_limit: float) -> tuple:
    """Arm the hard stop of a call limited to ``time_limit`` (POSIX, main thread: see
    :func:`can_interrupt`); hand the result to :func:`disarm` when the call ends."""
    previous = signal.signal(signal.SIGALRM, _overtime)
    outer = signal.setitimer(signal.ITIMER_REAL, hard_stop_after(time_limit))
    return previous, outer


def disarm(armed: tuple, spent: float) -> None:
    """Stop the hard stop armed by :func:`arm`; a timer someone outside had armed is
    re-armed with its remaining time (``spent`` seconds went by)."""
    previous, outer = armed
    signal.setitimer(signal.ITIMER_REAL, 0)
    signal.signal(signal.SIGALRM, previous)
    if outer[0] > 0:
        signal.setitimer(signal.ITIMER_REAL, max(outer[0] - spent, 1e-6), outer[1])


def stopped_reason(time_limit: float) -> str:
    """Why a call was stopped at the hard stop (:class:`Overtime`)."""
    return (f"did not answer within {hard_stop_after(time_limit):g}s and was stopped "
            f"(time limit {time_limit:g}s)")


def slow_reason(spent: float, time_limit: float) -> str:
    """Why an answer that came back after ``time_limit`` seconds is refused."""
    return f"took {spent:.3f}s, over the time limit of {time_limit:g}s"


def timed_call(fn: Callable, args: tuple, time_limit: float | None) -> tuple[Any, float]:
    """``fn(*args)`` and the seconds it took; raises :class:`Overtime` at the hard stop."""
    armed = arm(time_limit) if time_limit is not None and can_interrupt() else None
    t0 = time.perf_counter()
    try:
        value = fn(*args)
    finally:
        spent = time.perf_counter() - t0
        if armed is not None:
            disarm(armed, spent)
    return value, spent
