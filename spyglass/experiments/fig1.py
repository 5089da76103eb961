"""Cowling, Whitehouse & Powley 2015, §VII-A, Figure 1: self-determinizing spies against inference.

Design (Cowling et al. 2015, §VII-A; Whitehouse 2014, §7.5.1): 5 players, the balanced model (every
spy
configuration equally often; all spies play one algorithm, all resistance members
another). Resistance: MT-ISMCTS at ``K`` iterations, without inference (hard
constraints only) and with particle-filter inference. Spies: TRUEONLY at ``K``;
PURE, SPLIT, TWOSTEP and BLUFF at ``2K`` (``K`` + ``K`` for the split family). Ten
configurations, each one tournament results directory under ``out`` (so a stopped run
resumes where it stopped, and a run can grow: :mod:`spyglass.experiments.balanced_point`),
all with the same seed, hence the same spy configurations and game seeds.

Rules: the fifth proposal of a round goes ahead unvoted (``forced``), as in the authors'
turn structure (Whitehouse 2014, §4.2.11, Algorithm 1, and the "voted down four times to allow
the fifth player the final choice" of §7.5.4); Cowling et al. 2015, §III's prose states the official
rule (spies win) instead.

The paper's absolute bar heights are only in its figure; the text gives three effects:
inference cut TRUEONLY's win rate by 66.4%, BLUFF improved on TRUEONLY (against
inference) by 31.7% ("roughly half of the advantage"), PURE/SPLIT/TWOSTEP about twice
TRUEONLY. 31.7 being about half of 66.4 reads as differences in percentage points; both
readings are reported.
"""

from __future__ import annotations

import csv
import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from spyglass.arena.paired import holm, paired_test
from spyglass.arena.sequential import GroupSequential
from spyglass.arena.stats import compare_proportions, rate_interval
from spyglass.experiments.balanced_point import INTERVAL, PLAYERS, RULES, play_point
from spyglass.search.selfdet import PSI_COUNTS

SPY_VARIANTS = ("trueonly", "pure", "split", "twostep", "bluff")
RESISTANCE = {"noinf": False, "inf": True}
#: The paper's effects (Cowling et al. 2015, §VII-A), for the side-by-side comparison.
PAPER = {
    "inference_cuts_trueonly": 0.664,
    "bluff_over_trueonly": 0.317,
    "pure_split_twostep_over_trueonly": 2.0,
}
#: The balanced model's set: every pair of spies once (5 players, 2 spies).
BALANCED_SET = 10
#: The headline bars, run first when only part of the design fits the budget.
HEADLINE = ("inf-trueonly", "inf-bluff", "noinf-trueonly", "inf-pure", "inf-split",
            "inf-twostep", "noinf-bluff")


#: The paper's effects as comparisons of two bars (a minus b), in reporting order:
#: (name, a, b, published points, published relative change, what it measures).
EFFECTS: tuple[tuple[str, str, str, float | None, float | None, str], ...] = (
    ("inference vs TRUEONLY", "inf-trueonly", "noinf-trueonly", -66.4, -0.664,
     "TRUEONLY's win rate with inference minus without"),
    ("BLUFF over TRUEONLY", "inf-bluff", "inf-trueonly", 31.7, 0.317,
     "against inference: BLUFF minus TRUEONLY"),
    *((f"{v.upper()} over TRUEONLY", f"inf-{v}", "inf-trueonly", None, 1.0,
       f"against inference: {v.upper()} vs TRUEONLY (paper: about twice)")
      for v in ("pure", "split", "twostep")),
    ("BLUFF without inference", "noinf-bluff", "noinf-trueonly", None, None,
     "against no inference: BLUFF minus TRUEONLY"),
)


@dataclass(frozen=True)
class Configuration:
    """One bar of Figure 1: a spy variant against a resistance with or without inference."""

    resistance: str  # "noinf" or "inf"
    spy: str  # one of SPY_VARIANTS

    @property
    def key(self) -> str:
        return f"{self.resistance}-{self.spy}"

    def spy_spec(self, k: int, psi_counts: str = "all") -> str:
        iters = k if self.spy == "trueonly" else 2 * k
        extra = f",psi_counts={psi_counts}" if psi_counts != "all" and self.spy != "trueonly" \
            else ""
        return f"mtismcts:iterations={iters},bluff={self.spy}{extra}"

    def resistance_spec(self, k: int) -> str:
        return f"mtismcts:iterations={k},inference={RESISTANCE[self.resistance]}"


def configurations(keys=None) -> list[Configuration]:
    """All ten configurations (headline bars first), or those named in ``keys``."""
    every = {c.key: c for c in (Configuration(r, s) for r in RESISTANCE for s in SPY_VARIANTS)}
    order = list(HEADLINE) + [k for k in every if k not in HEADLINE]
    if keys is None:
        return [every[k] for k in order]
    bad = [k for k in keys if k not in every]
    if bad:
        raise ValueError(f"unknown configuration(s) {', '.join(bad)}; choose from "
                         + ", ".join(order))
    return [every[k] for k in order if k in keys]


def run_configuration(conf: Configuration, *, games: int, iterations: int, seed: int,
                      out: Path, backend: str = "local", workers: int | None = None,
                      chunk: int = 10, progress: bool = True,
                      psi_counts: str = "all") -> dict[int, bool]:
    """Play (or finish, or extend) one configuration to its first ``games`` games
    (:func:`spyglass.experiments.balanced_point.play_point`); return whether the spies
    won each of them."""
    return play_point(Path(out) / conf.key, conf.spy_spec(iterations, psi_counts),
                      conf.resistance_spec(iterations), games=games, seed=seed, rules=RULES,
                      interval=INTERVAL, backend=backend, workers=workers, chunk=chunk,
                      progress=progress)


def summarize(counts: dict[str, tuple[int, int]],
              outcomes: dict[str, dict[int, bool]] | None = None) -> dict:
    """Spy win rates (95% Wilson intervals), the paper's effects and their tests, from
    each configuration's (spy wins, games).

    Every configuration runs with the same seed, so game ``i`` has the same spy
    configuration and game seed in every bar: with per-game ``outcomes`` (configuration
    -> game index -> spies won) each effect is tested as paired (McNemar's exact test on
    the discordant games); without them, as two independent proportions (z-test,
    Fisher). The effects of a run form one family: ``p_holm`` is the Holm-adjusted
    p-value of the effect's primary test (paired when available).
    """
    outcomes = outcomes or {}
    rows = []
    for key, (w, n) in counts.items():
        r = rate_interval(w, n, INTERVAL)
        resistance, variant = key.split("-", 1)
        rows.append({"configuration": key, "resistance": resistance, "spy": variant,
                     "wins": w, "games": n, "spy_win_rate": r.rate, "low": r.low,
                     "high": r.high})
    effects = []

    def effect(name, a, b, paper_pp, paper_rel, what):
        if a not in counts or b not in counts:
            return
        (wa, na), (wb, nb) = counts[a], counts[b]
        test = compare_proportions(wa, na, wb, nb)
        ra, rb = wa / na, wb / nb
        paired = (paired_test(outcomes[a], outcomes[b])
                  if a in outcomes and b in outcomes else None)
        effects.append({
            "effect": name, "what": what, "a": a, "b": b, "rate_a": ra, "rate_b": rb,
            "difference_pp": 100 * (ra - rb),
            "relative": (ra - rb) / rb if rb else float("nan"),
            "ratio": ra / rb if rb else float("nan"),
            "paper_pp": paper_pp, "paper_relative": paper_rel,
            "p_ztest": test["p_ztest"], "p_fisher": test["p_fisher"],
            "difference_low_pp": 100 * test["difference_low"],
            "difference_high_pp": 100 * test["difference_high"],
            "test": "mcnemar" if paired else "ztest",
            "p": paired["p_mcnemar"] if paired else test["p_ztest"],
            "p_mcnemar": paired["p_mcnemar"] if paired else None,
            "pairs": paired["pairs"] if paired else None,
            "discordant_a_b": [paired["only_a"], paired["only_b"]] if paired else None,
        })

    for name, a, b, paper_pp, paper_rel, what in EFFECTS:
        effect(name, a, b, paper_pp, paper_rel, what)
    adjusted, significant = holm([e["p"] for e in effects])
    for e, p_adj, sig in zip(effects, adjusted, significant, strict=True):
        e["p_holm"], e["significant_holm"] = p_adj, sig
    return {"rows": rows, "effects": effects}


def write_outputs(summary: dict, out: Path, meta: dict) -> dict[str, Path]:
    """``fig1.csv``, ``fig1.json``, ``fig1.png`` in ``out``."""
    out.mkdir(parents=True, exist_ok=True)
    paths = {"csv": out / "fig1.csv", "json": out / "fig1.json", "png": out / "fig1.png"}
    with open(paths["csv"], "w", newline="", encoding="utf-8") as fh:
        w = csv.DictWriter(fh, fieldnames=list(summary["rows"][0]))
        w.writeheader()
        w.writerows(summary["rows"])
    paths["json"].write_text(json.dumps({**meta, **summary}, indent=2) + "\n", encoding="utf-8")
    plot(summary, paths["png"], meta)
    return paths


def plot(summary: dict, path: Path, meta: dict) -> None:
    """Grouped bars like Fig. 1: spy win rate per spy variant, one bar per resistance."""
    import numpy as np
    from matplotlib.figure import Figure

    rows = {r["configuration"]: r for r in summary["rows"]}
    fig = Figure(figsize=(7, 4))  # an object, not pyplot: no global state or backend switch
    ax = fig.add_subplot()
    x = np.arange(len(SPY_VARIANTS))
    width = 0.38
    for i, (res, label) in enumerate((("noinf", "resistance without inference"),
                                      ("inf", "resistance with inference"))):
        rates, err = [], [[], []]
        for v in SPY_VARIANTS:
            r = rows.get(f"{res}-{v}")
            if r is None:
                rates.append(np.nan)
                err[0].append(0)
                err[1].append(0)
            else:
                rates.append(r["spy_win_rate"])
                err[0].append(max(0.0, r["spy_win_rate"] - r["low"]))
                err[1].append(max(0.0, r["high"] - r["spy_win_rate"]))
        ax.bar(x + (i - 0.5) * width, rates, width, yerr=err, capsize=3, label=label,
               color=("#bbbbbb", "#4477aa")[i])
    ax.set_xticks(x, [v.upper() for v in SPY_VARIANTS])
    ax.set_ylabel("spy win rate (95% Wilson interval)")
    ax.set_ylim(0, 1)
    ax.set_title(f"Cowling, Whitehouse & Powley 2015, Fig. 1 reproduction\n"
                 f"K = {meta['iterations']:,}, {meta['games']:,} games per bar", fontsize=10)
    ax.legend(loc="upper left", fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run_fig1(*, games: int, iterations: int, seed: int, out: str | Path,
             backend: str = "local", workers: int | None = None, keys=None,
             chunk: int = 10, progress: bool = True, looks: Sequence[int] | None = None,
             spending: str = "obrien-fleming", psi_counts: str = "all") -> dict:
    """Run (or resume) every configuration, then write the table, plot and effects.

    With ``looks`` (cumulative games per bar, the last equal to ``games``) the run is
    group-sequential (:mod:`spyglass.arena.sequential`, declared before it starts): every
    bar is played to the next look, each effect's paired statistic is tested against
    that look's boundary, and the run stops at the first look where every effect has
    crossed one (or at the last). The stored file keeps each bar's per-game outcomes
    and the design, so the ledger can redo every look. ``psi_counts``: the spies' ψ
    evidence (:data:`spyglass.search.selfdet.PSI_COUNTS`; "phase1" re-runs the records
    made before the paper's count became the default).
    """
    if games < 1 or iterations < 1:
        raise ValueError("games and iterations must be positive")
    if psi_counts not in PSI_COUNTS:
        raise ValueError(f"psi_counts must be one of {', '.join(PSI_COUNTS)}, not {psi_counts!r}")
    design = None
    if looks:
        design = GroupSequential(tuple(looks), spending=spending)
        if design.sizes[-1] != games:
            raise ValueError(f"the last look ({design.sizes[-1]}) must be --games ({games})")
        if any(n % BALANCED_SET for n in design.sizes[:-1]):
            raise ValueError(f"every look before the last must be a whole number of balanced "
                             f"sets ({BALANCED_SET} games: each spy pair once) so that the "
                             f"bars can grow to the next look; got {list(design.sizes)}")
    out = Path(out)
    confs = configurations(keys)
    announced: set[str] = set()
    outcomes: dict[str, dict[int, bool]] = {}
    sequential: dict | None = None
    for n in design.sizes if design else (games,):
        for conf in confs:
            if progress and conf.key not in announced:
                from rich.console import Console

                announced.add(conf.key)
                Console(stderr=True).print(
                    f"[bold]{conf.key}[/]: spies {conf.spy_spec(iterations, psi_counts)} vs "
                    f"resistance "
                    f"{conf.resistance_spec(iterations)}")
            outcomes[conf.key] = run_configuration(
                conf, games=n, iterations=iterations, seed=seed, out=out, backend=backend,
                workers=workers, chunk=chunk, progress=progress, psi_counts=psi_counts)
        if design:
            sequential = sequential_effects(design, outcomes)
            if all(e["finished"] for e in sequential["effects"].values()):
                break
    played = max(len(o) for o in outcomes.values())
    counts = {k: (sum(o.values()), len(o)) for k, o in outcomes.items()}
    summary = summarize(counts, outcomes)
    meta = {"games": played, "iterations": iterations, "seed": seed, "psi_counts": psi_counts,
            "rules": RULES,
            "players": PLAYERS, "interval": INTERVAL, "paper": PAPER}
    if sequential is not None:
        meta["design"] = sequential
    summary["outcomes"] = {k: [o.get(i) for i in range(max(o, default=-1) + 1)]
                           for k, o in outcomes.items()}
    paths = write_outputs(summary, out, meta)
    return {**meta, **summary, "paths": {k: str(v) for k, v in paths.items()}}


def sequential_effects(design: GroupSequential, outcomes: dict[str, dict[int, bool]]) -> dict:
    """Each effect's paired statistic at every look the bars have reached, and what the
    design concludes from them (one group-sequential test per effect; the family is
    corrected afterwards, Holm over the stage-wise p-values)."""
    effects = {}
    for name, a, b, *_ in EFFECTS:
        if a not in outcomes or b not in outcomes:
            continue
        zs = []
        for n in design.sizes:
            first_a = {i: w for i, w in outcomes[a].items() if i < n}
            first_b = {i: w for i, w in outcomes[b].items() if i < n}
            if min(len(first_a), len(first_b)) < n:
                break  # this look has not been reached
            zs.append(paired_test(first_a, first_b)["z"])
        if not zs:
            continue
        r = design.analyse(zs)
        effects[name] = {"z": zs[:r.looks_seen], "stopped_at": r.stopped_at,
                         "finished": r.finished, "boundary": r.boundary, "p_stage": r.p}
    finished = [e for e in effects.values() if e["p_stage"] is not None]
    if finished:
        for e, q in zip(finished, holm([e["p_stage"] for e in finished])[0], strict=True):
            e["p_stage_holm"] = q
    return {"sizes": list(design.sizes), "alpha": design.alpha, "spending": design.spending,
            "boundaries": list(design.boundaries), "effects": effects}


def compare_runs(file_a: str | Path, file_b: str | Path) -> list[dict]:
    """Two runs of the same bars on the same seed (e.g. ``--psi-counts all`` and
    ``phase1``), bar by bar: paired on the game index (McNemar exact), Holm over the bars.

    Each ``fig1.json`` must keep its per-game outcomes (runs since 2026-11-27 do)."""
    a, b = (json.loads(Path(f).read_text(encoding="utf-8")) for f in (file_a, file_b))
    if a["seed"] != b["seed"]:
        raise ValueError(f"the runs have different seeds ({a['seed']}, {b['seed']}): not paired")
    rows = []
    for key in (k for k in a["outcomes"] if k in b["outcomes"]):
        oa, ob = ({i: bool(w) for i, w in enumerate(r["outcomes"][key]) if w is not None}
                  for r in (a, b))
        t = paired_test(oa, ob)
        rows.append({"configuration": key, "pairs": t["pairs"], "rate_a": t["rate_a"],
                     "rate_b": t["rate_b"], "difference_pp": 100 * t["difference"],
                     "difference_low_pp": 100 * t["difference_low"],
                     "difference_high_pp": 100 * t["difference_high"],
                     "discordant_a_b": [t["only_a"], t["only_b"]], "p_mcnemar": t["p_mcnemar"]})
    for r, q in zip(rows, holm([r["p_mcnemar"] for r in rows])[0], strict=True):
        r["p_holm"] = q
    return rows
