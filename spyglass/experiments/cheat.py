"""Bitan & Kraus 2018, §4.7 and §5 with simulated subjects: the model and the experiment.

* :func:`population_logs` plays the simulated population against itself (the paper's
  human-vs-human preliminary study: pairs of subjects, several matches each) and writes
  ordinary game records (JSON Lines, :mod:`spyglass.arena.history`).
* :func:`claims_dataset` turns any such records (people's games too: ``spyglass play
  --game cheat --record FILE``) into one row per claim: the answering seat's features
  (:func:`spyglass.agents.cheat_model.claim_features`), whether the claim was false, and
  the claimant's label as the group. :func:`train_model` cross-validates (grouped: never
  trained on the predicted player) and saves the forest.
* :func:`run_experiment`: each agent condition meets its own group of fresh simulated
  subjects, each subject playing 3-5 matches (the paper's design) with one persistent
  agent object, so learning subjects adapt. Per subject: win %, Call-Cheat success,
  rounds and the final card difference (agent minus subject; negative = the agent holds
  fewer). One-way ANOVA over conditions and pairwise Welch t-tests, Holm-corrected.
  :func:`accuracy_sweep` varies FPMGA's accuracy.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import numpy as np

from spyglass.agents import registry as agents
from spyglass.agents.cheat_model import claim_features, cross_validate, save_model, train
from spyglass.agents.cheat_population import population, subject_spec
from spyglass.arena.history import iter_replay
from spyglass.arena.match import play_match
from spyglass.arena.records import append_records
from spyglass.games import registry

#: The paper's numbers (Bitan & Kraus 2018: §4.7 and Figure 3), for the docs' tables.
PAPER = {"auc": 0.821, "tpr": 0.753, "tnr": 0.740,
         "card_difference": {"mga": -2.89, "pmga": -3.51, "fpmga": -4.56},
         "agent_win_rate_overall": 0.8897}


def population_logs(out: Path, subjects: int, matches: int, seed: int) -> int:
    """Simulated subjects in pairs, ``matches`` games per pair, recorded to ``out``."""
    if subjects < 2 or matches < 1:
        raise ValueError("need at least 2 subjects and 1 match")
    game = registry.make("cheat")
    pop = population(subjects, seed)
    n = 0
    for i in range(0, subjects - 1, 2):
        a = agents.make("cheatsim", **pop[i])
        b = agents.make("cheatsim", **pop[i + 1])
        labels = [f"subject{seed}-{i}", f"subject{seed}-{i + 1}"]
        for m in range(matches):
            seats = [a, b] if m % 2 == 0 else [b, a]
            names = labels if m % 2 == 0 else labels[::-1]
            r = play_match(game, seats, seed * 100_003 + i * 101 + m, labels=names)
            if not r.ok:
                raise RuntimeError(f"a population game failed: {r.error}")
            append_records(out, [r.to_record(subject_settings={labels[0]: pop[i],
                                                               labels[1]: pop[i + 1]})])
            n += 1
    return n


def read_records(paths: Iterable[Path]) -> list[dict]:
    """The Cheat game records in these JSON Lines files (other games are skipped)."""
    out = []
    for p in paths:
        path = Path(p)
        if not path.is_file():
            raise ValueError(f"no log file {str(path)!r}")
        for no, line in enumerate(path.read_text().splitlines(), start=1):
            if not line.strip():
                continue
            try:
                rec = json.loads(line)
            except json.JSONDecodeError as e:
                raise ValueError(f"{path}:{no}: not JSON ({e.msg})") from None
            if isinstance(rec, dict) and rec.get("game") == "cheat":
                out.append(rec)
    return out


def claims_dataset(records: list[dict]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """One row per claim of every record: features, label (1 = false claim), claimant."""
    from spyglass.games.cheat import kernel as K

    xs, ys, groups = [], [], []
    for rec in records:
        labels = rec.get("agents") or ["seat0", "seat1"]
        game = None
        history: list[list[tuple[int, int]]] = [[], []]
        for rep, seat, action in iter_replay(rec):
            game = rep.game
            obs = rep.moves[-1][2]
            for j in range(2):
                history[j].append((seat, obs[j]))
            if action >= K.CLAIM0:
                j = 1 - seat
                v = game.view(rep.state, j)
                xs.append(claim_features(v, seat, history[j]))
                ys.append(0 if K.last_claim_true(rep.state) else 1)
                groups.append(str(labels[seat]))
    if not xs:
        raise ValueError("the logs hold no Cheat claims")
    return np.array(xs), np.array(ys), np.array(groups)


def train_model(paths: list[Path], out: Path | None, seed: int = 1, folds: int = 5,
                trees: int = 200) -> dict:
    """Cross-validate on the logs' claims, then fit on all and save to ``out``."""
    x, y, g = claims_dataset(read_records(paths))
    metrics = cross_validate(x, y, g, seed, folds, trees)
    if out is not None:
        save_model(train(x, y, seed, trees), out, dict(metrics, logs=[str(p) for p in paths]))
    return metrics


def _match_stats(result, agent_seat: int) -> dict:
    from spyglass.games.cheat import kernel as K

    s = result.state
    a, o = agent_seat, 1 - agent_seat
    calls, ok = int(s[K.CALLS + a]), int(s[K.CALLS_OK + a])
    return {"win": float(result.rewards[a]), "calls": calls, "calls_ok": ok,
            "rounds": int(s[K.ROUND]),
            "card_difference": int(K.hand_size(s, a)) - int(K.hand_size(s, o)),
            "subject_lies": int(s[K.LIES + o]), "subject": result.extra.get(o, {})}


def play_group(agent: str, subjects: list[dict], seed: int, matches: tuple[int, int] = (3, 5),
               log: Path | None = None) -> list[dict]:
    """Every subject plays 3-5 matches against one ``agent`` (a spec string); per-subject
    means of the match statistics."""
    game = registry.make("cheat")
    gen = np.random.default_rng(seed)
    rows = []
    for i, settings in enumerate(subjects):
        subject = agents.make("cheatsim", **settings)
        player = _make(agent)
        n = int(gen.integers(matches[0], matches[1] + 1))
        per = []
        for m in range(n):
            seat = m % 2
            seats = [player, subject] if seat == 0 else [subject, player]
            names = [agent, subject_spec(settings)]
            r = play_match(game, seats, seed * 1_000_003 + i * 1009 + m,
                           labels=names if seat == 0 else names[::-1])
            if not r.ok:
                raise RuntimeError(f"a game of {agent} failed: {r.error}")
            if log is not None:
                append_records(log, [r.to_record()])
            per.append(_match_stats(r, seat))
        calls = sum(p["calls"] for p in per)
        rows.append({
            "subject": i, "matches": n,
            "win": float(np.mean([p["win"] for p in per])),
            "call_success": (sum(p["calls_ok"] for p in per) / calls) if calls else np.nan,
            "rounds": float(np.mean([p["rounds"] for p in per])),
            "card_difference": float(np.mean([p["card_difference"] for p in per])),
            "first_two_subject_wins": float(np.mean([1 - p["win"] for p in per[:2]])),
            "last_two_subject_wins": float(np.mean([1 - p["win"] for p in per[-2:]])),
        })
    return rows


def _make(spec: str):
    from spyglass.arena.agent_spec import parse_agent

    return parse_agent(spec).make()


def compare(groups: dict[str, list[dict]], metric: str) -> dict:
    """One-way ANOVA over the conditions and Holm-corrected pairwise Welch t-tests."""
    from scipy import stats
    from statsmodels.stats.multitest import multipletests

    data = {k: np.array([r[metric] for r in rows], dtype=float) for k, rows in groups.items()}
    data = {k: v[~np.isnan(v)] for k, v in data.items()}
    usable = {k: v for k, v in data.items() if len(v) >= 2}
    out: dict = {"metric": metric}
    if len(usable) >= 2 and any(np.var(v) > 0 for v in usable.values()):
        f, p = stats.f_oneway(*usable.values())
        out["anova"] = {"F": float(f), "p": float(p)}
    pairs, ps = [], []
    names = list(usable)
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            a, b = usable[names[i]], usable[names[j]]
            if np.var(a) + np.var(b) == 0:
                continue
            t, p = stats.ttest_ind(a, b, equal_var=False)
            pairs.append((names[i], names[j], float(t)))
            ps.append(float(p))
    if ps:
        reject, adj, _, _ = multipletests(ps, method="holm")
        out["pairwise"] = [{"a": a, "b": b, "t": t, "p_holm": float(q), "significant": bool(r)}
                           for (a, b, t), q, r in zip(pairs, adj, reject, strict=True)]
    return out


def summarize(rows: list[dict]) -> dict:
    def m(key):
        v = np.array([r[key] for r in rows], dtype=float)
        v = v[~np.isnan(v)]
        return (float(v.mean()) if len(v) else float("nan"),
                float(v.std(ddof=1) / np.sqrt(len(v))) if len(v) > 1 else float("nan"))
    return {k: m(k) for k in ("win", "call_success", "rounds", "card_difference",
                              "first_two_subject_wins", "last_two_subject_wins")}


def run_experiment(out: Path, subjects: int = 8, iterations: int = 300, seed: int = 1,
                   train_subjects: int = 40, train_matches: int = 4,
                   accuracies: tuple[float, ...] = (0.55, 0.7, 0.85, 1.0),
                   ismcts_iterations: int | None = None) -> dict:
    """The whole §5 reproduction; writes ``out``/results.json, the logs and the model."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    logs = out / "population_logs.jsonl"
    if logs.exists():
        logs.unlink()
    population_logs(logs, train_subjects, train_matches, seed)
    model_path = out / "model.joblib"
    model = train_model([logs], model_path, seed=seed)
    best = _best_subject(read_records([logs]))
    its = f"iterations={iterations}"
    conditions = {
        "mga": f"mga:{its}",
        "pmga": f"pmga:{its},model={model_path}",
        "fpmga": f"fpmga:{its}",
        "ismcts": f"moismcts:iterations={ismcts_iterations or iterations},c=0.7",
        "best_subject": best,
    }
    # Fresh subjects (a seed disjoint from the training population), one group each.
    groups = {}
    for ci, (name, spec) in enumerate(conditions.items()):
        subj = population(subjects, seed + 1000 + ci)
        groups[name] = play_group(spec, subj, seed + 17 * ci, log=out / f"games_{name}.jsonl")
    sweep_subjects = population(subjects, seed + 5000)
    sweep = {}
    for acc in accuracies:
        rows = play_group(f"fpmga:{its},accuracy={acc}", sweep_subjects, seed + 5001)
        sweep[f"{acc:.2f}"] = summarize(rows)
    res = {
        "sizes": {"subjects_per_group": subjects, "matches_per_subject": "3-5",
                  "iterations": iterations, "train_subjects": train_subjects,
                  "train_matches_per_pair": train_matches, "seed": seed},
        "model": model, "best_subject": best,
        "conditions": {k: summarize(v) for k, v in groups.items()},
        "tests": {m: compare(groups, m) for m in ("win", "call_success", "rounds",
                                                  "card_difference")},
        "sweep": sweep, "paper": PAPER,
    }
    (out / "results.json").write_text(json.dumps(res, indent=1, default=float))
    (out / "results.md").write_text(markdown(res) + "\n")
    return res


def _best_subject(records: list[dict]) -> str:
    """The population member with the best win rate in the logs, as an agent spec."""
    wins: dict[str, list[float]] = {}
    settings: dict[str, dict] = {}
    for rec in records:
        for seat, label in enumerate(rec["agents"]):
            wins.setdefault(label, []).append(rec["rewards"][seat])
        settings.update(rec.get("extra", {}).get("subject_settings", {}) or {})
        settings.update(rec.get("subject_settings", {}) or {})
    label = max(wins, key=lambda k: (np.mean(wins[k]), k))
    return subject_spec(settings[label]) if label in settings else "cheatsim"


def plot(res: dict, path: Path) -> None:
    """Bar charts of the conditions (with the paper's card differences) and the sweep."""
    from matplotlib.figure import Figure

    fig = Figure(figsize=(12, 3.6))
    axes = fig.subplots(1, 4)
    names = list(res["conditions"])
    for ax, key, title in zip(axes[:3], ("win", "call_success", "card_difference"),
                              ("agent win rate", "Call-Cheat success",
                               "final card difference"), strict=True):
        vals = [res["conditions"][n][key][0] for n in names]
        errs = [res["conditions"][n][key][1] for n in names]
        ax.bar(names, vals, yerr=np.nan_to_num(errs), color="tab:blue", label="simulated")
        if key == "card_difference":
            paper = [PAPER["card_difference"].get(n, np.nan) for n in names]
            ax.scatter(names, paper, color="tab:red", zorder=3, label="paper")
            ax.legend(fontsize=7)
        ax.set_title(title, fontsize=9)
        ax.tick_params(axis="x", labelsize=7, rotation=30)
    accs = sorted(res["sweep"], key=float)
    ax = axes[3]
    ax.plot([float(a) for a in accs], [res["sweep"][a]["win"][0] for a in accs], "o-",
            label="win rate")
    ax2 = ax.twinx()
    ax2.plot([float(a) for a in accs], [res["sweep"][a]["card_difference"][0] for a in accs],
             "s--", color="tab:orange", label="card difference")
    ax.set_title("FPMGA accuracy sweep", fontsize=9)
    ax.set_xlabel("accuracy")
    fig.tight_layout()
    fig.savefig(path, dpi=110)


def markdown(res: dict) -> str:
    """The results as Markdown tables, side by side with the paper's numbers."""
    def pm(x):
        m, se = x
        return f"{m:.3f} ± {se:.3f}" if se == se else f"{m:.3f}"

    lines = ["| agent | win rate | Call-Cheat success | rounds | card difference | "
             "paper's card difference |", "|---|---|---|---|---|---|"]
    for name, r in res["conditions"].items():
        paper = PAPER["card_difference"].get(name)
        lines.append(f"| {name} | {pm(r['win'])} | {pm(r['call_success'])} | "
                     f"{pm(r['rounds'])} | {pm(r['card_difference'])} | "
                     f"{'' if paper is None else paper} |")
    lines += ["", "| metric | one-way ANOVA | pairwise (Welch t, Holm) significant at .05 |",
              "|---|---|---|"]
    for metric, t in res["tests"].items():
        an = t.get("anova")
        a = f"F = {an['F']:.2f}, p = {an['p']:.3g}" if an else "-"
        sig = [f"{p['a']} vs {p['b']} (p = {p['p_holm']:.3g})" for p in t.get("pairwise", [])
               if p["significant"]]
        lines.append(f"| {metric} | {a} | {'; '.join(sig) or 'none'} |")
    m = res["model"]
    lines += ["", "| model | AUC | TPR | TNR | claims | players |", "|---|---|---|---|---|---|",
              f"| ours (simulated subjects, grouped {m['folds']}-fold CV) | {m['auc']:.3f} | "
              f"{m['tpr']:.1%} | {m['tnr']:.1%} | {m['claims']} | {m['players']} |",
              f"| paper (people) | {PAPER['auc']} | {PAPER['tpr']:.1%} | {PAPER['tnr']:.1%} "
              "| 2,432 | 60 |", "",
              "| FPMGA accuracy | win rate | card difference | Call-Cheat success |",
              "|---|---|---|---|"]
    for acc in sorted(res["sweep"], key=float):
        r = res["sweep"][acc]
        lines.append(f"| {acc} | {pm(r['win'])} | {pm(r['card_difference'])} | "
                     f"{pm(r['call_success'])} |")
    return "\n".join(lines)
