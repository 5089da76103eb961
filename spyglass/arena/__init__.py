"""The arena: referee, game records, tournaments, statistics and execution backends."""

from spyglass.arena.referee import BotError, GameResult, play_game
from spyglass.arena.spec import BotSpec, parse_spec

__all__ = ["BotError", "BotSpec", "GameResult", "parse_spec", "play_game"]
