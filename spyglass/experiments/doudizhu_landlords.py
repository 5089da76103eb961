"""Cheating UCT, determinized UCT (PIMC) and SO-ISMCTS as the Dou Di Zhu landlord on the
same deals (Whitehouse 2014, §5.2.4 "Dou Di Zhu", and its Table 5.2).

The thesis played each of 1,000 deals 40 times with the landlord as cheating UCT (an
ensemble of 40 UCT trees x 250 iterations on the true state), determinized UCT (PIMC 40 x
250) and ISMCTS (10,000 iterations, exploration 1.0), the peasants always PIMC 40 x 250:
landlord win rates 54.0 / 42.4 / 42.0 %. Table 5.2 splits the deals by the per-deal
difference "cheating minus PIMC" win rate and shows PIMC's and ISMCTS's win rates in
each group: where cheating helps (> 0, > 25 %, > 50 %) ISMCTS beats PIMC, where it does
not (< 0, = 0) PIMC is slightly better.

Here: deal ``i`` is the game's deal for seed ``seed + i`` (random deals; the thesis's were
a chosen set); game ``g`` of a deal uses the same game seed for the three landlords, so
the peasants' searches start from the same seeds (common random numbers). Sizes: ``d x s``
for the cheating ensemble, PIMC and the peasants, ``d * s`` iterations for SO-ISMCTS.

Statistics (:mod:`spyglass.experiments.deal_stats`): each landlord's rate with a Wilson
95 % interval over games; the three pairwise comparisons on per-deal win rates (mean
difference, t interval over deals, paired sign-flip test), Holm-corrected as a family of
three. Table 5.2 is computed twice: as the thesis did (the same games classify the deals
and measure PIMC, which biases PIMC's rate down in the "> 0" rows and up in the "< 0"
row by regression to the mean, strongly so with few games per deal), and *split*: the
first half of each deal's games classify it, the second half measure PIMC and ISMCTS.
Both versions also test the interaction the table is read for: ISMCTS's mean gain over
PIMC on the deals where cheating helps against the others (Welch's t-test).

Progress is appended to ``OUT.deals.jsonl`` one deal at a time, and a run with the same
settings resumes from it.
"""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import numpy as np

from spyglass.arena.match import derive_seed, play_match
from spyglass.arena.paired import holm
from spyglass.experiments.deal_stats import paired_difference, wilson
from spyglass.experiments.outputs import write_result
from spyglass.games.doudizhu.game import DouDiZhu

KINDS = ("cheating", "pimc", "ismcts")
LABELS = {"cheating": "cheating UCT", "pimc": "determinized UCT (PIMC)", "ismcts": "SO-ISMCTS"}
THESIS = {"cheating": 0.540, "pimc": 0.424, "ismcts": 0.420}
PAIRS = (("cheating", "pimc"), ("cheating", "ismcts"), ("ismcts", "pimc"))
#: Table 5.2 of the thesis: threshold -> (PIMC, ISMCTS win rate, deals).
THESIS_TABLE = {"none": (0.424, 0.420, 1000), "< 0": (0.530, 0.452, 133),
                "= 0": (0.449, 0.433, 138), "> 0": (0.400, 0.411, 729),
                "> 25%": (0.316, 0.384, 166), "> 50%": (0.204, 0.350, 12),
                "> 75%": (0.150, 0.950, 1)}


def landlord_spec(kind: str, d: int, s: int, c: float) -> str:
    """The agent spec of one landlord kind at ``d x s`` (SO-ISMCTS: ``d * s`` iterations)."""
    if kind == "cheating":
        return f"cheatingensemble:d={d},s={s}"
    if kind == "pimc":
        return f"pimc:d={d},s={s}"
    if kind == "ismcts":
        return f"soismcts:iterations={d * s},c={c}"
    raise ValueError(f"unknown landlord kind {kind!r}; choose one of {', '.join(KINDS)}")


def play_deal(i: int, games: int, d: int, s: int, c: float, seed: int) -> dict:
    """Deal ``seed + i`` played ``games`` times by each landlord: 1/0 per game."""
    game = DouDiZhu()
    peasant = f"pimc:d={d},s={s}"
    wins: dict[str, list[int]] = {k: [] for k in KINDS}
    for g in range(games):
        gseed = derive_seed(seed, i, g)
        for kind in KINDS:
            r = play_match(game, [landlord_spec(kind, d, s, c), peasant, peasant],
                           seed=gseed, deal=seed + i)
            if r.error is not None:
                raise RuntimeError(f"deal {seed + i}, game {g}, {kind}: {r.error}")
            wins[kind].append(int(r.rewards[0] == 1.0))
    return {"deal": i, **wins}


def _config(deals: int, games: int, d: int, s: int, c: float, seed: int) -> dict:
    return {"deals": deals, "games_per_deal": games, "d": d, "s": s,
            "ismcts_iterations": d * s, "ismcts_c": c, "seed": seed,
            "peasants": f"pimc:d={d},s={s}"}


def run(deals: int, games: int, d: int = 10, s: int = 50, c: float = 1.0, seed: int = 0,
        progress: Path | None = None) -> dict:
    """Play (or resume from ``progress``) the experiment and return its summary."""
    for name, v in (("deals", deals), ("games", games), ("d", d), ("s", s)):
        if v < 1:
            raise ValueError(f"{name} must be positive, not {v}")
    if games < 2:
        raise ValueError("games must be at least 2 (per-deal rates and the split Table 5.2)")
    config = _config(deals, games, d, s, c, seed)
    done: dict[int, dict] = {}
    if progress is not None and progress.exists():
        lines = progress.read_text().splitlines()
        if lines and json.loads(lines[0]) == {**config, "deals": json.loads(lines[0])["deals"]}:
            for line in lines[1:]:
                row = json.loads(line)
                done[row["deal"]] = row
        else:
            progress.unlink()
    if progress is not None and not progress.exists():
        progress.parent.mkdir(parents=True, exist_ok=True)
        progress.write_text(json.dumps(config) + "\n")
    for i in range(deals):
        if i in done:
            continue
        row = play_deal(i, games, d, s, c, seed)
        done[i] = row
        if progress is not None:
            with progress.open("a") as f:
                f.write(json.dumps(row) + "\n")
        print(f"deal {i + 1}/{deals}: " + ", ".join(f"{k} {sum(row[k])}/{games}"
                                                  for k in KINDS), file=sys.stderr, flush=True)
    wins = {k: np.array([done[i][k] for i in range(deals)], dtype=float) for k in KINDS}
    return summarize(wins, config)


def _groups(diff: np.ndarray) -> dict[str, np.ndarray]:
    return {"none": np.ones(diff.size, bool), "< 0": diff < 0, "= 0": diff == 0,
            "> 0": diff > 0, "> 25%": diff > 0.25, "> 50%": diff > 0.5, "> 75%": diff > 0.75}


def table_5_2(classify: dict[str, np.ndarray], measure: dict[str, np.ndarray],
              seed: int) -> list[dict]:
    """Rows of Table 5.2: deals grouped by cheating minus PIMC in ``classify`` (per-deal
    win rates), PIMC's and ISMCTS's rates (and their paired difference) in ``measure``."""
    rows = []
    for name, mask in _groups(classify["cheating"] - classify["pimc"]).items():
        n = int(mask.sum())
        row = {"threshold": name, "deals": n, "thesis": list(THESIS_TABLE[name])}
        if n:
            row["pimc"] = float(measure["pimc"][mask].mean())
            row["ismcts"] = float(measure["ismcts"][mask].mean())
            row["cheating"] = float(measure["cheating"][mask].mean())
        if n >= 2:
            row["ismcts_minus_pimc"] = paired_difference(measure["ismcts"][mask],
                                                         measure["pimc"][mask], seed)
        rows.append(row)
    return rows


def interaction(classify: dict[str, np.ndarray], measure: dict[str, np.ndarray]) -> dict:
    """Does ISMCTS's gain over PIMC differ between the deals where cheating helps (> 0)
    and the others? Mean gains of both groups and Welch's t-test between them."""
    from scipy.stats import ttest_ind

    helps = classify["cheating"] - classify["pimc"] > 0
    gain = measure["ismcts"] - measure["pimc"]
    a, b = gain[helps], gain[~helps]
    p = 1.0
    if min(a.size, b.size) > 1:
        with warnings.catch_warnings():  # groups of equal rates: a precision warning, p NaN
            warnings.simplefilter("ignore", RuntimeWarning)
            p = float(ttest_ind(a, b, equal_var=False).pvalue)
    return {"gain_where_cheating_helps": float(a.mean()) if a.size else None,
            "deals_helps": int(a.size),
            "gain_elsewhere": float(b.mean()) if b.size else None, "deals_elsewhere": int(b.size),
            "p_welch": 1.0 if np.isnan(p) else p}


def summarize(wins: dict[str, np.ndarray], config: dict) -> dict:
    """Rates, Holm-corrected paired tests and both versions of Table 5.2 from per-game
    wins (``wins[kind]`` is deals x games, 1 for a landlord win)."""
    seed = config["seed"]
    deals, games = wins["pimc"].shape
    rate = {k: w.mean(axis=1) for k, w in wins.items()}
    out: dict = {"config": config, "thesis": THESIS, "rates": {}, "comparisons": []}
    for k in KINDS:
        out["rates"][k] = wilson(wins[k].sum(), deals * games)
    tests = [{"a": a, "b": b, **paired_difference(rate[a], rate[b], seed)} for a, b in PAIRS]
    adjusted, reject = holm([t["p_sign_flip"] for t in tests])
    for t, p, r in zip(tests, adjusted, reject, strict=True):
        t["p_holm"] = p
        t["significant_5pct"] = r
        t["thesis_difference"] = THESIS[t["a"]] - THESIS[t["b"]]
    out["comparisons"] = tests
    out["table_5_2"] = table_5_2(rate, rate, seed)
    h = games // 2
    first = {k: w[:, :h].mean(axis=1) for k, w in wins.items()}
    second = {k: w[:, h:].mean(axis=1) for k, w in wins.items()}
    out["table_5_2_split"] = table_5_2(first, second, seed)
    out["interaction"] = interaction(rate, rate)
    out["interaction_split"] = interaction(first, second)
    out["per_deal"] = {k: rate[k].tolist() for k in KINDS}
    return out


def plot(result: dict, path: Path) -> None:
    """Left: the three landlords' win rates beside the thesis's. Right: Table 5.2 (PIMC and
    ISMCTS by threshold, as the thesis and split), the thesis's dotted."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(11, 3.8))
    ax, bx = fig.subplots(1, 2, gridspec_kw={"width_ratios": [1, 2]})
    x = np.arange(len(KINDS))
    r = result["rates"]
    ax.bar(x - 0.2, [r[k]["win_rate"] for k in KINDS], 0.4,
           yerr=[[r[k]["win_rate"] - r[k]["low"] for k in KINDS],
                 [r[k]["high"] - r[k]["win_rate"] for k in KINDS]], capsize=4,
           label="spyglass (Wilson 95 %)")
    ax.bar(x + 0.2, [THESIS[k] for k in KINDS], 0.4, label="Whitehouse 2014", alpha=0.7)
    ax.set_xticks(x, ["cheating\nUCT", "PIMC", "SO-ISMCTS"])
    ax.set_ylim(0, 1)
    ax.set_ylabel("landlord win rate")
    cfg = result["config"]
    ax.set_title(f"{cfg['deals']} deals x {cfg['games_per_deal']}, {cfg['d']}x{cfg['s']}",
                 fontsize=9)
    ax.legend(fontsize=7)
    names = list(THESIS_TABLE)
    xs = np.arange(len(names))
    for key, table, style in (("same games", "table_5_2", "-o"),
                              ("split", "table_5_2_split", "--s")):
        rows = {row["threshold"]: row for row in result[table]}
        for kind, colour in (("pimc", "C0"), ("ismcts", "C1")):
            y = [rows[n].get(kind, np.nan) for n in names]
            bx.plot(xs, y, style, c=colour,
                    label=f"{'PIMC' if kind == 'pimc' else 'ISMCTS'} ({key})")
    for k, (kind, colour) in enumerate((("PIMC", "C0"), ("ISMCTS", "C1"))):
        bx.plot(xs, [THESIS_TABLE[n][k] for n in names], ":", marker="x", c=colour, alpha=0.5,
                label=f"{kind} (thesis)")
    rows = {row["threshold"]: row for row in result["table_5_2"]}
    bx.set_xticks(xs, [f"{n}\n({rows[n]['deals']} deals)" for n in names], fontsize=7)
    bx.set_ylim(0, 1)
    bx.set_xlabel("cheating minus PIMC win rate on the deal")
    bx.set_ylabel("landlord win rate")
    bx.set_title("Table 5.2: deals by how much cheating helps", fontsize=9)
    bx.legend(fontsize=6, ncol=2)
    fig.tight_layout()
    fig.savefig(path)


def write(result: dict, out: Path) -> list[Path]:
    """``OUT.json`` and ``OUT.png``."""
    return write_result(result, out, plot)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=40)
    ap.add_argument("--games", type=int, default=4)
    ap.add_argument("--d", type=int, default=10)
    ap.add_argument("--s", type=int, default=50)
    ap.add_argument("--c", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", type=Path, default=Path("docs/figures/doudizhu_landlords"))
    args = ap.parse_args(argv)
    try:
        res = run(args.deals, args.games, args.d, args.s, args.c, args.seed,
                  progress=args.out.with_suffix(".deals.jsonl"))
    except ValueError as exc:
        ap.error(str(exc))
    write(res, args.out)
    print(json.dumps({k: res[k] for k in ("rates", "comparisons")}, indent=1))


if __name__ == "__main__":
    main()
