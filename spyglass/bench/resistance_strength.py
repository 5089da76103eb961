"""Paired comparison of one Resistance bot across tournament runs on the same seeds (issue 31).

Runs of ``spyglass tournament`` with the same ``--seed``, games and line-up shape (the
candidate in the place of the baseline) play the same deals: each game has the same
seed, seats and spies, only the candidate's decisions (and what follows) differ. This
reads each run's ``games.jsonl``, checks that the games pair up, and reports for the
bot whose spec starts with ``--bot`` (default: the one seat whose bot is a registered
name, not a file: the candidate beside the 2012 files) its win rate (Wilson 95 %)
overall and per role, its resistance-side vote and selection rates, and for each
candidate the paired difference against the first run (McNemar's exact test on the
games won by one and not the other; Holm over the candidates). Usage::

    python -m spyglass.bench.resistance_strength BASE CAND [CAND ...] \
        [--bot PREFIX] [--out summary.json]
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from spyglass.arena.paired import holm, paired_test
from spyglass.arena.stats import rate_interval


def _games(run: Path) -> dict[int, dict]:
    """A run's records by game index: a tournament directory (its ``games.jsonl``) or a
    records file (``.jsonl``, or ``.jsonl.gz`` as kept under docs/figures/)."""
    out = {}
    path = run / "games.jsonl" if run.is_dir() else run
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt") as f:
        for line in f:
            r = json.loads(line)
            out[int(r["tournament"]["game"])] = r
    return out


def _seat(record: dict, prefix: str | None) -> int:
    """The compared bot's seat: the one whose spec starts with ``prefix``; with None, the
    one not loaded from a file (the 2012 entries are files, the candidate a name)."""
    if prefix is None:
        seats = [i for i, src in enumerate(record["setup"]["sources"])
                 if "/" not in src and not src.endswith(".py")]
    else:
        seats = [i for i, b in enumerate(record["setup"]["bots"]) if b.startswith(prefix)]
    if len(seats) != 1:
        raise ValueError(f"game {record['tournament']['game']}: {len(seats)} seats of "
                         f"{prefix or 'a registered bot'!r}, need exactly one")
    return seats[0]


def _deal(record: dict, seat: int) -> tuple:
    bots = list(record["setup"]["bots"])
    bots[seat] = "*"
    return record["setup"]["seed"], tuple(record["roles"]["spies"]), tuple(bots)


def _won(record: dict, seat: int) -> bool:
    spy = seat in record["roles"]["spies"]
    return (record["outcome"]["winner"] == "spies") == spy


def _behaviour(games: dict[int, dict], prefix: str | None) -> dict[str, float]:
    """As resistance: share of spy-free teams approved, of spied teams rejected, of its
    own proposals that were spy-free."""
    clean_yes = clean = spied_no = spied = sel_clean = sel = 0
    for r in games.values():
        seat = _seat(r, prefix)
        spies = set(r["roles"]["spies"])
        if seat in spies:
            continue
        for e in r["events"]:
            if e["type"] != "proposal":
                continue
            is_spied = bool(spies & set(e["team"]))
            if e["leader"] == seat:
                sel += 1
                sel_clean += not is_spied
            if e.get("votes") is None or e["leader"] == seat:
                continue
            yes = e["votes"][seat]
            if is_spied:
                spied += 1
                spied_no += not yes
            else:
                clean += 1
                clean_yes += yes
    return {"approve_clean": clean_yes / max(clean, 1), "reject_spied": spied_no / max(spied, 1),
            "select_clean": sel_clean / max(sel, 1)}


def summarise(runs: list[Path], prefix: str | None = None) -> dict:
    """Win rates of ``prefix``'s bot in each run and paired tests against ``runs[0]``."""
    loaded = [_games(r) for r in runs]
    base = loaded[0]
    rows = []
    for run, games in zip(runs, loaded, strict=True):
        if set(games) != set(base):
            raise ValueError(f"{run}: not the same games as {runs[0]}")
        won = {g: _won(r, _seat(r, prefix)) for g, r in games.items()}
        row: dict = {"run": str(run), "bot": next(iter(games.values()))["setup"]["bots"][
            _seat(next(iter(games.values())), prefix)]}
        for role in ("all", "spy", "resistance"):
            keep = [g for g, r in games.items() if role == "all"
                    or (_seat(r, prefix) in r["roles"]["spies"]) == (role == "spy")]
            rate = rate_interval(sum(won[g] for g in keep), len(keep), "wilson")
            row[role] = {"wins": rate.wins, "n": rate.n, "rate": rate.rate,
                         "low": rate.low, "high": rate.high}
        row["behaviour"] = _behaviour(games, prefix)
        extras = [(r.get("extra") or {}).get(str(_seat(r, prefix))) or {} for r in games.values()]
        row["searches"] = sum(int(e.get("searches", 0)) for e in extras)
        if games is not base:
            for g, r in games.items():
                b = base[g]
                if _deal(r, _seat(r, prefix)) != _deal(b, _seat(b, prefix)):
                    raise ValueError(f"{run}: game {g} is not the same deal as in {runs[0]}")
            base_won = {g: _won(r, _seat(r, prefix)) for g, r in base.items()}
            t = paired_test(won, base_won)
            row["paired"] = {"only_candidate": t["only_a"], "only_baseline": t["only_b"],
                             "p_mcnemar": t["p_mcnemar"]}
        rows.append(row)
    ps = [r["paired"]["p_mcnemar"] for r in rows[1:]]
    if ps:
        for r, h in zip(rows[1:], holm(ps)[0], strict=True):
            r["paired"]["p_holm"] = float(h)
    return {"bot": prefix, "games": len(base), "runs": rows}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("runs", nargs="+", type=Path, help="tournament directories or their "
                    "records (.jsonl, .jsonl.gz); the first is the baseline")
    ap.add_argument("--bot", default=None, help="spec prefix of the compared bot (default: "
                    "the one seat not loaded from a file)")
    ap.add_argument("--out", type=Path, help="write the summary as JSON here")
    args = ap.parse_args(argv)
    s = summarise(args.runs, args.bot)
    for r in s["runs"]:
        a, sp, re = r["all"], r["spy"], r["resistance"]
        line = (f"{r['bot']}: {100 * a['rate']:.1f}% [{100 * a['low']:.1f}, {100 * a['high']:.1f}]"
                f" spy {100 * sp['rate']:.1f}% (n={sp['n']}) resistance "
                f"{100 * re['rate']:.1f}% (n={re['n']})"
                + "".join(f" {k} {100 * v:.0f}%" for k, v in r["behaviour"].items()))
        if "paired" in r:
            pr = r["paired"]
            line += (f" | vs baseline +{pr['only_candidate']}/-{pr['only_baseline']} "
                     f"p={pr['p_mcnemar']:.3g} (Holm {pr['p_holm']:.3g})")
        print(line)
    if args.out:
        args.out.write_text(json.dumps(s, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
