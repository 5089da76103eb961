"""``spyglass tournament`` and ``spyglass compare``: many games, honest statistics."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

# Only light modules at import time: `--help` and argument errors load neither the rules'
# compiled kernel (numba) nor matplotlib; the engine is imported when a run starts.
from spyglass.arena.sandbox import ISOLATION_MODES, isolates
from spyglass.arena.stats import INTERVAL_2012, INTERVAL_METHODS
from spyglass.cli import any_game
from spyglass.cli.app import app
from spyglass.cli.output import die, stderr, stdout
from spyglass.resistance.arena.schedule import DEFAULT_CHUNK, MODELS

_BOTS_HELP = (
    "Bots of the pool: registered names (see `spyglass bots`), name:key=value,..., "
    "package.module.Class or path/to/file.py (every bot class in it). For --model balanced: "
    "the spy bot then the resistance bot (or one bot for both)."
)


def _choice(value: str, choices, what: str) -> str:
    if value not in choices:
        die(f"unknown {what} {value!r}; choose one of {', '.join(choices)}")
    return value


@app.command()
def tournament(
    bots: Annotated[list[str] | None, typer.Argument(help=_BOTS_HELP, show_default=False)] = None,
    game_name: Annotated[
        str, typer.Option("--game", "-g", help=any_game.GAME_HELP)
    ] = any_game.RESISTANCE,
    option: Annotated[
        list[str] | None, typer.Option("--option", "-o", help=any_game.OPTION_HELP)
    ] = None,
    games: Annotated[int | None, typer.Option(
        "--games", "-n", help="Games to play (default 1000). With --resume (The Resistance): "
        "a larger number extends the stored tournament, its games kept.")] = None,
    players: Annotated[
        int | None, typer.Option("--players", "-p", help="Players per game (The Resistance: "
                                 "5-10, default 5; other games: their fewest).")
    ] = None,
    seed: Annotated[
        int | None, typer.Option(help="Seed of the whole tournament (default: fresh, stored).")
    ] = None,
    out: Annotated[
        Path | None, typer.Option(help="Results directory (default: tournaments/<time>).")
    ] = None,
    model: Annotated[
        str, typer.Option(help="Competition model: permutations (2012), burst or balanced.")
    ] = "permutations",
    burst: Annotated[
        int | None, typer.Option(help="Burst size B for --model burst: fresh identities and "
                                 "memory every B games.")
    ] = None,
    spy_bot: Annotated[
        str | None, typer.Option("--spy-bot", help="Balanced model: the bot in every spy seat.")
    ] = None,
    resistance_bot: Annotated[
        str | None, typer.Option("--resistance-bot",
                                 help="Balanced model: the bot in every resistance seat.")
    ] = None,
    backend: Annotated[
        str, typer.Option(help="local (process pool) or ray.")
    ] = "local",
    workers: Annotated[
        int | None, typer.Option(help="Worker processes (default: all cores).")
    ] = None,
    address: Annotated[
        str | None, typer.Option(help="Ray cluster to join (default: a local Ray).")
    ] = None,
    rules: Annotated[
        str, typer.Option(help="Fifth rejection: spies_win (official, 2012) or forced.")
    ] = "spies_win",
    time_limit: Annotated[
        float | None, typer.Option("--time-limit", help="Seconds a bot may take per decision; "
                                   "slower decisions end that game with an error.")
    ] = None,
    track_suspicion: Annotated[
        bool, typer.Option("--track-suspicion",
                           help="Record each bot's suspicion after every mission.")
    ] = False,
    chunk: Annotated[
        int | None, typer.Option(help="Games per chunk: played in order by one worker with one "
                                 f"memory, so cross-game learning lasts one chunk (The "
                                 f"Resistance: default {DEFAULT_CHUNK}).")
    ] = None,
    interval: Annotated[
        str | None, typer.Option(help="95% interval: agresti-coull-2012 (as the 2012 "
                                 "competition; The Resistance's default), wilson (other "
                                 "games' default), beta, jeffreys, agresti_coull or normal.")
    ] = None,
    resume: Annotated[
        Path | None, typer.Option(help="Continue the interrupted tournament in this directory.")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress bar.")] = False,
    isolate: Annotated[
        str, typer.Option(help="Bots in their own worker process: auto (bots from files and "
                          "other modules), all, or none (see the README's security section).")
    ] = "auto",
    repair: Annotated[
        bool, typer.Option("--repair", help="With --resume: drop corrupt or conflicting lines "
                           "of games.jsonl (kept in games.jsonl.bak) and play them again.")
    ] = False,
    strict: Annotated[
        bool, typer.Option("--strict", help="Exit 1 if any game ended in an error (by default "
                           "only when every game of some bot did).")
    ] = False,
) -> None:
    """Play a tournament and report win rates with 95% intervals and the 2012 columns.

    Results go to --out: tournament.json (manifest), games.jsonl (records, appended as
    games finish), results.json, bots.csv, agents.csv and winrates.png. Ctrl-C stops cleanly;
    --resume DIR continues without playing or counting any game twice. Exit 1 when every
    game of some bot ended in an error (with --strict: when any game did).

    With --game NAME (see `spyglass games`) the pool is agents of that game (see
    `spyglass bots --game NAME`): every group of agents plays every seat from the same
    deals; results.json, agents.csv and winrates.png report win rates (a draw counts ½)
    and mean rewards with 95% intervals, overall and per seat.
    """
    _choice(backend, ("local", "ray"), "backend")
    if interval is not None:
        _choice(interval, INTERVAL_METHODS, "interval method")
    _choice(isolate, ISOLATION_MODES, "isolation mode")
    if repair and resume is None:
        die("--repair is for continuing a tournament: use it with --resume DIR")
    from spyglass import tournament as api  # the engine (numba, the rules): only to play
    from spyglass.arena.backends import BackendError
    from spyglass.resistance.arena.schedule import ScheduleError
    from spyglass.resistance.arena.spec import BotSpecError
    from spyglass.resistance.arena.table import TournamentError

    if seed is not None and resume is None:
        _warn_chosen_seed((bots or []) + [b for b in (spy_bot, resistance_bot) if b], isolate)
    stored = any_game.stored_game(resume)
    if stored is not None and any_game.is_resistance(game_name):
        game_name = stored  # --resume of another game's tournament: no need to repeat --game
    named = (bots or []) + [b for b in (spy_bot, resistance_bot) if b]
    if any_game.general_path(game_name, named):
        if resume is not None and games is not None:
            die("--games with --resume extends The Resistance's tournaments only; this one "
                f"is of {game_name}")
        any_game.reject_resistance_only(
            game_name, model=model != "permutations", burst=burst is not None,
            spy_bot=spy_bot, resistance_bot=resistance_bot, rules=rules != "spies_win",
            track_suspicion=track_suspicion)
        any_game.run_tournament(
            game_name, bots or [], games=1000 if games is None else games, players=players,
            options=any_game.parse_options(option), seed=seed, out=out, resume=resume,
            backend=backend, workers=workers, address=address, time_limit=time_limit,
            chunk=chunk, interval=interval, quiet=quiet, isolate=isolate, repair=repair,
            strict=strict)
        return
    if option:
        die("--option is for other games; The Resistance takes --rules")
    players = 5 if players is None else players
    chunk = DEFAULT_CHUNK if chunk is None else chunk
    interval = INTERVAL_2012 if interval is None else interval
    if resume is not None:
        if bots or spy_bot or resistance_bot:
            die("--resume continues a stored tournament: give no bots with it")
        out = resume
        if games is not None:
            from spyglass.resistance.arena.table import extend_config

            try:
                extend_config(resume, games)
            except (TournamentError, ScheduleError, TypeError) as exc:
                die(str(exc))
    else:
        _choice(model, MODELS, "model")
        if not bots and not (spy_bot or resistance_bot):
            die("name at least one bot (e.g. `spyglass tournament random random`)")
        if out is None:
            out = Path("tournaments") / time.strftime("%Y%m%d-%H%M%S")
    try:
        results = api.run(
            bots or [], games=1000 if games is None else games, players=players, seed=seed,
            model=model, out=out,
            backend=backend, workers=workers, address=address, burst=burst, rules=rules,
            time_limit=time_limit, track_suspicion=track_suspicion, resume=resume,
            progress=not quiet, chunk=chunk, interval=interval, spy_bot=spy_bot,
            resistance_bot=resistance_bot, isolate=isolate, repair=repair,
        )
    except (TournamentError, ScheduleError, BackendError, BotSpecError, TypeError) as exc:
        die(str(exc))
    except OSError as exc:
        die(f"cannot use the results directory {str(out)!r}: {exc}")
    _report(results)
    if results.interrupted:
        raise typer.Exit(130 if "Ctrl-C" in results.message else 1)
    _exit_on_errors(results, strict)


def _exit_on_errors(results, strict: bool) -> None:
    """Exit 1 when the statistics say nothing about some bot (every game of it ended in
    an error), or under --strict when any game ended in an error."""
    failed = results.failed_bots()
    errors = results.tally.errors
    if failed:
        own = [b for b in failed if results.tally.get(b, "errors")]
        others = [b for b in failed if b not in own]
        said = []
        if own:
            said.append(f"every game of {', '.join(own)} ended in an error (errors of its "
                        "own among them)")
        if others:
            said.append(f"no game of {', '.join(others)} counted (all ended in errors)")
        stderr().print(f"[bold red]Error:[/] {'; '.join(said)} (see the error fields of "
                       "games.jsonl)")
        raise typer.Exit(1)
    if strict and errors:
        stderr().print(f"[bold red]Error:[/] {errors} game(s) ended in an error (--strict)")
        raise typer.Exit(1)


def _warn_chosen_seed(bots: list[str], isolate: str) -> None:
    """A chosen seed is guessable, and the seed and a game's index fix the deal: say so
    when a bot from a file (isolated: not trusted) plays under one (see README,
    Security)."""
    from spyglass.naming import is_file_source

    if any(isolates(isolate, is_file_source(b)) for b in bots):
        print("warning: an isolated bot plays under a chosen --seed; a bot that guesses the "
              "seed can compute every deal. Omit --seed (a fresh 64-bit seed) for a "
              "competition between bots you do not trust.", file=sys.stderr)


def _report(results) -> None:
    from spyglass.arena.tournament import AGENTS_CSV, GAMES, PLOT, RESULTS
    from spyglass.resistance.arena.report import balanced_table, resistance_results_table
    from spyglass.resistance.arena.table import BOTS_CSV

    console = stdout()
    console.print(resistance_results_table(results))
    if results.config.model == "balanced":
        console.print(balanced_table(results))
    errors = stderr()
    if results.interrupted:
        errors.print(f"[bold yellow]Stopped:[/] {results.message}")
    out = results.out
    if out is not None:
        files = [GAMES, RESULTS, BOTS_CSV, AGENTS_CSV] + ([PLOT] if results.games else [])
        console.print(f"Results in {out}/: " + ", ".join(files), style="dim")
    if results.games_played_now:
        console.print(f"{results.games_played_now} games played in {results.seconds:.1f}s "
                      f"({results.games_per_s:,.0f} games/s)", style="dim")


@app.command()
def compare(
    run1: Annotated[Path, typer.Argument(help="A tournament results directory.")],
    run2: Annotated[Path, typer.Argument(help="Another tournament results directory.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of a table.")] = False,
) -> None:
    """Test whether two tournaments differ: the spy team's win rate (balanced runs) and each
    common bot's win rates, by a two-proportion z-test and Fisher's exact test; runs of the
    same schedule (same seed) play the same games, which are then paired (McNemar's exact
    test). Holm's p adjusts for the family of rows."""
    from spyglass import tournament as api
    from spyglass.arena.report import compare_table
    from spyglass.resistance.arena.table import TournamentError

    try:
        result = api.compare(run1, run2)
    except (TournamentError, OSError, json.JSONDecodeError, KeyError) as exc:
        die(f"cannot compare {run1} and {run2}: {exc}")
    if as_json:
        stdout().print_json(json.dumps(result))
    else:
        stdout().print(compare_table(result))
