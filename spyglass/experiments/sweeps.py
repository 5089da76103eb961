"""Cowling, Whitehouse & Powley 2015, §VII-B/C, Figures 2 and 3: budget sweeps.

Fig. 2: SPLIT spies at ``S`` iterations (paper: 40,000) whose first ``T1`` iterations
self-determinize, for ``T1`` from 0 to ``S``, against MT-ISMCTS resistance with
particle-filter inference at ``R`` iterations (paper: 20,000). The paper reports a
plateau from ``T1`` about 15,000 to 35,000 and a drop at 40,000 (no iteration left on
the true information set's φ).

Fig. 3: TRUEONLY, PURE, SPLIT and BLUFF spies against inference resistance at *equal*
budgets ``K`` (spies and resistance alike), for ``K`` from small to large (SPLIT and
BLUFF split ``K`` in halves). The paper: TRUEONLY and SPLIT beat BLUFF at small
budgets, BLUFF is much stronger from 5,000 to 200,000, SPLIT overtakes at very large
budgets.

Design as Fig. 1 (:mod:`spyglass.experiments.fig1`): 5 players, the balanced model,
the fifth proposal forced, one tournament results directory per point (resumed if it
exists, grown or read in part: :mod:`spyglass.experiments.balanced_point`), the same
seed everywhere, so that points are paired game by game (same spy
configuration and game seed): each comparison is McNemar's exact test on the discordant
games (:mod:`spyglass.arena.paired`), Holm-corrected over the figure's family.
"""

from __future__ import annotations

import csv
import json
import math
from collections.abc import Sequence
from pathlib import Path

from spyglass.arena.paired import holm, log_budget_trend, paired_test, paired_trend
from spyglass.experiments.balanced_point import (
    INTERVAL,
    PLAYERS,
    RULES,
    play_point,
    point_row,
)

FIG3_VARIANTS = ("trueonly", "pure", "split", "bluff")
#: Paper defaults (Cowling, Whitehouse & Powley 2015, §VII-B/C).
FIG2_SPY_ITERATIONS = 40_000
FIG2_RESISTANCE_ITERATIONS = 20_000
FIG2_T1 = (0, 5_000, 10_000, 15_000, 20_000, 25_000, 30_000, 35_000, 40_000)
FIG3_BUDGETS = (100, 300, 1_000, 3_000, 10_000, 30_000, 100_000)


def _row(key: str, outcomes: dict[int, bool], **fields) -> dict:
    return {"point": key, **fields, **point_row(outcomes, INTERVAL)}


def _tests(pairs: Sequence[tuple[str, str, str]], outcomes: dict, rates: dict) -> list[dict]:
    """Paired tests (McNemar exact) of ``a`` vs ``b`` for each (name, a, b), Holm-adjusted."""
    tests = []
    for name, a, b in pairs:
        t = paired_test(outcomes[a], outcomes[b])
        tests.append({"comparison": name, "a": a, "b": b, "rate_a": rates[a],
                      "rate_b": rates[b], "difference_pp": 100 * (rates[a] - rates[b]),
                      "p_mcnemar": t["p_mcnemar"], "pairs": t["pairs"],
                      "discordant_a_b": [t["only_a"], t["only_b"]]})
    adjusted, significant = holm([t["p_mcnemar"] for t in tests])
    for t, p, sig in zip(tests, adjusted, significant, strict=True):
        t["p_holm"], t["significant_holm"] = p, sig
    return tests


def _write(rows: list[dict], summary: dict, out: Path, name: str, plot) -> dict[str, str]:
    out.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out / f"{name}.csv", "json": out / f"{name}.json",
             "png": out / f"{name}.png"}
    with open(paths["csv"], "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    paths["json"].write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    plot(paths["png"])
    return {k: str(v) for k, v in paths.items()}


def _check_positive(**values: int) -> None:
    for name, v in values.items():
        if type(v) is not int or v < 1:
            raise ValueError(f"{name} must be a positive integer, not {v!r}")


# --- Figure 2 -----------------------------------------------------------------------------
def run_fig2(*, games: int, spy_iterations: int = FIG2_SPY_ITERATIONS,
             resistance_iterations: int = FIG2_RESISTANCE_ITERATIONS,
             t1: Sequence[int] | None = None, seed: int = 1, out: str | Path = "fig2",
             backend: str = "local", workers: int | None = None, chunk: int = 10,
             progress: bool = True) -> dict:
    """SPLIT spies' win rate against ``T1`` (Fig. 2); each point vs ``T1 = 0`` (which is
    TRUEONLY at the same budget) and, for the paper's drop, ``T1 = S`` vs the point before
    it; paired, Holm-corrected over them all. ``trend_below_s``: the paper's upward trend,
    a paired trend in ``T1 / S`` over the points below ``S``
    (:func:`spyglass.arena.paired.paired_trend`)."""
    _check_positive(games=games, spy_iterations=spy_iterations,
                    resistance_iterations=resistance_iterations)
    if t1 is None:
        t1 = [round(x * spy_iterations / FIG2_SPY_ITERATIONS) for x in FIG2_T1]
    points = sorted(set(int(x) for x in t1))
    bad = [x for x in points if not 0 <= x <= spy_iterations]
    if bad or not points:
        raise ValueError(f"T1 values must lie in 0..{spy_iterations} (the spies' budget), "
                         f"not {bad or 'none'}")
    out = Path(out)
    resistance = f"mtismcts:iterations={resistance_iterations},inference=true"
    rows, outcomes = [], {}
    for x in points:
        key = f"t1-{x}"
        spy = f"mtismcts:iterations={spy_iterations},bluff=split,t1={x}"
        outcomes[key] = play_point(out / key, spy, resistance, games=games, seed=seed,
                                   rules=RULES, interval=INTERVAL, backend=backend,
                                   workers=workers, chunk=chunk, progress=progress)
        rows.append(_row(key, outcomes[key], t1=x))
    rates = {r["point"]: r["spy_win_rate"] for r in rows}
    base = f"t1-{points[0]}"
    pairs = [(f"T1={r['t1']} vs T1={points[0]}", r["point"], base)
             for r in rows if r["point"] != base]
    if len(points) > 2 and points[-1] == spy_iterations:
        # the paper's drop: all-self-determinizing against the point before it
        pairs.append((f"T1={points[-1]} vs T1={points[-2]}", f"t1-{points[-1]}",
                      f"t1-{points[-2]}"))
    tests = _tests(pairs, outcomes, rates)
    # The paper's "upward trend" before the drop: a paired trend in T1/S below S.
    rising = {x / spy_iterations: outcomes[f"t1-{x}"] for x in points if x < spy_iterations}
    trend = paired_trend(rising) if len(rising) > 1 else None
    meta = {"figure": "Cowling, Whitehouse & Powley 2015, Fig. 2", "games": games,
            "spy_iterations": spy_iterations, "resistance_iterations": resistance_iterations,
            "seed": seed, "rules": RULES, "players": PLAYERS, "interval": INTERVAL,
            "paper": "plateau from T1 ~15,000 to 35,000 (of 40,000), drop at 40,000"}
    summary = {**meta, "rows": rows, "tests": tests, "trend_below_s": trend}

    def plot(path: Path) -> None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(6, 4))
        ax = fig.add_subplot()
        xs = [r["t1"] for r in rows]
        ys = [r["spy_win_rate"] for r in rows]
        err = [[max(0.0, r["spy_win_rate"] - r["low"]) for r in rows],
               [max(0.0, r["high"] - r["spy_win_rate"]) for r in rows]]
        ax.errorbar(xs, ys, yerr=err, marker="o", capsize=3)
        ax.set_xlabel(f"T1 (self-determinizing iterations of {spy_iterations})")
        ax.set_ylabel("SPLIT spy win rate (95% Wilson)")
        ax.set_ylim(0, 1)
        ax.set_title(f"Fig. 2 reproduction: resistance {resistance_iterations} it., "
                     f"{games} games per point")
        fig.tight_layout()
        fig.savefig(path, dpi=120)

    summary["paths"] = _write(rows, summary, out, "fig2", plot)
    return summary


# --- Figure 3 -----------------------------------------------------------------------------
def run_fig3(*, games: int, budgets: Sequence[int] = FIG3_BUDGETS,
             variants: Sequence[str] = FIG3_VARIANTS, seed: int = 1,
             out: str | Path = "fig3", backend: str = "local", workers: int | None = None,
             chunk: int = 10, progress: bool = True) -> dict:
    """Spy win rate per variant and equal budget (Fig. 3); at each budget every variant
    vs BLUFF, paired, Holm-corrected over the whole figure."""
    _check_positive(games=games)
    budgets = sorted(set(int(k) for k in budgets))
    if not budgets or budgets[0] < 2:
        raise ValueError("budgets must be integers of at least 2 iterations")
    unknown = [v for v in variants if v not in FIG3_VARIANTS]
    if unknown or not variants:
        raise ValueError(f"unknown variant(s) {unknown}; choose from "
                         + ", ".join(FIG3_VARIANTS))
    out = Path(out)
    rows, outcomes = [], {}
    for k in budgets:
        resistance = f"mtismcts:iterations={k},inference=true"
        for v in variants:
            key = f"k{k}-{v}"
            spy = f"mtismcts:iterations={k},bluff={v}"
            outcomes[key] = play_point(out / key, spy, resistance, games=games, seed=seed,
                                       rules=RULES, interval=INTERVAL, backend=backend,
                                       workers=workers, chunk=chunk, progress=progress)
            rows.append(_row(key, outcomes[key], budget=k, variant=v))
    rates = {r["point"]: r["spy_win_rate"] for r in rows}
    pairs = [(f"K={r['budget']}: {r['variant'].upper()} vs BLUFF", r["point"],
              f"k{r['budget']}-bluff") for r in rows
             if r["variant"] != "bluff" and "bluff" in variants]
    tests = _tests(pairs, outcomes, rates) if pairs else []
    trend = None
    if len(budgets) > 1 and {"bluff", "trueonly"} <= set(variants):
        # "BLUFF's advantage over TRUEONLY changes with K": logistic regression on log K
        trend = log_budget_trend([(r["budget"], r["wins"], r["games"], r["variant"] == "bluff")
                                  for r in rows if r["variant"] in ("bluff", "trueonly")])
    meta = {"figure": "Cowling, Whitehouse & Powley 2015, Fig. 3", "games": games,
            "budgets": budgets, "variants": list(variants), "seed": seed, "rules": RULES,
            "players": PLAYERS, "interval": INTERVAL,
            "paper": "TRUEONLY and SPLIT beat BLUFF at small budgets; BLUFF much stronger "
                     "from 5,000 to 200,000; SPLIT overtakes at very large budgets"}
    summary = {**meta, "rows": rows, "tests": tests, "bluff_vs_trueonly_trend": trend}

    def plot(path: Path) -> None:
        from matplotlib.figure import Figure

        fig = Figure(figsize=(6, 4))
        ax = fig.add_subplot()
        for v in variants:
            mine = [r for r in rows if r["variant"] == v]
            ax.errorbar([r["budget"] for r in mine], [r["spy_win_rate"] for r in mine],
                        yerr=[[max(0.0, r["spy_win_rate"] - r["low"]) for r in mine],
                              [max(0.0, r["high"] - r["spy_win_rate"]) for r in mine]],
                        marker="o", capsize=3, label=v.upper())
        if len(budgets) > 1 and budgets[-1] / budgets[0] > 10 ** 0.5:
            ax.set_xscale("log")
        ax.set_xlabel("iterations per decision (spies and resistance)")
        ax.set_ylabel("spy win rate (95% Wilson)")
        ax.set_ylim(0, 1)
        ax.legend(fontsize=8)
        ax.set_title(f"Fig. 3 reproduction: {games} games per point")
        fig.tight_layout()
        fig.savefig(path, dpi=120)

    summary["paths"] = _write(rows, summary, out, "fig3", plot)
    return summary


def games_needed(p_a: float, p_b: float, alpha: float = 0.05, power: float = 0.8) -> int:
    """Games per arm for a two-sided two-proportion z-test (normal approximation; a
    paired design needs no more) to detect ``p_a`` vs ``p_b``."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf
    za, zb = z(1 - alpha / 2), z(power)
    pbar = (p_a + p_b) / 2
    num = (za * math.sqrt(2 * pbar * (1 - pbar))
           + zb * math.sqrt(p_a * (1 - p_a) + p_b * (1 - p_b))) ** 2
    return math.ceil(num / (p_a - p_b) ** 2)
