"""Per-game outcomes of The Resistance's results directories, for paired tests
(:mod:`spyglass.arena.paired`): game ``i`` of one run against game ``i`` of another."""

from __future__ import annotations

from pathlib import Path

from spyglass.arena.records import iter_records

GAMES_FILE = "games.jsonl"


def spy_outcomes(directory: str | Path) -> dict[int, bool]:
    """Game index -> whether the spies won, for the counted games of a results directory.

    Games that ended with a bot error are left out (as from every win rate).
    """
    outcomes: dict[int, bool] = {}
    for record in iter_records(Path(directory) / GAMES_FILE):
        winner = record.get("outcome", {}).get("winner")
        if record.get("error") is not None or winner is None:
            continue
        outcomes[int(record["tournament"]["game"])] = winner == "spies"
    return outcomes


def seat_outcomes(directory: str | Path) -> dict[tuple[int, int], tuple[str, str, bool]]:
    """(game index, seat) -> (the bot's pool label, its role, whether its side won), for
    the counted games of a results directory of The Resistance."""
    out: dict[tuple[int, int], tuple[str, str, bool]] = {}
    for record in iter_records(Path(directory) / GAMES_FILE):
        winner = record.get("outcome", {}).get("winner")
        if record.get("error") is not None or winner is None:
            continue
        spies = set(record["roles"]["spies"])
        index = int(record["tournament"]["game"])
        for seat, label in enumerate(record["tournament"]["players"]):
            spy = seat in spies
            out[(index, seat)] = (label, "spy" if spy else "resistance",
                                  spy == (winner == "spies"))
    return out
