"""The arena: referee, game records, tournaments, statistics and execution backends.

Names are imported lazily, so that a bot's worker process (:mod:`spyglass.arena.sandbox`)
can import its few modules without loading the referee and the rules kernels.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "BotError": "spyglass.arena.referee",
    "GameResult": "spyglass.arena.referee",
    "play_game": "spyglass.arena.referee",
    "BotSpec": "spyglass.arena.spec",
    "parse_spec": "spyglass.arena.spec",
}

__all__ = ["BotError", "BotSpec", "GameResult", "parse_spec", "play_game"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'spyglass.arena' has no attribute {name!r}")
