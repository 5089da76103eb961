"""The reproduction ledger: every claim of :mod:`spyglass.experiments.ledger_claims`
computed from the stored results, with one written verdict rule.

For each claim: our estimate with its 95% interval, the size run as a fraction of the
published size, the test, its p-value adjusted by Holm's method within the claim's
family, the power to detect the published (or declared) effect at the size run and the
size that would give 80% power, and a verdict:

* **direction** claims (a is above / below b): *reproduced* if the family-adjusted p is
  below 0.05 and the estimate has the published sign; *contradicted* if it is below 0.05
  with the other sign; else *too small to decide*.
* **magnitude** claims (a published value v): the test is of "the effect equals v";
  *contradicted* if its family-adjusted p is below 0.05 (v outside our interval);
  *reproduced* if v is inside our interval and the test of no effect is significant
  (p < 0.05, after the looks' correction); else *too small to decide*.
* **equal** claims (no difference): the test is of "no difference"; *contradicted* if its
  family-adjusted p is below 0.05; *reproduced* if our 95% interval lies inside
  ±margin (the declared equivalence margin); else *too small to decide*.
* *not run*: no stored run answers the claim (a run that has not reached its declared
  size is not read).

Power: normal approximation, the run's own standard error scaled to size n
(``se·sqrt(n_run / n)``), two-sided at α = 0.05 / m (m = the family's size: Bonferroni,
conservative beside Holm). For *equal* claims, the probability that the interval lies
inside ±margin if there is no difference. Runs grown after looking have their p
multiplied by the number of looks before Holm's correction; a group-sequential run
(its looks declared in the claim, :mod:`spyglass.arena.sequential`) has the design's
stage-wise p instead, from its stored per-game outcomes at each look.

``python -m spyglass.experiments.ledger`` (or ``spyglass experiment ledger``) writes
``docs/reproductions.md`` and ``docs/reproductions.json``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from pathlib import Path

from spyglass.experiments.ledger_claims import CLAIMS, KINDS, SOURCES, Claim

Z95 = 1.959963984540054
Z80 = 0.8416212335729143
VERDICTS = ("reproduced", "contradicted", "too small to decide", "not run")


# --- evidence: an estimate, its standard error and interval, p against a value ---------------
def _norm_p(z: float) -> float:
    from scipy.stats import norm

    return float(2 * norm.sf(abs(z)))


def _evidence(est: float, se: float, n: float, low: float, high: float, p_null: float,
              test: str, data: str, **extra) -> dict:
    return {"estimate": est, "se": se, "n": n, "low": low, "high": high, "p_null": p_null,
            "test": test, "data": data, **extra}


def _paired_binary(up: int, down: int, n: int, data: str) -> dict:
    """A paired difference of win rates (treated minus reference) from its discordant
    pairs: McNemar's exact test; the Wald interval of paired proportions (as
    :func:`spyglass.arena.paired.paired_test`), which is also the test against a
    published value."""
    from scipy.stats import binomtest

    d = (up - down) / n
    se = math.sqrt(max((up + down) / n - d * d, 1e-12) / n)
    p = float(binomtest(up, up + down, 0.5).pvalue) if up + down else 1.0
    return _evidence(100 * d, 100 * se, n, 100 * (d - Z95 * se), 100 * (d + Z95 * se), p,
                     f"McNemar exact ({up} vs {down} discordant)", data)


def _two_proportions(w1: int, n1: int, w2: int, n2: int, data: str) -> dict:
    """Two independent win rates (unpaired): two-proportion z-test, Newcombe interval."""
    from spyglass.arena.stats import compare_proportions

    c = compare_proportions(w1, n1, w2, n2)
    p1, p2 = w1 / n1, w2 / n2
    se = math.sqrt(max(p1 * (1 - p1) / n1 + p2 * (1 - p2) / n2, 1e-12))
    return _evidence(100 * c["difference"], 100 * se, min(n1, n2), 100 * c["difference_low"],
                     100 * c["difference_high"], c["p_ztest"],
                     f"two-proportion z ({w1}/{n1} vs {w2}/{n2}), unpaired", data)


def _paired_means(diffs: list[float], scale: float, data: str) -> dict:
    """Per-unit paired differences: one-sample t-test, t interval."""
    import numpy as np
    from scipy.stats import t as t_dist
    from scipy.stats import ttest_1samp

    x = np.asarray(diffs, dtype=float) * scale
    n = len(x)
    se = float(x.std(ddof=1) / math.sqrt(n))
    half = float(t_dist.ppf(0.975, n - 1)) * se
    p = float(ttest_1samp(x, 0.0).pvalue) if se > 0 else 1.0
    return _evidence(float(x.mean()), se, n, float(x.mean()) - half, float(x.mean()) + half,
                     p, f"paired t on {n} per-deal differences", data)


def _welch(m1: float, se1: float, n1: int, m2: float, se2: float, n2: int, scale: float,
           data: str, n: int | None = None) -> dict:
    """Two independent means from their means and standard errors: Welch's t."""
    from scipy.stats import t as t_dist

    d = (m1 - m2) * scale
    v1, v2 = (se1 * scale) ** 2, (se2 * scale) ** 2
    se = math.sqrt(v1 + v2)
    df = (v1 + v2) ** 2 / (v1 * v1 / (n1 - 1) + v2 * v2 / (n2 - 1)) if v1 + v2 else 1.0
    half = float(t_dist.ppf(0.975, df)) * se
    p = float(2 * t_dist.sf(abs(d) / se, df)) if se else 1.0
    return _evidence(d, se, n or min(n1, n2), d - half, d + half, p,
                     f"Welch t (df {df:.0f})", data)


# --- readers: a claim's stored file(s) -> evidence -------------------------------------------
def _json(path: str) -> dict:
    return json.loads(Path(path).read_text())


def read_fig1_effect(file: str, effect: str, upto: int | None = None) -> dict:
    """An effect of ``spyglass experiment fig1`` (a minus b): paired when the run kept
    its discordant pairs, else the unpaired totals. ``upto``: only the first ``upto``
    games of each bar (a group-sequential look; needs the stored per-game outcomes)."""
    res = _json(file)
    e = next(x for x in res["effects"] if x["effect"] == effect)
    rows = {r["configuration"]: r for r in res["rows"]}
    a, b = rows[e["a"]], rows[e["b"]]
    if upto is not None:
        from spyglass.arena.paired import paired_test

        first = {k: {i: bool(w) for i, w in enumerate(res["outcomes"][k][:upto])
                     if w is not None} for k in (e["a"], e["b"])}
        t = paired_test(first[e["a"]], first[e["b"]])
        ev = _paired_binary(t["only_a"], t["only_b"], t["pairs"],
                            f"discordant pairs, first {upto} games")
        ev["rate_b"] = t["rate_b"]
        return ev
    if "discordant_a_b" in e:
        up, down = e["discordant_a_b"]
        ev = _paired_binary(up, down, e["pairs"], "discordant pairs")
    else:
        ev = _two_proportions(a["wins"], a["games"], b["wins"], b["games"], "totals only")
    ev["rate_b"] = b["wins"] / b["games"]
    return ev


def _sequential(claim: Claim, args: dict) -> dict:
    """A group-sequential claim's evidence: the reader at every look its data reach, the
    declared design applied (:mod:`spyglass.arena.sequential`); the evidence is the one of
    the deciding look, with the design's stage-wise p-value as its p."""
    from spyglass.arena.sequential import GroupSequential

    design = GroupSequential(claim.sequential, spending=claim.spending)
    zs, evs = [], []
    for n in design.sizes:
        ev = READERS[claim.reader](**args, upto=n)
        if ev["n"] < n:
            break  # the run has not reached this look
        zs.append(ev["estimate"] / ev["se"] if ev["se"] else
                  math.copysign(math.inf, ev["estimate"]) if ev["estimate"] else 0.0)
        evs.append(ev)
    if not zs:
        return {}
    r = design.analyse(zs)
    ev = dict(evs[r.looks_seen - 1])
    ev["p_null"] = 1.0 if r.p is None else r.p  # an unfinished run decides nothing yet
    ev["test"] += (f"; {design.describe()}; "
                   + (f"crossed at look {r.stopped_at}" if r.reject else
                      "no boundary crossed" if r.finished else
                      f"in progress after look {r.looks_seen}"))
    ev["sequential"] = {"looks_seen": r.looks_seen, "stopped_at": r.stopped_at,
                        "finished": r.finished, "z": zs[:r.looks_seen],
                        "boundaries": list(design.boundaries)}
    return ev


def read_sweep_test(file: str, comparison: str) -> dict:
    """A paired comparison of ``spyglass experiment fig2/fig3`` (a minus b)."""
    res = _json(file)
    t = next(x for x in res["tests"] if x["comparison"] == comparison)
    up, down = t["discordant_a_b"]
    ev = _paired_binary(up, down, t["pairs"], "discordant pairs")
    ev["rate_b"] = t["rate_b"]
    return ev


def read_fig2_trend(file: str) -> dict:
    """Fig. 2's trend (``trend_below_s``): the conditional logistic regression's slope of
    :func:`spyglass.arena.paired.paired_trend`, with its Wald test and interval."""
    from scipy.stats import norm

    t = _json(file)["trend_below_s"]
    z = float(norm.isf(t["p"] / 2))
    se = abs(t["slope"]) / z if z > 0 else float("inf")
    return _evidence(t["slope"], se, t["games"], t["slope"] - Z95 * se,
                     t["slope"] + Z95 * se, t["p"],
                     f"conditional logistic (Wald), {t['informative_games']} informative "
                     "games", "per-game records (paired)")


def _ch8_cells(file: str) -> dict[str, dict[int, int]]:
    from spyglass.experiments.icarus_paired import load

    by_cell: dict[str, dict[int, int]] = {}
    for r in load(Path(file)):
        by_cell.setdefault(r["cell"], {})[int(r["deal"])] = int(r["win"])
    return by_cell


def read_ch8_factor(file: str, factor: str) -> dict:
    """A Table 8.1 factor on paired deals: per deal, the mean win over the cells with the
    factor minus the mean over the cells without (the deals every Table 8.1 cell played)."""
    from spyglass.search.icarus.spec import TABLE_8_1

    by_cell = _ch8_cells(file)
    table = [c for c in by_cell if c in TABLE_8_1]
    common = sorted(set.intersection(*(set(by_cell[c]) for c in table)))
    with_f = [c for c in table if factor in c]
    without = [c for c in table if factor not in c]
    diffs = [sum(by_cell[c][k] for c in with_f) / len(with_f)
             - sum(by_cell[c][k] for c in without) / len(without) for k in common]
    ev = _paired_means(diffs, 100.0, f"per-deal records, {len(table)} cells")
    ev["test"] = f"paired t on {len(common)} deals ({len(with_f)} cells with, " \
                 f"{len(without)} without)"
    return ev


def read_ch8_cells(file: str, a: str, b: str) -> dict:
    """Two cells of a paired ch. 8 run on the deals both played (a minus b)."""
    by_cell = _ch8_cells(file)
    common = sorted(set(by_cell[a]) & set(by_cell[b]))
    up = sum(by_cell[a][k] > by_cell[b][k] for k in common)
    down = sum(by_cell[a][k] < by_cell[b][k] for k in common)
    return _paired_binary(up, down, len(common), "per-deal records")


def read_icarus_factor(file: str, factor: str) -> dict:
    """A factor of an unpaired ``icarus table`` run (each cell plays its own seeds): the
    games with the factor against the games without, as two independent samples; from
    the run's per-game records (``OUT.jsonl``) where it kept them, else from its totals
    per cell (``OUT.json``)."""
    if file.endswith(".jsonl"):
        from spyglass.experiments.outputs import load_jsonl

        recs = load_jsonl(Path(file))
        with_f = [int(r["win"]) for r in recs if factor in r["cell"]]
        without = [int(r["win"]) for r in recs if factor not in r["cell"]]
        return _two_proportions(sum(with_f), len(with_f), sum(without), len(without),
                                "per-game records (unpaired design)")
    res = _json(file)
    f = res["factors"][factor]
    w1, n1 = round(f["with"] * f["n_with"]), f["n_with"]
    w2, n2 = round(f["without"] * f["n_without"]), f["n_without"]
    return _two_proportions(w1, n1, w2, n2, "totals only")


def read_ddz_cheating(file: str, row: str) -> dict:
    """Table 5.1 (``spyglass experiment doudizhu-pimc``'s JSON): cheating against
    determinized on the same deals, paired by deal from each deal's stored outcome."""
    r = _json(file)["cheating"]["rows"][row]
    a, b = r["per_deal"]["cheating"], r["per_deal"]["determinized"]
    up = sum(x > y for x, y in zip(a, b, strict=True))
    down = sum(x < y for x, y in zip(a, b, strict=True))
    return _paired_binary(up, down, len(a), "per-deal records")


def _ddz_deals(file: str) -> dict:
    import numpy as np

    lines = Path(file).read_text().splitlines()
    deals = [json.loads(x) for x in lines[1:] if x.strip()]
    return {k: np.array([d[k] for d in deals], dtype=float)
            for k in ("cheating", "pimc", "ismcts")}


def read_ddz_landlords(file: str, a: str, b: str) -> dict:
    """Table 5.2 (``doudizhu_landlords.deals.jsonl``): per deal, a's win rate minus b's,
    with :func:`spyglass.experiments.deal_stats.paired_difference` (t interval over
    deals, sign-flip test)."""
    from spyglass.experiments.deal_stats import paired_difference

    wins = _ddz_deals(file)
    r = paired_difference(wins[a].mean(axis=1), wins[b].mean(axis=1))
    n = r["deals"]
    from scipy.stats import t as t_dist

    se = (r["high"] - r["low"]) / (2 * float(t_dist.ppf(0.975, n - 1)))
    return _evidence(100 * r["difference"], 100 * se, n, 100 * r["low"], 100 * r["high"],
                     r["p_sign_flip"], f"paired sign-flip over {n} deals "
                     f"({r['a_better']} vs {r['b_better']})", "per-deal records")


def read_ddz_interaction(file: str) -> dict:
    """Table 5.2's interaction, split: the first half of each deal's games classify it
    (cheating minus PIMC > 0 or not), the second half measure ISMCTS minus PIMC; the
    two groups' mean gains compared by Welch's t."""
    wins = _ddz_deals(file)
    h = wins["pimc"].shape[1] // 2
    first = {k: w[:, :h].mean(axis=1) for k, w in wins.items()}
    second = {k: w[:, h:].mean(axis=1) for k, w in wins.items()}
    helps = first["cheating"] - first["pimc"] > 0
    gain = second["ismcts"] - second["pimc"]
    a, b = gain[helps], gain[~helps]
    sa, sb = a.std(ddof=1) / math.sqrt(a.size), b.std(ddof=1) / math.sqrt(b.size)
    ev = _welch(float(a.mean()), float(sa), a.size, float(b.mean()), float(sb), b.size,
                100.0, "per-deal records", n=a.size + b.size)
    ev["test"] += f", {a.size} vs {b.size} deals, split halves"
    return ev


def read_time_point(file: str, seconds: float) -> dict:
    """Fig. 6.7 (``doudizhu_time*.json``): SO-ISMCTS minus PIMC at one time budget,
    paired by deal."""
    res = _json(file)
    pt = next(x for x in res["points"] if x["seconds"] == seconds)
    d = pt["ismcts_minus_pimc"]
    return _paired_binary(d["only_a"], d["only_b"], d["pairs"], "paired totals per deal")


def read_cells_deals(file: str, a: str, b: str, seat: int) -> dict | None:
    """Per-game records (the fields of :mod:`spyglass.experiments.cells`) of a run that
    plays each deal ``i`` several times in each cell (``minidoudizhu_ismcts_vs_pimc``):
    per deal, cell ``a``'s mean win for ``seat`` minus cell ``b``'s, a paired t over
    the deals both cells played (the deal, not the game, is the unit: a deal's games
    share its cards)."""
    from spyglass.experiments.cells import load

    wins: dict[str, dict[int, list[int]]] = {}
    for r in load(Path(file)):
        wins.setdefault(r["cell"], {}).setdefault(int(r["i"]), []).append(
            int(r["scores"][seat] == 1))
    if a not in wins or b not in wins:
        return None
    common = sorted(set(wins[a]) & set(wins[b]))
    if not common:
        return None
    diffs = [sum(wins[a][i]) / len(wins[a][i]) - sum(wins[b][i]) / len(wins[b][i])
             for i in common]
    games = sum(len(wins[a][i]) for i in common)
    ev = _paired_means(diffs, 100.0, "per-game records, paired by deal")
    ev["test"] += f" ({games} games a side)"
    return ev


def read_phantom_score(file: str, a: str, b: str, seat: str) -> dict | None:
    """Phantom 4,4,4 round robin: player a's mean score (a draw ½) minus b's, over both
    seats or as player 2, from the run's per-game records (``OUT.jsonl`` of
    :mod:`spyglass.experiments.phantom`): Welch's t on the two players' game scores."""
    import numpy as np

    from spyglass.experiments.outputs import load_jsonl

    scores: dict[str, list[float]] = {a: [], b: []}
    for r in load_jsonl(Path(file)):
        for j, who in enumerate((r["player1"], r["player2"])):
            if who in scores and (seat == "both" or j == 1):
                scores[who].append(float(r["scores"][j]))
    if min(len(x) for x in scores.values()) < 2:
        return None
    stats = []
    for who in (a, b):
        x = np.asarray(scores[who])
        stats += [float(x.mean()), float(x.std(ddof=1) / math.sqrt(x.size)), x.size]
    return _welch(*stats, 100.0, "per-game records")


def read_cheat_metric(file: str, metric: str, a: str, b: str) -> dict:
    """Cheat: a condition's mean over its subjects minus another's (stored mean ± SE)."""
    res = _json(file)
    n = int(res["sizes"]["subjects_per_group"])
    (m1, se1), (m2, se2) = res["conditions"][a][metric], res["conditions"][b][metric]
    scale = 100.0 if metric in ("win", "call_success") else 1.0
    return _welch(m1, se1, n, m2, se2, n, scale, "means and SEs only")


def read_lotrc_side(file: str, side: str, a: str, b: str) -> dict | None:
    """LOTR:C (``spyglass.experiments.lotrc``): ``a`` minus ``b`` playing ``side``, paired
    on the same opponent and game seed (pooled over the opponents), per-game records."""
    from spyglass.experiments.lotrc import compare_side, load

    up, down, n = compare_side(load(Path(file)), side, a, b)
    if not n:
        return None
    return _paired_binary(up, down, n, "per-game records")


def read_lotrc_h2h(file: str, a: str, b: str, seconds: float) -> dict | None:
    """LOTR:C Fig. 6.8: ``a``'s share of the two games of a seed (one each side) minus
    ``b``'s, paired by seed, at one time point; per-game records."""
    from spyglass.experiments.lotrc import head_to_head, load

    up, down, n = head_to_head(load(Path(file)), a, b, seconds)
    if not n:
        return None
    return _paired_binary(up, down, n, "per-game records")


def read_cells_paired(file: str, a: str, b: str, seat: int) -> dict | None:
    """A paired-cells run (:mod:`spyglass.experiments.cells`: Scotland Yard, Saboteur):
    cell ``a``'s player in ``seat`` minus cell ``b``'s, paired by game (the same deal),
    on the indices every cell played; per-game records."""
    from spyglass.experiments.cells import load, paired

    up, down, n = paired(load(Path(file)), a, b, seat)
    if not n:
        return None
    return _paired_binary(up, down, n, "per-game records")


READERS: dict[str, Callable[..., dict]] = {
    "fig1_effect": read_fig1_effect, "sweep_test": read_sweep_test,
    "fig2_trend": read_fig2_trend,
    "ch8_factor": read_ch8_factor, "ch8_cells": read_ch8_cells,
    "icarus_factor": read_icarus_factor, "ddz_cheating": read_ddz_cheating,
    "ddz_landlords": read_ddz_landlords, "ddz_interaction": read_ddz_interaction,
    "time_point": read_time_point, "cells_deals": read_cells_deals,
    "phantom_score": read_phantom_score, "cheat_metric": read_cheat_metric,
    "lotrc_side": read_lotrc_side, "lotrc_h2h": read_lotrc_h2h,
    "cells_paired": read_cells_paired,
}


# --- power -------------------------------------------------------------------------------------
def _phi(x: float) -> float:
    return 0.5 * (1 + math.erf(x / math.sqrt(2)))


def _z(alpha: float) -> float:
    from scipy.stats import norm

    return float(norm.isf(alpha / 2))


def power(claim: Claim, ev: dict, m: int) -> tuple[float | None, float | None, float | None]:
    """(effect, power at the size run, size for 80% power) for the claim's effect."""
    sd = ev["se"] * math.sqrt(ev["n"])
    if not sd:
        return None, None, None
    za = _z(0.05 / m)
    if claim.kind == "equal":
        margin = claim.margin or 0.0
        se = ev["se"]
        pw = max(0.0, 2 * _phi(margin / se - Z95) - 1)
        # P(|est| + 1.96 se < margin) >= 0.8 when margin/se >= 1.96 + z_0.9
        need = (sd * (Z95 + 1.2815515655446004) / margin) ** 2
        return margin, pw, math.ceil(need)
    eff = claim.power_effect
    if eff == "double_b":
        eff = 100 * ev["rate_b"] * (claim.sign or 1)
    if eff is None:
        return None, None, None
    eff = abs(float(eff))
    pw = _phi(eff / ev["se"] - za)
    need = ((za + Z80) * sd / eff) ** 2
    return eff, pw, math.ceil(need)


# --- the verdict rule --------------------------------------------------------------------------
def verdict(claim: Claim, ev: dict | None, p_adj: float | None) -> str:
    """The one written rule (the module's docstring)."""
    if ev is None:
        return "not run"
    sig = p_adj is not None and p_adj < 0.05
    if claim.kind == "direction":
        if sig:
            return "reproduced" if ev["estimate"] * claim.sign > 0 else "contradicted"
        return "too small to decide"
    if claim.kind == "magnitude":
        if sig:
            return "contradicted"
        # the effect must also be there: no effect rejected (the looks counted)
        return "reproduced" if min(1.0, ev["p_null"] * claim.looks) < 0.05 else \
            "too small to decide"
    if sig:
        return "contradicted"
    margin = claim.margin or 0.0
    return "reproduced" if -margin < ev["low"] and ev["high"] < margin else \
        "too small to decide"


def _primary_p(claim: Claim, ev: dict) -> float:
    """The p-value the verdict uses, before the family's correction."""
    if claim.kind == "magnitude":
        return _norm_p((ev["estimate"] - float(claim.published)) / ev["se"])
    return ev["p_null"]


def compute(claims: list[Claim] = CLAIMS, root: Path = Path(".")) -> list[dict]:
    """Every claim's row: evidence, family-adjusted p, power, verdict."""
    from spyglass.arena.paired import holm

    for c in claims:
        if c.kind not in KINDS or c.source not in SOURCES:
            raise ValueError(f"claim {c.id}: unknown kind {c.kind!r} or source {c.source!r}")
        if c.sequential and c.kind != "direction":
            raise ValueError(f"claim {c.id}: a group-sequential design tests a direction "
                             "(no effect); a magnitude or equivalence claim needs a fixed size")
    evidence: dict[str, dict | None] = {}
    why_not: dict[str, str] = {}
    for c in claims:
        args = {k: str(root / v) if k == "file" else v for k, v in c.args.items()}
        if c.not_run:
            evidence[c.id], why_not[c.id] = None, c.not_run
        elif "file" in args and not Path(args["file"]).exists():
            # a run declared in the ledger before it is played
            evidence[c.id] = None
            looks = (f", looks at {', '.join(f'{n:,}' for n in c.sequential)}"
                     if c.sequential else "")
            why_not[c.id] = f"declared ({c.declared:,g} {c.unit}{looks}), not yet run"
        elif c.sequential:
            evidence[c.id] = _sequential(c, args) or None
            if evidence[c.id] is None:
                why_not[c.id] = "declared (group-sequential), no look reached yet"
        else:
            ev = READERS[c.reader](**args)
            if ev is None or (c.declared is not None and ev["n"] < c.declared):
                # a run stopped short of its declared size is not read (no peeking)
                evidence[c.id] = None
                why_not[c.id] = (f"declared ({c.declared:,g} {c.unit}), not finished "
                                 f"({0 if ev is None else ev['n']:,g} so far)")
            else:
                evidence[c.id] = ev
    families: dict[str, list[Claim]] = {}
    for c in claims:
        if evidence[c.id] is not None:
            families.setdefault(c.family, []).append(c)
    adjusted: dict[str, float] = {}
    for members in families.values():
        raw = [min(1.0, _primary_p(c, evidence[c.id]) * c.looks) for c in members]
        for c, q in zip(members, holm(raw)[0], strict=True):
            adjusted[c.id] = q
    rows = []
    for c in claims:
        ev = evidence[c.id]
        m = len(families.get(c.family, [])) or 1
        row = {"id": c.id, "source": c.source, "where": c.where, "claim": c.claim,
               "kind": c.kind, "family": c.family, "family_size": m, "page": c.page,
               "unit": c.unit, "published_size": c.published_size, "declared": c.declared,
               "looks": c.looks, "budget": c.budget, "totals_only": c.totals_only,
               "rerun": c.rerun, "notes": list(c.notes), "not_run": why_not.get(c.id, ""),
               "published": c.published, "margin": c.margin, "sign": c.sign,
               "scale": c.scale}
        if ev is not None:
            eff, pw, need = power(c, ev, m)
            cost = None
            if need is not None and c.cpu_s_per_unit is not None:
                cost = max(0, need - ev["n"]) * c.cpu_s_per_unit / 3600
            row.update(evidence={k: v for k, v in ev.items() if k != "rate_b"},
                       n=ev["n"], p_primary=_primary_p(c, ev), p_adjusted=adjusted[c.id],
                       power_effect=eff, power_origin=c.power_origin, power=pw,
                       n_for_80=need, cpu_hours_for_80=cost,
                       fraction=(ev["n"] / c.published_size) if c.published_size else None)
        row["verdict"] = verdict(c, ev, adjusted.get(c.id))
        rows.append(row)
    return rows


# --- rendering ---------------------------------------------------------------------------------
def _num(x: float, nd: int = 1) -> str:
    return f"{x:+.{nd}f}"


def _p(p: float) -> str:
    if p < 0.001:
        return f"{p:.0e}".replace("e-0", "e-")
    return f"{p:.3f}"


def _what(r: dict) -> str:
    unit = "" if r["scale"] == "pp" else f" {r['scale']}"
    if r["kind"] == "direction":
        return ("> 0" if r["sign"] > 0 else "< 0")
    if r["kind"] == "magnitude":
        return f"{r['published']:+g}{unit if unit else ' pp'}"
    return f"0 (±{r['margin']:g})"


def markdown(rows: list[dict]) -> str:
    """docs/reproductions.md."""
    out = ["# Reproductions: the ledger",
           "",
           "Generated by `spyglass experiment ledger` from the stored results under "
           "`docs/figures/` and the claims declared in "
           "`spyglass/experiments/ledger_claims.py`; do not edit by hand (a test "
           "regenerates this page and fails if it differs). The numbers are in "
           "[reproductions.json](reproductions.json).",
           "",
           "**The verdict rule** (one rule for every row):",
           "",
           "* *direction* claims (a above b, or below): **reproduced** if the "
           "family-adjusted p < 0.05 with the published sign; **contradicted** if "
           "p < 0.05 with the other sign; otherwise **too small to decide**.",
           "* *magnitude* claims (a published value v): the test is of \"the effect is v\": "
           "**contradicted** if its family-adjusted p < 0.05 (v outside our interval); "
           "**reproduced** if not, and the test of no effect has p < 0.05 (the effect is "
           "there); otherwise **too small to decide**.",
           "* *equal* claims (no difference): **contradicted** if the test of no difference "
           "has family-adjusted p < 0.05; **reproduced** if our 95% interval lies within the "
           "declared margin (±5 points unless stated); otherwise **too small to decide**.",
           "* **not run**: no stored run answers the claim (or its declared run is not yet "
           "committed, or has not reached its declared size: a stopped run is not read).",
           "",
           "A non-significant result is never *reproduced*. A *too small to decide* row "
           "whose power is already 80% or more says that the effect, if there is one, is "
           "smaller than the effect the power was computed for; more games of the same "
           "size would not be the remedy.",
           "",
           "Multiplicity: Holm's method within each family (the column *family (m)*). A run "
           "grown after its results were looked at has its p multiplied by its number of "
           "looks first (Bonferroni over the looks). A run that may grow declares its looks "
           "before it starts (group-sequential, O'Brien–Fleming spending: "
           "`spyglass experiment fig1 --looks`); its p is the design's stage-wise p-value, "
           "computed from the stored per-game outcomes at each declared look, and it stops "
           "at the first look whose boundary every effect has crossed. Power: two-sided at "
           "α = 0.05/m, normal "
           "approximation with the run's own standard error scaled to the size; the effect is "
           "the published one where the source gives it (*pub.*), else a declared smallest "
           "effect of interest (*decl.*: 5 points or 5 rounds unless the row says); for "
           "*equal* claims, the chance that the interval falls within the margin if there "
           "is no difference. "
           "*n for 80%* is in the row's unit (*size reached*: the run already had it); "
           "*CPU-h* is what the missing units would cost at the run's budget (from the run's "
           "recorded time on the shared 2-core machine: approximate). Estimates are the "
           "claim's first-named condition minus its second (for an enhancement or a factor: "
           "with it minus without), in percentage points of win rate (or score) unless the "
           "row gives another unit; *published* gives the sign a direction claim expects "
           "(> 0 or < 0), a magnitude claim's value, or an equal claim's margin. Intervals "
           "are 95%, not adjusted.",
           ""]
    counts = {s: {v: 0 for v in VERDICTS} for s in SOURCES}
    for r in rows:
        counts[r["source"]][r["verdict"]] += 1
    out += ["| source | " + " | ".join(VERDICTS) + " | rows |",
            "|---|" + "---|" * (len(VERDICTS) + 1)]
    for s, name in SOURCES.items():
        c = counts[s]
        out.append(f"| {name} | " + " | ".join(str(c[v]) for v in VERDICTS)
                   + f" | {sum(c.values())} |")
    tot = {v: sum(counts[s][v] for s in SOURCES) for v in VERDICTS}
    out.append("| **all** | " + " | ".join(str(tot[v]) for v in VERDICTS)
               + f" | {len(rows)} |")
    out.append("")
    for s, name in SOURCES.items():
        out += [f"## {name}", "",
                "| claim | where | published | ours (95% CI) | size run / published | test "
                "| family (m) | p (Holm) | power; n for 80% (CPU-h) | verdict |",
                "|---|---|---|---|---|---|---|---|---|---|"]
        for r in (x for x in rows if x["source"] == s):
            page = f"[{r['claim']}]({r['page']})"
            if r["verdict"] == "not run":
                out.append(f"| {page} | {r['where']} | {_what(r)} | — | — | — | "
                           f"{r['family']} | — | — | **not run**: {r['not_run']} |")
                continue
            ev = r["evidence"]
            unit = "" if r["scale"] == "pp" else f" {r['scale']}"
            ours = f"{_num(ev['estimate'])}{unit} ({_num(ev['low'])} to {_num(ev['high'])})"
            frac = f" = {100 * r['fraction']:.1f}%" if r["fraction"] is not None else \
                " (published size not stated)"
            pub = f"{r['published_size']:,.0f}" if r["published_size"] else "?"
            size = f"{r['n']:,.0f} / {pub} {r['unit']}{frac}"
            if r["declared"] is None:
                size += f"; size not declared ({r['looks']} looks)" if r["looks"] > 1 else \
                    "; size not declared"
            if r["budget"]:
                size += f"; {r['budget']}"
            test = ev["test"] + ("; **totals only**" if r["totals_only"] else "")
            pw = "—"
            if r["power"] is not None:
                origin = "pub." if r["power_origin"] == "published" else "decl."
                cost = ""
                if r["verdict"] == "too small to decide" and r["n_for_80"] <= r["n"]:
                    cost = " (size reached)"
                elif r["verdict"] == "too small to decide" and r["cpu_hours_for_80"] is not None:
                    cost = f" ({r['cpu_hours_for_80']:.1f} CPU-h)"
                pw = (f"{100 * r['power']:.0f}% for {r['power_effect']:.3g}{unit or ' pp'} "
                      f"({origin}); {r['n_for_80']:,}{cost}")
            p = f"{_p(r['p_primary'])} ({_p(r['p_adjusted'])})"
            out.append(f"| {page} | {r['where']} | {_what(r)} | {ours} | {size} | {test} | "
                       f"{r['family']} ({r['family_size']}) | {p} | {pw} | "
                       f"**{r['verdict']}** |")
        notes = [(r["id"], n) for r in rows if r["source"] == s for n in r["notes"]]
        if notes:
            out += ["", "Departures and caveats:", ""]
            seen = set()
            for rid, n in notes:
                if n not in seen:
                    seen.add(n)
                    out.append(f"* {n} (first: `{rid}`)")
        out.append("")
    reruns = [r for r in rows if r["totals_only"] or r["verdict"] == "not run"]
    out += ["## Runs that keep only totals, and runs not made", "",
            "Their per-game (or per-deal) re-runs are future work; the commands:", "",
            "| claim | stored | command |", "|---|---|---|"]
    for r in reruns:
        stored = "not run" if r["verdict"] == "not run" else "totals only"
        out.append(f"| `{r['id']}` | {stored} | `{r['rerun'] or '—'}` |")
    out.append("")
    return "\n".join(out)


def page_table(rows: list[dict], page: str) -> str:
    """The ledger's rows reported on one doc page (``page``: its file name), as a compact
    table the page includes verbatim (a test checks it), so no page restates a verdict
    the ledger does not give."""
    out = ["| claim | where | published | ours (95% CI) | n | p (Holm) | verdict |",
           "|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["page"].split("#")[0] != page:
            continue
        if r["verdict"] == "not run":
            out.append(f"| {r['claim']} | {r['where']} | {_what(r)} | — | — | — | "
                       f"**not run**: {r['not_run']} |")
            continue
        ev = r["evidence"]
        ours = f"{_num(ev['estimate'])} ({_num(ev['low'])} to {_num(ev['high'])})"
        out.append(f"| {r['claim']} | {r['where']} | {_what(r)} | {ours} | {r['n']:,.0f} | "
                   f"{_p(r['p_adjusted'])} | **{r['verdict']}** |")
    return "\n".join(out)


def write(root: Path = Path("."), md: Path | None = None, js: Path | None = None
          ) -> tuple[Path, Path]:
    """Compute the ledger and write its page and JSON file."""
    rows = compute(root=root)
    md = md or root / "docs" / "reproductions.md"
    js = js or root / "docs" / "reproductions.json"
    md.write_text(markdown(rows))
    js.write_text(json.dumps(rows, indent=1, sort_keys=True, default=float) + "\n")
    return md, js


if __name__ == "__main__":
    for p in write():
        print(p)
