"""``spyglass bench``: run the registered benchmarks; print a table or JSON."""

from __future__ import annotations

import json
import os
import platform
import time
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from spyglass.bench import DEFAULT_GAME, all_benchmarks, benchmark_games
from spyglass.cli.app import app
from spyglass.cli.output import die, stderr, stdout
from spyglass.search.huge_pages import huge_pages_mode


def machine_info() -> dict[str, str | int]:
    """What the numbers were measured on."""
    import numba
    import numpy

    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as fh:
            for line in fh:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {
        "cpu": cpu,
        "logical_cpus": os.cpu_count() or 0,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "numba": numba.__version__,
        "transparent_huge_pages": huge_pages_mode(),
        "time": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
    }


def _format(value: float) -> str:
    if isinstance(value, (int, float)) and abs(value) >= 100:
        return f"{value:,.0f}"
    return f"{value:.4g}" if isinstance(value, float) else str(value)


@app.command()
def bench(
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quick: Annotated[bool, typer.Option("--quick", help="Short runs (less precise).")] = False,
    only: Annotated[
        list[str] | None, typer.Option("--only", help="Run only this benchmark (repeatable).")
    ] = None,
    game: Annotated[
        str, typer.Option("--game", help="The game whose benchmarks run.")
    ] = DEFAULT_GAME,
) -> None:
    """Run every registered benchmark of a game and print its measurements.

    With --json, prints a flat object of metric -> number plus a "machine" entry (which
    also carries the benchmarks' notes about the run, e.g. what --quick left out).
    """
    game = game.strip().lower()
    try:  # registers the web app's load test ("web") when the web extra is installed
        import spyglass.web.loadtest  # noqa: F401
    except ModuleNotFoundError:
        pass
    if game not in benchmark_games():
        die(f"no benchmarks for game {game!r}; games with benchmarks: "
            f"{', '.join(benchmark_games())}")
    benchmarks = all_benchmarks(game)
    if only:
        unknown = sorted(set(only) - set(benchmarks))
        if unknown:
            die(f"no benchmark named {', '.join(unknown)}; "
                f"available: {', '.join(benchmarks) or 'none'}")
        benchmarks = {k: v for k, v in benchmarks.items() if k in only}
    rows: list[tuple[str, str, float]] = []
    notes: list[str] = []
    failed: dict[str, str] = {}
    errors = stderr()
    columns = (SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
               TextColumn("{task.completed}/{task.total}"), TimeElapsedColumn())
    with Progress(*columns, console=errors, transient=True) as progress:
        task = progress.add_task("benchmarks", total=len(benchmarks))
        for name, fn in benchmarks.items():
            progress.update(task, description=f"running {name}")
            try:
                measured = fn(quick)
            except Exception as exc:  # noqa: BLE001 — report it and run the others
                failed[name] = f"{type(exc).__name__}: {exc}"
                errors.print(
                    f"[bold red]benchmark {escape(name)} failed:[/] {escape(failed[name])}"
                )
            else:
                # A string is a note about the run (e.g. what --quick left out), not a number.
                notes.extend(f"{name}: {v}" for v in measured.values() if isinstance(v, str))
                rows.extend((name, metric, value) for metric, value in measured.items()
                            if not isinstance(value, str))
            progress.advance(task)
    flat: dict[str, object] = {}
    for name, metric, value in rows:
        # Two benchmarks reporting the same metric name keep both, prefixed.
        key = metric if metric not in flat else f"{name}.{metric}"
        flat[key] = float(value)
    info = machine_info()
    if as_json:
        flat["machine"] = info
        if failed:
            flat["failed"] = failed
        if notes:
            info["notes"] = notes
        typer.echo(json.dumps(flat, indent=2))
    else:
        table = Table(title="Spyglass benchmarks", title_justify="left",
                      caption=f"{info['cpu']} · {info['logical_cpus']} logical CPUs · "
                              f"Python {info['python']} · numba {info['numba']} · "
                              f"THP {info['transparent_huge_pages']}"
                              + (" · quick" if quick else ""))
        table.add_column("benchmark")
        table.add_column("metric", style="bold")
        table.add_column("value", justify="right", style="cyan")
        for name, metric, value in rows:
            table.add_row(name, metric, _format(value))
        stdout().print(table)
        for note in notes:
            stdout().print(f"note: {escape(note)}")
    if failed:
        raise typer.Exit(1)
