"""The uniform random agent: the baseline every search agent must beat."""

from __future__ import annotations

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.games.base import Game
from spyglass.params import Param
from spyglass.rng import make_rng, rand_below


@register("random")
class RandomAgent(Agent):
    """Plays a uniformly random legal action (seeded: same seed, same choices)."""

    description = "uniformly random legal moves"
    params = (Param("seed", int, None, "fixed seed (default: the game's seed for this seat)",
                    optional=True),)

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        fixed = self.settings["seed"]
        self.rng = make_rng(seed if fixed is None else fixed)

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        return int(legal[rand_below(self.rng, len(legal))])
