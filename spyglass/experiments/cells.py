"""Paired cells: the one runner of experiments that play the same games under several
conditions (Whitehouse 2014's LOTR:C, Scotland Yard and Saboteur reproductions).

An experiment is a list of :class:`Cell` s, a cell being a game (name, options) and one
agent spec per seat. Game ``i`` of every cell is ``play_match(seed=game_seed(seed, i))``
through the arena's referee: the same deal, the same chance stream and the same seats'
seeds in every cell, so game ``i`` of one cell is paired with game ``i`` of another. A
cell whose seats ``rotate`` has its seats shifted for game ``i`` by :func:`seat_shift`
(the same shift in every cell: the tested player sits in the same, random, seat of the
same deal in each). Games are handed out in order, every cell's game ``i`` before any
game ``i + 1``, to a backend of :mod:`spyglass.arena.backends` (this process, a process
pool or Ray), and each finished game is appended at once to a JSON-lines file, one
record per game::

    {"experiment": ..., <the cell's fields>, "seed": ..., "i": ..., ["shift": k,]
     <the outcome's fields>, <extra fields>}

A killed run keeps its games, a restart skips what is on file, and the analysis reads
the *complete* indices only (:func:`complete`: those every cell has played), so whatever
has finished is a balanced paired design.

The size is declared before the run: given a ``manifest`` (the experiment, its cells,
games per cell, seed and budget), :func:`run` writes it beside the records
(``OUT.manifest.json``) before the first game, and refuses to continue a file whose
manifest declares anything else, so a run is never grown after its results were looked
at (a bigger run is a new file with a new seed).
"""

from __future__ import annotations

import datetime as dt
import json
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spyglass.arena.match import MatchResult, play_match
from spyglass.experiments.outputs import load_jsonl as load
from spyglass.games import registry
from spyglass.games.base import Game
from spyglass.rng import derive_seed

__all__ = ["Cell", "Design", "GameJob", "cell", "complete", "declare", "game_seed", "load",
           "main", "manifest_path", "paired", "play_job", "plot", "run", "seat_shift",
           "seat_wins", "table", "win_bars", "win_scores"]

#: The record fields that name a generic cell (:func:`cell`).
CELL_FIELDS = ("cell",)


@dataclass(frozen=True)
class Cell:
    """One condition: ``game`` with ``options`` (name, value pairs) and one agent spec per
    seat; ``fields`` name it in its records (and find its games when a run resumes);
    ``rotate``: shift the seats by :func:`seat_shift` in every game."""

    game: str
    seats: tuple[str, ...]
    fields: tuple[tuple[str, Any], ...]
    options: tuple[tuple[str, Any], ...] = ()
    rotate: bool = False

    @property
    def name(self) -> str:
        return str(dict(self.fields).get("cell", ""))


def cell(name: str, game: str, seats: Sequence[str], options: dict | None = None,
         rotate: bool = False) -> Cell:
    """A cell named ``name``; its records carry the name only (its seats are in the
    run's manifest, which a resumed run must match)."""
    return Cell(game, tuple(seats), (("cell", name),),
                tuple(sorted((options or {}).items())), rotate)


def game_seed(seed: int, i: int) -> int:
    """The seed of game ``i``, the same in every cell (the pairing)."""
    return seed * 1_000_003 + i


def seat_shift(seed: int, i: int, players: int) -> int:
    """Game ``i``'s seat shift for rotating cells: the cell's seat ``j`` plays the game's
    seat ``(j + shift) % players`` (drawn from the game's seed, apart from its deal)."""
    return derive_seed(game_seed(seed, i), 2) % players


def win_scores(game: Game, result: MatchResult) -> dict:
    """The default outcome: each seat's win score (the game's ``win_scores``) and the
    number of moves."""
    scores = [int(s) if float(s).is_integer() else float(s)
              for s in game.win_scores(result.rewards)]
    return {"scores": scores, "moves": len(result.actions)}


@dataclass(frozen=True)
class GameJob:
    """One game for a backend (:mod:`spyglass.arena.backends`: ``attempt`` counts how
    often it was handed out before; a replayed game is the same game, its seed fixed).
    ``outcome`` (module-level, so that it pickles) turns the result into record fields."""

    experiment: str
    cell: Cell
    seed: int
    i: int
    outcome: Callable[[Game, MatchResult], dict] = win_scores
    extra: dict = field(default_factory=dict)
    attempt: int = 0


_GAMES: dict[tuple, Game] = {}


def _game(c: Cell) -> Game:
    key = (c.game, len(c.seats), c.options)
    if key not in _GAMES:
        _GAMES[key] = registry.make(c.game, len(c.seats), **dict(c.options))
    return _GAMES[key]


def play_job(job: GameJob) -> dict:
    """One game in a worker: its record."""
    c = job.cell
    game = _game(c)
    n = len(c.seats)
    shift = seat_shift(job.seed, job.i, n) if c.rotate else 0
    seats = [c.seats[(s - shift) % n] for s in range(n)]
    result = play_match(game, seats, seed=game_seed(job.seed, job.i))
    if result.error is not None:
        raise RuntimeError(f"{' vs '.join(seats)}, game {job.i}: {result.error}")
    row = {"experiment": job.experiment, **dict(c.fields), "seed": job.seed, "i": job.i}
    if c.rotate:
        row["shift"] = shift
    return {**row, **job.outcome(game, result), **job.extra}


def _ident(values: Iterable) -> str:
    return json.dumps(list(values), sort_keys=True)


def manifest_path(out: Path) -> Path:
    """Where a run's declared size is kept: ``OUT.manifest.json`` beside ``OUT.jsonl``."""
    return out.with_name(out.stem + ".manifest.json")


def declare(out: Path, manifest: dict) -> Path:
    """Write the run's manifest before any game (or check that the one on file declares
    the same run); a ValueError if it declares another."""
    path = manifest_path(out)
    if path.exists():
        stored = json.loads(path.read_text())
        if stored.get("declared") != manifest:
            raise ValueError(
                f"{path} declares another run ({json.dumps(stored.get('declared'))}); a run "
                "is not changed or grown after its results were looked at: use a new --out "
                "(and a new --seed)")
        return path
    path.parent.mkdir(parents=True, exist_ok=True)
    now = dt.datetime.now(dt.timezone.utc).replace(microsecond=0).isoformat()
    path.write_text(json.dumps({"declared": manifest, "declared_at": now}, indent=1) + "\n")
    return path


def run(experiment: str, cells: Sequence[Cell], games: int, out: Path, seed: int = 1,
        until: dt.datetime | None = None, progress=None, extra: dict | None = None,
        backend: str = "local", workers: int | None = 1, address: str | None = None,
        outcome: Callable[[Game, MatchResult], dict] = win_scores,
        manifest: dict | None = None) -> list[dict]:
    """Play games ``0..games-1`` of every cell, appending each record to ``out`` (skipping
    games on file); hand out no game index after ``until`` (UTC). ``backend``/``workers``/
    ``address``: where the games are played (:mod:`spyglass.arena.backends`); records are
    written as games finish, so an index may be partly played when a run stops.
    ``manifest``: the run's declaration (see the module docstring)."""
    from spyglass.arena.backends import make_backend

    if games < 1:
        raise ValueError("--games must be positive")
    if manifest is not None:
        declare(out, manifest)
    keys = [[k for k, _ in c.fields] for c in cells]
    done = set()
    for r in load(out):
        if (r.get("experiment"), r.get("seed")) != (experiment, seed):
            continue
        for ks in keys:
            done.add((_ident(r.get(k) for k in ks), r.get("i")))

    def jobs():
        for i in range(games):
            if until is not None and dt.datetime.now(dt.timezone.utc) >= until:
                return
            for c in cells:
                if (_ident(v for _, v in c.fields), i) not in done:
                    yield GameJob(experiment, c, seed, i, outcome, extra or {})
            if progress is not None:
                progress(i)

    out.parent.mkdir(parents=True, exist_ok=True)
    runner = make_backend(backend, workers, address)
    runner.start()
    try:
        with out.open("a") as f:
            if out.stat().st_size and not out.read_bytes().endswith(b"\n"):
                f.write("\n")  # a killed run's half line stays alone on its line
            for row in runner.imap_unordered(jobs(), play_job):
                f.write(json.dumps(row) + "\n")
                f.flush()
    finally:
        runner.close()
    return load(out)


def complete(rows: list[dict], run_key: Sequence[str] = ("experiment", "seed"),
             cell_key: Sequence[str] = CELL_FIELDS) -> list[dict]:
    """The games whose index every cell of their run has played (the balanced design; a
    stopped run's last, partly played index is left out). ``run_key``: the fields that
    tell runs apart; ``cell_key``: the fields that tell a run's cells apart."""
    cells: dict[str, set] = {}
    by_i: dict[tuple, set] = {}
    for r in rows:
        run_id, cell_id = _ident(r.get(k) for k in run_key), _ident(r.get(k) for k in cell_key)
        cells.setdefault(run_id, set()).add(cell_id)
        by_i.setdefault((run_id, r["i"]), set()).add(cell_id)
    return [r for r in rows
            if by_i[(_ident(r.get(k) for k in run_key), r["i"])]
            == cells[_ident(r.get(k) for k in run_key)]]


def seat_wins(rows: list[dict], name: str, seat: int) -> dict[int, bool]:
    """Game index -> whether the cell ``name``'s seat ``seat`` won (its win score is 1),
    on the complete indices; for rotating cells ``seat`` is the cell's seat (played at
    the game's seat ``(seat + shift) % players``)."""
    out = {}
    for r in complete(rows):
        if r.get("cell") != name:
            continue
        s = (seat + r.get("shift", 0)) % len(r["scores"])
        out[int(r["i"])] = r["scores"][s] == 1
    return out


def paired(rows: list[dict], a: str, b: str, seat: int) -> tuple[int, int, int]:
    """Cell ``a`` against cell ``b`` for the player in ``seat``, paired by game index
    (the same deal): (indices where only ``a``'s player won, only ``b``'s, indices)."""
    wa, wb = seat_wins(rows, a, seat), seat_wins(rows, b, seat)
    common = sorted(set(wa) & set(wb))
    up = sum(wa[i] and not wb[i] for i in common)
    down = sum(wb[i] and not wa[i] for i in common)
    return up, down, len(common)


def table(rows: list[dict], seats: dict[int, str], comparisons: Sequence[tuple] = ()
          ) -> str:
    """Each cell's win rate for the players of ``seats`` (cell seat -> label) with 95%
    Clopper-Pearson intervals, then the paired ``comparisons`` ``(label, a, b, seat)``:
    a minus b with McNemar's exact test (unadjusted; the ledger applies Holm)."""
    from spyglass.arena.paired import paired_test
    from spyglass.arena.stats import rate_interval

    names = sorted({r["cell"] for r in complete(rows)},
                   key=[r["cell"] for r in rows].index)
    head = " | ".join(f"{label} wins (95% CI)" for label in seats.values())
    lines = [f"| cell | games | {head} |", "|---|---|" + "---|" * len(seats)]
    for name in names:
        cols = []
        for s in seats:
            w = seat_wins(rows, name, s)
            ri = rate_interval(sum(w.values()), len(w), method="beta")
            cols.append(f"{100 * ri.rate:.1f}% ({100 * ri.low:.1f}-{100 * ri.high:.1f})")
        lines.append(f"| {name} | {len(seat_wins(rows, name, 0))} | " + " | ".join(cols) + " |")
    todo = [(lab, a, b, s) for lab, a, b, s in comparisons if a in names and b in names]
    if todo:
        lines += ["", "| comparison (a minus b, paired by game) | pairs | a | b | "
                  "difference (95% CI) | only a / only b | McNemar p |",
                  "|---|---|---|---|---|---|---|"]
        for lab, a, b, s in todo:
            t = paired_test(seat_wins(rows, a, s), seat_wins(rows, b, s))
            lines.append(
                f"| {lab} | {t['pairs']} | {100 * t['rate_a']:.1f}% | {100 * t['rate_b']:.1f}% "
                f"| {100 * t['difference']:+.1f} ({100 * t['difference_low']:+.1f} to "
                f"{100 * t['difference_high']:+.1f}) | {t['only_a']} / {t['only_b']} | "
                f"{t['p_mcnemar']:.3g} |")
    return "\n".join(lines)


def win_bars(cells: dict[str, list[bool]], ylabel: str, out: Path, *, min_width: float = 4.0,
             per_bar: float = 0.8, height: float = 4.0, rotation: int = 30,
             fontsize: int = 8, dpi: int = 90) -> Path:
    """A bar per label (in the given order): its win rate with the 95% Clopper-Pearson
    interval, drawn to ``out``."""
    from matplotlib.figure import Figure

    from spyglass.arena.stats import rate_interval

    labels = list(cells)
    rates = [rate_interval(sum(cells[k]), len(cells[k]), method="beta") for k in labels]
    fig = Figure(figsize=(max(min_width, per_bar * len(labels)), height))
    ax = fig.subplots()
    x = range(len(labels))
    ax.bar(x, [100 * r.rate for r in rates], color="0.7")
    ax.errorbar(x, [100 * r.rate for r in rates],
                yerr=[[100 * (r.rate - r.low) for r in rates],
                      [100 * (r.high - r.rate) for r in rates]], fmt="none", color="k")
    ax.set_xticks(list(x), labels, rotation=rotation, fontsize=fontsize)
    ax.set_ylabel(ylabel)
    ax.set_ylim(0, 100)
    fig.tight_layout()
    fig.savefig(out, dpi=dpi)
    return out


def plot(rows: list[dict], seat: int, label: str, out: Path) -> Path:
    """Each cell's win rate for its player in ``seat`` (complete indices), one bar per
    cell, as the thesis's Fig. 7.7 shows Mr X's win rate per bar."""
    names = sorted({r["cell"] for r in complete(rows)},
                   key=[r["cell"] for r in rows].index)
    wins = {name: list(seat_wins(rows, name, seat).values()) for name in names}
    return win_bars(wins, f"{label}: win rate (%), 95% CI", out)


# --- a reproduction's command line ---------------------------------------------------------
@dataclass(frozen=True)
class Design:
    """A paired-cells reproduction as its command line runs it: the cells at a budget,
    their published size and budget (the defaults), the seats the table reports and the
    paired comparisons ``(label, a, b, seat)``."""

    experiment: str  # the records' ``experiment``
    cells: Callable[[int], list[Cell]]  # iterations per decision -> every cell, in order
    games: int  # published games per cell
    iterations: int  # published iterations per decision
    seats: dict[int, str]
    comparisons: tuple[tuple[str, str, str, int], ...]


def main(design: Design, argv: Sequence[str] | None, prog: str, description: str) -> int:
    """``run`` (declare the size, then play; resumes) and ``table``."""
    import argparse

    p = argparse.ArgumentParser(prog=prog, description=description)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="declare the run's size in OUT.manifest.json, then play "
                                   "its games (resumes the same declared run)")
    r.add_argument("--out", type=Path, required=True, help="the per-game records (.jsonl)")
    r.add_argument("--games", type=int, default=design.games,
                   help=f"games per cell (default: the published {design.games:,})")
    r.add_argument("--iterations", type=int, default=design.iterations,
                   help=f"iterations per decision of the reference players (default: the "
                        f"published {design.iterations:,})")
    r.add_argument("--seed", type=int, default=1)
    r.add_argument("--cells", help="comma-separated cells to play (default: all of "
                                   + ", ".join(c.name for c in design.cells(1)) + ")")
    r.add_argument("--declare-only", action="store_true",
                   help="write the manifest and stop (commit it before the run)")
    r.add_argument("--backend", choices=("local", "ray"), default="local")
    r.add_argument("--workers", type=int, default=1, help="processes (local) or Ray tasks")
    r.add_argument("--address", help="ray: the cluster's address (default: start one here)")
    t = sub.add_parser("table", help="each cell's win rates and the paired comparisons")
    t.add_argument("file", type=Path)
    t.add_argument("--plot", type=Path, help="also draw each cell's win rate (of the first "
                                             "seat the table reports) to this PNG")
    a = p.parse_args(argv)
    if a.cmd == "table":
        print(table(load(a.file), design.seats, design.comparisons))
        if a.plot:
            seat, label = next(iter(design.seats.items()))
            print(f"wrote {plot(load(a.file), seat, label, a.plot)}")
        return 0
    if a.games < 1 or a.iterations < 1:
        p.error("--games and --iterations must be positive")
    every = design.cells(a.iterations)
    names = [c.name for c in every]
    chosen = names if a.cells is None else a.cells.split(",")
    bad = [x for x in chosen if x not in names]
    if bad:
        p.error(f"unknown cell(s) {', '.join(bad)}; known: {', '.join(names)}")
    todo = [c for c in every if c.name in chosen]
    manifest = {"experiment": design.experiment, "game": todo[0].game,
                "options": dict(todo[0].options), "players": len(todo[0].seats),
                "games_per_cell": a.games, "iterations": a.iterations, "seed": a.seed,
                "cells": {c.name: list(c.seats) for c in todo},
                "published": {"games_per_cell": design.games,
                              "iterations": design.iterations}}
    if a.declare_only:
        try:
            print(f"declared in {declare(a.out, manifest)}")
        except ValueError as exc:  # another run is declared there: say so, as run does
            print(f"error: {exc}", file=sys.stderr)
            return 2
        return 0
    try:
        run(design.experiment, todo, a.games, a.out, a.seed, backend=a.backend,
            workers=a.workers, address=a.address, manifest=manifest)
    except ValueError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(table(load(a.out), design.seats, design.comparisons))
    return 0
