"""``spyglass replay``: verify saved games against the rules and print their transcripts.

A file may hold records of The Resistance's own referee and action-history records of any
game (``"format": "spyglass-game"``, :mod:`spyglass.arena.history`); each line is
recognised by its ``format`` key and checked through its own game's rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spyglass.arena.history import HistoryError, is_history, replay_history, transcript_lines
from spyglass.arena.records import iter_records
from spyglass.cli.app import app
from spyglass.cli.output import die, stderr, stdout
from spyglass.games import registry
from spyglass.resistance.arena.replay import ReplayError, replay_record
from spyglass.resistance.arena.transcript import render_record


def _game_of(rec: dict) -> str:
    return str(rec.get("game")) if is_history(rec) else "resistance"


def _check(rec: dict) -> None:
    if is_history(rec):
        replay_history(rec)
    else:
        replay_record(rec)


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A JSON Lines file of game records.")],
    game: Annotated[
        str | None, typer.Option(
            "--game", "-g", help="A number: only that game (1 = first line). A game name "
            "(see `spyglass games`): only that game's records.")
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Verify every game; print no transcripts.")
    ] = False,
) -> None:
    """Re-run saved games through the rules, then print each as a transcript.

    Every recorded decision must be legal and every outcome must match the rules;
    otherwise the error names the game and the event (or move), and the exit code is 1.
    """
    if not file.is_file():
        die(f"no such file: {str(file)!r}")
    try:
        records = list(iter_records(file))
    except (ValueError, OSError) as exc:
        die(str(exc))
    if not records:
        die(f"{str(file)!r} holds no game records")
    chosen = list(enumerate(records, start=1))
    if game is not None and game.strip().isdigit():
        index = int(game)
        if not 1 <= index <= len(records):
            die(f"--game {index}: {str(file)!r} holds games 1-{len(records)}")
        chosen = [(index, records[index - 1])]
    elif game is not None:
        name = game.strip().lower()
        if name not in registry.names():
            die(f"--game {game!r}: give a game number or one of {', '.join(registry.names())}")
        chosen = [(k, r) for k, r in chosen if _game_of(r) == name]
        if not chosen:
            die(f"{str(file)!r} holds no {name} records")
    console, errors = stdout(), stderr()
    bad = 0
    for k, rec in chosen:
        try:
            _check(rec)
        except (ReplayError, HistoryError, ValueError, KeyError, IndexError, TypeError,
                AttributeError) as exc:
            bad += 1
            errors.print(f"[bold red]game {k} does not replay:[/] {exc}", markup=True)
            continue
        if check:
            continue
        if is_history(rec):
            if len(chosen) > 1:
                console.rule(f"Game {k}")
            for line in transcript_lines(rec):
                console.print(line, markup=False, highlight=False)
        else:
            render_record(rec, console,
                          title=f"Game {k}" if len(chosen) > 1 else "The Resistance")
    verdict = f"{len(chosen) - bad} of {len(chosen)} game(s) replay exactly"
    (errors if bad else console).print(verdict, style="red" if bad else "dim")
    if bad:
        raise typer.Exit(1)
