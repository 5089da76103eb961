"""Turn ``--bot`` arguments, a player count and a rule name into what the referee takes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from spyglass.arena.watchdog import check_time_limit
from spyglass.cli.output import die
from spyglass.games.resistance.options import FIFTH_REJECTION_CHOICES, Rules, check_players
from spyglass.resistance.arena.spec import BotSpec, parse_spec
from spyglass.rng import check_seed, fresh_seed

DEFAULT_BOT = "randombot"


def parse_rules(name: str) -> Rules:
    """The rule variant named on the command line, or a clear error."""
    try:
        return Rules(fifth_rejection=name)
    except ValueError:
        die(f"unknown rules {name!r}; choose one of {', '.join(FIFTH_REJECTION_CHOICES)}")


def bot_specs(args: Sequence[str]) -> list[BotSpec]:
    """Parse ``--bot`` arguments in order; a file holding several bots gives one each."""
    specs: list[BotSpec] = []
    for arg in args:
        try:
            specs.extend(parse_spec(arg))
        except (ValueError, KeyError, ImportError, OSError, SyntaxError) as exc:
            die(f"cannot load bot {arg!r}: {exc}")
    return specs


def lineup(specs: Sequence[BotSpec], seats: int) -> list[BotSpec]:
    """Exactly ``seats`` bot specs: the given ones, the last repeated to fill the table."""
    specs = list(specs) or bot_specs([DEFAULT_BOT])
    if len(specs) > seats:
        die(f"{len(specs)} bots given for {seats} seats")
    return specs + [specs[-1]] * (seats - len(specs))


def player_count(players: int | None, n_bots: int) -> int:
    """``--players``, defaulting to the number of bots given (at least 5); checked."""
    n = players if players is not None else max(5, n_bots)
    try:
        return check_players(n)
    except ValueError as exc:
        die(str(exc))


def pick_seed(seed: int | None) -> int:
    """The given seed (checked: 0 to 2**64-1), or a fresh 64-bit one from the OS.

    The seed fixes the roles: a live game's fresh seed is shown only after the game.
    """
    if seed is None:
        return fresh_seed()
    try:
        return check_seed(seed, "--seed")
    except (TypeError, ValueError) as exc:
        die(str(exc))


def check_record(path: Path | None) -> None:
    """Fail before playing, not after, when ``--record`` cannot be appended to."""
    if path is None:
        return
    if path.is_dir():
        die(f"--record {str(path)!r} is a directory; give a file (JSON Lines)")
    if not path.parent.is_dir():
        die(f"--record {str(path)!r}: the directory {str(path.parent)!r} does not exist")
    try:
        with open(path, "a", encoding="utf-8"):
            pass
    except OSError as exc:
        die(f"cannot write the record to {str(path)!r}: {exc}")


def check_time_limit_option(value: float | None) -> float | None:
    try:
        return check_time_limit(value, "--time-limit")
    except (TypeError, ValueError) as exc:
        die(str(exc))
