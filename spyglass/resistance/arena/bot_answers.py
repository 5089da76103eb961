"""A 2012 Bot-API bot's answers and failures, judged one way wherever the bot plays.

Why: a classic :class:`~spyglass.resistance.bots.base.Bot` plays in two places -- the Resistance
referee (:mod:`spyglass.resistance.arena.referee`, tournaments and ``spyglass game``) and the
game-general referee through :class:`~spyglass.resistance.arena.bot_agent.BotAgent` (the web
tables). Both must refuse the same answers with the same words: a team that is not a
collection of distinct seats of the right size, a vote or card that is not a bool, a
value that cannot be copied into plain data, an exception. This module holds those checks
and the :class:`BotError` that names the bot, seat, decision and value.
"""

from __future__ import annotations

import traceback
from typing import Any

import numpy as np

from spyglass.arena.match import InvalidAnswer
from spyglass.arena.sandbox import SandboxError
from spyglass.arena.sanitize import NotPlain, clip_text, describe, plain, plain_items


class BotError(InvalidAnswer):
    """A bot broke the rules or the API; names the bot, seat, decision and value.

    An :class:`~spyglass.arena.match.InvalidAnswer`, so that the game-general referee
    records it as the bot's own decision (``vote``, ``select``, ...) and reason.
    """

    def __init__(
        self, bot: str, seat: int, decision: str, value: Any, reason: str, detail: str = ""
    ) -> None:
        self.bot, self.seat, self.decision, self.value = bot, seat, decision, value
        # Bounded: a bot's exception text or answer must not blow up a record line.
        self.reason, self.detail = clip_text(reason, 1000), clip_text(detail, 8000)
        Exception.__init__(
            self,
            f"bot {bot!r} in seat {seat}: invalid {decision} {describe(value)}: {self.reason}",
        )

    def to_dict(self) -> dict:
        return {
            "bot": self.bot,
            "seat": self.seat,
            "decision": self.decision,
            "value": describe(self.value),
            "reason": self.reason,
            "message": str(self),
            "detail": self.detail,
        }


def safe_str(exc: BaseException) -> str:
    """A bot's exception message, bounded; its ``__str__`` may itself misbehave."""
    try:
        text = str(exc)
    except Exception:  # noqa: BLE001
        return "<unprintable message>"
    return clip_text(text if type(text) is str else "<not a string>", 500)


def format_exc() -> str:
    """The traceback being handled, bounded (a hostile exception can break formatting)."""
    try:
        return clip_text(traceback.format_exc(), 8000)
    except Exception:  # noqa: BLE001
        return "<traceback unavailable>"


def failure(name: str, seat: int, what: str, exc: BaseException) -> BotError:
    """The :class:`BotError` for an exception a call into a bot ended with.

    Call it inside the ``except`` block (the traceback is the one being handled). A
    ``BotError`` the bot raised itself is an exception like any other: it could name
    another seat.
    """
    if isinstance(exc, SandboxError):  # the isolated bot's worker said what went wrong
        reason = (f"returned an unusable value: {exc.reason}" if exc.kind == "unusable"
                  else exc.reason)
        return BotError(name, seat, exc.method or what, None, reason, exc.detail)
    if isinstance(exc, NotPlain):
        return BotError(name, seat, what, None, f"returned an unusable value: {exc}")
    return BotError(name, seat, what, None, f"raised {type(exc).__name__}: {safe_str(exc)}",
                    format_exc())


def plain_small(value: Any) -> Any:
    """A decision's answer as a plain value (a team, a bool): small by nature."""
    if type(value) is bool:  # the common case, fast
        return value
    return plain(value, max_items=64, max_depth=2)


def plain_team(value: Any) -> Any:
    """A ``select`` answer as a plain list (refusing anything that is not seats)."""
    if type(value) is list and len(value) <= 64 and all(type(x) is int for x in value):
        return value  # already plain (the common case, fast)
    return plain_items(value, not_item="is not a seat number", max_items=64)


def is_bool(v: Any) -> bool:
    return type(v) is bool or isinstance(v, np.bool_)


def is_seat(v: Any) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, (bool, np.bool_))


def check_team(name: str, seat: int, value: Any, count: int, n: int,
               mission: int) -> tuple[int, ...]:
    """A ``select`` answer as a sorted team of ``count`` distinct seats of ``n``, or a
    :class:`BotError` saying what is wrong with it."""
    try:
        members = list(value)
    except TypeError:
        raise BotError(
            name, seat, "select", value, "a team must be a collection of seats"
        ) from None
    for m in members:
        if not is_seat(m):
            raise BotError(name, seat, "select", value, f"{m!r} is not a seat number")
        if not 0 <= m < n:
            raise BotError(name, seat, "select", value, f"there is no seat {m}")
    if len(set(int(m) for m in members)) != len(members):
        raise BotError(name, seat, "select", value, "the team names a seat twice")
    if len(members) != count:
        raise BotError(
            name, seat, "select", value,
            f"mission {mission} needs a team of {count}, not {len(members)}",
        )
    return tuple(sorted(int(m) for m in members))


def check_bool(name: str, seat: int, what: str, value: Any) -> bool:
    """A vote or a mission card: True or False (a NumPy bool too), nothing else."""
    if not is_bool(value):
        raise BotError(name, seat, what, value, "must be True or False")
    return bool(value)
