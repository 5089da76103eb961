"""The shared typer application that every command module registers on."""

from __future__ import annotations

import typer

app = typer.Typer(
    name="spyglass",
    help="Spyglass: AI for hidden-information games (The Resistance, ISMCTS).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_show_locals=False,
)


@app.callback()
def _group() -> None:
    """Spyglass: AI for hidden-information games (The Resistance, ISMCTS)."""
    # A callback keeps the application a group of commands even when only one command
    # module is loaded (see spyglass.cli.main), so ``spyglass game ...`` always parses
    # the same way.
