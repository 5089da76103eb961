"""Whitehouse 2014, Fig. 7.8 on Saboteur: the inference player's belief in the true
saboteur configuration over each game, games won by the gold-diggers on the left and by
the saboteurs on the right.

"Examining plots of the inferred probability for the actual saboteur identities (Figure
7.8 ...), it can be seen that inference does often produce a bias towards the correct
configuration but that the effect is modest" (§7.5.5). The games are the ``inference``
cell of :mod:`spyglass.experiments.saboteur` (one ``mtismcts_pf`` player and four
without inference, the tested seat drawn per game), game ``i`` played with the cells'
seed and seat shift, so with the same seed and budget they are the very games of that
run. After the start and every move the inference player observes, the weight its
particles put on the true role assignment is recorded (``p_truth``), beside its chance
under the deal alone (``p_prior``: every assignment its own role card leaves possible is
equally likely, :func:`spyglass.games.saboteur.roles.role_chances`; 1/10 for a digger
and 1/5 for a saboteur at five players). Time runs from the start (0) to the end (1) of
each game, as in the thesis's figure.

Commands::

    spyglass experiment saboteur-beliefs run --games 80 --iterations 500 --seed 55 \\
        --out docs/figures/saboteur_beliefs_k500.jsonl
    spyglass experiment saboteur-beliefs plot docs/figures/saboteur_beliefs_k500.jsonl \\
        --out docs/figures/saboteur_beliefs_k500.png
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from spyglass.arena.agent_spec import AgentSpec
from spyglass.arena.match import play_match
from spyglass.experiments.belief_traces import TracedPF, finish_figure, gain, spec_settings
from spyglass.experiments.belief_traces import main as traced_main
from spyglass.experiments.cells import game_seed, seat_shift
from spyglass.experiments.saboteur import PLAYERS, TESTED, inference_spec, plain_spec
from spyglass.games import registry
from spyglass.games.saboteur import kernel as K
from spyglass.games.saboteur.roles import role_chances

BINS = 10
JITTER = 0.004


def trace_game(seed: int, i: int, iterations: int) -> dict:
    """Play game ``i`` of the ``inference`` cell at ``iterations``; its record."""
    game = registry.make("saboteur", PLAYERS)
    n = PLAYERS
    shift = seat_shift(seed, i, n)
    seat = (TESTED + shift) % n
    start = game.new_state(game_seed(seed, i))
    truth = np.array(start[K.ROLE:K.ROLE + n])

    def truth_weight(b) -> float:
        w = b.weights / b.weights.sum()
        hit = (b.particles[:, K.ROLE:K.ROLE + n] == truth).all(axis=1)
        return float(w[hit].sum())

    spec = inference_spec(iterations)
    agent = TracedPF(truth_weight, **spec_settings(spec))
    seats: list = [plain_spec(iterations)] * n
    # a factory handing over this very instance (an instance given as such is copied)
    seats[seat] = AgentSpec(spec, lambda: agent, spec)
    result = play_match(game, seats, seed=game_seed(seed, i))
    if result.error is not None:
        raise RuntimeError(f"game {i}: {result.error}")
    prior = 1 / len(role_chances(n, seat, int(truth[seat])))
    scores = [int(x) for x in game.win_scores(result.rewards)]
    diggers_won = int(result.state[K.RESULT]) == K.DIGGERS_WIN
    return {"experiment": "sab_beliefs", "cell": "inference", "seed": seed, "i": i,
            "shift": shift, "iterations": iterations, "scores": scores,
            "moves": len(result.actions), "seat": seat,
            "role": "saboteur" if truth[seat] else "gold-digger",
            "saboteurs": [int(q) for q in np.flatnonzero(truth)],
            "winner": "diggers" if diggers_won else "saboteurs",
            "steps": [{"p_truth": p, "p_prior": prior} for p in agent.trace],
            "belief": agent.record_extra()}


def times(steps: list[dict]) -> np.ndarray:
    """Each step's time, 0 at the start and 1 at the end of its game."""
    return np.linspace(0.0, 1.0, len(steps))


def summary(records: list[dict]) -> dict:
    """Per winner and overall: the mean belief in the truth and the prior over every
    step after the start and at the end; the per-game gain of the belief over the prior
    (:func:`.belief_traces.gain`), also by the inference player's role; the filter's
    collapses."""
    out = {}
    for who in ("diggers", "saboteurs", "all"):
        recs = [r for r in records if who in ("all", r["winner"])]
        if not recs:
            out[who] = {"games": 0}
            continue
        st = [s for r in recs for s in r["steps"][1:]]
        out[who] = {"games": len(recs), "steps": len(st),
                    "mean_p_truth": float(np.mean([s["p_truth"] for s in st])),
                    "mean_p_prior": float(np.mean([s["p_prior"] for s in st])),
                    "final_p_truth": float(np.mean([r["steps"][-1]["p_truth"] for r in recs])),
                    "final_above_prior": int(sum(r["steps"][-1]["p_truth"]
                                                 > r["steps"][-1]["p_prior"] for r in recs)),
                    "truth_over_prior": gain(recs, "p_truth", "p_prior"),
                    "by_role": {role: gain([r for r in recs if r["role"] == role],
                                           "p_truth", "p_prior")
                                for role in ("gold-digger", "saboteur")},
                    "collapses": int(sum(r["belief"]["collapses"] for r in recs))}
    return out


def plot(records: list[dict], out: Path, seed: int = 0) -> Path:
    """Two panels (gold-diggers won, saboteurs won): each game's belief in the true
    configuration over normalised time, and the means of it and of the prior per tenth
    of the game."""
    from matplotlib.figure import Figure

    rng = np.random.default_rng(seed)
    fig = Figure(figsize=(10, 4.2))
    axes = fig.subplots(1, 2, sharey=True)
    for ax, who, label in ((axes[0], "diggers", "gold-diggers won"),
                           (axes[1], "saboteurs", "saboteurs won")):
        recs = [r for r in records if r["winner"] == who]
        sums, counts = np.zeros((2, BINS)), np.zeros(BINS)
        for r in recs:
            x = times(r["steps"])
            p = np.array([s["p_truth"] for s in r["steps"]])
            ax.plot(x, p + rng.uniform(-JITTER, JITTER), lw=0.6, alpha=0.3, color="#224488")
            b = np.minimum((x * BINS).astype(int), BINS - 1)
            np.add.at(sums[0], b, p)
            np.add.at(sums[1], b, [s["p_prior"] for s in r["steps"]])
            np.add.at(counts, b, 1)
        seen = counts > 0
        mid = (np.arange(BINS) + 0.5) / BINS
        ax.plot(mid[seen], sums[0, seen] / counts[seen], lw=2.2, color="#112266",
                label="inference: mean belief in the true configuration")
        ax.plot(mid[seen], sums[1, seen] / counts[seen], lw=2.2, ls="--", color="#cc6600",
                label="the deal alone (prior): mean")
        ax.set_title(f"{label} ({len(recs)} games)", fontsize=10)
        ax.set_xlim(0, 1)
        ax.set_xlabel("time (start to end of the game)")
        ax.grid(alpha=0.3)
    k = records[0]["iterations"] if records else "?"
    return finish_figure(fig, axes, "belief in the true saboteur configuration",
                         f"Saboteur: one inference player against four without (K={k})", out)


def main(argv: Sequence[str] | None = None) -> int:
    return traced_main(argv, prog="spyglass experiment saboteur-beliefs",
                       description=__doc__.split("\n\n")[0],
                       experiment="sab_beliefs", cell="inference", seed=55, trace=trace_game,
                       plot=plot, summary=summary)
