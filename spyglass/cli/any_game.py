"""The command line for games other than The Resistance (``--game NAME``).

The commands keep their Resistance path unchanged when ``--game`` is ``resistance`` (the
default) and call the functions here for every other game: the game-general referee
(:mod:`spyglass.arena.match`), records (:mod:`spyglass.arena.history`) and tournaments
(:mod:`spyglass.arena.tournament`).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import typer

from spyglass.arena.agent_spec import AgentSpec, AgentSpecError, resolve_agent
from spyglass.arena.history import ending_lines, header_lines, move_line
from spyglass.arena.match import AgentError, MatchResult, play_match, unique_labels
from spyglass.arena.records import append_records
from spyglass.cli.output import die, stderr, stdout
from spyglass.games import registry
from spyglass.games.base import Game
from spyglass.params import parse_assignments

RESISTANCE = "resistance"
DEFAULT_AGENT = "random"
GAME_HELP = "The game to play (see `spyglass games`)."
OPTION_HELP = ("A rule option of the game as key=value (repeatable, or key=value,key=value; "
               "see `spyglass games`). For The Resistance use --rules.")


def is_resistance(name: str) -> bool:
    """Whether ``--game`` names The Resistance (whose commands keep their own path)."""
    return name.strip().lower() == RESISTANCE


def general_path(game: str, specs: Sequence[str]) -> bool:
    """Whether a command plays on the game-general referee: every game but The Resistance,
    and The Resistance when its lineup is of game-general agents (the registry's kind, see
    :func:`spyglass.players.lineup_kind`); exit 2 for a lineup mixing both kinds."""
    if not is_resistance(game):
        return True
    from spyglass.players import AGENT, lineup_kind

    try:
        return lineup_kind(specs) == AGENT
    except ValueError as exc:
        die(str(exc))


def game_name(name: str) -> str:
    """The registered name ``--game`` gives, or exit 2 listing the games."""
    key = name.strip().lower()
    if key not in registry.names():
        die(f"no game named {name!r}; games: {', '.join(registry.names())}")
    return key


def parse_options(items: Sequence[str] | None) -> dict[str, str]:
    """``--option`` values as one dict (validated later by the game's declared options)."""
    out: dict[str, str] = {}
    for item in items or []:
        try:
            out.update(parse_assignments(item))
        except ValueError as exc:
            die(f"--option {item!r}: {exc}")
    return out


def reject_resistance_only(game: str, **given: object) -> None:
    """Exit 2 if options that only The Resistance has were given for another game."""
    used = [name for name, value in given.items() if value]
    if used:
        flags = ", ".join("--" + u.replace("_", "-") for u in used)
        die(f"{flags}: only for --game resistance, not {game} (use --option key=value)")


def stored_game(resume: Path | None) -> str | None:
    """The game of the game-general tournament stored in ``resume`` (None for none, or for
    a tournament of The Resistance's own format)."""
    from spyglass.arena.tournament import MANIFEST, MANIFEST_KIND

    if resume is None or not (resume / MANIFEST).is_file():
        return None
    try:
        manifest = json.loads((resume / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(manifest, dict) and manifest.get("kind") == MANIFEST_KIND:
        return str(manifest.get("game"))
    return None


def make_game(name: str, players: int | None, options: dict) -> Game:
    """The game with its player count and options, or exit 2 naming what is wrong."""
    try:
        return registry.make(game_name(name), players, **options)
    except (ValueError, TypeError) as exc:
        die(str(exc))


def agent(text: str) -> AgentSpec:
    """One agent spec, or exit 2."""
    try:
        return resolve_agent(text)
    except (AgentSpecError, ValueError, TypeError) as exc:
        die(f"cannot use agent {text!r}: {exc}")


def lineup(args: Sequence[str], seats: int) -> list[AgentSpec]:
    """Exactly ``seats`` agents: those given, the last repeated (default: random)."""
    specs = [agent(a) for a in args] or [agent(DEFAULT_AGENT)]
    if len(specs) > seats:
        die(f"{len(specs)} agents given for {seats} seats")
    return specs + [specs[-1]] * (seats - len(specs))


def isolate_specs(specs: Sequence[AgentSpec], mode: str,
                  time_limit: float | None) -> list[AgentSpec]:
    """``--isolate``: the agents that run in their own worker process (``auto``: those from
    outside Spyglass), or exit 2 for one that cannot."""
    if mode == "none":
        return list(specs)
    from spyglass.arena import agent_isolation
    from spyglass.arena.sandbox import ISOLATION_MODES

    if mode not in ISOLATION_MODES:
        die(f"unknown --isolate {mode!r}; choose one of {', '.join(ISOLATION_MODES)}")
    try:
        return agent_isolation.isolate_specs(list(specs), mode, time_limit)
    except (AgentSpecError, ValueError) as exc:
        die(str(exc))


def _close_workers() -> None:
    isolation = sys.modules.get("spyglass.arena.agent_isolation")
    if isolation is not None:
        isolation.close_workers()


def _save(record_path: Path | None, result: MatchResult) -> None:
    if record_path is None:
        return
    try:
        append_records(record_path, [result.to_record()])
    except OSError as exc:
        die(f"cannot write the record to {str(record_path)!r}: {exc}")
    stdout().print(f"Record appended to {record_path} (verify it with `spyglass replay "
                   f"{record_path} --check`).", style="dim")


def run_game(name: str, players: int | None, options: dict, agents: Sequence[str],
             seed: int, time_limit: float | None, record: Path | None,
             show_traceback: bool, isolate: str = "none") -> None:
    """``spyglass game --game NAME``: one game between agents, printed as a transcript."""
    game = make_game(name, players, options)
    specs = lineup(agents, game.n_players)
    console = stdout()
    labels = list(unique_labels([s.label for s in specs]))
    specs = isolate_specs(specs, isolate, time_limit)

    def say(line: str) -> None:
        console.print(line, markup=False, highlight=False)

    def live(actor: int, action: int, obs: tuple[int, ...], state) -> None:
        live.moves += 1
        say(move_line(game, live.moves, actor, labels[actor], obs[actor],
                      game.view(state, actor)))

    live.moves = 0
    for line in header_lines(game, seed, labels):
        say(line)
    try:
        result = play_match(game, specs, seed, time_limit=time_limit, observers=[live],
                            labels=labels)
    except (ValueError, TypeError) as exc:
        die(str(exc))
    finally:
        _close_workers()
    rec = result.to_record()
    for line in ending_lines(game, result.state, labels, rec["rewards"], rec["error"]):
        say(line)
    err = result.error
    if show_traceback and err is not None and err.detail:
        console.print(err.detail, style="dim", markup=False, highlight=False)
    _save(record, result)
    if err is not None:
        raise typer.Exit(1)


def played_log(game_name: str) -> Path:
    """Where a person's games are kept when ``--record`` is not given: one JSON Lines file
    per game under ``$SPYGLASS_DATA_DIR`` (default ``$XDG_DATA_HOME/spyglass`` or
    ``~/.local/share/spyglass``), so models of people (e.g. Cheat's model of when players
    lie: ``spyglass experiment cheat-model FILE``) can be trained on them."""
    base = os.environ.get("SPYGLASS_DATA_DIR")
    if not base:
        xdg = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"),
                                                               ".local", "share")
        base = os.path.join(xdg, "spyglass")
    return Path(base) / "played" / f"{game_name}.jsonl"


def run_play(name: str, players: int | None, options: dict, seat: int, agents: Sequence[str],
             seed: int, record: Path | None, isolate: str = "none") -> None:
    """``spyglass play --game NAME``: a person in ``seat`` against agents, seeing only
    their own view; the seed (which fixes any hidden deal) is shown after the game."""
    from spyglass.agents.human import HumanAgent, HumanQuit

    game = make_game(name, players, options)
    if not 0 <= seat < game.n_players:
        die(f"--seat must be a seat 0-{game.n_players - 1}, not {seat}")
    others = isolate_specs(lineup(agents, game.n_players - 1), isolate, None)
    human = HumanAgent(read=input, write=lambda text: typer.echo(text))
    seats = [*others[:seat], human, *others[seat:]]
    labels = [s.label for s in others[:seat]] + ["human"] + [s.label for s in others[seat:]]
    try:
        result = play_match(game, seats, seed, labels=labels)
    except (ValueError, TypeError) as exc:
        die(str(exc))
    except KeyboardInterrupt:
        stderr().print("\nGame abandoned.", style="yellow")
        raise typer.Exit(130) from None
    finally:
        _close_workers()
    console = stdout()
    console.print(game.state_text(result.state), markup=False, highlight=False)
    console.print(f"Seed {seed}: replay this game with --seed {seed}.", style="dim")
    if record is None:  # every game a person plays is kept (for models of people)
        record = played_log(game.name)
        try:
            record.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            die(f"cannot create {str(record.parent)!r} for the game record: {exc}")
    _save(record, result)
    err: AgentError | None = result.error
    if err is None:
        return
    if isinstance(err.__cause__, HumanQuit):
        console.print(f"Game abandoned: {err.__cause__}.", style="yellow")
        raise typer.Exit(0)
    stderr().print(f"[bold red]Error:[/] {err}", markup=True)
    raise typer.Exit(1)


def run_tournament(name: str, agents: Sequence[str], *, games: int, players: int | None,
                   options: dict, seed: int | None, out: Path | None, resume: Path | None,
                   backend: str, workers: int | None, address: str | None,
                   time_limit: float | None, chunk: int | None, interval: str | None,
                   quiet: bool, isolate: str = "none", repair: bool = False,
                   strict: bool = False) -> None:
    """``spyglass tournament --game NAME``: the pool plays in every seat; win rates + CIs."""
    import time

    from spyglass.arena.report import results_table
    from spyglass.arena.tournament import (
        AGENTS_CSV,
        DEFAULT_INTERVAL,
        GAMES,
        PLOT,
        RESULTS,
        BackendError,
        GameTournamentError,
        run_game_tournament,
    )

    key = game_name(name)
    if resume is not None:
        if agents:
            die("--resume continues a stored tournament: give no agents with it")
        out = resume
    else:
        if not agents:
            die(f"name at least one agent (e.g. `spyglass tournament --game {key} random`)")
        if out is None:
            out = Path("tournaments") / time.strftime("%Y%m%d-%H%M%S")
    specs = [agent(a) for a in agents]
    try:
        results = run_game_tournament(
            key, specs, games=games, players=players, options=options, seed=seed, out=out,
            resume=resume is not None, backend=backend, workers=workers, address=address,
            time_limit=time_limit, chunk=chunk, interval=interval or DEFAULT_INTERVAL,
            progress=not quiet, isolate=isolate, repair=repair,
        )
    except (GameTournamentError, BackendError) as exc:
        die(str(exc))
    except OSError as exc:
        die(f"cannot use the results directory {str(out)!r}: {exc}")
    console = stdout()
    console.print(results_table(results))
    files = [GAMES, RESULTS, AGENTS_CSV] + ([PLOT] if results.tally.games else [])
    console.print(f"Results in {out}/: " + ", ".join(files), style="dim")
    if results.played_now:
        console.print(f"{results.played_now} games played in {results.seconds:.1f}s",
                      style="dim")
    if results.interrupted:
        stderr().print(f"[bold yellow]Stopped:[/] {results.message}")
        raise typer.Exit(130 if "Ctrl-C" in results.message else 1)
    if results.tally.errors and not results.tally.games:
        stderr().print("[bold red]Error:[/] every game ended by an error (see above)")
        raise typer.Exit(1)
    if strict and results.tally.errors:
        stderr().print(f"[bold red]Error:[/] {results.tally.errors} game(s) ended in an "
                       "error (--strict)")
        raise typer.Exit(1)
