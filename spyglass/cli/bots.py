"""``spyglass bots``: list the registered bots, what they do and their parameters."""

from __future__ import annotations

import inspect
from typing import Annotated

import typer
from rich.table import Table

from spyglass.bots.base import Bot
from spyglass.bots.registry import available
from spyglass.cli import any_game
from spyglass.cli.app import app
from spyglass.cli.output import stdout


def describe(cls: type[Bot]) -> str:
    """The first line of the class docstring (empty if it has none of its own)."""
    doc = inspect.getdoc(cls) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def parameters(cls: type[Bot]) -> str:
    """The bot's keyword parameters with their defaults, as ``name=default, ...``."""
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
) -> None:
    """List the registered bots with a one-line description and their parameters.

    Give parameters on the command line as ``--bot name:key=value,key=value``. With
    --game NAME: the game-general agents that play any game, with their declared
    parameters.
    """
    if not any_game.is_resistance(game):
        any_game.list_agents(game)
        return
    table = Table(title="Registered bots", title_justify="left")
    table.add_column("name", style="bold")
    table.add_column("description")
    table.add_column("parameters", style="cyan")
    for name, cls in available().items():
        table.add_row(name, describe(cls), parameters(cls))
    stdout().print(table)
