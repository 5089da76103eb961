"""The Resistance's tournament side, a layer above :mod:`spyglass.arena`.

Here is what only The Resistance has around its rules: the 2012 Bot API referee
(:mod:`~spyglass.resistance.arena.referee`) and its answers' checks, bot specs, loading and
isolation of 2012 bot files, the competition models
(:mod:`~spyglass.resistance.arena.schedule`), its table for the one tournament engine
(:mod:`~spyglass.resistance.arena.table`, :mod:`~spyglass.resistance.arena.chunks`), the
2012 behaviour columns (:mod:`~spyglass.resistance.arena.counts`,
:mod:`~spyglass.resistance.arena.stats`), suspicion inaccuracy
(:mod:`~spyglass.resistance.arena.suspicion`), transcripts and replay.

Names are imported lazily, so that a bot's worker process (:mod:`spyglass.arena.sandbox`)
can import its few modules without loading the referee and the rules kernels.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "BotError": "spyglass.resistance.arena.referee",
    "GameResult": "spyglass.resistance.arena.referee",
    "play_game": "spyglass.resistance.arena.referee",
    "BotSpec": "spyglass.resistance.arena.spec",
    "parse_spec": "spyglass.resistance.arena.spec",
}

__all__ = ["BotError", "BotSpec", "GameResult", "parse_spec", "play_game"]


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'spyglass.resistance.arena' has no attribute {name!r}")
