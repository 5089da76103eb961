"""``spyglass game``: play one game between bots and print its transcript."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spyglass.arena.records import append_records
from spyglass.arena.sandbox import ISOLATION_MODES
from spyglass.cli import any_game
from spyglass.cli.app import app
from spyglass.cli.lineup import (
    bot_specs,
    check_record,
    check_time_limit_option,
    lineup,
    parse_rules,
    pick_seed,
    player_count,
)
from spyglass.cli.output import die, stdout
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.arena.transcript import LiveTranscript

BOT_HELP = (
    "A bot for the next seat: a registered name (see `spyglass bots [--game NAME]`), "
    "name:key=value,..., package.module.Class or (The Resistance) path/to/file.py. Repeat "
    "for each seat; the last one fills the remaining seats (default: random)."
)


@app.command()
def game(
    game_name: Annotated[
        str, typer.Option("--game", "-g", help=any_game.GAME_HELP)
    ] = any_game.RESISTANCE,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help=any_game.OPTION_HELP)
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players (The Resistance: 5-10, default "
                                 "one per --bot, at least 5; other games: their fewest).")
    ] = None,
    bot: Annotated[list[str] | None, typer.Option("--bot", "--agent", "-b", help=BOT_HELP)] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the deal and of every bot (default: fresh).")
    ] = None,
    rules: Annotated[
        str, typer.Option(help="Fifth rejection: spies_win (official) or forced.")
    ] = "spies_win",
    first_leader: Annotated[
        int | None, typer.Option("--first-leader", help="Seat of the first leader (default: "
                                 "drawn from the seed).")
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Append the game record (JSON Lines) to this file.")
    ] = None,
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", help="Seconds a bot may take per decision.")
    ] = None,
    show_traceback: Annotated[
        bool, typer.Option("--traceback", help="Show the traceback of a bot that raised.")
    ] = False,
    isolate: Annotated[
        str, typer.Option(help="Bots in their own worker process: auto (bots from files "
                          "and other modules), all, or none (see the README's security "
                          "section).")
    ] = "auto",
) -> None:
    """Play one game between bots and print a readable transcript.

    With --game NAME (see `spyglass games`) any game is played between its agents
    (see `spyglass bots --game NAME`; default: random).
    """
    if any_game.general_path(game_name, (bot or [])):
        any_game.reject_resistance_only(game_name, rules=rules != "spies_win",
                                        first_leader=first_leader is not None)
        if isolate not in ISOLATION_MODES:
            die(f"unknown --isolate {isolate!r}; choose one of {', '.join(ISOLATION_MODES)}")
        time_limit = check_time_limit_option(time_limit)
        check_record(record)
        any_game.run_game(game_name, players, any_game.parse_options(option), bot or [],
                          pick_seed(seed), time_limit, record, show_traceback, isolate)
        return
    if option:
        die("--option is for other games; The Resistance takes --rules")
    the_rules = parse_rules(rules)
    if isolate not in ISOLATION_MODES:
        die(f"unknown --isolate {isolate!r}; choose one of {', '.join(ISOLATION_MODES)}")
    specs = bot_specs(bot or [])
    n = player_count(players, len(specs))
    seats = lineup(specs, n)
    time_limit = check_time_limit_option(time_limit)
    check_record(record)
    the_seed = pick_seed(seed)
    # A person at the table must not see the seed before the end: it fixes the roles.
    live_game = any(getattr(s.bot_class(), "interactive", False) for s in seats)
    console = stdout()
    live = LiveTranscript(console, the_rules, None if live_game else the_seed)
    try:
        result = play_game(seats, seed=the_seed, rules=the_rules, first_leader=first_leader,
                           time_limit=time_limit, observers=[live], isolate=isolate)
    except (TypeError, ValueError) as exc:  # bad setup (seat numbers, bot parameters)
        die(str(exc))
    live.finish(result)
    if live_game:
        console.print(f"Seed {the_seed}: replay this deal with --seed {the_seed}.", style="dim")
    if show_traceback and result.error is not None and result.error.detail:
        console.print(result.error.detail, style="dim", markup=False, highlight=False)
    if record is not None:
        try:
            append_records(record, [result])
        except OSError as exc:
            die(f"cannot write the record to {str(record)!r}: {exc}")
        console.print(f"Record appended to {record}.", style="dim")
    if result.error is not None:
        raise typer.Exit(1)
