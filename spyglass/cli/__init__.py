"""The ``spyglass`` command line. Each module in this package adds its own commands
to the shared :data:`spyglass.cli.app.app`; they are discovered automatically."""

from __future__ import annotations

import importlib
import pkgutil

from spyglass.cli.app import app


def _load_commands() -> None:
    import spyglass.cli as pkg

    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name != "app":
            importlib.import_module(f"{pkg.__name__}.{info.name}")


def main() -> None:
    """Entry point of the ``spyglass`` script."""
    _load_commands()
    app()


__all__ = ["app", "main"]
