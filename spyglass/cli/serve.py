"""``spyglass serve``: the web app (tables, live play, stored games, ratings, replays)."""

from __future__ import annotations

from typing import Annotated

import typer

from spyglass.cli.app import app
from spyglass.cli.output import die


@app.command()
def serve(
    host: Annotated[str, typer.Option("--host", help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="TCP port.")] = 8000,
    db: Annotated[str | None, typer.Option(
        "--db", help="SQLAlchemy URL (e.g. postgresql+psycopg://user@host/spyglass); "
                     "default: a SQLite file in the user's data directory.")] = None,
    workers: Annotated[int, typer.Option("--workers", help="Bot worker processes.")] = 2,
    time_limit: Annotated[float, typer.Option(
        "--time-limit", help="Seconds per bot decision (stopped at 2x+1 s).")] = 30.0,
) -> None:
    """Play in the browser: start the web app on HOST:PORT (Ctrl-C stops it)."""
    if not 0 < port < 65536:
        die(f"--port must be 1-65535, not {port}")
    if workers < 1 or time_limit <= 0:
        die("--workers must be at least 1 and --time-limit positive")
    try:
        import uvicorn

        from spyglass.web.app import create_app
    except ModuleNotFoundError as exc:
        die(f"the web app needs the 'web' extra ({exc.name} is missing): "
            "pip install 'spyglass[web]'")
    try:
        application = create_app(db, workers=workers, time_limit=time_limit)
    except Exception as exc:  # noqa: BLE001 — a bad URL or unreachable database
        die(f"cannot open the database: {type(exc).__name__}: {exc}", 1)
    url = application.state.server.store.url
    typer.echo(f"Spyglass is at http://{host}:{port}/  (database: {url})")
    uvicorn.run(application, host=host, port=port, log_level="warning")
