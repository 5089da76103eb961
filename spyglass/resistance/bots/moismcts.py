"""MO-ISMCTS bot (Whitehouse 2014, §6.3, Algorithms 4-5): one tree per player.

Each search starts at the beginning of the current round (like ``mtismcts``), so the
earlier movers' hidden votes or cards are chosen by their own trees; the bot's decision
node is reached through its observations of them. Determinizations come from its belief
(hard constraints only).

Parameters: ``iterations`` (default 5 000) or ``seconds``; ``bandit``, ``c``; ``exp3``;
``seed``.
"""

from __future__ import annotations

import numpy as np

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.family_search import run_ismcts
from spyglass.games.resistance.search_kernel import MAX_DEPTH
from spyglass.resistance.bots.registry import register
from spyglass.resistance.bots.search_family import FamilySearchBot, check_budget
from spyglass.search.bandits import DEFAULT_BANDIT, DEFAULT_C
from spyglass.search.so_ismcts import ISMCTS

DEFAULT_ITERATIONS = 5_000


@register("moismcts_enum")
class MOISMCTSBot(FamilySearchBot):
    """Multiple-observer ISMCTS with availability counts (and optional EXP3)."""

    def __init__(self, *, iterations: int | None = None, seconds: float | None = None,
                 bandit: str = DEFAULT_BANDIT, c: float = DEFAULT_C, exp3: bool = False,
                 seed: int | None = None) -> None:
        super().__init__(bandit=bandit, c=c, seed=seed)
        self.iterations, self.seconds = check_budget(iterations, seconds, DEFAULT_ITERATIONS)
        if not isinstance(exp3, bool):
            raise ValueError(f"exp3 must be True or False, not {exp3!r}")
        self.exp3 = exp3
        self.params.update(iterations=self.iterations, seconds=self.seconds, exp3=exp3)

    def setup(self) -> None:
        self.searcher = ISMCTS(run_ismcts, self.n, self.configs.reshape(-1, 1), mode="mo",
                               bandit=self.bandit, c=self.c, exp3=self.exp3,
                               max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH)

    def _decide(self, root: np.ndarray, pre: int, chain: list[int]) -> int:
        result = self.searcher.search(root, self.weights, self.search_rng, searcher=self.seat,
                                      chain=chain, iterations=self.iterations,
                                      seconds=self.seconds)
        self.last = result
        self.iterations_done += result.iterations
        return result.action_index
