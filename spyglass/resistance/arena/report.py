"""The Resistance's 2012 report sections, on top of every game's (:mod:`spyglass.arena.report`).

:func:`resistance_results_table`: SPIES / RESISTANCE / TOTAL with the behaviour columns,
then every game's per-seat table; ``bots.csv``; the balanced model's table.
"""

from __future__ import annotations

import csv
import math
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Group
from rich.table import Table
from rich.text import Text

from spyglass.arena.report import _pct, agents_table, fmt_rate
from spyglass.arena.stats import INTERVAL_2012
from spyglass.resistance.arena.counts import BEHAVIOUR
from spyglass.resistance.arena.stats import EXCLUSION_NOTE

# spyglass.resistance.arena.table.TournamentResults: not imported (that module imports this one).
TournamentResults = Any


def resistance_results_table(results: TournamentResults) -> Group:
    """Per-bot results as in the 2012 output: SPIES, RESISTANCE and TOTAL sections, each
    sorted by that win rate, with the behaviour columns of each role; then every game's
    per-agent and per-seat table (:func:`agents_table`)."""
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
    # Every game's table; the roles' columns are SPIES and RESISTANCE above.
    seats = agents_table("BY SEAT (win: the bot's side won)", results.agents,
                         results.config.players, results.seats, cell=fmt_rate, by_role=False)
    return Group(head, spies, res, total, Text(_caption(results), style="dim"), seats)


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
