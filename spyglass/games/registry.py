"""The games of the framework: one line each.

Adding a game is one package ``spyglass/games/<name>/`` with a :class:`~spyglass.games.base.Game`
subclass, plus one line here; the shared contract tests (``tests/contracts/``) then run
on it. Games are imported on first use, so listing them costs nothing.
"""

from __future__ import annotations

import importlib

from spyglass.games.base import Game

GAMES: dict[str, str] = {
    "resistance": "spyglass.games.resistance.game:Resistance",
    "phantom": "spyglass.games.phantom.game:Phantom",
    "hearts": "spyglass.games.hearts.game:Hearts",
    "minidoudizhu": "spyglass.games.minidoudizhu.game:MiniDouDiZhu",
    "spades": "spyglass.games.spades.game:Spades",
    "cheat": "spyglass.games.cheat.game:Cheat",
    "othello": "spyglass.games.othello.game:Othello",
    "checkers": "spyglass.games.checkers.game:Checkers",
    "doudizhu": "spyglass.games.doudizhu.game:DouDiZhu",
    "backgammon": "spyglass.games.backgammon.game:Backgammon",
    "scotlandyard": "spyglass.games.scotlandyard.game:ScotlandYard",
    "lotrc": "spyglass.games.lotrc.game:Confrontation",
    "saboteur": "spyglass.games.saboteur.game:Saboteur",
}


def names() -> list[str]:
    """The registered game names, in registry order."""
    return list(GAMES)


def game_class(name: str) -> type[Game]:
    """The :class:`Game` subclass registered as ``name``; a ValueError lists the choices."""
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in GAMES:
        raise ValueError(f"no game named {name!r}; games: {', '.join(GAMES)}")
    module, _, attr = GAMES[key].partition(":")
    return getattr(importlib.import_module(module), attr)


def make(name: str, n_players: int | None = None, **options) -> Game:
    """The game ``name`` at ``n_players`` with ``options`` (validated by the game)."""
    return game_class(name)(n_players, **options)
