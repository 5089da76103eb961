"""The ``spyglass`` command line. Each module in this package adds its own commands
to the shared :data:`spyglass.cli.app.app`; they are discovered automatically.

Start-up time matters (``spyglass game`` should start playing within a couple of
seconds): when the first argument names a command in :data:`COMMAND_MODULES`, only that
command's module is imported, not the tournament, experiment, plotting and benchmark
modules with their heavy dependencies. Help and unknown commands load every module.
"""

from __future__ import annotations

import importlib
import pkgutil
import sys

from spyglass.cli.app import app

#: Command name -> the module of this package that registers it (checked by a test).
COMMAND_MODULES = {
    "game": "game", "play": "play", "replay": "replay", "bots": "bots",
    "tournament": "tournament_cmd", "compare": "tournament_cmd", "plot": "plot",
    "experiment": "experiment", "bench": "bench", "games": "games",
    "serve": "serve",
}


def _load_commands(only: str | None = None) -> None:
    import spyglass.cli as pkg

    if only is not None:
        importlib.import_module(f"{pkg.__name__}.{only}")
        return
    for info in pkgutil.iter_modules(pkg.__path__):
        if info.name != "app":
            importlib.import_module(f"{pkg.__name__}.{info.name}")


def main() -> None:
    """Entry point of the ``spyglass`` script."""
    command = sys.argv[1] if len(sys.argv) > 1 else None
    _load_commands(COMMAND_MODULES.get(command))
    app()


__all__ = ["app", "main"]
