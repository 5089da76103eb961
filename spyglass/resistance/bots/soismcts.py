"""SO-ISMCTS and SO-ISMCTS+POM bots (Whitehouse 2014, §5.2 Algorithms 2-3, §6.3).

Each decision is a search (:class:`~spyglass.search.so_ismcts.ISMCTS`) from the bot's own
decision: spy configurations are sampled from its belief (hard constraints only: a spy
knows them, a resistance member rules out those a mission's fail count contradicts), and
the hidden earlier votes or cards of the current round are played at random per
iteration. Opponents' moves are tree edges by action (``pom=False``) or by what the bot
observes of them (``pom=True``: ``soismcts_pom``).

Parameters: ``iterations`` (default 5 000) or ``seconds`` per decision; ``bandit`` "ucbt"
(default) or "ucb1" with ``c`` (default 0.7); ``exp3`` (EXP3 at vote and card nodes);
``pom``; ``seed`` (default: drawn from the referee's seeded ``self.rng``).
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


@register("soismcts_enum")
class SOISMCTSBot(FamilySearchBot):
    """Single-observer ISMCTS with availability counts; pom=true for SO-ISMCTS+POM."""

    mode = "so"

    def __init__(self, *, iterations: int | None = None, seconds: float | None = None,
                 bandit: str = DEFAULT_BANDIT, c: float = DEFAULT_C, exp3: bool = False,
                 pom: bool | None = None, seed: int | None = None) -> None:
        super().__init__(bandit=bandit, c=c, seed=seed)
        self.iterations, self.seconds = check_budget(iterations, seconds, DEFAULT_ITERATIONS)
        if not isinstance(exp3, bool):
            raise ValueError(f"exp3 must be True or False, not {exp3!r}")
        if pom is not None and not isinstance(pom, bool):
            raise ValueError(f"pom must be True or False, not {pom!r}")
        if pom is not None:
            self.mode = "pom" if pom else "so"
        self.exp3 = exp3
        self.params.update(iterations=self.iterations, seconds=self.seconds, exp3=exp3,
                           pom=self.mode == "pom")

    def setup(self) -> None:
        self.searcher = ISMCTS(run_ismcts, self.n, self.configs.reshape(-1, 1),
                               mode=self.mode, bandit=self.bandit, c=self.c, exp3=self.exp3,
                               max_actions=K.MAX_ACTIONS, max_depth=MAX_DEPTH)

    def _decide(self, root: np.ndarray, pre: int, chain: list[int]) -> int:
        result = self.searcher.search(root, self.weights, self.search_rng, searcher=self.seat,
                                      pre=pre, iterations=self.iterations,
                                      seconds=self.seconds)
        self.last = result
        self.iterations_done += result.iterations
        return result.action_index


@register("soismcts_pom_enum")
class SOISMCTSPOMBot(SOISMCTSBot):
    """SO-ISMCTS+POM: opponents' moves are edges by what this bot observes of them."""

    mode = "pom"
