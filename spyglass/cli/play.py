"""``spyglass play``: a person plays one game in the terminal against bots."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spyglass.arena.records import append_records
from spyglass.cli import any_game
from spyglass.cli.app import app
from spyglass.cli.lineup import (
    bot_specs,
    check_record,
    lineup,
    parse_rules,
    pick_seed,
    player_count,
)
from spyglass.cli.output import die, stdout
from spyglass.resistance.arena.referee import play_game, unique_names
from spyglass.resistance.arena.transcript import Transcript
from spyglass.resistance.bots.human import HumanBot, HumanLeft

PLAY_BOT_HELP = (
    "A bot for the next seat: a registered name (see `spyglass bots [--game NAME]`), "
    "name:key=value,..., package.module.Class or (The Resistance) path/to/file.py. Repeat "
    "for each seat; the last one fills the remaining seats (default: the game's "
    "recommended agent, `spyglass bots --game NAME --best`)."
)


@app.command()
def play(
    game_name: Annotated[
        str, typer.Option("--game", "-g", help=any_game.GAME_HELP)
    ] = any_game.RESISTANCE,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help=any_game.OPTION_HELP)
    ] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players (The Resistance: 5-10, "
                                 "default 5; other games: their fewest).")
    ] = None,
    seat: Annotated[int, typer.Option("--seat", "-s", help="Your seat, from 0.")] = 0,
    bot: Annotated[
        list[str] | None, typer.Option("--bot", "--agent", "-b", help=PLAY_BOT_HELP)
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the deal and the bots (default: fresh; "
                                 "shown after the game, since it fixes the roles).")
    ] = None,
    rules: Annotated[
        str, typer.Option(help="Fifth rejection: spies_win (official) or forced.")
    ] = "spies_win",
    first_leader: Annotated[
        int | None, typer.Option("--first-leader", help="Seat of the first leader.")
    ] = None,
    record: Annotated[
        Path | None, typer.Option(help="Append the game record (JSON Lines) to this file.")
    ] = None,
) -> None:
    """Play a game yourself, in the terminal, against bots.

    You see only what your seat may know: your role, the spies if you are one, every
    proposal and vote, and the number of fail cards on each mission. Answer the prompts
    (teams as "0 2" or "0,2"); type ? for the game so far and q to leave.

    With --game NAME you play that game, seeing only your own view; ? shows help and
    your view, q leaves.
    """
    if not bot:  # the game's recommended agent (spyglass/agents/recommended.py)
        from spyglass.agents.recommended import best

        bot = [best(game_name).spec]
    if any_game.general_path(game_name, bot or []):
        any_game.reject_resistance_only(game_name, rules=rules != "spies_win",
                                        first_leader=first_leader is not None)
        any_game.run_play(game_name, players, any_game.parse_options(option), seat, bot or [],
                          pick_seed(seed), record)
        return
    if option:
        die("--option is for other games; The Resistance takes --rules")
    if players is None:
        players = 5
    the_rules = parse_rules(rules)
    n = player_count(players, 0)
    if not 0 <= seat < n:
        die(f"--seat must be a seat 0-{n - 1}, not {seat}")
    others = lineup(bot_specs(bot or []), n - 1)
    check_record(record)
    the_seed = pick_seed(seed)
    human = HumanBot()
    console = human.console = stdout()
    names = unique_names([s.name for s in others[:seat]] + ["human"]
                         + [s.name for s in others[seat:]])
    human.transcript = Transcript(console, names, you=seat)
    human.transcript.header(the_rules)
    try:
        result = play_game(others[:seat] + [human] + others[seat:], seed=the_seed,
                           rules=the_rules, first_leader=first_leader, names=names)
    except (TypeError, ValueError) as exc:
        die(str(exc))
    except KeyboardInterrupt:
        console.print("\nGame abandoned.", style="yellow")
        raise typer.Exit(130) from None
    console.print(f"Seed {the_seed}: replay this deal with --seed {the_seed}.", style="dim")
    if record is not None:
        append_records(record, [result])
        console.print(f"Record appended to {record} (see it with `spyglass replay`).",
                      style="dim")
    err = result.error
    if err is None:
        return
    if isinstance(err.__cause__, HumanLeft):
        console.print(f"Game abandoned: {err.__cause__}.", style="yellow")
        raise typer.Exit(0 if "left" in str(err.__cause__) else 1)
    human.transcript.error(str(err))
    raise typer.Exit(1)
