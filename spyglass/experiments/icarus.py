"""Whitehouse 2014, ch. 8 reproduced: the sixteen ICARUS combinations of Table 8.1.

Each combination plays against unenhanced opponents of the same search and budget
(§8.5.1): UCT in the perfect-information games (Othello, Checkers and Backgammon, in both
colours: the enhanced player takes seat ``i % 2`` in game ``i``; Backgammon's UCT
determinizes the dice through the MO-ISMCTS loop), MO-ISMCTS in Hearts (one enhanced seat,
at ``i % 4``, against three baselines, one deal per game), The Resistance (one enhanced
seat of five, at ``i % 5``) and Dou Di Zhu (the enhanced landlord against two baseline
peasants). The paired, resumable runs of the card games are
:mod:`spyglass.experiments.icarus_paired`. A
win is counted as in §8.5.1: Othello's and Checkers' draws are losses; in Hearts, first or
equal first place. Rates carry Clopper-Pearson 95% intervals (as the thesis's). The
factorial design (every subset of
EPIC, RAVE, MAST, LGRF) is analysed with an ANOVA of the per-game wins on the four
factors and their two-way interactions (statsmodels, type II sums of squares).

Every game takes all sixteen combinations. Where the recorded runs were made before
MO-ISMCTS had RAVE (Hearts, Backgammon and the other information-set games), the eight
combinations with R come after the eight without, so that the recorded cells keep their
seeds (cell k is seeded with seed + k) and the commands still reproduce them.

``table --out OUT.json`` also writes every game as one record to ``OUT.jsonl``.

Commands (one per figure; ``--games`` per cell, ``--iterations`` per decision)::

    spyglass experiment icarus table --game othello --iterations 500 --games 50
    spyglass experiment icarus table --game hearts --iterations 300 --games 100
    spyglass experiment icarus table --game othello --iterations 300 --games 40 \
        --combos=-,epic,nast2,mast-gibbs,mast-egreedy,mast-roulette,mast-ucb,nast1,nast3
    spyglass experiment icarus cost --game othello
    spyglass experiment icarus table --game checkers --iterations 300 --games 40
    spyglass experiment icarus cost --game checkers
    spyglass experiment icarus cost --game hearts --combos=-,rave,amaf,epic,lgrf
    spyglass experiment icarus cost --agent soismcts --game hearts --also phantom \
        --iterations 20000 --repeats 3 --cpu-time
    spyglass experiment icarus plot docs/figures/icarus_othello.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from spyglass.arena.match import play_match
from spyglass.arena.stats import rate_interval
from spyglass.games import registry
from spyglass.search.icarus.spec import TABLE_8_1

#: Per game: registry options, the search agent, seats the enhanced player rotates over.
GAMES = {
    "othello": ({}, "uct", 2),
    "checkers": ({}, "uct", 2),
    # Hearts: whole games to 50 points, the thesis's (§4.2.8; the game's default target).
    "hearts": ({}, "moismcts", 4),
    "phantom": ({}, "moismcts", 2),
    "spades": ({"target": 0}, "moismcts", 4),
    "minidoudizhu": ({}, "moismcts", 2),
    "backgammon": ({}, "uct", 2),
    "resistance": ({}, "moismcts", 5),
    # Seat 0 is the landlord without the auction: the enhanced player is always the
    # landlord, against two unenhanced peasants (§8.5.1).
    "doudizhu": ({}, "moismcts", 1),
}
#: Our departure, kept as an option (``--single-deal``): Hearts played as one deal per
#: game, as every Hearts run recorded before 2026-11-27 was.
SINGLE_DEAL = {"hearts": {"target": 0}}


def game_options(game_name: str, single_deal: bool = False) -> dict:
    """The registry options of ``game_name``'s ch. 8 set-up (with ``single_deal``: one
    deal per game where :data:`SINGLE_DEAL` names the option)."""
    opts = dict(GAMES[game_name][0])
    if single_deal:
        if game_name not in SINGLE_DEAL:
            raise ValueError(f"--single-deal is for {', '.join(SINGLE_DEAL)}, not {game_name}")
        opts.update(SINGLE_DEAL[game_name])
    return opts


#: Games searched through the MO-ISMCTS loop (Backgammon's UCT determinizes the dice):
#: their R cells run after the others (see the module docstring).
INFORMATION_SET_SEARCH = ("backgammon",)
FACTORS = ("E", "R", "M", "L")
#: The order the cells are played in (cell k is seeded with seed + k): the order of the
#: recorded runs in docs/figures, kept so that the commands reproduce them exactly.
RUN_ORDER = ("-", "R", "M", "E", "L", "EM", "RM", "ERM", "EL", "RL", "ERL", "ML", "EML",
             "RML", "ERML", "ER")


def combos_for(game: str) -> list[str]:
    """Table 8.1's sixteen names in the order ``game``'s cells are played (R last where
    the search is MO-ISMCTS)."""
    _, agent, _ = GAMES[game]
    if agent == "uct" and game not in INFORMATION_SET_SEARCH:
        return list(RUN_ORDER)
    return [n for n in RUN_ORDER if "R" not in n] + [n for n in RUN_ORDER if "R" in n]


def won(game, result, seat: int) -> bool:
    """The thesis's win: the best reward, better than some other seat's (two players:
    the unique best, so Othello's and Checkers' draws lose; Spades: the seat's
    partnership won); Hearts: first or equal first place."""
    if game.name == "hearts":
        return bool(game.first_or_equal_first(result.state)[seat])
    r = result.rewards
    return r[seat] == max(r) and min(r) < r[seat]


def play_cell(game_name: str, combo: str, iterations: int, games: int, seed: int,
              single_deal: bool = False, records: list[dict] | None = None) -> list[int]:
    """Wins (1/0) of ``combo`` in ``games`` games against the unenhanced search;
    ``records``, if given, receives one record per game (the cell, its ``seed``, the
    game ``i`` and its ``game_seed``, the enhanced ``seat``, the seats' specs, the
    rewards and the thesis's ``win``)."""
    _, agent, seats = GAMES[game_name]
    game = registry.make(game_name, **game_options(game_name, single_deal))
    enhanced = f"{agent}:iterations={iterations},enhance={TABLE_8_1.get(combo, combo) or 'base'}"
    base = f"{agent}:iterations={iterations}"
    out = []
    for i in range(games):
        seat = i % seats
        lineup = [base] * game.n_players
        lineup[seat] = enhanced
        result = play_match(game, lineup, seed=seed * 1_000_003 + i)
        if result.error is not None:
            raise RuntimeError(f"{combo} game {i}: {result.error}")
        out.append(int(won(game, result, seat)))
        if records is not None:
            records.append({"experiment": "icarus-table", "game": game_name, "cell": combo,
                            "seed": seed, "i": i, "game_seed": seed * 1_000_003 + i,
                            "seat": seat, "seats": lineup,
                            "rewards": [float(x) for x in result.rewards],
                            "win": out[-1]})
    return out


def anova(cells: dict[str, list[int]]) -> dict[str, dict[str, float]]:
    """ANOVA of per-game wins on E, R, M, L and their two-way interactions."""
    import pandas as pd
    import statsmodels.api as sm
    from statsmodels.formula.api import ols

    rows = [{**{f: int(f in name) for f in FACTORS}, "win": w}
            for name, wins in cells.items() for w in wins]
    frame = pd.DataFrame(rows)
    present = [f for f in FACTORS if frame[f].nunique() > 1]
    terms = present + [f"{a}:{b}" for i, a in enumerate(present) for b in present[i + 1:]]
    if not terms or frame["win"].nunique() < 2:
        return {}
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", RuntimeWarning)
            model = ols("win ~ " + " + ".join(terms), data=frame).fit()
            if model.df_resid <= 0:
                return {}
            table = sm.stats.anova_lm(model, typ=2)
    except (ValueError, np.linalg.LinAlgError):  # too few games for the model
        return {}
    return {str(k): {"F": float(v["F"]), "p": float(v["PR(>F)"])}
            for k, v in table.iterrows() if k != "Residual"}


def table_8_1(game_name: str, iterations: int, games: int, seed: int = 1,
              combos: Sequence[str] | None = None, progress=None,
              single_deal: bool = False, records: list[dict] | None = None) -> dict:
    """Every combination's win rate (Clopper-Pearson 95%), factor means and the ANOVA.

    ``progress(name, wins)``, if given, is called after each cell; ``records``, if
    given, receives every game's record (:func:`play_cell`).
    """
    t0 = time.perf_counter()
    names = list(combos) if combos else combos_for(game_name)
    cells = {}
    for k, name in enumerate(names):
        cells[name] = play_cell(game_name, name, iterations, games, seed + k, single_deal,
                                records)
        if progress is not None:
            progress(name, cells[name])
    rates = {}
    for name, wins in cells.items():
        r = rate_interval(sum(wins), len(wins), method="beta")
        rates[name] = {"wins": r.wins, "n": r.n, "rate": r.rate, "low": r.low, "high": r.high}
    factors = {}
    for f in FACTORS:
        with_f = [w for n, ws in cells.items() if f in n for w in ws]
        without = [w for n, ws in cells.items() if f not in n for w in ws]
        if with_f and without:
            factors[f] = {"with": float(np.mean(with_f)), "without": float(np.mean(without)),
                          "n_with": len(with_f), "n_without": len(without)}
    return {"game": game_name, "iterations": iterations, "games_per_cell": games,
            "seed": seed, "options": game_options(game_name, single_deal),
            "rates": rates, "factors": factors,
            "anova": anova(cells) if len(cells) > 1 else {},
            "seconds": time.perf_counter() - t0}


def enhancement_costs(game_name: str, iterations: int = 5000, repeats: int = 2,
                      names: Sequence[str] = ("", "rave", "mast", "mast-egreedy",
                                              "mast-roulette", "mast-ucb", "tomast", "lgr",
                                              "lgrf", "nast2", "nast3", "epic", "ERML",
                                              "EML", "amaf"),
                      agent: str | None = None, cpu: bool = False) -> dict[str, float]:
    """Iterations/s of each enhancement at the first decision, as a ratio to the
    unenhanced search's, measured side by side (interleaved, best of ``repeats``).
    ``agent``: the search agent (default: the game's in :data:`GAMES`; e.g. "soismcts");
    ``cpu``: time by the process's CPU time (steadier than wall time on a loaded machine,
    where a short search may or may not be descheduled)."""
    from spyglass.agents import registry as agents
    from spyglass.agents.search_support import icarus_entry

    opts, default_agent, _ = GAMES[game_name]
    agent = agent or default_agent
    game = registry.make(game_name, **opts)
    state = game.new_state(0)
    seat = game.kernel.actor(state)
    view, legal = game.view(state, seat), game.legal_actions(state)
    usable = list(names) if "" in names else ["", *names]  # the baseline is the unit
    if not icarus_entry(game).has_episodes:
        usable = [n for n in usable if "epic" not in n and "E" not in n]
    best = dict.fromkeys(usable, 0.0)
    clock = time.process_time if cpu else time.perf_counter
    for r in range(repeats + 1):
        for name in usable:
            a = agents.make(agent, iterations=iterations if r else 50,
                            enhance=TABLE_8_1.get(name, name))
            a.start(game, seat, view, r)
            t0 = clock()
            a.act(view, legal)
            if r:
                best[name] = max(best[name], a.last.iterations / (clock() - t0))
    base = best[""]
    return {"baseline_iterations_per_s": base,
            **{(name or "baseline"): rate / base for name, rate in best.items()}}


def plot(result: dict, out: Path) -> None:
    """Figure 8.4's bars: each combination's win rate with its 95% interval, and the 50%
    line of an even match."""
    from matplotlib.figure import Figure

    names = list(result["rates"])
    rates = [result["rates"][n]["rate"] for n in names]
    low = [r - result["rates"][n]["low"] for n, r in zip(names, rates, strict=True)]
    high = [result["rates"][n]["high"] - r for n, r in zip(names, rates, strict=True)]
    fig = Figure(figsize=(max(5.0, 0.5 * len(names) + 1.5), 3.6))
    ax = fig.add_subplot()
    ax.bar(range(len(names)), rates, yerr=[low, high], capsize=3, color="#4c72b0")
    ax.axhline(result["rates"].get("-", {}).get("rate", 0.5), color="grey", ls="--", lw=1,
               label="baseline vs baseline")
    ax.set_xticks(range(len(names)), names, rotation=45 if len(names) > 9 else 0)
    ax.set_ylim(0, 1)
    ax.set_ylabel("win rate (95% CI)")
    ax.set_title(f"{result['game']}: {result['iterations']} iterations, "
                 f"{result['games_per_cell']} games per bar")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


def markdown(result: dict) -> str:
    """A table's results as Markdown: rates with intervals, factor means, ANOVA."""
    lines = [f"**{result['game']}**, {result['iterations']} iterations per decision, "
             f"{result['games_per_cell']} games per combination "
             f"({result['seconds'] / 60:.0f} min):", "",
             "| combination | enhance= | wins | rate | 95% CI |", "|---|---|---|---|---|"]
    for name, r in result["rates"].items():
        lines.append(f"| {name} | `{TABLE_8_1.get(name, name) or 'base'}` | {r['wins']}/{r['n']} "
                     f"| {r['rate']:.2f} | {r['low']:.2f}-{r['high']:.2f} |")
    if result["factors"]:
        lines += ["", "| factor | rate without | rate with | ANOVA F | p |",
                  "|---|---|---|---|---|"]
        for f, v in result["factors"].items():
            a = result["anova"].get(f, {})
            lines.append(f"| {f} | {v['without']:.3f} | {v['with']:.3f} | "
                         f"{a.get('F', float('nan')):.2f} | {a.get('p', float('nan')):.3f} |")
        inter = [(k, v) for k, v in result["anova"].items() if ":" in k and v["p"] < 0.05]
        lines += ["", "Two-way interactions with p < 0.05: "
                  + (", ".join(f"{k} (p = {v['p']:.3f})" for k, v in inter) or "none") + "."]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="spyglass experiment icarus",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("what", choices=("table", "cost", "plot"))
    ap.add_argument("json", nargs="?", type=Path, help="plot: a table's JSON (PNG beside it)")
    ap.add_argument("--game", choices=tuple(GAMES), default="othello")
    ap.add_argument("--iterations", type=int, default=None,
                    help="per decision (default: table 500, cost 5000)")
    ap.add_argument("--repeats", type=int, default=2, help="cost: searches per name (best of)")
    ap.add_argument("--cpu-time", action="store_true",
                    help="cost: time by CPU time rather than wall time")
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--agent", default=None,
                    help="cost: the search agent (default: the game's; e.g. soismcts)")
    ap.add_argument("--also", action="append", choices=tuple(GAMES), default=[],
                    help="cost: a further game measured in the same run (repeatable); the "
                         "output is then one result per game")
    ap.add_argument("--combos", default=None,
                    help="comma-separated names (Table 8.1's, or any enhance= text); "
                         "default: Table 8.1")
    ap.add_argument("--single-deal", action="store_true",
                    help="table: Hearts as one deal per game (our earlier departure; the "
                         "thesis plays games to 50 points)")
    args = ap.parse_args(argv)
    if args.also and args.what != "cost":
        ap.error("--also is for cost only")
    if args.what == "plot":
        if args.json is None:
            ap.error("plot needs the JSON file of a table run")
        plot(json.loads(args.json.read_text()), args.json.with_suffix(".png"))
        return
    if args.what == "table":
        def progress(name: str, wins: list[int]) -> None:
            print(f"{name}: {sum(wins)}/{len(wins)}", file=sys.stderr, flush=True)

        combos = args.combos.split(",") if args.combos else None
        records: list[dict] = []
        try:
            res = table_8_1(args.game, args.iterations or 500, args.games, args.seed, combos,
                            progress=progress, single_deal=args.single_deal, records=records)
        except ValueError as exc:
            ap.error(str(exc))
        if args.out:  # the games, one record a line, beside the table's JSON
            args.out.with_suffix(".jsonl").write_text(
                "".join(json.dumps(r) + "\n" for r in records))
    else:
        names = [("" if n in ("-", "base") else n) for n in args.combos.split(",")] \
            if args.combos else None
        kw = {"agent": args.agent, "iterations": args.iterations or 5000,
              "repeats": args.repeats, "cpu": args.cpu_time,
              **({"names": names} if names else {})}
        res = enhancement_costs(args.game, **kw)
        if args.also:
            res = {args.game: res, **{g: enhancement_costs(g, **kw) for g in args.also}}
    text = json.dumps(res, indent=1)
    if args.out:
        args.out.write_text(text)
    print(text)


if __name__ == "__main__":
    main()
