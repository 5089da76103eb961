"""Tournament reports of every game: terminal tables, CSV files and the win-rate chart.

Every tournament gets the same per-agent section (:func:`agents_table`,
:func:`write_agents_csv` -> ``agents.csv``, :func:`plot_winrates` -> ``winrates.png``)
from :mod:`spyglass.arena.game_stats`' figures, and ``spyglass compare``'s table. The
Resistance adds its 2012 sections in :mod:`spyglass.resistance.arena.report`. Charts are
drawn on a matplotlib ``Figure`` object: no global pyplot state, no backend switch, so
they are safe inside notebooks and worker processes.
"""

from __future__ import annotations

import csv
import math
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from spyglass.arena.game_stats import AgentResult, pairwise
from spyglass.arena.stats import INTERVAL_2012, Rate

# spyglass.arena.game_table.GameTournamentResults. Not imported, even for type checking:
# that module imports this one, and the layers allow no cycle.
GameTournamentResults = Any


def fmt(r: Rate) -> str:
    """``57.5% [51.2, 63.6]`` or ``–`` for nothing counted."""
    if r.n == 0:
        return "–"
    return f"{100 * r.rate:.1f}% [{100 * r.low:.1f}, {100 * r.high:.1f}]"


def fmt_rate(r: Rate) -> str:
    """In percent: ``59.3±0.88`` for the 2012 interval (as it reported), else
    ``59.3 [58.4–60.2]``."""
    if r.n == 0:
        return "–"
    if r.method == INTERVAL_2012:
        return f"{100 * r.estimate:.1f}±{100 * r.half_width:.2f}"
    return f"{100 * r.estimate:.1f} [{100 * r.low:.1f}–{100 * r.high:.1f}]"


def _pct(x: float) -> str:
    return "–" if math.isnan(x) else f"{100 * x:.1f}"


# --- every game -------------------------------------------------------------------------------
def agents_table(title: str, agents: Sequence[AgentResult], players: int,
                 seats: Sequence[Rate] = (), omniscient: Sequence[str] = (),
                 cell: Callable[[Rate], str] = fmt, by_role: bool = True) -> Table:
    """Win rates overall, per seat and per role (unless not ``by_role``), mean rewards,
    games and errors; each rate written by ``cell``."""
    table = Table(title=title, title_justify="left")
    table.add_column("agent", style="bold")
    table.add_column("win rate [95%]", justify="right")
    for j in range(players):
        table.add_column(f"as seat {j}", justify="right")
    roles = list(agents[0].roles) if agents and by_role else []
    for role in roles:
        table.add_column(f"as {role}", justify="right")
    table.add_column("mean reward", justify="right")
    table.add_column("games", justify="right")
    table.add_column("errors", justify="right")
    for a in agents:
        name = a.label + (" (omniscient)" if a.label in omniscient else "")
        table.add_row(name, cell(a.win_rate), *(cell(s) for s in a.seats),
                      *(cell(a.roles[r]) for r in roles),
                      "–" if a.games == 0 else f"{a.mean_reward.rate:.3f}",
                      str(a.games), str(a.errors))
    by_seat = ", ".join(f"seat {j} {s.rate:.3f}" for j, s in enumerate(seats) if s.n)
    if by_seat:
        table.caption = f"mean reward by seat: {by_seat}"
        table.caption_justify = "left"
    return table


def results_table(results: GameTournamentResults) -> Group:
    """Win rates overall and per seat, mean rewards, errors; then the seats' mean rewards."""
    game = results.game
    table = agents_table(f"{game.title} {game!r}: {results.tally.games} games counted of "
                         f"{results.planned}", results.agents, game.n_players,
                         omniscient=results.omniscient)
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
    pairs = pairwise(results.tally) if results.tally.blocks else []
    parts = [table, Text("\n".join(notes), style="dim")]
    if pairs:
        parts.append(pairwise_table(pairs))
    return Group(*parts)


def pairwise_table(rows: Sequence[dict]) -> Table:
    """Every two agents on the deals both played (:func:`~spyglass.arena.game_stats.pairwise`)."""
    table = Table(title="paired by deal: blocks where each agent scored more",
                  title_justify="left", box=box.SIMPLE_HEAD)
    for col in ("a", "b", "a ahead", "b ahead", "tied", "sign test p", "Holm p"):
        table.add_column(col, justify="left" if col in ("a", "b") else "right")
    for r in rows:
        table.add_row(r["a"], r["b"], str(r["a_ahead"]), str(r["b_ahead"]), str(r["tied"]),
                      f"{r['p_sign']:.3g}", f"{r['p_holm']:.3g}")
    return table


def write_agents_csv(agents: Sequence[AgentResult], players: int, path: str | Path) -> None:
    """One row per agent: win rate, interval, per-seat (and per-role) win rates, mean
    reward, errors."""
    roles = list(agents[0].roles) if agents else []
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(["agent", "games", "errors", "win_rate", "low", "high", "interval",
                    *[f"seat{j}_win_rate" for j in range(players)], "mean_reward",
                    "mean_reward_low", "mean_reward_high",
                    *[f"{r}_win_rate" for r in roles]])
        for a in agents:
            w.writerow([a.label, a.games, a.errors, a.win_rate.rate, a.win_rate.low,
                        a.win_rate.high, a.win_rate.method, *[s.rate for s in a.seats],
                        a.mean_reward.rate, a.mean_reward.low, a.mean_reward.high,
                        *[a.roles[r].rate for r in roles]])


def plot_winrates(agents: Sequence[AgentResult], path: str | Path, title: str) -> None:
    """Bars of each agent's win rate overall and per role (games with roles) or per seat,
    with 95% intervals."""
    import numpy as np
    from matplotlib.figure import Figure

    roles = list(agents[0].roles) if agents else []
    players = len(agents[0].seats) if agents else 0
    parts = [("overall", lambda a: a.win_rate)]
    if roles:
        parts += [(f"as {r}", lambda a, r=r: a.roles[r]) for r in roles]
    else:
        parts += [(f"as seat {j}", lambda a, j=j: a.seats[j]) for j in range(players)]
    x = np.arange(len(agents))
    width = 0.8 / len(parts)
    fig = Figure(figsize=(max(6.0, 1.4 * len(agents) + 2), 4.5))
    ax = fig.add_subplot()
    for i, (name, get) in enumerate(parts):
        rates = [get(a) for a in agents]
        est = np.array([r.estimate if r.n else np.nan for r in rates])
        err = np.array([[max(0.0, r.estimate - r.low) if r.n else 0.0 for r in rates],
                        [max(0.0, r.high - r.estimate) if r.n else 0.0 for r in rates]])
        ax.bar(x + (i - (len(parts) - 1) / 2) * width, 100 * est, width, yerr=100 * err,
               capsize=3, label=name)
    ax.set_xticks(x, [a.label for a in agents], rotation=20, ha="right")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    # A team game's chance line is ½ (one side of two wins); otherwise one seat in n.
    ax.axhline(50 if roles else 100 / max(players, 1), color="grey", lw=0.6, ls=":")
    ax.set_title(title)
    ax.legend(loc="upper right", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def game_plot_title(results: GameTournamentResults) -> str:
    """The chart's title for a tournament of any game."""
    methods = sorted({r.method for a in results.agents for r in (a.win_rate, *a.seats) if r.n})
    return (f"{results.game.title}: {results.tally.games} games, 95% intervals "
            f"({', '.join(methods) or results.interval})")


def compare_table(comparison: dict) -> Table:
    """Rows of :func:`spyglass.tournament.compare`: two rates, difference and p-values
    (with McNemar's for runs of the same schedule; Holm: adjusted for the family)."""
    paired = comparison.get("paired", False)
    table = Table(title=f"{comparison['run1']}  vs  {comparison['run2']}", box=box.SIMPLE_HEAD)
    for col in ("what", "run 1", "run 2", "difference (95% CI)", "z-test p", "Fisher p",
                *(("pairs", "McNemar p") if paired else ()), "Holm p"):
        table.add_column(col, justify="left" if col == "what" else "right")
    if paired:
        table.caption = ("same schedule: games paired (same deals, seats and roles); "
                         "Holm over McNemar's p-values")
    for row in comparison["rows"]:
        t = row["test"]
        pair = row.get("paired", {})
        table.add_row(
            row["what"],
            f"{100 * t['rate1']:.1f}% n={t['n1']}",
            f"{100 * t['rate2']:.1f}% n={t['n2']}",
            f"{100 * t['difference']:+.1f} [{100 * t['difference_low']:+.1f}, "
            f"{100 * t['difference_high']:+.1f}]",
            f"{t['p_ztest']:.3g}",
            f"{t['p_fisher']:.3g}",
            *((str(pair.get("pairs", 0)), f"{pair.get('p_mcnemar', 1.0):.3g}") if paired
              else ()),
            f"{t['p_holm']:.3g}" if "p_holm" in t else "–",
        )
    return table
