"""The table talk of one game: announcements and messages between 2012-framework bots.

The Spyglass referee has no chat, so the adapters of one game share a :class:`Channel`
found through the game's tuple of seat names: every bot has its own copy of the public
record, but they all hold the same (immutable) names tuple, made afresh for each game.
Bots isolated in worker processes each have their own channel, so they hear nobody. Only
what a bot chose to say is posted: text messages (``say``) and validated announcements
(player seat -> spy probability). Each adapter reads the entries of the other seats.
"""

from __future__ import annotations

import threading
import weakref
from dataclasses import dataclass
from typing import Any

ANNOUNCEMENT = "announcement"
MESSAGE = "message"


@dataclass(frozen=True)
class Entry:
    """One thing said: by which seat, what kind, and an immutable payload."""

    seat: int
    kind: str  # ANNOUNCEMENT (payload: tuple of (seat, float)) or MESSAGE (payload: str)
    payload: Any


class Channel:
    """An append-only list of entries, shared by the compat bots of one game."""

    def __init__(self, view: object) -> None:
        # Holding the key keeps its id from being reused while this channel lives.
        self.view = view
        self.entries: list[Entry] = []

    def post(self, seat: int, kind: str, payload: Any) -> None:
        """Append an entry."""
        self.entries.append(Entry(seat, kind, payload))

    def read(self, cursor: int, reader: int) -> tuple[list[Entry], int]:
        """The other seats' entries from ``cursor`` on, and the new cursor."""
        new = [e for e in self.entries[cursor:] if e.seat != reader]
        return new, len(self.entries)


# Game views use __slots__ without weak references, so key by id(view) and let the
# channel live exactly as long as the adapters that hold it.
_CHANNELS: weakref.WeakValueDictionary[int, Channel] = weakref.WeakValueDictionary()
_LOCK = threading.Lock()


def channel_for(view: object) -> Channel:
    """The channel of the game whose view is ``view`` (created on first use)."""
    key = getattr(view, "names", view)  # the game's own names tuple (see above)
    with _LOCK:
        channel = _CHANNELS.get(id(key))
        if channel is None or channel.view is not key:
            channel = Channel(key)
            _CHANNELS[id(key)] = channel
        return channel


__all__ = ["ANNOUNCEMENT", "MESSAGE", "Channel", "Entry", "channel_for"]
