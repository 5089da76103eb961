"""Dou Di Zhu against RLCard's rule agent, paired by deal: one command (issue 31).

For each deal ``seed + i`` three games are played (no auction: seat 0 is the landlord):
the candidate as landlord (seat 0) against two ``rlcard_ddz_rule`` peasants, the
candidate as a peasant (seat 1) beside one ``rlcard_ddz_rule`` peasant and against an
``rlcard_ddz_rule`` landlord, and ``rlcard_ddz_rule`` in all three seats. The last game
is the baseline of both seats: the rule agent in the same seat, on the same deal, among
the same players. Each seat's comparison is paired by deal: McNemar's exact test on the
deals won by one and not the other (:func:`spyglass.arena.paired.paired_test`), the
difference with a 95 % Wald interval for paired proportions, and Wilson intervals on
each rate; the two seats are one family, Holm-corrected.

Every deal's three games are appended to a JSON-lines file as they end (first line: the
settings); the same command resumes, another command on the file is refused.

Run: ``python -m spyglass.bench.doudizhu_vs_rlcard --deals 100 --agent
soismcts:iterations=8726,c=1.0 --seed 1 --out dz_rlcard.jsonl`` (``--summary`` only
reads the file). Needs the ``outside`` extra (``pip install rlcard``).
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from spyglass.agents.recommended import best
from spyglass.arena.match import play_match
from spyglass.arena.paired import holm, paired_test
from spyglass.arena.stats import rate_interval
from spyglass.bench import runfile
from spyglass.games.doudizhu.game import DouDiZhu

RULE = "rlcard_ddz_rule"
SEATS = {"landlord": 0, "peasant": 1}


def play_deal(agent: str, deal: int) -> dict:
    """The three games of one deal: who won, and the candidate's CPU time per game."""
    game = DouDiZhu()
    out: dict = {"deal": deal, "rlcard_fallbacks": 0}

    def fallbacks(r) -> int:  # the rule agent's answers that were not our legal moves
        return sum(int(x.get("rlcard_fallbacks", 0)) for x in r.extra.values() if x)

    for role, seat in SEATS.items():
        lineup = [RULE] * 3
        lineup[seat] = agent
        t0 = time.process_time()
        r = play_match(game, lineup, seed=deal)
        if not r.ok:
            raise RuntimeError(f"deal {deal}, {agent} as {role}: {r.error}")
        out[role] = r.rewards[seat] > 0.5
        out["rlcard_fallbacks"] += fallbacks(r)
        out[f"{role}_cpu"] = round(time.process_time() - t0, 3)
    r = play_match(game, [RULE] * 3, seed=deal)
    if not r.ok:
        raise RuntimeError(f"deal {deal}, rule agents: {r.error}")
    out["rlcard_fallbacks"] += fallbacks(r)
    out["rule_landlord"] = r.rewards[0] > 0.5
    out["rule_peasant"] = r.rewards[1] > 0.5
    return out


def run(out: Path, deals: int, agent: str, seed: int = 1, progress: bool = False) -> list[dict]:
    """Play (or resume) ``deals`` deals into ``out``; return every deal's record."""
    if deals < 1:
        raise ValueError("deals must be at least 1")
    settings = {"agent": agent, "seed": seed, "deals": deals, "rule": RULE}
    with runfile.resume(out, settings) as (records, append):
        done = {r["deal"] for r in records}
        for i in range(deals):
            if seed + i in done:
                continue
            rec = play_deal(agent, seed + i)
            append([rec])
            if progress:
                print(f"deal {i + 1}/{deals}: {rec}", file=sys.stderr, flush=True)
    return records


def summarize(records: list[dict]) -> dict:
    """Per seat: the candidate's and the rule agent's win rates (Wilson 95 %) on the same
    deals, the paired difference and McNemar's p, Holm-corrected over the two seats."""
    out: dict = {}
    for role in SEATS:
        a = {r["deal"]: bool(r[role]) for r in records}
        b = {r["deal"]: bool(r[f"rule_{role}"]) for r in records}
        t = paired_test(a, b)
        n = t["pairs"]
        ra = rate_interval(sum(a.values()), n, "wilson")
        rb = rate_interval(sum(b.values()), n, "wilson")
        out[role] = {
            "deals": n,
            "candidate": {"rate": ra.rate, "ci95": [ra.low, ra.high]},
            "rule_same_seat": {"rate": rb.rate, "ci95": [rb.low, rb.high]},
            "difference": t["difference"],
            "difference_ci95": [t["difference_low"], t["difference_high"]],
            "discordant": {"candidate_only": t["only_a"], "rule_only": t["only_b"]},
            "p_mcnemar": t["p_mcnemar"],
            "candidate_cpu_per_game": sum(r[f"{role}_cpu"] for r in records) / max(1, n)}
    # None: records made before the count was kept (it is not 0 by default).
    out["rlcard_fallbacks"] = (sum(r["rlcard_fallbacks"] for r in records)
                               if all("rlcard_fallbacks" in r for r in records) else None)
    adj, _ = holm([out[r]["p_mcnemar"] for r in SEATS])
    for role, p in zip(SEATS, adj, strict=True):
        out[role]["p_holm"] = p
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--agent", default=best("doudizhu").spec,
                    help="the candidate (default: the recommended agent)")
    ap.add_argument("--seed", type=int, default=1, help="first deal")
    ap.add_argument("--out", type=Path, default=Path("doudizhu_vs_rlcard.jsonl"))
    ap.add_argument("--summary", action="store_true", help="only summarize --out")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    return runfile.main(args.out, args.summary, lambda: run(
        args.out, args.deals, args.agent, args.seed, progress=not args.quiet), summarize)


if __name__ == "__main__":
    sys.exit(main())
