"""Reports of a tournament of any game: a table for the terminal, ``agents.csv`` and
``winrates.png`` (drawn on a matplotlib ``Figure`` object: no global pyplot state, no
backend switch, so it is safe inside notebooks and worker processes)."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text

from spyglass.arena.stats import Rate

# A spyglass.arena.game_table.GameTournamentResults (not imported: that module
# imports this one, and the layers allow no cycle).
GameTournamentResults = Any


def fmt(r: Rate) -> str:
    """``57.5% [51.2, 63.6]`` or ``–`` for nothing counted."""
    if r.n == 0:
        return "–"
    return f"{100 * r.rate:.1f}% [{100 * r.low:.1f}, {100 * r.high:.1f}]"


def results_table(results: GameTournamentResults) -> Group:
    """Win rates overall and per seat, mean rewards, errors; then the seats' mean rewards."""
    game = results.game
    table = Table(title=f"{game.title} {game!r}: {results.tally.games} games counted of "
                  f"{results.planned}", title_justify="left")
    table.add_column("agent", style="bold")
    table.add_column("win rate [95%]", justify="right")
    for j in range(game.n_players):
        table.add_column(f"as seat {j}", justify="right")
    table.add_column("mean reward", justify="right")
    table.add_column("games", justify="right")
    table.add_column("errors", justify="right")
    for a in results.agents:
        name = a.label + (" (omniscient)" if a.label in results.omniscient else "")
        table.add_row(name, fmt(a.win_rate), *(fmt(s) for s in a.seats),
                      "–" if a.games == 0 else f"{a.mean_reward.rate:.3f}",
                      str(a.games), str(a.errors))
    notes = [f"win rate: {game.win_statistic} per game; interval: {results.interval} "
             "(normal-mean with draws)"]
    seats = ", ".join(f"seat {j} {s.rate:.3f}" for j, s in enumerate(results.seats) if s.n)
    if seats:
        notes.append(f"mean reward by seat: {seats}")
    if not results.balanced:
        notes.append("the number of games is not a multiple of the rotation, so seats are not "
                     "exactly balanced")
    if results.tally.errors:
        notes.append(f"{results.tally.errors} game(s) ended by an error are not counted; "
                     "first error of each:")
        notes.extend(f"  {msg}" for msg in results.tally.first_errors.values())
    return Group(table, Text("\n".join(notes), style="dim"))


def write_agents_csv(results: GameTournamentResults, path: str | Path) -> None:
    """One row per agent: win rate, interval, per-seat win rates, mean reward, errors."""
    n = results.game.n_players
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["agent", "games", "errors", "win_rate", "low", "high", "interval",
                    *[f"seat{j}_win_rate" for j in range(n)], "mean_reward",
                    "mean_reward_low", "mean_reward_high"])
        for a in results.agents:
            w.writerow([a.label, a.games, a.errors, a.win_rate.rate, a.win_rate.low,
                        a.win_rate.high, a.win_rate.method, *[s.rate for s in a.seats],
                        a.mean_reward.rate, a.mean_reward.low, a.mean_reward.high])


def plot_winrates(results: GameTournamentResults, path: str | Path) -> None:
    """Bars of each agent's win rate, overall and per seat, with 95% intervals."""
    import numpy as np
    from matplotlib.figure import Figure

    agents = results.agents
    n = results.game.n_players
    parts = [("overall", lambda a: a.win_rate)] + [
        (f"as seat {j}", lambda a, j=j: a.seats[j]) for j in range(n)]
    x = np.arange(len(agents))
    width = 0.8 / len(parts)
    fig = Figure(figsize=(max(6.0, 1.4 * len(agents) + 2), 4.5))
    ax = fig.add_subplot()
    for i, (name, get) in enumerate(parts):
        rates = [get(a) for a in agents]
        est = np.array([r.rate if r.n else np.nan for r in rates])
        err = np.array([[max(0.0, r.rate - r.low) if r.n else 0.0 for r in rates],
                        [max(0.0, r.high - r.rate) if r.n else 0.0 for r in rates]])
        ax.bar(x + (i - (len(parts) - 1) / 2) * width, 100 * est, width, yerr=100 * err,
               capsize=3, label=name)
    ax.set_xticks(x, [a.label for a in agents], rotation=20, ha="right")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    ax.axhline(100 / n, color="grey", lw=0.6, ls=":")
    methods = sorted({r.method for a in agents for r in (a.win_rate, *a.seats) if r.n})
    ax.set_title(f"{results.game.title}: {results.tally.games} games, 95% intervals "
                 f"({', '.join(methods) or results.interval})")
    ax.legend(loc="upper right", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
