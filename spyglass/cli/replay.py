"""``spyglass replay``: verify saved games against the rules and print their transcripts."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spyglass.arena.records import iter_records
from spyglass.arena.replay import ReplayError, replay_record
from spyglass.arena.transcript import render_record
from spyglass.cli.app import app
from spyglass.cli.output import die, stderr, stdout


@app.command()
def replay(
    file: Annotated[Path, typer.Argument(help="A JSON Lines file of game records.")],
    game: Annotated[
        int | None, typer.Option("--game", "-g", help="Only this game (1 = first line).")
    ] = None,
    check: Annotated[
        bool, typer.Option("--check", help="Verify every game; print no transcripts.")
    ] = False,
) -> None:
    """Re-run saved games through the rules, then print each as a transcript.

    Every recorded decision must be legal and every outcome must match the rules;
    otherwise the error names the game and the event, and the exit code is 1.
    """
    if not file.is_file():
        die(f"no such file: {str(file)!r}")
    try:
        records = list(iter_records(file))
    except (ValueError, OSError) as exc:
        die(str(exc))
    if not records:
        die(f"{str(file)!r} holds no game records")
    if game is not None:
        if not 1 <= game <= len(records):
            die(f"--game {game}: {str(file)!r} holds games 1-{len(records)}")
        chosen = [(game, records[game - 1])]
    else:
        chosen = list(enumerate(records, start=1))
    console, errors = stdout(), stderr()
    bad = 0
    for k, rec in chosen:
        try:
            replay_record(rec)
        except (ReplayError, KeyError, TypeError, AttributeError) as exc:
            bad += 1
            errors.print(f"[bold red]game {k} does not replay:[/] {exc}", markup=True)
            continue
        if not check:
            render_record(rec, console, title=f"Game {k}" if len(chosen) > 1 else "The Resistance")
    verdict = f"{len(chosen) - bad} of {len(chosen)} game(s) replay exactly"
    (errors if bad else console).print(verdict, style="red" if bad else "dim")
    if bad:
        raise typer.Exit(1)
