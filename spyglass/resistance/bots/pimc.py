"""Determinized UCT / PIMC bot (Whitehouse 2014, §3.3, §5.1): ``d`` determinizations × ``s``
iterations of perfect-information UCT, majority vote over the trees' best moves.

A determinization is a spy configuration drawn from the bot's belief (hard constraints
only) together with random hidden earlier moves of the current round. Every move is
visible inside each UCT tree (the known weaknesses of PIMC: strategy fusion and
non-locality, Whitehouse 2014, §5.1).

Parameters: ``d`` (default 10), ``s`` iterations per determinization (default 500),
``bandit``, ``c``, ``seed``.
"""

from __future__ import annotations

import numpy as np

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.family_search import advance_random, run_pimc
from spyglass.games.resistance.search_kernel import MAX_DEPTH
from spyglass.resistance.bots.registry import register
from spyglass.resistance.bots.search_family import FamilySearchBot, check_positive_int
from spyglass.search.bandits import DEFAULT_BANDIT, DEFAULT_C
from spyglass.search.pimc import PIMC, PIMCResult
from spyglass.search.sampled.forest import pick_particle as sample_index


def determinizations(root: np.ndarray, configs: np.ndarray, weights: np.ndarray, d: int,
                     pre: int, rng: np.ndarray) -> list[np.ndarray]:
    """``d`` full states: configurations drawn from ``weights``, then ``pre`` random moves."""
    cum = np.cumsum(np.asarray(weights, dtype=np.float64))
    states = []
    for _ in range(d):
        s = root.copy()
        s[K.SPIES] = configs[sample_index(cum, rng)]
        advance_random(s, pre, rng)
        states.append(s)
    return states


@register("pimc_enum")
class PIMCBot(FamilySearchBot):
    """Determinized UCT: an ensemble of perfect-information UCT trees votes."""

    survival_params = {"d": 2, "s": 20}
    runner = staticmethod(run_pimc)

    def __init__(self, *, d: int = 10, s: int = 500, bandit: str = DEFAULT_BANDIT,
                 c: float = DEFAULT_C, seed: int | None = None) -> None:
        super().__init__(bandit=bandit, c=c, seed=seed)
        self.d = check_positive_int("d", d)
        self.s = check_positive_int("s", s)
        self.params.update(d=d, s=s)

    def setup(self) -> None:
        self.searcher = PIMC(type(self).runner, bandit=self.bandit, c=self.c,
                             max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH,
                             binary_rewards=True)  # 0/1 rewards: 20-byte nodes

    def belief_weights(self) -> np.ndarray:
        """The weights determinizations are drawn from."""
        return self.weights

    def _decide(self, root: np.ndarray, pre: int, chain: list[int]) -> int:
        states = determinizations(root, self.configs, self.belief_weights(), self.d, pre,
                                  self.search_rng)
        result = self.run_search(states)
        self.last: PIMCResult = result
        self.iterations_done += result.iterations
        return result.action_index

    def run_search(self, states: list[np.ndarray]) -> PIMCResult:
        return self.searcher.search(states, self.search_rng, iterations=self.s)
