"""Console output shared by the command modules: where text goes and how errors are shown."""

from __future__ import annotations

from typing import NoReturn

import typer
from rich.console import Console
from rich.markup import escape


def stdout() -> Console:
    """A console on standard output (resolved when printing, so tests can capture it)."""
    return Console(highlight=False)


def stderr() -> Console:
    """A console on standard error, for progress bars and errors."""
    return Console(stderr=True, highlight=False)


def die(message: str, code: int = 2) -> NoReturn:
    """Print a clear error (no traceback) and leave with exit ``code``."""
    stderr().print(f"[bold red]Error:[/] {escape(message)}")
    raise typer.Exit(code)
