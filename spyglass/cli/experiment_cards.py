"""``spyglass experiment`` commands for the card-game reproductions of Whitehouse 2014
(ch. 5 and §6.3.4): Dou Di Zhu landlords on the same deals with Table 5.2, SO-ISMCTS vs
PIMC at equal time (Fig 6.7), and Mini Dou Di Zhu's exact Fig 5.7.

Kept apart from :mod:`spyglass.cli.experiment`, which registers :data:`COMMANDS` on its
``experiment`` group, so that the Resistance reproductions' module stays as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from spyglass.cli.output import die, stderr, stdout

_Seed = Annotated[int, typer.Option(help="Seed: deal i is the game's deal for seed + i.")]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _ci(d: dict) -> str:
    return f"{_pct(d['low'])} – {_pct(d['high'])}"


def doudizhu_landlords(
    deals: Annotated[int, typer.Option(help="Deals (thesis: 1,000).")] = 40,
    games: Annotated[int, typer.Option("--games", "-n",
                                       help="Games per deal and landlord (thesis: 40).")] = 4,
    d: Annotated[int, typer.Option("--d", help="Trees (thesis: 40).")] = 10,
    s: Annotated[int, typer.Option("--s", help="Iterations per tree (thesis: 250).")] = 50,
    c: Annotated[float, typer.Option("--c", help="SO-ISMCTS exploration (thesis: 1.0).")] = 1.0,
    seed: _Seed = 0,
    out: Annotated[Path, typer.Option(help="Writes OUT.json, OUT.png and the resumable "
                                      "OUT.deals.jsonl.")] = Path("doudizhu_landlords"),
) -> None:
    """Whitehouse 2014 §5.2.4: cheating UCT vs determinized UCT (PIMC) vs SO-ISMCTS as the
    Dou Di Zhu landlord on the same deals (paired), and Table 5.2."""
    from spyglass.experiments import doudizhu_landlords as X

    try:
        res = X.run(deals, games, d, s, c, seed, progress=out.with_suffix(".deals.jsonl"))
    except ValueError as exc:
        die(str(exc))
    paths = X.write(res, out)
    t = Table(title=f"Landlord win rate, {deals} deals x {games} games, {d}x{s} "
                    f"(SO-ISMCTS {d * s} iterations, c={c}); thesis 1,000 x 40, 40x250")
    for col in ("landlord", "wins / games", "win rate", "95% (Wilson)", "thesis"):
        t.add_column(col)
    for k in X.KINDS:
        r = res["rates"][k]
        t.add_row(X.LABELS[k], f"{r['wins']} / {r['games']}", _pct(r["win_rate"]), _ci(r),
                  _pct(X.THESIS[k]))
    stdout().print(t)
    t = Table(title="Paired by deal: per-deal win rates, sign-flip test, Holm over 3")
    for col in ("comparison", "difference", "95% (t, deals)", "p", "p (Holm)", "thesis"):
        t.add_column(col)
    for x in res["comparisons"]:
        t.add_row(f"{X.LABELS[x['a']]} - {X.LABELS[x['b']]}", f"{100 * x['difference']:+.1f} pp",
                  f"{100 * x['low']:+.1f} – {100 * x['high']:+.1f}", f"{x['p_sign_flip']:.3g}",
                  f"{x['p_holm']:.3g}", f"{100 * x['thesis_difference']:+.1f} pp")
    stdout().print(t)
    for key, title in (("table_5_2", "Table 5.2 (deals classified by the same games)"),
                       ("table_5_2_split", "Table 5.2, split (classified by the first half "
                                           "of each deal's games, measured on the second)")):
        t = Table(title=title)
        for col in ("cheating - PIMC", "deals", "PIMC", "ISMCTS", "ISMCTS - PIMC (95%)",
                    "thesis PIMC / ISMCTS (deals)"):
            t.add_column(col)
        for row in res[key]:
            th = row["thesis"]
            diff = row.get("ismcts_minus_pimc")
            t.add_row(row["threshold"], str(row["deals"]),
                      _pct(row["pimc"]) if row["deals"] else "—",
                      _pct(row["ismcts"]) if row["deals"] else "—",
                      (f"{100 * diff['difference']:+.1f} ({100 * diff['low']:+.1f} – "
                       f"{100 * diff['high']:+.1f})") if diff else "—",
                      f"{_pct(th[0])} / {_pct(th[1])} ({th[2]})")
        stdout().print(t)
        x = res["interaction" + key[len("table_5_2"):]]
        if x["deals_helps"] and x["deals_elsewhere"]:
            stdout().print(f"ISMCTS - PIMC where cheating helps: "
                           f"{100 * x['gain_where_cheating_helps']:+.1f} pp "
                           f"({x['deals_helps']} deals), elsewhere "
                           f"{100 * x['gain_elsewhere']:+.1f} pp ({x['deals_elsewhere']}); "
                           f"Welch p = {x['p_welch']:.3g}")
    stderr().print(f"Wrote {', '.join(map(str, paths))}")


def doudizhu_time(
    deals: Annotated[int, typer.Option(help="Deals per point (thesis: 1,000).")] = 40,
    budgets: Annotated[str, typer.Option(help="CPU seconds per move, comma-separated "
                                         "(thesis: 0.25-8).")] = "0.02,0.05,0.1",
    rates: Annotated[str | None, typer.Option(
        help="PIMC,ISMCTS iterations per CPU second (default: measured now).")] = None,
    opponent: Annotated[str, typer.Option(help="Peasants' PIMC DxS (thesis: 40x250).")
                        ] = "10x50",
    seed: _Seed = 0,
    out: Annotated[Path, typer.Option(help="Writes OUT.json and OUT.png.")] = Path(
        "doudizhu_time"),
) -> None:
    """Whitehouse 2014 Fig 6.7: SO-ISMCTS vs determinized UCT (PIMC, 40:250) as the Dou Di
    Zhu landlord at equal time per move, as iterations at calibrated CPU rates."""
    from spyglass.experiments import doudizhu_time as X

    try:
        ts = [float(x) for x in budgets.split(",") if x.strip()]
        rs = X.parse_rates(rates) if rates else None
        od, os_ = (int(x) for x in opponent.lower().split("x"))
        res = X.run(deals, ts, rs, (od, os_), seed=seed)
    except ValueError as exc:
        die(str(exc))
    paths = X.write(res, out)
    r = res["config"]["rates_per_cpu_s"]
    t = Table(title=f"Landlord win rate at equal CPU time, {deals} deals per point "
                    f"(rates: PIMC {r['pimc']:,.0f}, SO-ISMCTS {r['ismcts']:,.0f} it/CPU s)")
    for col in ("s / move", "PIMC", "win (95%)", "SO-ISMCTS", "win (95%)",
                "ISMCTS - PIMC", "p (McNemar)", "p (Holm)"):
        t.add_column(col)
    for p in res["points"]:
        x = p["ismcts_minus_pimc"]
        t.add_row(f"{p['seconds']:g}", p["pimc"]["agent"],
                  f"{_pct(p['pimc']['win_rate'])} ({_ci(p['pimc'])})", p["ismcts"]["agent"],
                  f"{_pct(p['ismcts']['win_rate'])} ({_ci(p['ismcts'])})",
                  f"{100 * x['difference']:+.1f} pp", f"{x['p_mcnemar']:.3g}",
                  f"{x['p_holm']:.3g}")
    stdout().print(t)
    stderr().print(f"Wrote {', '.join(map(str, paths))}")


def minidoudizhu_fig57(
    out: Annotated[Path, typer.Option(help="Writes OUT.json and OUT.png.")] = Path(
        "minidoudizhu_fig57"),
    limit: Annotated[int | None, typer.Option(help="Only the first N deals (a quick "
                                              "look; renormalised).")] = None,
) -> None:
    """Whitehouse 2014 Fig 5.7, exactly over every Mini Dou Di Zhu deal: cheating minimax,
    determinized minimax (with and without inference) and information-set expectimax."""
    from spyglass.experiments import minidoudizhu_fig57 as X

    if limit is not None and limit < 1:
        die("--limit must be positive")
    res = X.run(limit=limit)
    paths = X.write(res, out)
    rows = res["matchups"]
    p2s = list(dict.fromkeys(r["player2"] for r in rows))
    t = Table(title=f"Player 1's exact win probability over {res['deals']} deals")
    t.add_column("player 1 \\ player 2")
    for b in p2s:
        t.add_column(b)
    for a in dict.fromkeys(r["player1"] for r in rows):
        vals = {r["player2"]: r["p1_win"] for r in rows if r["player1"] == a}
        t.add_row(a, *(_pct(vals[b]) if b in vals else "—" for b in p2s))
    stdout().print(t)
    stderr().print(f"Wrote {', '.join(map(str, paths))}")


def minidoudizhu_ismcts_pimc(
    deals: Annotated[int, typer.Option(help="Deals drawn by shuffling (thesis: all 8,832).")
                     ] = 150,
    games: Annotated[int, typer.Option("--games", "-n", help="Games per deal (thesis: 10).")
                     ] = 2,
    iterations: Annotated[int, typer.Option(help="SO-ISMCTS iterations (thesis: 4,000).")
                          ] = 4000,
    seed: _Seed = 0,
    out: Annotated[Path, typer.Option(help="Writes OUT.json, OUT.png and the games' "
                                      "records OUT.jsonl.")] = Path(
        "minidoudizhu_ismcts_vs_pimc"),
) -> None:
    """Whitehouse 2014 §5.2.4: player 1 SO-ISMCTS (4,000 iterations) or PIMC 20 x 200
    against PIMC 20 x 200 in Mini Dou Di Zhu, paired by deal (thesis 67.2 % vs 62.7 %)."""
    from spyglass.experiments import minidoudizhu_ismcts_pimc as X

    if min(deals, games, iterations) < 1:
        die("--deals, --games and --iterations must be positive")
    X.main(["--deals", str(deals), "--games", str(games), "--iterations", str(iterations),
            "--seed", str(seed), "--out", str(out)])


#: Command name -> function, registered by :mod:`spyglass.cli.experiment`.
COMMANDS = {"doudizhu-landlords": doudizhu_landlords, "doudizhu-time": doudizhu_time,
            "minidoudizhu-fig57": minidoudizhu_fig57,
            "minidoudizhu-ismcts-pimc": minidoudizhu_ismcts_pimc}
