"""Hearts: a Spyglass agent against OpenSpiel's ISMCTSBot seated as an agent, paired by deal.

Issue 31's fair comparison, one command: both sides are ordinary agents (the Spyglass
candidate, default the recommended agent, and ``openspiel_ismcts`` with its exploration
constant on its own return scale and most-visited play,
:mod:`spyglass.agents.openspiel_hearts`), the other two seats are ``hearts_rules``
(neutral), and each deal ``seed + i`` (one deal, points) is played twice: the candidate
in seat 0 and OpenSpiel's bot in seat 2, then the two swapped. The unit is the deal:
the candidate's points minus the bot's, averaged over the two seatings (negative
favours the candidate); a paired t-test against 0 with a 95 % t interval, and a
Wilcoxon signed-rank test beside it (a shot moon makes the differences heavy-tailed).

Budgets are the agents' own settings: ``--theirs openspiel_ismcts:seconds=0.03``
gives OpenSpiel's bot 0.03 CPU seconds per decision by calibration; Spyglass's search
takes iterations or a wall-clock deadline, so for equal CPU time give it ``iterations =
rate x seconds`` with ``rate`` its iterations per CPU second measured on this machine
(``spyglass bench --game hearts``). Each game records both sides' CPU time and
decisions (OpenSpiel's from its ``record_extra``, ours timed around its decisions), so
the budgets actually spent are in the file and the summary.

Passing: OpenSpiel's bot passes with ``hearts_rules`` (it crashes at pass decisions),
so the default deals are played without passing (``--pass-direction none``); with
passing the candidate would search its pass where the bot follows a rule.

Every game is appended to a JSON-lines file as it ends (first line: the settings); the
same command resumes; another command on the file is refused. Needs the crosscheck
extra. Run: ``python -m spyglass.bench.hearts_vs_ismctsbot --deals 300 --ours
soismcts:iterations=3000 --theirs openspiel_ismcts:seconds=0.03 --out h.jsonl``.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from pathlib import Path

import numpy as np

from spyglass.agents.recommended import best
from spyglass.arena.agent_spec import parse_agent
from spyglass.arena.match import play_match
from spyglass.bench import runfile
from spyglass.games.hearts.game import Hearts

RULE = "hearts_rules"


def _timed(spec: str):
    """A new agent of ``spec`` whose decisions (calls with more than one legal move) are
    timed in CPU time of this process: the agent and ``[cpu seconds, decisions]``."""
    agent = parse_agent(spec).make()
    spent = [0.0, 0]
    act = agent.act

    def timed(view, legal):
        t0 = time.process_time()
        a = act(view, legal)
        if len(legal) > 1:
            spent[0] += time.process_time() - t0
            spent[1] += 1
        return a

    agent.act = timed
    return agent, spent


def play_deal(ours: str, theirs: str, deal: int, pass_direction: str) -> list[dict]:
    """Deal ``deal`` in both seatings: a record per game."""
    game = Hearts(target=0, reward="points", pass_direction=pass_direction)
    out = []
    for swap in (0, 1):
        us, them = (0, 2) if swap == 0 else (2, 0)
        lineup: list = [RULE] * 4
        mine, spent = _timed(ours)
        lineup[us], lineup[them] = mine, theirs
        r = play_match(game, lineup, seed=deal)
        if not r.ok:
            raise RuntimeError(f"deal {deal}, seating {swap}: {r.error}")
        points = [int(x) for x in game.scores(r.state)]
        out.append({"deal": deal, "swap": swap, "ours_seat": us, "theirs_seat": them,
                     "points": points, "theirs_extra": r.extra.get(them),
                     "ours_cpu_seconds": round(spent[0], 4),
                     "ours_decisions": int(spent[1])})
    return out


def run(out: Path, deals: int, ours: str, theirs: str, seed: int = 1,
        pass_direction: str = "none", progress: bool = False) -> list[dict]:
    """Play (or resume) ``deals`` deals, both seatings each, into ``out``."""
    if deals < 1:
        raise ValueError("deals must be at least 1")
    settings = {"ours": ours, "theirs": theirs, "seed": seed, "deals": deals,
                "pass_direction": pass_direction, "others": RULE}
    with runfile.resume(out, settings) as (records, append):
        done = {r["deal"] for r in records}
        for i in range(deals):
            if seed + i in done:
                continue
            games = play_deal(ours, theirs, seed + i, pass_direction)
            append(games)  # a deal is written whole, so a resumed run keeps pairs
            if progress:
                print(f"deal {i + 1}/{deals}: {[g['points'] for g in games]}",
                      file=sys.stderr, flush=True)
    return records


def summarize(records: list[dict]) -> dict:
    """The paired comparison over the deals played in both seatings."""
    from scipy import stats

    by_deal: dict[int, list[dict]] = {}
    for r in records:
        by_deal.setdefault(r["deal"], []).append(r)
    diffs, ours, theirs, cpu, dec, our_cpu, our_dec = [], [], [], 0.0, 0, 0.0, 0
    for games in by_deal.values():
        if len(games) != 2:
            continue
        mine = [g["points"][g["ours_seat"]] for g in games]
        other = [g["points"][g["theirs_seat"]] for g in games]
        ours += mine
        theirs += other
        diffs.append(float(np.mean(mine) - np.mean(other)))
        for g in games:
            extra = g.get("theirs_extra") or {}
            cpu += extra.get("openspiel_cpu_seconds", 0.0)
            dec += extra.get("openspiel_decisions", 0)
            our_cpu += g.get("ours_cpu_seconds", 0.0)
            our_dec += g.get("ours_decisions", 0)
    n = len(diffs)
    out: dict = {"deals": n, "ours_points_per_deal": float(np.mean(ours)) if n else None,
                 "theirs_points_per_deal": float(np.mean(theirs)) if n else None,
                 "theirs_cpu_per_decision": cpu / dec if dec else None,
                 "ours_cpu_per_decision": our_cpu / our_dec if our_dec else None}
    if n >= 2:
        d = np.array(diffs)
        sd = float(d.std(ddof=1))
        half = float(stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n)
        out["difference"] = {
            "mean": float(d.mean()), "ci95": [float(d.mean()) - half, float(d.mean()) + half],
            "p_paired_t": float(stats.ttest_1samp(d, 0.0).pvalue) if sd > 0 else 1.0,
            "p_wilcoxon": float(stats.wilcoxon(d).pvalue) if np.any(d != 0) else 1.0}
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=300)
    ap.add_argument("--ours", default=best("hearts").spec)
    ap.add_argument("--theirs", default="openspiel_ismcts:seconds=0.03")
    ap.add_argument("--seed", type=int, default=1, help="first deal")
    ap.add_argument("--pass-direction", default="none",
                    choices=("none", "left", "across", "right", "rotate"))
    ap.add_argument("--out", type=Path, default=Path("hearts_vs_ismctsbot.jsonl"))
    ap.add_argument("--summary", action="store_true", help="only summarize --out")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    return runfile.main(args.out, args.summary, lambda: run(
        args.out, args.deals, args.ours, args.theirs, args.seed, args.pass_direction,
        progress=not args.quiet), summarize)


if __name__ == "__main__":
    sys.exit(main())
