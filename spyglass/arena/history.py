"""Game records of any game as action histories, and their replay through the rules.

A record is one JSON object (one line of a JSON Lines file)::

    {"format": "spyglass-game", "version": 1,
     "game": "phantom", "players": 2, "options": {"m": 4, "n": 4, "k": 4},
     "seed": 17, "deal": null,                # deal: the initial state's seed if not seed
     "agents": ["moismcts", "random"], "omniscient": [],
     "isolated": [],                          # seats run in their own worker process
     "actions": [[0, 5], [1, 5], ...],        # [seat, action id] per move, in order
     "rewards": [1.0, 0.0],                   # null if the game ended by an error
     "error": null,                           # or the AgentError's fields
     "extra": {"0": {...}},                   # per-seat diagnostics (optional)
     "roles": ["landlord", "peasant", ...]}   # tournaments, games with roles: each seat's
                                              # role at the end (optional; for statistics)

Because the initial state is ``game.new_state(deal or seed)`` and every move is in ``actions``,
a record is the whole game: :func:`replay_history` rebuilds it through the game's compiled
rules and checks that every move was legal and made by the seat to act, and that the game
ends (or not) with the recorded rewards. Records of The Resistance's own referee have no
``"format"`` key (see :mod:`spyglass.resistance.arena.replay`); :func:`is_history` tells them apart.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from spyglass.arena.sanitize import RECORD_DECIMALS, stored
from spyglass.games import registry
from spyglass.games.base import Game

FORMAT = "spyglass-game"
VERSION = 1
SUPPORTED_VERSIONS = (1,)
REQUIRED = ("game", "players", "options", "seed", "agents", "actions")


#: Records store rewards rounded to RECORD_DECIMALS places: a replay accepts that much.
_REWARD_TOL = 0.6 * 10.0**-RECORD_DECIMALS


class HistoryError(ValueError):
    """A record that is malformed or does not replay through the rules."""


def match_record(result: Any, **more: Any) -> dict:
    """The record of a :class:`~spyglass.arena.match.MatchResult` (not imported: the
    referee imports this module); ``more`` adds keys (a tournament's bookkeeping)."""
    cfg = result.game.config()
    rec = {
        "format": FORMAT,
        "version": VERSION,
        "game": cfg["game"],
        "players": cfg["players"],
        "options": cfg["options"],
        "seed": result.seed,
        "deal": result.deal,
        "agents": list(result.labels),
        "omniscient": list(result.omniscient),
        "isolated": list(result.isolated),
        "actions": [[int(s), int(a)] for s, a in result.actions],
        "rewards": None if result.rewards is None else stored(list(result.rewards)),
        "error": None if result.error is None else result.error.to_dict(),
        "extra": {str(k): stored(v) for k, v in result.extra.items()},
    }
    rec.update(more)
    return rec


def is_history(record: Any) -> bool:
    """Whether ``record`` is in this format (rather than an older Resistance record)."""
    return isinstance(record, dict) and "format" in record


def check_header(record: Any) -> None:
    """A clear :class:`HistoryError` for a wrong format, unknown version or missing key."""
    if not isinstance(record, dict):
        raise HistoryError(f"a game record must be a JSON object, not {type(record).__name__}")
    if record.get("format") != FORMAT:
        raise HistoryError(f"not a {FORMAT!r} record (format {record.get('format')!r})")
    version = record.get("version")
    if version not in SUPPORTED_VERSIONS:
        raise HistoryError(
            f"record version {version!r} is not supported: this Spyglass reads version(s) "
            f"{', '.join(map(str, SUPPORTED_VERSIONS))} (a newer Spyglass wrote it?)"
        )
    missing = [k for k in REQUIRED if k not in record]
    if missing:
        raise HistoryError(f"record lacks {', '.join(missing)}")
    agents, players = record["agents"], record["players"]
    if (not isinstance(agents, list) or not all(isinstance(a, str) for a in agents)
            or type(players) is not int or len(agents) != players):
        raise HistoryError(f"record agents must be one name per seat ({players!r} seats), "
                           f"not {agents!r}")


def game_of(record: dict) -> Game:
    """The game (with its options and player count) a record was played in."""
    check_header(record)
    options = record["options"]
    if not isinstance(options, dict):
        raise HistoryError("record options must be an object")
    try:
        return registry.make(record["game"], record["players"], **options)
    except (ValueError, TypeError) as exc:
        raise HistoryError(f"record names a game that cannot be set up: {exc}") from None


@dataclass
class Replayed:
    """A record rebuilt through the rules: the game, final state and every move's details."""

    game: Game
    state: np.ndarray
    moves: list[tuple[int, int, tuple[int, ...]]] = field(default_factory=list)
    rewards: tuple[float, ...] | None = None

    @property
    def finished(self) -> bool:
        return self.rewards is not None


def initial_seed(record: dict) -> int:
    """The seed of a record's initial state: its ``deal`` if set, else its ``seed``."""
    seed = record.get("deal")
    if seed is None:
        seed = record["seed"]
    if type(seed) is not int or seed < 0:
        raise HistoryError(f"record seed {seed!r} is not a non-negative integer")
    return seed


def _as_move(index: int, move: Any, n: int) -> tuple[int, int]:
    if (
        not isinstance(move, list) or len(move) != 2
        or not all(type(x) is int for x in move)
    ):
        raise HistoryError(f"move {index}: {move!r} is not [seat, action] (two integers)")
    seat, action = move
    if not 0 <= seat < n:
        raise HistoryError(f"move {index}: there is no seat {seat}")
    return seat, action


def iter_replay(record: dict, game: Game | None = None) -> Iterator[tuple[Replayed, int, int]]:
    """Replay ``record`` move by move, yielding ``(replayed, seat, action)`` after each move
    has been checked and applied. Raises :class:`HistoryError` at the first fault."""
    game = game if game is not None else game_of(record)
    k, n = game.kernel, game.n_players
    seed = initial_seed(record)
    actions = record["actions"]
    if not isinstance(actions, list):
        raise HistoryError("record actions must be a list of [seat, action]")
    state = np.array(game.new_state(seed), dtype=np.int64)
    rep = Replayed(game, state)
    for i, move in enumerate(actions, start=1):
        seat, action = _as_move(i, move, n)
        actor = int(k.actor(state))
        if actor < 0:
            raise HistoryError(f"move {i}: the game was already over")
        if seat != actor:
            raise HistoryError(f"move {i}: seat {seat} moved, but seat {actor} was to act")
        legal = game.legal_actions(state)
        if action not in legal:
            raise HistoryError(
                f"move {i}: action {action} ({_text(game, action)}) by seat {seat} is illegal "
                f"here; legal: {', '.join(_text(game, a) for a in legal)}"
            )
        obs = tuple(int(k.observe(state, action, j)) for j in range(n))
        k.apply(state, action)
        rep.moves.append((seat, action, obs))
        yield rep, seat, action
    if int(k.actor(state)) < 0 and k.is_terminal(state):
        rep.rewards = game.rewards(state)


def _text(game: Game, action: int) -> str:
    try:
        return game.action_text(action)
    except Exception:  # noqa: BLE001 — an out-of-range id still gets a readable error
        return str(action)


def replay_history(record: dict, game: Game | None = None) -> Replayed:
    """Rebuild ``record`` through the rules and verify it (see the module docstring)."""
    rep = None
    for step in iter_replay(record, game):
        rep = step[0]
    if rep is None:  # no moves: still check the initial state's outcome
        game = game if game is not None else game_of(record)
        state = np.array(game.new_state(initial_seed(record)), dtype=np.int64)
        rep = Replayed(game, state)
        if int(game.kernel.actor(state)) < 0 and game.kernel.is_terminal(state):
            rep.rewards = game.rewards(state)
    recorded = record.get("rewards")
    error = record.get("error")
    if error is None:
        if not rep.finished:
            raise HistoryError(
                f"the record has no error, but the game is not over after "
                f"{len(rep.moves)} moves"
            )
        if recorded is None:
            raise HistoryError("a finished game must record its rewards")
    if recorded is not None:
        if not rep.finished:
            raise HistoryError("the record gives rewards, but the game is not over")
        if (
            not isinstance(recorded, list) or len(recorded) != len(rep.rewards)
            or not all(isinstance(r, (int, float)) and math.isclose(r, e, abs_tol=_REWARD_TOL)
                       for r, e in zip(recorded, rep.rewards, strict=True))
        ):
            raise HistoryError(
                f"recorded rewards {recorded!r} differ from the rules' {list(rep.rewards)!r}"
            )
    return rep


def header_lines(game: Game, seed: int | None, labels: list[str], deal: int | None = None,
                 omniscient: list[int] | None = None) -> list[str]:
    """The first lines of a transcript: the game, its seed (None: not shown) and seats."""
    title = f"{game.title} {game!r}"
    if seed is not None:
        title += f", seed {seed}" + ("" if deal is None else f", deal {deal}")
    lines = [title, "seats: " + ", ".join(f"{j}={name}" for j, name in enumerate(labels))]
    if omniscient:
        lines.append(f"omniscient (privileged) seats: {list(omniscient)}")
    return lines


def move_line(game: Game, number: int, seat: int, label: str, obs: int,
              view_after: np.ndarray) -> str:
    """One move as its actor saw it: everything about it, nothing of others' secrets."""
    return f"{number:3d}. seat {seat} ({label}): " \
        f"{game.observation_text(obs, seat, seat, view_after)}"


def ending_lines(game: Game, state: np.ndarray, labels: list[str],
                 rewards: list[float] | None, error: dict | None) -> list[str]:
    """The last lines: the full state revealed, the rewards, any error."""
    lines = [game.state_text(state)]
    if rewards is not None:
        lines.append("rewards: " + ", ".join(f"{labels[j]} {r:g}" for j, r in enumerate(rewards)))
    if error is not None:
        lines.append(f"ended by an error: {error.get('message', error)}")
    return lines


def transcript_lines(record: dict) -> list[str]:
    """A readable full-information transcript of a verified record: each move as its
    actor saw it (``observation_text``), then the final state and the result."""
    game = game_of(record)
    labels = record["agents"]
    lines = header_lines(game, record["seed"], labels, record.get("deal"),
                         record.get("omniscient"))
    rep = None
    for rep, seat, _ in iter_replay(record, game):
        lines.append(move_line(game, len(rep.moves), seat, labels[seat],
                               rep.moves[-1][2][seat], game.view(rep.state, seat)))
    if rep is None:
        rep = replay_history(record, game)
    return lines + ending_lines(game, rep.state, labels, record.get("rewards"),
                                record.get("error"))
