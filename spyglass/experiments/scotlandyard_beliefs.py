"""Belief plots for Scotland Yard in the style of Whitehouse 2014, Fig. 7.8: how much the
seekers' inference believes Mr X's true station, move by move, game by game.

Fig. 7.8 plots, for Saboteur, "the inferred probability for the correct saboteur
configuration" over each game, games won by one side on the left and by the other on
the right. Here the hidden thing is Mr X's station. The games are Fig. 7.7's
``inf-trueonly`` cell (:mod:`spyglass.experiments.scotlandyard`): Mr X TRUEONLY
(``mtismcts_pf:model=none``) against seekers with particle-filter inference
(``mtismcts_pf``), game ``i`` played with the cells' seed (:func:`cells.game_seed`), so
with the same seed and budget they are the very games of that run (each record's
``scores`` can be checked against its records).

After every move the seekers observe it is recorded: the weight their particles put on
Mr X's true station (``p_truth``, the inference's belief) and ``1 / |C|`` for the
constraint set ``C`` of stations he may be on (``p_hard``: the chance of the truth under
hard constraints only, what seekers without inference draw from; 0 if the truth left
the set, which it cannot); and ``p_moves``, the truth's probability under the thesis's
propagation step alone (§7.3, Example 2; :func:`spyglass.games.scotlandyard.belief.
propagate`): every move of Mr X consistent with what was seen equally likely, no
opponent model. ``p_truth`` beyond ``p_moves`` is what the opponent model adds; ``p_moves``
beyond ``p_hard`` what counting his routes adds. One record per game (JSON lines, with
its moves). The plot draws ``p_truth`` per game (thin lines) and the three means per
round (thick), time scaled so that Mr X's ``m``-th move starts round ``m`` and the
detectives' answers spread over it.

Commands::

    spyglass experiment scotlandyard-beliefs run --games 120 --iterations 1000 --seed 77 \\
        --out docs/figures/sy_beliefs_k1000.jsonl
    spyglass experiment scotlandyard-beliefs plot docs/figures/sy_beliefs_k1000.jsonl \\
        --out docs/figures/sy_beliefs_k1000.png
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from spyglass.arena.agent_spec import AgentSpec
from spyglass.arena.match import play_match
from spyglass.experiments.belief_traces import TracedPF, finish_figure, gain, spec_settings
from spyglass.experiments.belief_traces import main as traced_main
from spyglass.experiments.cells import game_seed
from spyglass.experiments.scotlandyard import mrx_spec, seekers_spec
from spyglass.games import registry
from spyglass.games.scotlandyard import kernel as K
from spyglass.games.scotlandyard.belief import propagate
from spyglass.games.scotlandyard.board import N_STATIONS, mask_stations

MRX, SEEKERS = 0, 1
JITTER = 0.01


def station_belief(b) -> dict[int, float]:
    """Mr X's station -> the particles' weight on it (normalised)."""
    w = b.weights / b.weights.sum()
    out: dict[int, float] = {}
    for s, x in zip(b.particles[:, K.MRX_POS].tolist(), w.tolist(), strict=True):
        if x > 0:
            out[int(s)] = out.get(int(s), 0.0) + x
    return out


def trace_game(seed: int, i: int, iterations: int) -> dict:
    """Play game ``i`` of Fig. 7.7's ``inf-trueonly`` cell at ``iterations``; its record."""
    game = registry.make("scotlandyard")
    spec = seekers_spec("inf", iterations)
    seekers = TracedPF(station_belief, **spec_settings(spec))
    truth: list[tuple[int, int, int, int, float]] = []
    start = game.new_state(game_seed(seed, i))
    poss0 = mask_stations(start[K.POSS:K.POSS + K.WORDS])
    phi = np.zeros(N_STATIONS + 1)
    phi[poss0] = 1.0 / len(poss0)  # the thesis's initial belief: uniform over the set
    before = start.copy()

    def watch(actor, action, obs, after) -> None:
        nonlocal phi, before
        phi = propagate(phi, game.view(before, SEEKERS), obs[SEEKERS])
        before = np.array(after)
        pos = int(after[K.MRX_POS])
        truth.append((int(actor), int(after[K.MOVES]), pos,
                      len(mask_stations(after[K.POSS:K.POSS + K.WORDS])), float(phi[pos])))

    # a factory handing over this very instance (an instance given as such is copied)
    traced = AgentSpec(spec, lambda: seekers, spec)
    result = play_match(game, [mrx_spec("trueonly", iterations), traced],
                        seed=game_seed(seed, i), observers=[watch])
    if result.error is not None:
        raise RuntimeError(f"game {i}: {result.error}")
    if len(seekers.trace) != len(truth) + 1:
        raise RuntimeError("the belief trace and the moves do not line up")
    first = 1 / len(poss0) if int(start[K.MRX_POS]) in poss0 else 0.0
    steps = [{"actor": -1, "round": 0, "p_truth": seekers.trace[0].get(int(start[K.MRX_POS]),
                                                                      0.0),
              "p_hard": first, "p_moves": first, "n_poss": len(poss0),
              "support": len(seekers.trace[0])}]
    for (actor, rnd, pos, n_poss, p_moves), b in zip(truth, seekers.trace[1:], strict=True):
        steps.append({"actor": actor, "round": rnd, "p_truth": b.get(pos, 0.0),
                      "p_hard": 1 / n_poss if n_poss else 0.0, "p_moves": p_moves,
                      "n_poss": n_poss, "support": len(b)})
    scores = [int(x) for x in game.win_scores(result.rewards)]
    return {"experiment": "sy_beliefs", "cell": "inf-trueonly", "seed": seed, "i": i,
            "iterations": iterations, "scores": scores, "moves": len(result.actions),
            "winner": "mrx" if scores[MRX] == 1 else "seekers", "steps": steps,
            "belief": seekers.record_extra(), "actions": [a for _s, a in result.actions]}


def timeline(steps: list[dict]) -> np.ndarray:
    """x of each step: 0 at the start; Mr X's ``m``-th move and the detectives' answers
    spread evenly over ``(m - 1, m]``."""
    xs = np.zeros(len(steps))
    by_round: dict[int, list[int]] = {}
    for k, st in enumerate(steps[1:], start=1):
        by_round.setdefault(st["round"], []).append(k)
    for m, ks in by_round.items():
        for j, k in enumerate(ks):
            xs[k] = m - 1 + (j + 1) / len(ks)
    return xs


def _hidden(step: dict) -> bool:
    return step["n_poss"] > 1


def summary(records: list[dict]) -> dict:
    """The numbers the docs quote, per winner and overall, over the steps where Mr X is
    hidden (more than one station possible): the mean belief in the truth and under hard
    constraints only, the share of steps where the inference believes the truth more
    than the constraint set does (and less), the steps where no particle held the truth,
    the per-game gains (:func:`.belief_traces.gain`) of the inference over each reference and of the
    route counting over the constraint set, and the filter's collapses."""
    out = {}
    for who in ("mrx", "seekers", "all"):
        recs = [r for r in records if who in ("all", r["winner"])]
        st = [s for r in recs for s in r["steps"][1:] if s["n_poss"] > 1]
        if not st:
            out[who] = {"games": len(recs), "hidden_steps": 0}
            continue
        pt = np.array([s["p_truth"] for s in st])
        ph = np.array([s["p_hard"] for s in st])
        pm = np.array([s["p_moves"] for s in st])
        out[who] = {"games": len(recs), "hidden_steps": len(st),
                    "mean_p_truth": float(pt.mean()), "mean_p_moves": float(pm.mean()),
                    "mean_p_hard": float(ph.mean()),
                    "above_hard": float((pt > ph + 1e-12).mean()),
                    "below_hard": float((pt < ph - 1e-12).mean()),
                    "truth_missing": int((pt == 0).sum()),
                    "truth_over_hard": gain(recs, "p_truth", "p_hard", _hidden),
                    "truth_over_moves": gain(recs, "p_truth", "p_moves", _hidden),
                    "moves_over_hard": gain(recs, "p_moves", "p_hard", _hidden),
                    "by_phase": _phases(st),
                    "collapses": int(sum(r["belief"]["collapses"] for r in recs))}
    return out


def _phases(steps: list[dict]) -> list[dict]:
    """The three means over the hidden steps of each stretch between surfacings (phase
    ``k``: after ``k`` of Mr X's surfacing moves 3, 8, 13, 18)."""
    out = []
    for k in range(len(K.SURFACING) + 1):
        st = [s for s in steps if sum(s["round"] >= m for m in K.SURFACING) == k]
        if st:
            out.append({"phase": k, "steps": len(st),
                        **{f"mean_{x}": float(np.mean([s[x] for s in st]))
                           for x in ("p_truth", "p_moves", "p_hard")}})
    return out


def plot(records: list[dict], out: Path, seed: int = 0) -> Path:
    """Two panels (Mr X won, seekers won): each game's belief in the truth, the mean per
    round of it, of the uniform-moves propagation's and of the hard-constraint chance
    ``1/|C|``."""
    from matplotlib.figure import Figure

    rng = np.random.default_rng(seed)
    fig = Figure(figsize=(10, 4.2))
    axes = fig.subplots(1, 2, sharey=True)
    top = max((r["steps"][-1]["round"] for r in records), default=1)
    for ax, who, label in ((axes[0], "mrx", "Mr X won"), (axes[1], "seekers", "seekers won")):
        recs = [r for r in records if r["winner"] == who]
        sums = np.zeros((3, top + 1))
        counts = np.zeros(top + 1)
        for r in recs:
            x = timeline(r["steps"])
            p = np.array([s["p_truth"] for s in r["steps"]])
            ax.plot(x, p + rng.uniform(-JITTER, JITTER), lw=0.6, alpha=0.3, color="#224488")
            for s, xi in zip(r["steps"], x, strict=True):
                b = int(np.ceil(xi))
                sums[0, b] += s["p_truth"]
                sums[1, b] += s["p_hard"]
                sums[2, b] += s["p_moves"]
                counts[b] += 1
        seen = counts > 0
        rounds = np.arange(top + 1)[seen]
        ax.plot(rounds, sums[0, seen] / counts[seen], lw=2.2, color="#112266",
                label="inference: mean belief in the true station")
        ax.plot(rounds, sums[2, seen] / counts[seen], lw=1.8, ls=":", color="#227722",
                label="Mr X's moves equally likely (§7.3 propagation): mean")
        ax.plot(rounds, sums[1, seen] / counts[seen], lw=2.2, ls="--", color="#cc6600",
                label="hard constraints only: mean 1/|C|")
        ax.set_title(f"{label} ({len(recs)} games)", fontsize=10)
        ax.set_xlim(0, top)
        ax.set_ylim(-0.03, 1.03)
        ax.set_xlabel("Mr X's move (detectives' answers spread over each)")
        ax.grid(alpha=0.3)
    k = records[0]["iterations"] if records else "?"
    return finish_figure(fig, axes, "seekers' belief in Mr X's true station",
                         f"Scotland Yard: seekers with inference vs Mr X TRUEONLY (K={k})",
                         out)


def main(argv: Sequence[str] | None = None) -> int:
    return traced_main(argv, prog="spyglass experiment scotlandyard-beliefs",
                       description=__doc__.split("\n\n")[0],
                       experiment="sy_beliefs", cell="inf-trueonly", seed=77, trace=trace_game,
                       plot=plot, summary=summary)
