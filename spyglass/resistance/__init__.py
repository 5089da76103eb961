"""The Resistance's tournament side, a layer above :mod:`spyglass.arena`.

The game's rules are :mod:`spyglass.games.resistance`; here is what only The Resistance
has around them: the 2012 Bot API referee (:mod:`~spyglass.resistance.referee`) and its
answers' checks, bot specs, loading and isolation of 2012 bot files, the competition
models (:mod:`~spyglass.resistance.schedule`), its table for the one tournament engine
(:mod:`~spyglass.resistance.table`, :mod:`~spyglass.resistance.chunks`), the 2012
behaviour columns (:mod:`~spyglass.resistance.counts`, :mod:`~spyglass.resistance.stats`),
suspicion inaccuracy (:mod:`~spyglass.resistance.suspicion`), transcripts and replay.

Names are imported lazily, so that a bot's worker process (:mod:`spyglass.arena.sandbox`)
can import its few modules without loading the referee and the rules kernels.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "BotError": "spyglass.resistance.referee",
    "GameResult": "spyglass.resistance.referee",
    "play_game": "spyglass.resistance.referee",
    "BotSpec": "spyglass.resistance.spec",
    "parse_spec": "spyglass.resistance.spec",
}

__all__ = ["BotError", "BotSpec", "GameResult", "parse_spec", "play_game"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'spyglass.resistance' has no attribute {name!r}")
