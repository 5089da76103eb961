"""Hearts head-to-head: our SO-ISMCTS against OpenSpiel's C++ ``ISMCTSBot``, resumable.

Issue 13 item 5 asks for two seats each, seats rotated, at least 400 games, at equal
iterations per move and at equal time per move. One command runs both conditions on the
same deals: deal ``seed + i`` is played twice per condition, ours in seats 0 and 2 and
then in seats 1 and 3, so each side holds the same cards from the same seats once (a
paired design). Deals are interleaved across the conditions (deal ``i`` in every
condition before deal ``i + 1``), and every game is appended to a JSON-lines file as it
ends: a run stopped early keeps its games, both conditions have the same number of deals,
and the same command resumes where it stopped (the file's first line holds the settings,
and a different command on the same file is refused).

The deals are single deals without passing: OpenSpiel 2.0.2's ``ISMCTSBot`` crashes
(segmentation fault in ``HeartsState::ResampleFromInfostate``) at a pass decision once
another player has passed. Both sides use c = 0.7 and optimise points (OpenSpiel's
return is ``26 - points``, ours the points reward); OpenSpiel's bot uses random
rollouts, no cap on world samples and the normalized visit counts as its final policy.
Both bots get seeds from ``--seed``, but only our side is reproducible: OpenSpiel 2.0.2's
``ISMCTSBot`` searches differently from run to run with the same seed (measured: eight
fresh bots with seed 7 on one decision of deal 5 chose two different cards), so a rerun
gives other games, not the same ones.

Statistics (:func:`summarize`): the unit is the deal. Its difference is our mean points
per seat minus OpenSpiel's over the two seatings (4 seat-games a side; lower points are
better, so a negative difference favours us). Swapping seats cancels the luck of the
cards, and deals are independent, so the differences are tested with a one-sample
(paired) t-test against 0, with a 95 % t interval; a Wilcoxon signed-rank test (no
normality assumed; a shot moon makes the differences heavy-tailed) is reported beside it.

Run: ``python -m spyglass.bench.hearts_vs_openspiel --deals 200 --iterations 1000
--seconds 0.03 --seed 1 --out docs/figures/hearts_vs_openspiel.jsonl`` (``--summary``
only reads the file). Needs ``pip install open_spiel``.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from pathlib import Path

import numpy as np

from spyglass.agents import registry
from spyglass.bench import runfile
from spyglass.games.hearts.game import Hearts

CONDITIONS = ("iterations", "time")


def _pyspiel():
    try:
        import pyspiel
    except ImportError as exc:
        raise RuntimeError("OpenSpiel is not installed: pip install open_spiel") from exc
    return pyspiel


def play_game(pyspiel, os_game, deal: int, swap: int, c: float, iterations: int | None,
              seconds: float | None, seed: int) -> dict:
    """One deal with ours in seats ``{swap, swap + 2}``; exactly one of ``iterations``
    (equal iterations per move) and ``seconds`` (equal time per move) is set."""
    from spyglass.bench.hearts_openspiel import os_bot, os_state_like

    game = Hearts(target=0, pass_direction="none", reward="points")
    ours = {swap, swap + 2}
    s = game.new_state(deal)
    st = os_state_like(pyspiel, os_game, game, deal, [])
    agents, bots = {}, {}
    for p in range(4):
        agent_seed = seed * 100_003 + deal * 8 + swap * 4 + p
        if p in ours:
            budget = {"seconds": seconds} if seconds else {"iterations": iterations}
            agents[p] = registry.make("soismcts", c=c, **budget)
            agents[p].start(game, p, game.view(s, p), agent_seed)
        else:
            bots[p] = os_bot(pyspiel, 10**9 if seconds else iterations, agent_seed, c,
                             seconds or -1.0)
    think = {"spyglass": 0.0, "openspiel": 0.0}
    decisions = {"spyglass": 0, "openspiel": 0}
    our_iterations = 0
    while not game.kernel.is_terminal(s):
        p = int(game.kernel.actor(s))
        legal = game.legal_actions(s)
        side = "spyglass" if p in ours else "openspiel"
        t0 = time.perf_counter()
        if len(legal) == 1:
            a = legal[0]
        elif p in ours:
            a = agents[p].act(game.view(s, p), legal)
            our_iterations += agents[p].last.iterations
        else:
            a = bots[p].step(st)
        if len(legal) > 1:
            think[side] += time.perf_counter() - t0
            decisions[side] += 1
        if a not in legal:
            raise RuntimeError(f"{side} chose {a}, not one of {legal}")
        obs = [int(game.kernel.observe(s, a, j)) for j in range(4)]
        game.kernel.apply(s, a)
        st.apply_action(a)
        for j in ours:
            agents[j].observe(obs[j], p, game.view(s, j))
    scores = [int(x) for x in game.scores(s)]
    if [26 - x for x in scores] != [round(r) for r in st.returns()]:
        raise RuntimeError(f"deal {deal}: our points {scores} disagree with OpenSpiel's "
                           f"returns {st.returns()}")
    return {"deal": deal, "swap": swap, "ours": sorted(ours), "points": scores,
            "seconds": think, "decisions": decisions, "our_iterations": our_iterations}


def run(out: Path, deals: int, iterations: int, seconds: float, seed: int = 1,
        c: float = 0.7, conditions: tuple[str, ...] = CONDITIONS,
        progress: bool = False) -> list[dict]:
    """Play (or resume) the head-to-head into ``out``; return every game record."""
    if deals < 1 or iterations < 1 or seconds <= 0:
        raise ValueError("deals and iterations must be positive, seconds above 0")
    unknown = set(conditions) - set(CONDITIONS)
    if unknown or not conditions:
        raise ValueError(f"conditions must be among {CONDITIONS}, not {sorted(unknown)}")
    settings = {"seed": seed, "c": c, "iterations": iterations, "seconds": seconds,
                "conditions": list(conditions), "pass_direction": "none"}
    pyspiel = _pyspiel()
    os_game = pyspiel.load_game("hearts")
    with runfile.resume(out, settings) as (records, append):
        done = {(r["condition"], r["deal"], r["swap"]) for r in records}
        for i in range(deals):
            for cond in conditions:
                for swap in (0, 1):
                    if (cond, seed + i, swap) in done:
                        continue
                    t0 = time.time()
                    rec = play_game(pyspiel, os_game, seed + i, swap, c,
                                    iterations if cond == "iterations" else None,
                                    seconds if cond == "time" else None, seed)
                    rec = {"condition": cond, **rec, "finished": time.strftime(
                        "%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "load": os.getloadavg()[0]}
                    append([rec])
                    if progress:
                        print(f"deal {i + 1}/{deals} {cond} swap {swap}: {rec['points']} "
                              f"(ours {rec['ours']}) {time.time() - t0:.1f} s",
                              file=sys.stderr, flush=True)
    return records


def summarize(records: list[dict]) -> dict:
    """Per condition: games, deals complete in both seatings, mean points per seat of
    each side, first-or-equal-first shares, and the paired test of the per-deal
    differences (ours minus OpenSpiel's mean points per seat)."""
    from scipy import stats

    out = {}
    for cond in CONDITIONS:
        recs = [r for r in records if r["condition"] == cond]
        if not recs:
            continue
        by_deal: dict[int, dict[int, dict]] = {}
        for r in recs:
            by_deal.setdefault(r["deal"], {})[r["swap"]] = r
        pairs = [v for v in by_deal.values() if len(v) == 2]
        side = {"spyglass": [], "openspiel": []}
        first = {"spyglass": 0, "openspiel": 0}
        diffs = []
        for pair in pairs:
            mine, theirs = [], []
            for r in pair.values():
                pts = r["points"]
                m = [pts[p] for p in r["ours"]]
                t = [pts[p] for p in range(4) if p not in r["ours"]]
                mine += m
                theirs += t
                first["spyglass"] += min(m) == min(pts)
                first["openspiel"] += min(t) == min(pts)
            side["spyglass"] += mine
            side["openspiel"] += theirs
            diffs.append(float(np.mean(mine) - np.mean(theirs)))
        n = len(diffs)
        d = np.array(diffs)
        row = {"games": 2 * n, "deals": n,
               "mean_points": {k: float(np.mean(v)) if v else None for k, v in side.items()},
               "first_or_equal_first": {k: v / (2 * n) if n else None
                                        for k, v in first.items()},
               "seconds_thinking": {k: float(sum(r["seconds"][k] for r in recs))
                                    for k in side},
               "decisions": {k: int(sum(r["decisions"][k] for r in recs)) for k in side},
               "our_iterations_per_decision": float(
                   sum(r["our_iterations"] for r in recs)
                   / max(1, sum(r["decisions"]["spyglass"] for r in recs)))}
        if n >= 2:
            sd = float(d.std(ddof=1))
            half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
            row["difference"] = {
                "mean": float(d.mean()), "ci95": [float(d.mean()) - half,
                                                  float(d.mean()) + half],
                "sd": sd,
                "p_paired_t": float(stats.ttest_1samp(d, 0.0).pvalue) if sd > 0 else 1.0,
                "p_wilcoxon": (float(stats.wilcoxon(d).pvalue) if np.any(d != 0) else 1.0),
                "deals_ours_better": int(np.sum(d < 0)), "deals_tied": int(np.sum(d == 0)),
                "deals_theirs_better": int(np.sum(d > 0))}
        loads = [r["load"] for r in recs if "load" in r]
        if loads:  # the machine's 1-minute load average as the games ended
            row["load"] = {"min": min(loads), "median": float(np.median(loads)),
                           "max": max(loads)}
        ends = [r["finished"] for r in recs if "finished" in r]
        if ends:
            row["first_and_last_game_ended"] = [min(ends), max(ends)]
        out[cond] = row
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=200,
                    help="deals per condition (each played in 2 seatings: 2x games)")
    ap.add_argument("--iterations", type=int, default=1000,
                    help="iterations per move, both sides, in the equal-iterations condition")
    ap.add_argument("--seconds", type=float, default=0.03,
                    help="seconds per move, both sides, in the equal-time condition")
    ap.add_argument("--seed", type=int, default=1, help="first deal; also seeds both bots")
    ap.add_argument("--c", type=float, default=0.7)
    ap.add_argument("--only", choices=CONDITIONS, default=None,
                    help="run one condition only")
    ap.add_argument("--out", type=Path, default=Path("hearts_vs_openspiel.jsonl"),
                    help="JSON-lines file of games (appended to; an existing run resumes)")
    ap.add_argument("--summary", action="store_true",
                    help="only summarize the games already in --out")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    conds = (args.only,) if args.only else CONDITIONS
    return runfile.main(args.out, args.summary, lambda: run(
        args.out, args.deals, args.iterations, args.seconds, args.seed, args.c, conds,
        progress=not args.quiet), summarize)

if __name__ == "__main__":
    sys.exit(main())
