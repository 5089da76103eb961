"""Whitehouse 2014, ch. 8 on paired deals, resumable: the card-game runs of Table 8.1
and Figures 8.5-8.7.

Why a second runner beside :mod:`spyglass.experiments.icarus`: on a shared machine a long
run gets killed or runs out of time. Here every cell plays *the same deals* (deal ``i``
is ``play_match(seed=seed * 1_000_003 + i)`` in every cell, the enhanced player in the
same seat), the deals are played in order with every cell's game of deal ``i`` before
any game of deal ``i + 1``, and each finished game is appended to a JSON-lines file at
once. A killed run keeps its games, a restart skips what is on file, and whatever has
finished is a balanced, paired design: ``n`` deals in every cell.

Analysis (:func:`analyse`): each cell's win rate with a Clopper-Pearson 95% interval;
each cell against the baseline cell ("-") on the same deals: the paired difference,
McNemar's exact test (a two-sided binomial test on the deals where exactly one of the
two won) and the 95% interval that goes with it (see :func:`_paired`); the thesis's
ANOVA (§8.5.1: wins on the factors and their two-way interactions, type II), and the
same ANOVA with the deal as a blocking factor (the paired design's version). The
comparisons with the baseline are read as a family: Holm's step-down correction over
Table 8.1's cells (the figures' cells a family of their own).

Command (one JSON-lines file per game; ``table`` reads it back)::

    spyglass experiment icarus-paired run --game doudizhu --iterations 1000 \
        --deals 2500 --out docs/figures/ch8_doudizhu.jsonl [--until 00:05]
    spyglass experiment icarus-paired table docs/figures/ch8_doudizhu.jsonl
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import math
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from spyglass.arena.match import play_match
from spyglass.arena.paired import holm
from spyglass.arena.stats import rate_interval
from spyglass.experiments.icarus import (
    FACTORS,
    GAMES,
    SINGLE_DEAL,
    combos_for,
    game_options,
    won,
)
from spyglass.experiments.outputs import load_jsonl as load
from spyglass.games import registry
from spyglass.search.icarus.spec import TABLE_8_1

#: Figures 8.5-8.7's cells beyond Table 8.1's: EPIC vs NAST-2 (8.5); the MAST policies
#: (8.6; Table 8.1's M is Gibbs MAST); N-gram lengths (8.7; N = 1 is MAST with UCB1,
#: ``mast-ucb``, N = 2, 3 NAST).
FIGURE_CELLS = ("nast2", "mast-egreedy", "mast-roulette", "mast-ucb", "nast3")


def cells_for(game: str, figures: bool) -> list[str]:
    """Table 8.1's cells playable on ``game``, then (``figures``) Figures 8.5-8.7's."""
    return combos_for(game) + (list(FIGURE_CELLS) if figures else [])


def deal_seed(seed: int, i: int) -> int:
    """The seed of deal ``i``, the same in every cell (the pairing)."""
    return seed * 1_000_003 + i


def play_one(game, game_name: str, cell: str, iterations: int, seed: int, i: int,
             single_deal: bool = False) -> dict:
    """One game of ``cell`` on deal ``i``: the enhanced player at seat ``i % seats``."""
    _, agent, seats = GAMES[game_name]
    enhance = TABLE_8_1.get(cell, cell) or "base"
    lineup = [f"{agent}:iterations={iterations}"] * game.n_players
    seat = i % seats
    lineup[seat] = f"{agent}:iterations={iterations},enhance={enhance}"
    result = play_match(game, lineup, seed=deal_seed(seed, i))
    if result.error is not None:
        raise RuntimeError(f"{game_name} {cell} deal {i}: {result.error}")
    row = {"game": game_name, "cell": cell, "deal": i, "seat": seat, "seed": seed,
           "iterations": iterations, "win": int(won(game, result, seat))}
    if game_name in SINGLE_DEAL and not single_deal:
        row["whole_game"] = True  # rows without it (before 2026-11-27) are single deals
    return row


def run(game_name: str, iterations: int, deals: int, out: Path, seed: int = 1,
        cells: Sequence[str] | None = None, until: dt.datetime | None = None,
        progress=None, single_deal: bool = False) -> list[dict]:
    """Play deals ``0..deals-1`` in every cell, appending each game to ``out`` (skipping
    games already there); stop before starting a deal after ``until`` (UTC)."""
    if game_name not in GAMES:
        raise ValueError(f"no ch. 8 set-up for {game_name!r}; known: {', '.join(GAMES)}")
    if iterations < 1 or deals < 1:
        raise ValueError("iterations and deals must be positive")
    cells = list(cells) if cells else cells_for(game_name, figures=False)
    whole = game_name in SINGLE_DEAL and not single_deal
    done = {(r["cell"], r["deal"]) for r in load(out)
            if r["game"] == game_name and r["iterations"] == iterations and r["seed"] == seed
            and r.get("whole_game", False) == whole}
    game = registry.make(game_name, **game_options(game_name, single_deal))
    out.parent.mkdir(parents=True, exist_ok=True)
    with out.open("a") as f:
        if out.stat().st_size and not out.read_bytes().endswith(b"\n"):
            f.write("\n")  # a killed run's half line stays alone on its line
        for i in range(deals):
            if until is not None and dt.datetime.now(dt.timezone.utc) >= until:
                break
            for cell in cells:
                if (cell, i) in done:
                    continue
                row = play_one(game, game_name, cell, iterations, seed, i, single_deal)
                f.write(json.dumps(row) + "\n")
                f.flush()
            if progress is not None:
                progress(i)
    return load(out)


def _paired(base: dict[int, int], other: dict[int, int]) -> dict:
    """The paired difference (other - base) on the common deals with McNemar's exact
    two-sided p and the matching 95% interval: conditional on the ``k`` discordant deals
    (one side won, the other lost), ``(k/n)(2p - 1)`` over the Clopper-Pearson interval
    of ``p``, the share of them the enhanced player won."""
    from scipy.stats import binomtest

    common = sorted(set(base) & set(other))
    n = len(common)
    if n == 0:
        return {"n": 0}
    up = sum(other[k] > base[k] for k in common)
    down = sum(other[k] < base[k] for k in common)
    k = up + down
    if k:
        ci = rate_interval(up, k, method="beta")
        low, high = k / n * (2 * ci.low - 1), k / n * (2 * ci.high - 1)
        p = float(binomtest(up, k, 0.5).pvalue)
    else:
        low = high = 0.0
        p = 1.0
    return {"n": n, "diff": (up - down) / n, "low": low, "high": high,
            "only_enhanced_won": up, "only_baseline_won": down, "mcnemar_p": p}


def _anova(rows: list[dict], blocked: bool) -> dict[str, dict[str, float]]:
    import pandas as pd
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    frame = pd.DataFrame([{**{f: int(f in r["cell"]) for f in FACTORS},
                           "deal": r["deal"], "win": r["win"]} for r in rows])
    present = [f for f in FACTORS if frame[f].nunique() > 1]
    terms = present + [f"{a}:{b}" for i, a in enumerate(present) for b in present[i + 1:]]
    if blocked:
        terms.append("C(deal)")
    if not present or frame["win"].nunique() < 2:
        return {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = ols("win ~ " + " + ".join(terms), data=frame).fit()
            if model.df_resid <= 0:
                return {}
            table = sm.stats.anova_lm(model, typ=2)
    except (ValueError, np.linalg.LinAlgError):
        return {}
    return {str(k): {"F": float(v["F"]), "p": float(v["PR(>F)"])}
            for k, v in table.iterrows() if k not in ("Residual", "C(deal)")}


def _holm(paired: dict[str, dict]) -> None:
    """Add ``holm_p`` to each comparison with the baseline: Holm's correction within its
    family, Table 8.1's cells (up to fifteen comparisons) and the other cells (Figures
    8.5-8.7's) apart, as they answer different questions."""
    for in_table in (True, False):
        family = [c for c, p in paired.items()
                  if p.get("n") and (c in TABLE_8_1) == in_table]
        adjusted, _ = holm([paired[c]["mcnemar_p"] for c in family])
        for c, q in zip(family, adjusted, strict=True):
            paired[c]["holm_p"] = q


def analyse(rows: list[dict]) -> dict:
    """Rates, paired comparisons with the baseline (McNemar, Holm-corrected), factor
    means and both ANOVAs.

    Table 8.1's cells are analysed on the deals all of them have played (the balanced
    part of a run); any other cell (Figures 8.5-8.7's, which a run may stop playing
    earlier) on its deals that the baseline cell also played."""
    if not rows:
        raise ValueError("no games to analyse")
    if len({r.get("whole_game", False) for r in rows}) > 1:
        raise ValueError("the file mixes single deals and whole games (--single-deal): "
                         "analyse them apart")
    by_cell: dict[str, dict[int, int]] = {}
    for r in rows:
        by_cell.setdefault(r["cell"], {})[int(r["deal"])] = int(r["win"])
    table = [c for c in by_cell if c in TABLE_8_1] or list(by_cell)
    common = set.intersection(*(set(by_cell[c]) for c in table))
    base = set(by_cell["-"]) & common if "-" in by_cell else None
    by_cell = {c: {k: w for k, w in v.items()
                   if k in (common if c in table or base is None else base)}
               for c, v in by_cell.items()}
    rates, paired = {}, {}
    for cell, wins in by_cell.items():
        ri = rate_interval(sum(wins.values()), len(wins), method="beta")
        rates[cell] = {"wins": ri.wins, "n": ri.n, "rate": ri.rate, "low": ri.low,
                       "high": ri.high}
        if cell != "-" and "-" in by_cell:
            paired[cell] = _paired(by_cell["-"], wins)
    _holm(paired)
    table_rows = [{"cell": c, "deal": k, "win": w} for c, v in by_cell.items()
                  if c in TABLE_8_1 for k, w in v.items()]
    factors = {}
    for f in FACTORS:
        with_f = [r["win"] for r in table_rows if f in r["cell"]]
        without = [r["win"] for r in table_rows if f not in r["cell"]]
        if with_f and without:
            factors[f] = {"with": float(np.mean(with_f)), "without": float(np.mean(without)),
                          "n_with": len(with_f), "n_without": len(without)}
    first = rows[0]
    return {"game": first["game"], "iterations": first["iterations"], "seed": first["seed"],
            "deals": len(common), "rates": rates, "paired": paired, "factors": factors,
            "anova": _anova(table_rows, blocked=False) if len(factors) else {},
            "anova_blocked": _anova(table_rows, blocked=True) if len(factors) else {}}


def markdown(res: dict) -> str:
    """The analysis as Markdown: cells (rate, CI, paired difference, McNemar p and its
    Holm correction), then the factors with both ANOVAs."""
    lines = [f"**{res['game']}**, {res['iterations']} iterations per decision, "
             f"{res['deals']} paired deals per cell of Table 8.1 (seed {res['seed']}; "
             "other cells: the n shown, paired with the baseline on the same deals):", "",
             "| cell | enhance= | wins | rate | 95% CI | vs `-` (paired) | 95% CI | McNemar p "
             "| Holm p |",
             "|---|---|---|---|---|---|---|---|---|"]
    for cell, r in res["rates"].items():
        p = res["paired"].get(cell)
        cmp_ = (f"{p['diff']:+.3f} | {p['low']:+.3f} to {p['high']:+.3f} | {p['mcnemar_p']:.3f}"
                f" | {p['holm_p']:.3f}" if p and p["n"] else "| | |")
        lines.append(f"| {cell} | `{TABLE_8_1.get(cell, cell) or 'base'}` | {r['wins']}/{r['n']} "
                     f"| {r['rate']:.3f} | {r['low']:.3f}-{r['high']:.3f} | {cmp_} |")
    if res["factors"]:
        lines += ["", "| factor | rate without | rate with | ANOVA F | p | F (deal blocked) | p |",
                  "|---|---|---|---|---|---|---|"]
        for f, v in res["factors"].items():
            a = res["anova"].get(f, {})
            b = res["anova_blocked"].get(f, {})
            lines.append(f"| {f} | {v['without']:.3f} | {v['with']:.3f} | "
                         f"{a.get('F', math.nan):.2f} | {a.get('p', math.nan):.3f} | "
                         f"{b.get('F', math.nan):.2f} | {b.get('p', math.nan):.3f} |")
        inter = [(k, v) for k, v in res["anova"].items() if ":" in k and v["p"] < 0.05]
        lines += ["", "Two-way interactions with p < 0.05: "
                  + (", ".join(f"{k} (p = {v['p']:.3f})" for k, v in inter) or "none") + "."]
    return "\n".join(lines)


def plot(res: dict, out: Path) -> None:
    """Top row: Figure 8.4's bars (Table 8.1's cells) beside Figures 8.5-8.7's (the
    others), win rates with 95% intervals and the baseline cell's rate as the reference
    line. Bottom row: each cell's paired difference from the baseline with the interval
    that goes with McNemar's test."""
    from matplotlib.figure import Figure

    figure_order = ("-", "E", "nast2", "M", "mast-egreedy", "mast-roulette", "mast-ucb",
                    "nast3")  # Fig 8.5 | Fig 8.6 | Fig 8.7 (N = 1, 2, 3)
    groups = [[c for c in res["rates"] if c in TABLE_8_1],
              [c for c in figure_order if c in res["rates"]]
              + [c for c in res["rates"] if c not in TABLE_8_1 and c not in figure_order]]
    if len(groups[1]) <= 3 and not set(groups[1]) - set(TABLE_8_1):
        groups = groups[:1]
    groups = [g for g in groups if len(g) > 1] or [list(res["rates"])]
    fig = Figure(figsize=(4.0 + 0.45 * sum(len(g) for g in groups), 6.4))
    axes = fig.subplots(2, len(groups), squeeze=False, sharex="col",
                        gridspec_kw={"width_ratios": [len(g) for g in groups],
                                     "height_ratios": [3, 2]})
    titles = ["Table 8.1 (Fig 8.4)", "Figs 8.5-8.7: EPIC, NAST-N, MAST policies"]
    base = res["rates"].get("-", {}).get("rate")
    for col, (names, title) in enumerate(zip(groups, titles, strict=False)):
        ax, dax = axes[0][col], axes[1][col]
        x = range(len(names))
        rates = [res["rates"][n]["rate"] for n in names]
        err = [[r - res["rates"][n]["low"] for n, r in zip(names, rates, strict=True)],
               [res["rates"][n]["high"] - r for n, r in zip(names, rates, strict=True)]]
        labels = [{"E": "epic", "M": "mast-gibbs", "mast-ucb": "mast-ucb (N=1)"}.get(n, n)
                  if len(groups) > 1 and col == 1 else n for n in names]
        ax.bar(x, rates, yerr=err, capsize=3, color="#4c72b0")
        if base is not None:
            ax.axhline(base, color="grey", ls="--", lw=1, label="baseline (-)")
            ax.legend(loc="upper right", fontsize=7)
        ax.set_ylim(0, 1)
        ax.set_title(title, fontsize=9)
        pd_ = [res["paired"].get(n, {"diff": 0.0, "low": 0.0, "high": 0.0}) for n in names]
        dax.errorbar(x, [p["diff"] for p in pd_],
                     yerr=[[p["diff"] - p["low"] for p in pd_],
                           [p["high"] - p["diff"] for p in pd_]],
                     fmt="o", color="#c44e52", capsize=3)
        dax.axhline(0, color="grey", lw=1)
        dax.set_xticks(x, labels, rotation=45, ha="right", fontsize=8)
    axes[0][0].set_ylabel("win rate (95% CI)")
    axes[1][0].set_ylabel("paired diff. vs -\n(95% CI, McNemar)", fontsize=8)
    ns = sorted({r["n"] for r in res["rates"].values()})
    fig.suptitle(f"{res['game']}: {res['iterations']} iterations, "
                 f"{' or '.join(map(str, ns))} paired deals per bar", fontsize=10)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def _until(text: str) -> dt.datetime:
    """``HH:MM`` (UTC, the next such time) or an ISO timestamp."""
    now = dt.datetime.now(dt.timezone.utc)
    try:
        if len(text) <= 5:
            h, m = (int(x) for x in text.split(":"))
            t = now.replace(hour=h, minute=m, second=0, microsecond=0)
            return t if t > now else t + dt.timedelta(days=1)
        t = dt.datetime.fromisoformat(text)
        return t if t.tzinfo else t.replace(tzinfo=dt.timezone.utc)
    except ValueError as e:
        raise argparse.ArgumentTypeError(f"--until wants HH:MM (UTC), not {text!r}") from e


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="spyglass experiment icarus-paired",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("run", "table"))
    ap.add_argument("jsonl", nargs="?", type=Path, help="table: the run's JSON-lines file")
    ap.add_argument("--game", choices=tuple(GAMES), default="doudizhu")
    ap.add_argument("--iterations", type=int, default=5000)
    ap.add_argument("--deals", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--figures", action="store_true",
                    help="also Figures 8.5-8.7's cells: " + ", ".join(FIGURE_CELLS))
    ap.add_argument("--cells", default=None, help="comma-separated cells (default: Table 8.1)")
    ap.add_argument("--single-deal", action="store_true",
                    help="Hearts as one deal per game (our earlier departure; the thesis "
                         "plays games to 50 points)")
    ap.add_argument("--until", type=_until, default=None,
                    help="HH:MM UTC: start no new deal after this")
    args = ap.parse_args(argv)
    if args.what == "table":
        if args.jsonl is None:
            ap.error("table needs the JSON-lines file of a run")
        res = analyse(load(args.jsonl))
        args.jsonl.with_suffix(".json").write_text(json.dumps(res, indent=1))
        plot(res, args.jsonl.with_suffix(".png"))
        print(markdown(res))
        return
    if args.out is None:
        ap.error("run needs --out FILE.jsonl")
    if args.iterations < 1 or args.deals < 1:
        ap.error("--iterations and --deals must be positive")
    cells = (args.cells.split(",") if args.cells
             else cells_for(args.game, figures=args.figures))

    def progress(i: int) -> None:
        print(f"{args.game}: deal {i} done", file=sys.stderr, flush=True)

    if args.single_deal and args.game not in SINGLE_DEAL:
        ap.error(f"--single-deal is for {', '.join(SINGLE_DEAL)}, not {args.game}")
    run(args.game, args.iterations, args.deals, args.out, args.seed, cells, args.until,
        progress, single_deal=args.single_deal)


if __name__ == "__main__":
    main()
