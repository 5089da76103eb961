"""What the belief plots in the style of Whitehouse 2014, Fig. 7.8 share, whatever the game:
an inference player whose belief is read after every move, a declared run of traced
games, and the per-game test of a belief against a reference.

The game's module (``scotlandyard_beliefs``, ``saboteur_beliefs``) says what is hidden,
how the belief in the truth is read from the particles and what the reference is.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from spyglass.agents.mt_ismcts import MTISMCTSPFAgent
from spyglass.experiments.cells import declare, load
from spyglass.search.particles import ParticleFilter


class TracedPF(MTISMCTSPFAgent):
    """``mtismcts_pf`` with ``measure(belief)`` applied to its particle filter after the
    start and after every move it observes (``trace``). Reading the particles draws
    nothing, so the game is the one the untraced agent plays."""

    def __init__(self, measure: Callable[[ParticleFilter], object], **settings) -> None:
        super().__init__(**settings)
        self.measure = measure

    def start(self, game, seat, view, seed) -> None:
        super().start(game, seat, view, seed)
        self.trace = [self.measure(self.belief)]

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        super().observe(obs, actor, view)
        self.trace.append(self.measure(self.belief))


def spec_settings(spec: str) -> dict[str, str]:
    """``name:a=1,b=2`` -> ``{"a": "1", "b": "2"}`` (validated by the agent)."""
    rest = spec.partition(":")[2]
    return dict(kv.split("=", 1) for kv in rest.split(",")) if rest else {}


def run_traced(out: Path, manifest: dict, games: int,
               trace: Callable[[int], dict]) -> list[dict]:
    """Declare ``manifest`` in ``OUT.manifest.json``, then trace games ``0..games-1``
    (``trace(i)`` -> its record; those on file are skipped), appending each record."""
    declare(out, manifest)
    done = {r["i"] for r in load(out)}
    with out.open("a") as f:
        for i in range(games):
            if i not in done:
                f.write(json.dumps(trace(i)) + "\n")
                f.flush()
    return load(out)


def gain(recs: list[dict], a: str, b: str, keep: Callable[[dict], bool] = lambda s: True
         ) -> dict:
    """Per game, the mean of ``step[a] - step[b]`` over its steps after the first that
    ``keep``; across games its mean, 95% t interval and the Wilcoxon signed-rank test of
    no gain (a game is the unit: its steps are not independent)."""
    from scipy.stats import t as student
    from scipy.stats import wilcoxon

    g = np.array([np.mean([s[a] - s[b] for s in r["steps"][1:] if keep(s)]) for r in recs
                  if any(keep(s) for s in r["steps"][1:])])
    if len(g) < 2:
        return {"games": len(g)}
    half = student.ppf(0.975, len(g) - 1) * g.std(ddof=1) / np.sqrt(len(g))
    return {"games": len(g), "mean": float(g.mean()), "low": float(g.mean() - half),
            "high": float(g.mean() + half), "wilcoxon_p": float(wilcoxon(g).pvalue),
            "games_above": int((g > 0).sum())}


def main(argv: Sequence[str] | None, *, prog: str, description: str, experiment: str,
         cell: str, seed: int, trace: Callable[[int, int, int], dict],
         plot: Callable[[list[dict], Path], Path],
         summary: Callable[[list[dict]], dict]) -> int:
    """A belief plot's command line: ``run`` (declare the size, then trace games with
    ``trace(seed, i, iterations)``; resumes) and ``plot`` (draw and summarise)."""
    import argparse

    p = argparse.ArgumentParser(prog=prog, description=description)
    sub = p.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run", help="declare the size, then play and trace the games")
    r.add_argument("--games", type=int, required=True)
    r.add_argument("--iterations", type=int, required=True)
    r.add_argument("--seed", type=int, default=seed)
    r.add_argument("--out", type=Path, required=True)
    t = sub.add_parser("plot", help="draw the belief plot and print the summary")
    t.add_argument("file", type=Path)
    t.add_argument("--out", type=Path, required=True, help="the PNG")
    a = p.parse_args(argv)
    if a.cmd == "run":
        if a.games < 1 or a.iterations < 1:
            p.error("--games and --iterations must be positive")
        manifest = {"experiment": experiment, "cell": cell, "games": a.games,
                    "iterations": a.iterations, "seed": a.seed}
        records = run_traced(a.out, manifest, a.games,
                             lambda i: trace(a.seed, i, a.iterations))
    else:
        records = load(a.file)
        print(f"wrote {plot(records, a.out)}")
    print(json.dumps(summary(records), indent=1))
    return 0


def finish_figure(fig, axes, ylabel: str, title: str, out: Path) -> Path:
    """Both belief plots' ending: the y label, one legend under the panels (the right
    panel's lines), the title, and the PNG."""
    axes[0].set_ylabel(ylabel)
    handles, labels = axes[1].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=len(labels), fontsize=8,
               frameon=False)
    fig.suptitle(title, fontsize=11)
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    fig.savefig(out, dpi=110)
    return out
