"""Whitehouse 2014's LOTR:C experiments, resumable, on paired games: §5.1.1 (trees x
iterations), §6.3.2 Figs 6.2-6.3 (the round robin) and Fig. 6.8 (time per move).

Every experiment is a list of *cells*, a cell being (Dark's player, Light's player),
played by the paired-cells runner :mod:`spyglass.experiments.cells`. Game ``i`` of every
cell is ``play_match(seed=seed * 1_000_003 + i)``: the same initial setup
(``setup=random``), the same chance stream and the same seats' seeds in every cell, so
game ``i`` of one cell is paired with game ``i`` of another. Games are played in order,
every cell's game ``i`` before any game ``i + 1``, each appended at once to a JSON-lines
file (one record per game: experiment, cells' players, setup, seed, index, winner, moves).
A killed run keeps its games, a restart skips what is on file, and whatever has finished
is a balanced paired design. The size is fixed before the run (``--games``); nothing here
grows a run.

Comparisons (:func:`compare_side`, :func:`head_to_head`): paired win/loss outcomes on the
same seeds, read by McNemar's exact test in :mod:`spyglass.experiments.ledger` (which also
applies each family's Holm correction; the claims and sizes are in
:mod:`spyglass.experiments.ledger_claims`).

- ``balance`` (§5.1.1, Fig. 5.5): Light with d x s = 1 x b and 40 x b/40 against Dark
  40 x b/40, and the same with the sides exchanged.
- ``roundrobin`` (§6.3.2, Figs 6.2-6.3): every (Dark, Light) pair of the chosen
  algorithms, self-pairings included, at ``iterations`` per decision.
- ``time`` (§6.3.2, Fig. 6.8): MO-ISMCTS against determinized UCT, each side, at thesis
  seconds ``t`` mapped to iterations as ``t * scale * rate`` with this machine's measured
  iterations/s (:data:`RATES`), as the thesis fixed iterations from its Fig. 6.6 rates.

Determinized UCT (and the cheating ensemble) keep the thesis's shapes when the budget
``n`` shrinks: Light one tree of ``n`` (§6.3.2); Dark trees : iterations as 10 : 1,000
(the ratio the thesis keeps when it scales, Fig. 6.8), ``d = round(sqrt(n / 100))``.

Commands::

    spyglass experiment lotrc run roundrobin --games 30 --iterations 1000 \\
        --out docs/figures/lotrc_roundrobin_fixed.jsonl
    spyglass experiment lotrc table docs/figures/lotrc_roundrobin_fixed.jsonl
    # on a Ray cluster (every game a task; the file is written where the command runs):
    spyglass experiment lotrc run roundrobin --games 750 --iterations 10000 \\
        --out runs/lotrc_rr_fixed.jsonl --backend ray --address auto --workers 64
"""

from __future__ import annotations

import argparse
import datetime as dt
import math
import sys
from collections.abc import Sequence
from pathlib import Path

from spyglass.experiments.cells import Cell, complete, load, win_bars
from spyglass.experiments.cells import run as run_cells

DARK, LIGHT = 0, 1
SIDES = {"dark": DARK, "light": LIGHT}

#: Iterations per second at the first decision on this machine (docs/lotrc.md, Speed:
#: ``spyglass bench --game lotrc``, CPU time): the Fig. 6.8 time points' iterations.
RATES = {"moismcts": 38_796, "pimc": 90_077}

#: The six algorithms of §6.3.2 by their short names here.
ALGORITHMS = ("cheatinguct", "cheatingensemble", "pimc", "soismcts", "soismcts_pom",
              "moismcts")


def trees(n: int, side: int) -> tuple[int, int]:
    """(trees, iterations per tree) for an ensemble of ``n`` iterations on ``side``."""
    if side == LIGHT:
        return 1, n
    d = max(1, round(math.sqrt(n / 100)))
    return d, max(1, n // d)


def player(algo: str, n: int, side: int) -> str:
    """The agent spec of ``algo`` with a budget of ``n`` iterations playing ``side``."""
    if algo in ("pimc", "cheatingensemble"):
        d, s = trees(n, side)
        if algo == "cheatingensemble" and side == LIGHT:
            d, s = trees(n, DARK)  # §6.3.2: the cheating ensemble uses trees on both sides
        return f"{algo}:d={d},s={s}"
    if algo.startswith("pimc:"):  # an explicit d x s (§5.1.1)
        return algo
    return f"{algo}:iterations={n}"


def balance_cells(b: int, trees: Sequence[int] = (1, 40)) -> list[tuple[str, str]]:
    """§5.1.1 (Fig. 5.5): each side with d x b/d for every d of ``trees`` against the
    other side's 40 x b/40 (the reference; its self-play cell once)."""
    ref = f"pimc:d=40,s={max(1, b // 40)}"
    mine = [f"pimc:d={d},s={max(1, b // d)}" for d in trees]
    return [(ref, me) for me in mine] + [(me, ref) for me in mine if me != ref]


def roundrobin_cells(algos: Sequence[str], iterations: int) -> list[tuple[str, str]]:
    """Figs 6.2-6.3: every (Dark, Light) pair, self-pairings included."""
    return [(player(a, iterations, DARK), player(b, iterations, LIGHT))
            for a in algos for b in algos]


def time_iterations(algo: str, seconds: float, scale: float) -> int:
    """Iterations standing for ``seconds`` of the thesis's decision time."""
    return max(1, round(seconds * scale * RATES[algo]))


def time_cells(points: Sequence[float], scale: float) -> list[tuple[str, str]]:
    """Fig. 6.8: MO-ISMCTS and determinized UCT each side at every time point."""
    cells = []
    for t in points:
        mo = {s: player("moismcts", time_iterations("moismcts", t, scale), s) for s in (0, 1)}
        pi = {s: player("pimc", time_iterations("pimc", t, scale), s) for s in (0, 1)}
        cells += [(mo[DARK], pi[LIGHT]), (pi[DARK], mo[LIGHT])]
    return cells


def lotrc_cell(setup: str, dark: str, light: str) -> Cell:
    """The cell (Dark's player, Light's player) with its records' fields: setup, dark,
    light."""
    return Cell("lotrc", (dark, light),
                      (("setup", setup), ("dark", dark), ("light", light)),
                      (("setup", setup),))


def winner(game, result) -> dict:
    """A LOTR:C record's outcome: ``winner`` 0 Dark, 1 Light, -1 draw; the moves."""
    r = result.rewards
    return {"winner": -1 if r[0] == r[1] else int(r[1] > r[0]),
            "moves": len(result.actions)}


def run(experiment: str, cells: Sequence[tuple[str, str]], games: int, out: Path,
        setup: str = "fixed", seed: int = 1, until: dt.datetime | None = None,
        progress=None, extra: dict | None = None, backend: str = "local",
        workers: int | None = 1, address: str | None = None) -> list[dict]:
    """Play games ``0..games-1`` of every (Dark, Light) cell with
    :func:`spyglass.experiments.cells.run`, appending each to ``out`` (skipping games on
    file); hand out no game index after ``until`` (UTC). ``backend``/``workers``/
    ``address``: where the games are played (:mod:`spyglass.arena.backends`; Ray spreads
    them over machines); the analysis reads complete indices only."""
    return run_cells(experiment, [lotrc_cell(setup, d, lt) for d, lt in cells], games,
                     out, seed, until, progress, extra, backend, workers, address,
                     outcome=winner)


def _complete(rows: list[dict]) -> list[dict]:
    """The games whose index every cell of their experiment has played (the balanced
    design; a stopped run's last, partly played index is left out)."""
    return complete(rows, ("experiment", "setup", "seed"), ("dark", "light"))


def _algo(spec: str) -> str:
    return spec.split(":")[0]


def compare_side(rows: list[dict], side: str, a: str, b: str) -> tuple[int, int, int]:
    """``a`` against ``b`` playing ``side`` (agent names, or full specs), paired on the
    same opponent and game index, pooled over every opponent both met: (pairs where only
    ``a`` won, only ``b`` won, pairs)."""
    s = SIDES[side]
    me, opp = ("dark", "light") if s == DARK else ("light", "dark")

    def who(spec: str) -> str:
        return spec if ":" in a or ":" in b else _algo(spec)

    wins: dict[tuple[str, str, int], int] = {}
    for r in _complete(rows):
        wins[(who(r[me]), r[opp], r["i"])] = int(r["winner"] == s)
    up = down = n = 0
    for (name, opp_spec, i), w in wins.items():
        if name != a or (b, opp_spec, i) not in wins:
            continue
        v = wins[(b, opp_spec, i)]
        n += 1
        up += w > v
        down += v > w
    return up, down, n


def head_to_head(rows: list[dict], a: str, b: str, budget: float | None = None
                 ) -> tuple[int, int, int]:
    """Fig. 6.8: ``a`` as Dark against ``b`` as Light, paired by game index with ``b`` as
    Dark against ``a`` as Light: (indices where only ``a``'s Dark won, only ``b``'s Dark
    won, indices). ``a``'s share of the two games minus ``b``'s is their difference.
    ``budget``: the time point (thesis seconds) whose cells to read."""
    dark_won: dict[tuple[str, int], int] = {}
    for r in _complete(rows):
        if budget is not None and r.get("seconds") != budget:
            continue
        dark_won[(_algo(r["dark"]), r["i"])] = int(r["winner"] == DARK)
    up = down = n = 0
    for (name, i), w in dark_won.items():
        if name != a or (b, i) not in dark_won:
            continue
        v = dark_won[(b, i)]
        n += 1
        up += w > v
        down += v > w
    return up, down, n


def run_time(points: Sequence[float], scale: float, games: int, out: Path,
             setup: str = "fixed", seed: int = 1, until: dt.datetime | None = None,
             **where) -> list[dict]:
    """Fig. 6.8, one time point after another (each a balanced paired run of its own,
    experiment ``time<t>``); each record carries its point's ``seconds`` and ``scale``."""
    for t in points:
        run(f"time{t:g}", time_cells([t], scale), games, out, setup, seed, until,
            extra={"seconds": t, "scale": scale}, **where)
    return load(out)


def table(rows: list[dict]) -> str:
    """Each cell's Dark win rate on the complete game indices."""
    cells: dict[tuple[str, str], list[int]] = {}
    for r in _complete(rows):
        key = (r["dark"] + (f" @{r['seconds']:g}s" if "seconds" in r else ""), r["light"])
        cells.setdefault(key, []).append(int(r["winner"] == DARK))
    lines = ["| Dark | Light | games | Dark wins |", "|---|---|---|---|"]
    for (d, lt), w in sorted(cells.items()):
        lines.append(f"| {d} | {lt} | {len(w)} | {100 * sum(w) / len(w):.1f}% |")
    return "\n".join(lines)


def plot(rows: list[dict], out: Path) -> Path:
    """Each cell's Dark win rate with its 95% Clopper-Pearson interval (complete game
    indices), one bar per cell, as the thesis's Figs 5.5 and 6.2-6.3 show win rates by
    pairing; Fig. 6.8's cells are labelled with their time point."""
    cells: dict[str, list[int]] = {}
    for r in _complete(rows):
        label = f"{r['dark']}\nvs {r['light']}" + (
            f"\n@{r['seconds']:g} s" if "seconds" in r else "")
        cells.setdefault(label, []).append(int(r["winner"] == DARK))
    return win_bars({k: cells[k] for k in sorted(cells)}, "Dark win rate (%), 95% CI", out,
                    min_width=6.0, per_bar=0.7, height=5.0, rotation=90, fontsize=6,
                    dpi=110)


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="spyglass experiment lotrc",
                                description=__doc__.split("\n\n")[0])
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="play an experiment's games (resumes)")
    r.add_argument("experiment", choices=("balance", "roundrobin", "time"))
    r.add_argument("--games", type=int, required=True, help="games per cell (declared)")
    r.add_argument("--out", type=Path, required=True)
    r.add_argument("--setup", choices=("fixed", "random"), default="fixed")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--iterations", type=int, default=10_000,
                   help="roundrobin: per decision; balance: the budget b = d x s")
    r.add_argument("--trees", default="1,40",
                   help="balance: the numbers of trees d to play (Fig. 5.5's axis)")
    r.add_argument("--algorithms", default=",".join(ALGORITHMS),
                   help="roundrobin: comma-separated from " + ", ".join(ALGORITHMS))
    r.add_argument("--seconds", default="1,3,5,10,20,30",
                   help="time: thesis seconds per move, comma-separated")
    r.add_argument("--scale", type=float, default=1.0,
                   help="time: this machine's seconds per thesis second")
    r.add_argument("--until", help="stop before a new game index after HH:MM (UTC)")
    r.add_argument("--backend", choices=("local", "ray"), default="local")
    r.add_argument("--workers", type=int, default=1, help="processes (local) or Ray tasks")
    r.add_argument("--address", help="ray: the cluster's address (default: start one here)")
    t = sub.add_parser("table", help="each cell's Dark win rate")
    t.add_argument("file", type=Path)
    t.add_argument("--plot", type=Path, help="also draw the cells' win rates to this PNG")
    a = p.parse_args(argv)
    if a.cmd == "table":
        print(table(load(a.file)))
        if a.plot:
            print(f"wrote {plot(load(a.file), a.plot)}")
        return 0
    until = None
    if a.until:
        h, m = map(int, a.until.split(":"))
        now = dt.datetime.now(dt.timezone.utc)
        until = now.replace(hour=h, minute=m, second=0, microsecond=0)
    if a.iterations < 1 or a.scale <= 0:
        p.error("--iterations and --scale must be positive")
    where = dict(backend=a.backend, workers=a.workers, address=a.address)
    if a.experiment == "time":
        run_time([float(x) for x in a.seconds.split(",")], a.scale, a.games, a.out,
                 a.setup, a.seed, until, **where)
    else:
        if a.experiment == "balance":
            cells = balance_cells(a.iterations, [int(x) for x in a.trees.split(",")])
        else:
            algos = a.algorithms.split(",")
            bad = [x for x in algos if x not in ALGORITHMS]
            if bad:
                p.error(f"unknown algorithm(s) {', '.join(bad)}; known: {', '.join(ALGORITHMS)}")
            cells = roundrobin_cells(algos, a.iterations)
        run(a.experiment, cells, a.games, a.out, a.setup, a.seed, until, **where)
    print(table(load(a.out)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
