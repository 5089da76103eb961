"""Tournament reports: the terminal table, the per-bot CSV and the win-rate bar chart."""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from spyglass.arena.stats import BEHAVIOUR, EXCLUSION_NOTE, INTERVAL_2012, Rate

# A spyglass.arena.resistance_table.TournamentResults. Not imported, even for type checking:
# the tournament module imports this one, and the layers allow no cycle.
TournamentResults = Any


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


def results_table(results: TournamentResults) -> Group:
    """Per-bot results as in the 2012 output: SPIES, RESISTANCE and TOTAL sections, each
    sorted by that win rate, with the behaviour columns of each role."""
    bots = results.bots
    s = results.schedule

    def table(title: str, *columns: str) -> Table:
        t = Table(title=title, title_justify="left", title_style="bold", box=box.SIMPLE_HEAD,
                  pad_edge=False)
        t.add_column("bot", no_wrap=True)
        for col in columns:
            t.add_column(col, justify="right", no_wrap=True)
        return t

    spies = table("SPIES", "win %", "n", "voted", "selected")
    for b in sorted(bots, key=lambda b: -_nan0(b.spy.estimate)):
        spies.add_row(b.label, fmt_rate(b.spy), str(b.spy.n),
                      _pct(b.behaviour["spy_voted"]), _pct(b.behaviour["spy_selected"]))
    res = table("RESISTANCE", "win %", "n", "approve clean", "reject spied", "clean picks")
    for b in sorted(bots, key=lambda b: -_nan0(b.resistance.estimate)):
        res.add_row(b.label, fmt_rate(b.resistance), str(b.resistance.n),
                    _pct(b.behaviour["res_approve_clean"]),
                    _pct(b.behaviour["res_reject_spied"]), _pct(b.behaviour["res_select_clean"]))
    total = table("TOTAL", "win %", "n", "errors")
    for b in bots:
        total.add_row(b.label, fmt_rate(b.overall), str(b.overall.n),
                      f"[red]{b.errors}[/red]" if b.errors else "0")
    head = Text(f"{results.config.model} tournament: {results.games} games counted of "
                f"{len(s)} scheduled ({s.sets:.6g} set(s) of {s.set_size})", style="bold")
    return Group(head, spies, res, total, Text(_caption(results), style="dim"))


def _nan0(x: float) -> float:
    return 0.0 if math.isnan(x) else x


def _caption(results: TournamentResults) -> str:
    method = results.config.interval
    lines = [
        "95% interval: " + ("Agresti–Coull as in 2012, (w+1.92)/(n+3.84) ± e" if method ==
                            INTERVAL_2012 else method),
        "In %. voted: resistance votes for teams with the spy on; selected: resistance "
        "leaders' teams with the spy on; approve clean / reject spied: the bot's votes on "
        "spy-free teams / on teams with spies; clean picks: its own teams that were spy-free.",
    ]
    if results.tally.errors:
        lines.append(f"{results.tally.errors} game(s) with errors: {EXCLUSION_NOTE}")
    if not results.schedule.whole_sets:
        lines.append("warning: not a whole number of sets; some permutations played more often")
    return "\n".join(lines)


def balanced_table(results: TournamentResults) -> Table:
    """The spy team's win rate, overall and per spy configuration (balanced model)."""
    labels = results.labels
    table = Table(title=f"spies: {labels[0]}   resistance: {labels[-1]}", box=box.SIMPLE_HEAD)
    table.add_column("spy seats")
    table.add_column("spy win % (95% CI)", justify="right")
    table.add_column("n", justify="right")
    for seats, r in results.by_config().items():
        table.add_row(seats, fmt_rate(r), str(r.n))
    total = results.spy_team
    table.add_row("[bold]all[/bold]", f"[bold]{fmt_rate(total)}[/bold]", str(total.n))
    return table


def compare_table(comparison: dict) -> Table:
    """Rows of :func:`spyglass.tournament.compare`: two rates, difference and p-values."""
    table = Table(title=f"{comparison['run1']}  vs  {comparison['run2']}", box=box.SIMPLE_HEAD)
    for col in ("what", "run 1", "run 2", "difference (95% CI)", "z-test p", "Fisher p"):
        table.add_column(col, justify="left" if col == "what" else "right")
    for row in comparison["rows"]:
        t = row["test"]
        table.add_row(
            row["what"],
            f"{100 * t['rate1']:.1f}% n={t['n1']}",
            f"{100 * t['rate2']:.1f}% n={t['n2']}",
            f"{100 * t['difference']:+.1f} [{100 * t['difference_low']:+.1f}, "
            f"{100 * t['difference_high']:+.1f}]",
            f"{t['p_ztest']:.3g}",
            f"{t['p_fisher']:.3g}",
        )
    return table


CSV_COLUMNS = (
    ["bot", "played", "errors"]
    + [f"{part}_{x}" for part in ("overall", "spy", "resistance")
       for x in ("wins", "n", "rate", "estimate", "low", "high")]
    + list(BEHAVIOUR)
)


def write_bots_csv(results: TournamentResults, path: str | Path) -> None:
    """One row per bot: counts, rates with interval bounds, behaviour shares."""
    with open(path, "w", newline="", encoding="utf-8") as fh:
        w = csv.writer(fh)
        w.writerow(CSV_COLUMNS)
        for b in results.bots:
            row: list = [b.label, b.played, b.errors]
            for r in (b.overall, b.spy, b.resistance):
                row += [r.wins, r.n, r.rate, r.estimate, r.low, r.high]
            row += [b.behaviour[k] for k in BEHAVIOUR]
            w.writerow(row)


def plot_winrates(results: TournamentResults, path: str | Path) -> None:
    """Bar chart of each bot's win rate overall, as spy and as resistance, with intervals."""
    import numpy as np
    from matplotlib.figure import Figure

    bots = results.bots
    parts = (("overall", "overall", "#4c72b0"), ("spy", "as spy", "#c44e52"),
             ("resistance", "as resistance", "#55a868"))
    x = np.arange(len(bots))
    width = 0.27
    # A Figure object, not pyplot: no global state and no backend switch in a library.
    fig = Figure(figsize=(max(6.0, 1.3 * len(bots) + 2), 4.5))
    ax = fig.add_subplot()
    for i, (attr, name, colour) in enumerate(parts):
        rates = [getattr(b, attr) for b in bots]
        est = np.array([r.estimate if r.n else np.nan for r in rates])
        err = np.array([[max(0.0, r.estimate - r.low) if r.n else 0 for r in rates],
                        [max(0.0, r.high - r.estimate) if r.n else 0 for r in rates]])
        ax.bar(x + (i - 1) * width, 100 * est, width, yerr=100 * err, capsize=3,
               label=name, color=colour)
    ax.set_xticks(x, [b.label for b in bots], rotation=20, ha="right")
    ax.set_ylabel("win rate (%)")
    ax.set_ylim(0, 100)
    ax.axhline(50, color="grey", lw=0.6, ls=":")
    method = "Agresti–Coull (2012)" if results.config.interval == INTERVAL_2012 else \
        results.config.interval
    ax.set_title(f"{results.config.model}: {results.games} games, 95% intervals: {method}")
    ax.legend(loc="upper right", fontsize="small")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
