"""Marsh's SearchAgent (Marsh, §4.2): MCTS with a Bayesian opponent model in its playouts.

Plain (perfect-information) UCT, but the playouts are not uniform: spies' moves are, while
resistance members' moves are weighted by a lightweight Bayesian suspicion model
(:func:`~spyglass.resistance.bots.marsh_model.weighted_playout`): leaders rank teams
by total suspicion and weight them linearly by rank, voters approve with the probability
that the team is clean. The model is a belief over spy configurations, updated by Bayes'
rule after every mission with BayesAgent's betrayal probabilities
(:data:`spyglass.resistance.bots.bayesagent.BETRAY_BY_MISSION`); the real game's missions update the
belief the search starts from, and simulated missions update it inside each playout.

As a spy (Marsh's main use: the spy knows the state) every tree is the true deal. As a
resistance member — Marsh does not describe one — the trees are deals drawn from the
agent's own view of the same model (configurations without itself), a choice made here.
By default the agent is Marsh's (Marsh, "Resistance AI", §4.2): one search tree
(``d=1``) with the whole budget ``iterations`` (default 2 000), selecting by UCB1 with c = √2
(``bandit="ucb1"``, ``c=math.sqrt(2)``). Spyglass's earlier variant remains an option:
``searchagent:d=4,bandit=ucbt`` splits the budget over four trees, which differ in the
round's hidden earlier votes or cards drawn at random, selects by UCB-Tuned, and lets
the trees' most visited moves vote (as ``pimc``). Marsh's agent searched ~1 s per move;
here the budget is iterations, so games replay exactly.
"""

from __future__ import annotations

import math

import numpy as np

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.tables import seats_to_mask
from spyglass.resistance.bots.marsh_model import (
    betrayal,
    mission_update,
    run_searchagent,
    suspicion_of,
)
from spyglass.resistance.bots.pimc import PIMCBot, determinizations
from spyglass.resistance.bots.registry import register
from spyglass.resistance.bots.search_family import check_positive_int
from spyglass.search.pimc import PIMCResult

DEFAULT_ITERATIONS = 2_000
#: Marsh's search (Marsh, "Resistance AI", §4.2): one tree, UCB1 with c = √2.
MARSH_TREES = 1
MARSH_BANDIT = "ucb1"
MARSH_C = math.sqrt(2.0)


@register("searchagent")
class SearchAgent(PIMCBot):
    """UCT with suspicion-weighted playouts (spy: true deal; resistance: model deals).

    Defaults are Marsh's: one tree, UCB1, c = √2; ``d=4,bandit=ucbt`` gives the
    four-tree UCB-Tuned vote.
    """

    survival_params = {"iterations": 40, "d": 2}
    runner = staticmethod(run_searchagent)

    def __init__(self, *, iterations: int = DEFAULT_ITERATIONS, d: int = MARSH_TREES,
                 bandit: str = MARSH_BANDIT, c: float = MARSH_C,
                 seed: int | None = None) -> None:
        check_positive_int("iterations", iterations)
        check_positive_int("d", d)
        super().__init__(d=d, s=max(1, iterations // d), bandit=bandit, c=c, seed=seed)
        self.iterations = iterations
        self.params = {"iterations": iterations, "d": d, "bandit": self.bandit, "c": self.c,
                       "seed": seed}

    def setup(self) -> None:
        super().setup()
        self.model = np.full(len(self.configs), 1.0 / len(self.configs))

    def observe_mission(self, team: int, fails: int) -> None:
        super().observe_mission(team, fails)
        s = self.track.s
        beta = betrayal(int(s[K.MISSION]), int(s[K.SPY_WINS]))
        mission_update(self.configs, self.model, team, fails, beta)

    def belief_weights(self) -> np.ndarray:
        if self.spy:
            return (self.configs == seats_to_mask(self.spies)).astype(np.float64)
        w = self.model * self.weights
        return w if w.sum() > 0 else self.weights

    def run_search(self, states: list[np.ndarray]) -> PIMCResult:
        return self.searcher.search(states, self.search_rng, iterations=self.s,
                                    cfg=self.configs, w=self.model)

    def suspicion(self) -> dict[int, float]:
        out = np.zeros(self.n)
        suspicion_of(self.configs, self.model * (self.weights > 0), self.seat, self.n, out)
        return {p: float(out[p]) for p in self.others()}


__all__ = ["SearchAgent", "determinizations"]
