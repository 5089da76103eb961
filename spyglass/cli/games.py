"""``spyglass games``: the registered games, their player counts, information and options."""

from __future__ import annotations

from rich.table import Table

from spyglass.cli.app import app
from spyglass.cli.output import stdout
from spyglass.games import registry


@app.command()
def games() -> None:
    """List the games with their player counts, kind of information and rule options.

    Choose one with --game NAME (spyglass game, play, replay, tournament, bots); set a
    rule option with --option key=value.
    """
    table = Table(title="Games", title_justify="left")
    table.add_column("name", style="bold")
    table.add_column("title")
    table.add_column("players", justify="right")
    table.add_column("information")
    table.add_column("rule options (--option key=value)", style="cyan")
    for name in registry.names():
        try:
            cls = registry.game_class(name)
        except (ImportError, AttributeError) as exc:
            table.add_row(name, f"(cannot be loaded: {exc})", "", "", "")
            continue
        span = (str(cls.min_players) if cls.min_players == cls.max_players
                else f"{cls.min_players}-{cls.max_players}")
        info = cls.information + (", roles" if cls.has_roles and "role" not in
                                  cls.information else "")
        table.add_row(name, cls.title, span, info,
                      "\n".join(p.describe() for p in cls.options) or "none")
    stdout().print(table)
