"""``spyglass serve``: the web app (tables, live play, stored games, ratings, replays)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from spyglass.cli.app import app
from spyglass.cli.output import die
from spyglass.params import Param, parse_assignments, validate


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
    bot_budget: Annotated[str, typer.Option(
        "--bot-budget", help="The most a web bot may think per decision: "
                             "iterations=N,seconds=S (bots over it are refused at "
                             "creation).")] = "iterations=100000,seconds=5",
    models: Annotated[Path | None, typer.Option(
        "--models", help="A directory of Cheat model files (*.joblib) that PMGA bots may "
                         "use, by name. Model files are pickles, that is code: put only "
                         "files you trust there.")] = None,
    allow_origin: Annotated[list[str] | None, typer.Option(
        "--allow-origin", help="Another origin (scheme://host:port) whose pages may "
                               "create tables and open sockets (repeatable).")] = None,
    waiting_minutes: Annotated[float, typer.Option(
        "--waiting-minutes", help="A table nobody starts is cancelled after this long.")
    ] = 30.0,
    creates_per_minute: Annotated[int, typer.Option(
        "--creates-per-minute", help="Tables one client may create per minute.")] = 10,
) -> None:
    """Play in the browser: start the web app on HOST:PORT (Ctrl-C stops it).

    Not hardened for the open internet on its own: put it behind a reverse proxy with TLS
    (README: "Web security: what is guaranteed")."""
    if not 0 < port < 65536:
        die(f"--port must be 1-65535, not {port}")
    if workers < 1 or time_limit <= 0:
        die("--workers must be at least 1 and --time-limit positive")
    if waiting_minutes <= 0 or creates_per_minute < 1:
        die("--waiting-minutes must be positive and --creates-per-minute at least 1")
    if models is not None and not models.is_dir():
        die(f"--models {str(models)!r} is not a directory")
    try:
        import uvicorn

        from spyglass.web.app import create_app
        from spyglass.web.guard import WebSettings
        from spyglass.web.seats import Budget
    except ModuleNotFoundError as exc:
        die(f"the web app needs the 'web' extra ({exc.name} is missing): "
            "pip install 'spyglass[web]'")
    try:
        budget = validate((Param("iterations", int, 100_000, low=1, high=10**9),
                           Param("seconds", float, 5.0, low=0.001, high=3600.0)),
                          parse_assignments(bot_budget), owner="--bot-budget")
    except (ValueError, TypeError) as exc:
        die(str(exc))
    if budget["seconds"] > time_limit:
        die(f"--bot-budget seconds={budget['seconds']:g} is over --time-limit {time_limit:g}")
    settings = WebSettings(budget=Budget(**budget), models=models,
                           origins=tuple(allow_origin or ()),
                           waiting_minutes=waiting_minutes,
                           creates_per_minute=creates_per_minute)
    try:
        application = create_app(db, workers=workers, time_limit=time_limit,
                                 settings=settings)
    except Exception as exc:  # noqa: BLE001 — a bad URL or unreachable database
        die(f"cannot open the database: {type(exc).__name__}: {exc}", 1)
    url = application.state.server.store.url
    typer.echo(f"Spyglass is at http://{host}:{port}/  (database: {url})")
    uvicorn.run(application, host=host, port=port, log_level="warning",
                ws_max_size=4 * settings.message_bytes)
