"""``spyglass bots``: the registered players of a game, the API each speaks, what it does
and its parameters (one registry: :func:`spyglass.players.players`)."""

from __future__ import annotations

import inspect
from typing import Annotated

import typer
from rich.table import Table

from spyglass.cli import any_game
from spyglass.cli.app import app
from spyglass.cli.output import stdout
from spyglass.players import AGENT, Player, players
from spyglass.resistance.bots.base import Bot


def describe(player: Player) -> str:
    """A one-line description (:attr:`Player.help`, the registry's own)."""
    return player.help


def parameters(player: Player) -> str:
    """The parameters: an agent's declarations, or a bot's keyword parameters with their
    defaults as ``name=default, ...``."""
    cls = player.cls
    if player.kind == AGENT:
        return "\n".join(p.describe() for p in cls.params)
    if cls.__init__ is Bot.__init__:
        return ""
    parts = []
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.name == "self" or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        parts.append(p.name if p.default is p.empty else f"{p.name}={p.default!r}")
    return ", ".join(parts)


@app.command()
def bots(
    game: Annotated[
        str, typer.Option("--game", "-g", help=any_game.GAME_HELP)
    ] = any_game.RESISTANCE,
    best: Annotated[
        bool, typer.Option("--best", help="Print only the game's recommended agent: one "
                           "line, its spec (the table in spyglass/agents/recommended.py, "
                           "at most 0.25 CPU s per decision; --verbose for its evidence)")
    ] = False,
    verbose: Annotated[
        bool, typer.Option("--verbose", help="With --best: also the measured CPU time "
                           "per decision and the evidence (on standard error)")
    ] = False,
) -> None:
    """List the players of a game: name, the API it speaks, a one-line description and
    its parameters. With ``--best``: the game's recommended agent (its spec, one line).

    One name means one player everywhere (command line, web app, Python). Kind
    ``agent``: a game-general agent (plays any game); kind ``bot2012``: a bot of The
    Resistance's 2012 Bot API (The Resistance only). Give parameters as
    ``name:key=value,key=value``. A game or tournament plays one kind.
    """
    name = any_game.game_name(game)
    if best:
        from spyglass.agents.recommended import best as recommended

        rec = recommended(name)
        typer.echo(rec.spec)
        if verbose:
            cpu = ("not timed" if rec.cpu_per_decision is None
                   else f"~{rec.cpu_per_decision:g} CPU s per decision")
            typer.echo(f"{cpu}; {'measured' if rec.measured else 'NOT measured'}: "
                       f"{rec.evidence}", err=True)
        return
    table = Table(title=f"Players for {name} (give settings as name:key=value,...)",
                  title_justify="left")
    table.add_column("name", style="bold")
    table.add_column("kind")
    table.add_column("description")
    table.add_column("parameters", style="cyan")
    for key, player in players().items():
        if player.games is None or name in player.games:
            table.add_row(key, player.kind, describe(player), parameters(player))
    stdout().print(table)
