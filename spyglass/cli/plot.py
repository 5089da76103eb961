"""``spyglass plot``: results as PNG plots. ``plot suspicion`` draws Taylor 2014, §4.5.2's curves.

Plots are drawn on matplotlib ``Figure`` objects (no pyplot state, no backend switch), so
they work the same from the command line, a notebook or a worker process.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

import typer

from spyglass.arena.records import iter_records
from spyglass.cli.app import app
from spyglass.resistance.arena.suspicion import (
    Curve,
    MissionSummary,
    by_mission,
    inaccuracies,
    windowed,
)

plot_app = typer.Typer(help="Draw results as PNG plots.", no_args_is_help=True)
app.add_typer(plot_app, name="plot")

MARKERS = ("o", "s", "^", "D", "v")
GROUPINGS = ("all", "subject", "role")


def _fail(message: str) -> typer.Exit:
    typer.secho(f"Error: {message}", fg=typer.colors.RED, err=True)
    return typer.Exit(2)


def _games_file(results: Path) -> Path:
    if results.is_file():
        return results
    if not results.is_dir():
        raise _fail(f"no such results directory: {str(results)!r}")
    path = results / "games.jsonl"
    if not path.is_file():
        raise _fail(f"{str(results)!r} holds no games.jsonl (run a tournament with "
                    "--track-suspicion into it first)")
    return path


def _slug(name: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", name).strip("_") or "bot"


def plot_by_mission(summary: list[MissionSummary], path: Path) -> None:
    """One curve per observer bot: mean inaccuracy after each mission, with 95% intervals."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(7, 4.5))
    ax = fig.add_subplot()
    for observer in sorted({s.observer for s in summary}):
        rows = [s for s in summary if s.observer == observer]
        ax.errorbar([s.mission for s in rows], [s.mean for s in rows],
                    yerr=[0.0 if s.ci95 != s.ci95 else s.ci95 for s in rows],
                    marker="o", capsize=3, label=f"{observer} ({max(s.games for s in rows)} games)")
    ax.axhline(0.5, color="grey", linestyle=":", linewidth=1, label="score 0.5 for everyone")
    ax.set(xlabel="after mission", ylabel="mean suspicion inaccuracy (0 = perfect)",
           title="Suspicion inaccuracy by mission (observer as resistance)",
           xticks=range(1, 6), ylim=(0, 1))
    ax.legend(fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def plot_over_games(curves: list[Curve], observer: str, window: int, path: Path) -> None:
    """Taylor 2014, Fig 9: inaccuracy over the games, a marker per mission, a colour per group."""
    from matplotlib import colormaps
    from matplotlib.figure import Figure

    groups = sorted({c.group for c in curves}, key=lambda g: (g != "all", g))
    palette = colormaps["tab10"]
    colours = {g: "black" if g == "all" else palette(i % 10) for i, g in enumerate(groups)}
    fig = Figure(figsize=(9, 5))
    ax = fig.add_subplot()
    for c in curves:
        ax.plot(c.x, c.y, color=colours[c.group], marker=MARKERS[(c.mission - 1) % 5],
                markersize=4, linewidth=1, label=f"mission {c.mission}, {c.group}")
    ax.set(xlabel="game", ylabel="suspicion inaccuracy (0 = perfect)", ylim=(0, 1),
           title=f"{observer}: suspicion inaccuracy, averaged over every {window} games")
    ax.legend(fontsize="x-small", ncol=max(1, len(groups) // 3 + 1))
    fig.tight_layout()
    fig.savefig(path, dpi=120)


@plot_app.command("suspicion")
def suspicion(
    results: Annotated[Path, typer.Argument(
        help="A results directory holding games.jsonl (or a .jsonl file itself).")],
    window: Annotated[int | None, typer.Option(
        help="Games per averaged point (the seed used 500); default: a tenth of the games.")]
    = None,
    by: Annotated[str, typer.Option(
        help="Curves per mission for: all subjects (black), each observed 'subject' bot, "
             "or each 'role'.")] = "all",
    observer: Annotated[list[str] | None, typer.Option(
        help="Only these observer bots (repeatable).")] = None,
) -> None:
    """Plot suspicion inaccuracy (Taylor 2014, §4.5) from games recorded with suspicion tracking.

    Writes suspicion_by_mission.png (one curve per observer bot, mission by mission) and
    suspicion_<bot>.png per observer (inaccuracy over the games, averaged over windows,
    one marker per mission) into the results directory, and prints the table.
    """
    if by not in GROUPINGS:
        raise _fail(f"--by must be one of {', '.join(GROUPINGS)}, not {by!r}")
    if window is not None and window < 1:
        raise _fail(f"--window must be at least 1 game, not {window}")
    path = _games_file(results)
    try:
        rows = inaccuracies(iter_records(path))
    except (ValueError, OSError, KeyError) as exc:
        raise _fail(f"cannot read {str(path)!r}: {exc}") from None
    if observer:
        known = sorted({r.observer for r in rows})
        missing = [o for o in observer if o not in known]
        if missing:
            raise _fail(f"no suspicion data for observer(s) {', '.join(missing)}; "
                        f"observers: {', '.join(known) or 'none'}")
        rows = [r for r in rows if r.observer in observer]
    if not rows:
        raise _fail(f"{str(path)!r} has no suspicion data from a resistance observer: record "
                    "games with --track-suspicion and bots that report suspicion "
                    "(e.g. stalker, nosey, bounder, rebounder, invalidator)")
    out_dir = path.parent
    summary = by_mission(rows)
    written = [out_dir / "suspicion_by_mission.png"]
    plot_by_mission(summary, written[0])
    for name in sorted({r.observer for r in rows}):
        mine = [r for r in rows if r.observer == name]
        n_games = max(r.game for r in mine) + 1
        w = window or max(1, n_games // 10)
        target = out_dir / f"suspicion_{_slug(name)}.png"
        plot_over_games(windowed(mine, w, by), name, w, target)
        written.append(target)
    _print_table(summary)
    for p in written:
        typer.echo(f"wrote {p}")


def _print_table(summary: list[MissionSummary]) -> None:
    from rich.console import Console
    from rich.table import Table

    table = Table(title="Mean suspicion inaccuracy ± 95% interval after mission m (0 = perfect)")
    table.add_column("observer")
    missions = sorted({s.mission for s in summary})
    for m in missions:
        table.add_column(f"m{m}", justify="right")
    table.add_column("games as res.", justify="right")
    for name in sorted({s.observer for s in summary}):
        cells = {s.mission: s for s in summary if s.observer == name}
        row = [name]
        for m in missions:
            s = cells.get(m)
            row.append("" if s is None else
                       f"{s.mean:.3f}" + ("" if s.ci95 != s.ci95 else f" ±{s.ci95:.3f}"))
        row.append(str(max(s.games for s in cells.values())))
        table.add_row(*row)
    Console(highlight=False).print(table)
