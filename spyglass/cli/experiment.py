"""``spyglass experiment``: reproductions of published experiments (Cowling et al. 2015, §VII)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from spyglass.cli.app import app
from spyglass.cli.output import die, stderr, stdout

experiment_app = typer.Typer(help="Reproduce published experiments (Cowling et al. 2015, §VII).",
                             no_args_is_help=True)
app.add_typer(experiment_app, name="experiment")

_Games = Annotated[int, typer.Option(
    "--games", "-n", help="Games per configuration (its first games: a stored run is grown "
    "to this size, or read in part).")]
_Iters = Annotated[int, typer.Option("--iterations", "-k",
                                     help="K: iterations per decision (spies that "
                                     "self-determinize get 2K).")]
_Seed = Annotated[int, typer.Option(help="Seed (the same for every configuration).")]
_Backend = Annotated[str, typer.Option(help="local (process pool) or ray.")]
_Workers = Annotated[int | None, typer.Option(help="Worker processes (default: all cores).")]


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


@experiment_app.command("fig1")
def fig1(
    games: _Games = 1000,
    iterations: _Iters = 20_000,
    seed: _Seed = 1,
    out: Annotated[Path, typer.Option(help="Results directory (one tournament per bar; "
                                      "an existing one is resumed, grown to --games or "
                                      "read in part).")] = Path("fig1"),
    backend: _Backend = "local",
    workers: _Workers = None,
    only: Annotated[list[str] | None, typer.Option(
        "--only", help="Run only these configurations (e.g. inf-bluff); repeatable.")] = None,
    looks: Annotated[str | None, typer.Option(
        help="Group-sequential run: cumulative games per bar at each look, the last equal "
             "to --games (e.g. 300,600,1000); stops when every effect crossed its "
             "O'Brien-Fleming boundary.")] = None,
    psi_counts: Annotated[str, typer.Option(
        help="Spies' ψ evidence: 'all' (the paper: visits summed over every tree) or "
             "'phase1' (the self-determinizing phase only; the runs recorded before "
             "2026-11-27).")] = "all",
) -> None:
    """Cowling, Whitehouse & Powley 2015, Fig. 1: spy win rates of
    TRUEONLY/PURE/SPLIT/TWOSTEP/BLUFF spies against MT-ISMCTS resistance without and with
    inference (balanced design, 5 players)."""
    from spyglass.arena.backends import BackendError
    from spyglass.experiments.fig1 import run_fig1
    from spyglass.resistance.arena.table import TournamentError

    try:
        res = run_fig1(games=games, iterations=iterations, seed=seed, out=out,
                       backend=backend, workers=workers, keys=only,
                       looks=_ints(looks, "--looks") if looks else None,
                       psi_counts=psi_counts)
    except KeyboardInterrupt as exc:
        die(f"interrupted: {exc}; run the same command again to resume", code=130)
    except (ValueError, TournamentError, BackendError) as exc:
        die(str(exc))
    table = Table(title=f"Spy win rate, K={iterations}, {games} games per configuration "
                        f"(rules: {res['rules']})")
    for col in ("configuration", "wins", "games", "spy win rate", "95% interval"):
        table.add_column(col)
    for r in res["rows"]:
        table.add_row(r["configuration"], str(r["wins"]), str(r["games"]),
                      _pct(r["spy_win_rate"]), f"{_pct(r['low'])} – {_pct(r['high'])}")
    stdout().print(table)
    eff = Table(title="Effects: ours vs Cowling et al. 2015, §VII-A")
    for col in ("effect", "ours (pp)", "ours (relative)", "paper", "p (test)", "p (Holm)"):
        eff.add_column(col)
    for e in res["effects"]:
        paper = "—"
        if e["paper_pp"] is not None:
            paper = f"{e['paper_pp']:+.1f} (pp or %)"
        elif e["paper_relative"] == 1.0:
            paper = "about ×2"
        eff.add_row(e["effect"], f"{e['difference_pp']:+.1f}",
                    f"{100 * e['relative']:+.1f}% (×{e['ratio']:.2f})", paper,
                    f"{e['p']:.3g} ({e['test']})", f"{e['p_holm']:.3g}")
    stdout().print(eff)
    if "design" in res:
        d = res["design"]
        seq = Table(title=f"Group-sequential design ({d['spending']}, looks at "
                          f"{', '.join(map(str, d['sizes']))}; |Z| boundaries "
                          f"{', '.join(f'{c:.2f}' for c in d['boundaries'])})")
        for col in ("effect", "z at each look", "decided", "p (stage-wise)", "p (Holm)"):
            seq.add_column(col)
        for name, e in d["effects"].items():
            seq.add_row(name, ", ".join(f"{z:+.2f}" for z in e["z"]),
                        f"crossed at look {e['stopped_at']}" if e["stopped_at"] else
                        "no (last look)" if e["finished"] else "not yet",
                        "—" if e["p_stage"] is None else f"{e['p_stage']:.3g}",
                        f"{e['p_stage_holm']:.3g}" if "p_stage_holm" in e else "—")
        stdout().print(seq)
    stderr().print(f"Wrote {', '.join(res['paths'].values())}")


def _ints(text: str, what: str) -> list[int]:
    try:
        return [int(x.replace("_", "")) for x in text.split(",") if x.strip()]
    except ValueError:
        die(f"{what} must be integers separated by commas, not {text!r}")


def _sweep_table(res: dict, title: str, columns: tuple[str, ...]) -> None:
    table = Table(title=title)
    for col in (*columns, "wins", "games", "spy win rate", "95% interval"):
        table.add_column(col)
    for r in res["rows"]:
        table.add_row(*(str(r[c]) for c in columns), str(r["wins"]), str(r["games"]),
                      _pct(r["spy_win_rate"]), f"{_pct(r['low'])} – {_pct(r['high'])}")
    stdout().print(table)
    tests = Table(title=f"Paired tests (McNemar exact, Holm over {len(res['tests'])}); "
                        f"paper: {res['paper']}")
    for col in ("comparison", "difference (pp)", "discordant a/b", "p", "p (Holm)"):
        tests.add_column(col)
    for t in res["tests"]:
        tests.add_row(t["comparison"], f"{t['difference_pp']:+.1f}",
                      "/".join(map(str, t["discordant_a_b"])), f"{t['p_mcnemar']:.3g}",
                      f"{t['p_holm']:.3g}")
    stdout().print(tests)
    stderr().print(f"Wrote {', '.join(res['paths'].values())}")


@experiment_app.command("fig2")
def fig2(
    games: _Games = 1000,
    spy_iterations: Annotated[int, typer.Option(help="The SPLIT spies' budget S.")] = 40_000,
    resistance_iterations: Annotated[int, typer.Option(
        help="The inference resistance's budget.")] = 20_000,
    t1: Annotated[str | None, typer.Option(
        help="T1 values, comma-separated (default: the paper's 0, 5,000, ..., 40,000, "
             "scaled to S).")] = None,
    seed: _Seed = 1,
    out: Annotated[Path, typer.Option(help="Results directory (one tournament per point; "
                                      "an existing one is resumed, grown to --games or "
                                      "read in part).")] = Path("fig2"),
    backend: _Backend = "local",
    workers: _Workers = None,
) -> None:
    """Cowling et al. 2015 Fig. 2: SPLIT spies at S iterations, T1 of them
    self-determinizing, against inference resistance (balanced design, 5 players)."""
    from spyglass.arena.backends import BackendError
    from spyglass.experiments.sweeps import run_fig2
    from spyglass.resistance.arena.table import TournamentError

    values = _ints(t1, "--t1") if t1 is not None else None
    try:
        res = run_fig2(games=games, spy_iterations=spy_iterations,
                       resistance_iterations=resistance_iterations, t1=values, seed=seed,
                       out=out, backend=backend, workers=workers)
    except KeyboardInterrupt as exc:
        die(f"interrupted: {exc}; run the same command again to resume", code=130)
    except (ValueError, TournamentError, BackendError) as exc:
        die(str(exc))
    _sweep_table(res, f"SPLIT spies at {spy_iterations} vs inference at "
                      f"{resistance_iterations}, {games} games per point", ("t1",))
    trend = res["trend_below_s"]
    if trend is not None:
        stdout().print(f"Trend in T1/S below S (conditional logistic regression, paired by "
                       f"game): slope {trend['slope']:+.3f} log-odds, p = {trend['p']:.3g} "
                       f"({trend['informative_games']} of {trend['games']} games informative)")


@experiment_app.command("fig3")
def fig3(
    games: _Games = 1000,
    budgets: Annotated[str, typer.Option(
        help="Equal budgets K (spies and resistance), comma-separated.")
    ] = "100,300,1000,3000,10000,30000,100000",
    variants: Annotated[str, typer.Option(help="Spy variants, comma-separated.")
                        ] = "trueonly,pure,split,bluff",
    seed: _Seed = 1,
    out: Annotated[Path, typer.Option(help="Results directory (one tournament per point; "
                                      "an existing one is resumed, grown to --games or "
                                      "read in part).")] = Path("fig3"),
    backend: _Backend = "local",
    workers: _Workers = None,
) -> None:
    """Cowling et al. 2015 Fig. 3: TRUEONLY, PURE, SPLIT and BLUFF spies against
    inference resistance at equal budgets K (balanced design, 5 players)."""
    from spyglass.arena.backends import BackendError
    from spyglass.experiments.sweeps import run_fig3
    from spyglass.resistance.arena.table import TournamentError

    ks = _ints(budgets, "--budgets")
    names = [v.strip() for v in variants.split(",") if v.strip()]
    try:
        res = run_fig3(games=games, budgets=ks, variants=names, seed=seed, out=out,
                       backend=backend, workers=workers)
    except KeyboardInterrupt as exc:
        die(f"interrupted: {exc}; run the same command again to resume", code=130)
    except (ValueError, TournamentError, BackendError) as exc:
        die(str(exc))
    _sweep_table(res, f"Spies vs inference resistance at equal budgets, {games} games per "
                      "point", ("budget", "variant"))


@experiment_app.command("beliefs")
def beliefs(
    games: _Games = 100,
    iterations: _Iters = 5000,
    seed: _Seed = 1,
    out: Annotated[Path, typer.Option(help="Results directory (resumed if it exists).")] = Path(
        "beliefs"),
    backend: _Backend = "local",
    workers: _Workers = None,
) -> None:
    """Cowling, Whitehouse & Powley 2015, Figs 4-6: the resistance's belief in the true
    spy configuration over each game, split by winner (inference vs hard constraints;
    TRUEONLY vs BLUFF spies)."""
    from spyglass.arena.backends import BackendError
    from spyglass.experiments.beliefs import run_beliefs
    from spyglass.resistance.arena.table import TournamentError

    try:
        res = run_beliefs(games=games, iterations=iterations, seed=seed, out=out,
                          backend=backend, workers=workers)
    except KeyboardInterrupt as exc:
        die(f"interrupted: {exc}; run the same command again to resume", code=130)
    except (ValueError, TournamentError, BackendError) as exc:
        die(str(exc))
    table = Table(title="Belief in the true configuration at the end of the game")
    for col in ("panel", "games", "spy wins", "mean final", "final = 1"):
        table.add_column(col)
    for p in res["panels"]:
        table.add_row(p["panel"], str(p["games"]), str(p["spy_wins"]),
                      f"{p['mean_final']:.3f}", str(p["certain_final"]))
    stdout().print(table)
    stderr().print(f"Wrote {', '.join(res['paths'])}")


@experiment_app.command("cheat-model")
def cheat_model(
    logs: Annotated[list[Path] | None, typer.Argument(
        help="Game records (JSON Lines) of Cheat; default: new simulated-population logs.")]
        = None,
    out: Annotated[Path, typer.Option(help="Where to save the model (joblib).")] = Path(
        "cheat_model.joblib"),
    subjects: Annotated[int, typer.Option(help="Simulated subjects when no logs are given.")]
        = 60,
    matches: Annotated[int, typer.Option(help="Matches per pair when no logs are given.")] = 4,
    folds: Annotated[int, typer.Option(help="Grouped cross-validation folds.")] = 5,
    seed: _Seed = 1,
) -> None:
    """Bitan & Kraus 2018 §4.7: train the model of when Cheat players lie from game logs
    (people's games from `spyglass play --game cheat --record FILE` too) and report its
    grouped cross-validated AUC, TPR and TNR."""
    from spyglass.experiments.cheat import PAPER, population_logs, train_model

    try:
        if not logs:
            path = out.with_suffix(".logs.jsonl")
            if path.exists():
                path.unlink()
            n = population_logs(path, subjects, matches, seed)
            stderr().print(f"Wrote {n} simulated games to {path}")
            logs = [path]
        m = train_model(list(logs), out, seed=seed, folds=folds)
    except ValueError as exc:
        die(str(exc))
    table = Table(title=f"Grouped {m['folds']}-fold CV: {m['claims']} claims by "
                        f"{m['players']} players ({_pct(m['false_share'])} false)")
    for col in ("", "AUC", "TPR (false claims)", "TNR (true claims)"):
        table.add_column(col)
    table.add_row("this model", f"{m['auc']:.3f}", _pct(m["tpr"]), _pct(m["tnr"]))
    table.add_row("paper (people)", f"{PAPER['auc']:.3f}", _pct(PAPER["tpr"]),
                  _pct(PAPER["tnr"]))
    stdout().print(table)
    stderr().print(f"Saved the model to {out} (use it with pmga:model={out})")


@experiment_app.command("cheat")
def cheat(
    subjects: Annotated[int, typer.Option(help="Simulated subjects per agent group.")] = 12,
    iterations: _Iters = 500,
    train_subjects: Annotated[int, typer.Option(help="Subjects in the model's logs.")] = 60,
    seed: _Seed = 1,
    out: Annotated[Path, typer.Option(help="Results directory.")] = Path("cheat"),
) -> None:
    """Bitan & Kraus 2018 §5: MGA, PMGA, FPMGA, MO-ISMCTS and the population's best
    player against groups of simulated subjects (3-5 matches each); ANOVA, Holm-corrected
    pairwise tests, and the FPMGA accuracy sweep."""
    from spyglass.experiments.cheat import plot, run_experiment

    if subjects < 2 or iterations < 1 or train_subjects < 2:
        die("--subjects and --train-subjects must be at least 2, --iterations at least 1")
    res = run_experiment(out, subjects=subjects, iterations=iterations, seed=seed,
                         train_subjects=train_subjects)
    plot(res, out / "cheat.png")
    table = Table(title=f"Agents vs simulated subjects ({subjects} per group, 3-5 matches "
                        f"each, {iterations} iterations)")
    for col in ("agent", "win %", "Call-Cheat success", "rounds", "card difference"):
        table.add_column(col)
    for name, r in res["conditions"].items():
        table.add_row(name, _pct(r["win"][0]), _pct(r["call_success"][0]),
                      f"{r['rounds'][0]:.1f}", f"{r['card_difference'][0]:+.2f}")
    stdout().print(table)
    for metric, t in res["tests"].items():
        if "anova" in t:
            stdout().print(f"{metric}: ANOVA F={t['anova']['F']:.2f} p={t['anova']['p']:.3g}")
    m = res["model"]
    stdout().print(f"model: AUC {m['auc']:.3f}, TPR {_pct(m['tpr'])}, TNR {_pct(m['tnr'])}")
    stderr().print(f"Wrote {out / 'results.json'} and {out / 'cheat.png'}")


# The card-game reproductions (Whitehouse 2014 ch. 5, §6.3.4), kept in their own module.
from spyglass.cli.experiment_cards import COMMANDS as _CARD_COMMANDS  # noqa: E402

for _name, _command in _CARD_COMMANDS.items():
    experiment_app.command(_name)(_command)


# Reproductions whose options live in their module's own argument parser: the command
# hands its arguments over unchanged, so each option is declared once, in the module.
_MODULE_COMMANDS = {
    "lotrc": ("spyglass.experiments.lotrc",
              "Whitehouse 2014 LOTR:C: §5.1.1 balance, §6.3.2 round robin and time "
              "(run EXPERIMENT --games N --out F.jsonl | table F.jsonl)."),
    "icarus": ("spyglass.experiments.icarus",
               "Whitehouse 2014 ch. 8: the ICARUS combinations of Table 8.1 "
               "(table | cost | plot)."),
    "icarus-paired": ("spyglass.experiments.icarus_paired",
                      "Whitehouse 2014 ch. 8 paired re-runs (run | table)."),
    "particle-repair": ("spyglass.experiments.particle_repair",
                        "Particle-filter repair on the sampled MT-ISMCTS path."),
    "doudizhu-pimc": ("spyglass.experiments.doudizhu_pimc",
                      "Whitehouse 2014 ch. 5: determinized UCT (PIMC) on Dou Di Zhu deals."),
    "scotlandyard": ("spyglass.experiments.scotlandyard",
                     "Whitehouse 2014 Fig. 7.7: Mr X's self-determinization variants against "
                     "seekers with and without inference (run --out F.jsonl | table F.jsonl)."),
    "scotlandyard-beliefs": ("spyglass.experiments.scotlandyard_beliefs",
                             "Fig. 7.8-style belief plots for Scotland Yard: the seekers' "
                             "belief in Mr X's true station over each game "
                             "(run --out F.jsonl | plot F.jsonl --out F.png)."),
    "saboteur-beliefs": ("spyglass.experiments.saboteur_beliefs",
                         "Whitehouse 2014 Fig. 7.8: the inference player's belief in the true "
                         "saboteur configuration over each game "
                         "(run --out F.jsonl | plot F.jsonl --out F.png)."),
    "saboteur": ("spyglass.experiments.saboteur",
                 "Whitehouse 2014 §7.5.5: one inference player against four without, on "
                 "Saboteur (run --out F.jsonl | table F.jsonl)."),
}


def _module_command(module: str, summary: str):
    def command(ctx: typer.Context) -> None:
        import importlib

        main = importlib.import_module(module).main  # a fixed name from the table above
        try:
            code = main(list(ctx.args))
        except KeyboardInterrupt:
            die("interrupted; run the same command again to resume", code=130)
        raise typer.Exit(code or 0)

    command.__doc__ = summary + " Pass --help for its options."
    return command


for _name, (_module, _summary) in _MODULE_COMMANDS.items():
    experiment_app.command(
        _name, add_help_option=False,
        context_settings={"allow_extra_args": True, "ignore_unknown_options": True},
    )(_module_command(_module, _summary))


@experiment_app.command("ledger")
def ledger(
    root: Annotated[Path, typer.Option(help="The repository whose docs/ to read and write.")]
    = Path("."),
    check: Annotated[bool, typer.Option(help="Write nothing; fail if the committed page "
                                        "differs from the stored data.")] = False,
) -> None:
    """The reproduction ledger: every published claim computed from the stored results
    (docs/reproductions.md and .json; rules in spyglass/experiments/ledger.py)."""
    from spyglass.experiments.ledger import compute, markdown, write

    if check:
        page = root / "docs" / "reproductions.md"
        if not page.exists() or page.read_text() != markdown(compute(root=root)):
            die(f"{page} differs from the stored data: run `spyglass experiment ledger`")
        stdout().print(f"{page} matches the stored data")
        return
    try:
        paths = write(root=root)
    except (OSError, KeyError, ValueError) as exc:
        die(f"cannot compute the ledger: {exc}")
    for p in paths:
        stdout().print(str(p))
