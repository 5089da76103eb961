"""Cowling, Whitehouse & Powley 2015, §VII-D, Figures 4-6: how much the resistance
believes the truth, game by game.

Three configurations of the Fig. 1 design (same directories, so a Fig. 1 results
directory can be reused): resistance with inference against TRUEONLY spies (Fig. 4),
resistance with hard constraints only against TRUEONLY spies (Fig. 5) and resistance with
inference against BLUFF spies (Fig. 6). From each game record's belief trajectories
("extra", written by the ``mtismcts`` bot) it takes the lowest-seated resistance
member's probability of the true spy configuration after every public event, and draws
one line per game, games won by the resistance on the left and by the spies on the right.
Time is scaled so that mission ``m``'s result lands at ``x = m``: the events of a
mission (proposals, votes, the result) are spread evenly over ``(m-1, m]``. Each line
gets a small seeded vertical offset so that overlapping lines show their density.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from spyglass.arena.records import iter_records
from spyglass.arena.tournament import GAMES
from spyglass.experiments.fig1 import Configuration, run_configuration

PANELS = {
    "inference_trueonly": (Configuration("inf", "trueonly"),
                           "Fig. 4: inference, TRUEONLY spies"),
    "hard_trueonly": (Configuration("noinf", "trueonly"),
                      "Fig. 5: hard constraints only, TRUEONLY spies"),
    "inference_bluff": (Configuration("inf", "bluff"), "Fig. 6: inference, BLUFF spies"),
}
JITTER = 0.012


def truth_trajectory(record: dict) -> tuple[np.ndarray, np.ndarray] | None:
    """(x, p): the lowest resistance seat's belief in the true configuration over time."""
    spies = record["roles"]["spies"]
    n = record["setup"]["players"]
    extra = record.get("extra") or {}
    seat = min(s for s in range(n) if s not in spies)
    mine = extra.get(str(seat))
    if not mine or "belief" not in mine:
        return None
    truth = mine["configs"].index(sum(1 << s for s in spies))
    traj = mine["belief"]
    xs, ps = [0.0], [traj[0]["phi"][truth]]
    mission, pending = 0, []
    for e in traj[1:]:
        pending.append(e["phi"][truth])
        if e["type"] == "mission":
            L = len(pending)
            xs += [mission + (i + 1) / L for i in range(L)]
            ps += pending
            mission, pending = mission + 1, []
    if pending:  # the game ended on a fifth rejection mid-mission (official rules only)
        L = len(pending)
        xs += [mission + (i + 1) / (L + 1) for i in range(L)]
        ps += pending
    return np.array(xs), np.array(ps)


def panel_stats(records: list[dict]) -> dict:
    """Counts the paper discusses: final beliefs, and games where the truth was certain
    right after the first mission (Cowling et al. 2015, §VII-D: never, when the spies bluff)."""
    finals, certain_first, spy_wins = [], 0, 0
    for rec in records:
        t = truth_trajectory(rec)
        if t is None:
            continue
        x, p = t
        finals.append(p[-1])
        at_first = p[np.isclose(x, 1.0)]  # the first mission's result is at x = 1
        if at_first.size and at_first[0] >= 1 - 1e-9:
            certain_first += 1
        spy_wins += rec["outcome"]["winner"] == "spies"
    return {"games": len(finals), "spy_wins": spy_wins,
            "mean_final": float(np.mean(finals)) if finals else float("nan"),
            "certain_final": int(sum(f >= 1 - 1e-9 for f in finals)),
            "certain_after_first_mission": certain_first}


def plot_panel(records: list[dict], path: Path, title: str, seed: int) -> None:
    """One PNG: resistance wins left, spy wins right; one jittered line per game."""
    from matplotlib.figure import Figure

    rng = np.random.default_rng(seed)
    fig = Figure(figsize=(10, 3.8))  # an object, not pyplot: no global state or backend switch
    axes = fig.subplots(1, 2, sharey=True)
    for ax, winner, label in ((axes[0], "resistance", "resistance won"),
                              (axes[1], "spies", "spies won")):
        count = 0
        for rec in records:
            t = truth_trajectory(rec)
            if t is None or rec["outcome"]["winner"] != winner:
                continue
            x, p = t
            ax.plot(x, p + rng.uniform(-JITTER, JITTER), lw=0.6, alpha=0.35, color="#224488")
            count += 1
        ax.set_title(f"{label} ({count} games)", fontsize=10)
        ax.set_xlim(0, 5)
        ax.set_ylim(-0.03, 1.03)
        ax.set_xticks(range(6))
        ax.set_xlabel("mission (time scaled so mission results align)")
        ax.grid(alpha=0.3)
    axes[0].set_ylabel("belief in the true spy configuration")
    fig.suptitle(title, fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=120)


def run_beliefs(*, games: int, iterations: int, seed: int, out: str | Path,
                backend: str = "local", workers: int | None = None,
                progress: bool = True) -> dict:
    """Play (or reuse) the three configurations and draw Figs 4-6 into ``out``."""
    if games < 1 or iterations < 1:
        raise ValueError("games and iterations must be positive")
    out = Path(out)
    panels, paths = [], []
    for name, (conf, title) in PANELS.items():
        run_configuration(conf, games=games, iterations=iterations, seed=seed, out=out,
                          backend=backend, workers=workers, progress=progress)
        records = [r for r in iter_records(out / conf.key / GAMES)
                   if not r.get("error") and r["tournament"]["game"] < games]
        path = out / f"beliefs_{name}.png"
        plot_panel(records, path, f"{title} (K={iterations})", seed)
        panels.append({"panel": name, "configuration": conf.key, **panel_stats(records)})
        paths.append(str(path))
    summary = {"games": games, "iterations": iterations, "seed": seed, "panels": panels}
    (out / "beliefs.json").write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    return {**summary, "paths": paths + [str(out / "beliefs.json")]}
