"""Playing a chunk of a tournament of any game (not The Resistance's 2012 table): each
game through the generic referee (:func:`spyglass.arena.match.play_match`).

This is the worker side of :mod:`spyglass.arena.game_table`: a :class:`GameChunk` is
plain picklable data (the game class and options, agent specs, seatings), so any backend
(:mod:`spyglass.arena.backends`) can play it, and it comes back as a :class:`GameChunkResult`
of plain game records. Games here keep no memory across games, so a chunk replayed after
a worker died plays the same games. As for The Resistance, each finished game's line is
also appended at once to a partial file of the chunk's attempt, so that a run killed
mid-chunk loses no finished game.
"""

from __future__ import annotations

import contextlib
import json
import sys
from dataclasses import dataclass

from spyglass.arena.agent_spec import AgentSpec
from spyglass.arena.match import play_match
from spyglass.arena.results_dir import PartialSink, attempt_path
from spyglass.arena.rotation import Seating
from spyglass.games.base import Game


@dataclass(frozen=True)
class GameChunk:
    """Games to play in one worker, in order."""

    chunk: int
    game_class: type[Game]
    players: int
    options: tuple[tuple[str, object], ...]
    pool: tuple[AgentSpec, ...]
    labels: tuple[str, ...]
    seatings: tuple[Seating, ...]
    time_limit: float | None
    partial: str | None = None  # the chunk's partial file stem, or None (see results_dir)
    attempt: int = 0  # how many times this chunk was handed out before (a replay: > 0)


@dataclass
class GameChunkResult:
    """A played chunk: its number and one record per game, in order."""

    chunk: int
    records: list[dict]


def play_chunk(chunk: GameChunk) -> GameChunkResult:
    """The records of a chunk's games (a bad setup becomes an error record, not a crash)."""
    try:
        return GameChunkResult(chunk.chunk, _play_chunk(chunk))
    finally:
        # Isolated agents' worker processes live for a chunk (reused across its games).
        isolation = sys.modules.get("spyglass.arena.agent_isolation")
        if isolation is not None:
            isolation.close_workers()


def record_line(record: dict) -> str:
    """A tournament record as its line of ``games.jsonl`` (no newline)."""
    return json.dumps(record, separators=(",", ":"))


def _roles(game: Game, state) -> list[str] | None:
    """Each seat's role at the end of a game (for the tournament's per-role figures), or
    None for a game without roles."""
    if state is None:
        return None
    roles = [str(r) for r in game.roles(state)]
    return roles if any(roles) else None


def _play_chunk(chunk: GameChunk) -> list[dict]:
    sink = PartialSink(attempt_path(chunk.partial, chunk.attempt)) if chunk.partial else None
    with sink or contextlib.nullcontext():
        return _play_games(chunk, sink)


def _play_games(chunk: GameChunk, sink: PartialSink | None) -> list[dict]:
    game = chunk.game_class(chunk.players, **dict(chunk.options))
    out = []
    for seat in chunk.seatings:
        lineup = [chunk.labels[i] for i in seat.lineup]
        book = {"tournament": {"index": seat.index, "block": seat.block, "lineup": lineup}}
        try:
            agents = [chunk.pool[i].make() for i in seat.lineup]
            result = play_match(game, agents, seat.seed, time_limit=chunk.time_limit,
                                labels=lineup, deal=seat.deal)
            record = result.to_record(**book)
            roles = _roles(game, result.state) if result.ok else None
            if roles:  # only games with roles: other games' records stay as they were
                record["roles"] = roles
            out.append(record)
        except Exception as exc:  # noqa: BLE001 — an agent that cannot be built is an error
            out.append({
                "format": "spyglass-game", "version": 1, **game.config(), "seed": seat.seed,
                "deal": seat.deal,
                "agents": lineup, "omniscient": [], "actions": [], "rewards": None,
                "error": {"agent": None, "seat": -1, "decision": "setup", "move": 0,
                          "value": None, "reason": f"{type(exc).__name__}: {exc}",
                          "message": f"the game could not be set up: {exc}", "detail": ""},
                "extra": {}, **book,
            })
        if sink is not None:
            sink.write_line(record_line(out[-1]))  # in the OS's hands: survives a kill
    return out
