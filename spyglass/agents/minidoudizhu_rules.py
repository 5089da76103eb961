"""A rule-based Mini Dou Di Zhu player: the baseline a ladder-game player would recognise.

Answering, it plays the smallest play that beats the one on the table (lowest rank
that works) and keeps four of a kind unless it would go out; it passes when nothing
beats the play. Leading, it plays all its cards of its lowest rank, so that low cards
go first and groups stay together (Whitehouse 2014, §4.2.1 describes the habit for Dou
Di Zhu: keep strong groups for later and lead what opponents must answer). It sees
only its own view and is deterministic.
"""

from __future__ import annotations

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.games.base import Game
from spyglass.params import Param


@register("minidoudizhu_rules")
class MiniDouDiZhuRules(Agent):
    """Smallest beating play, lowest group first (see the module docstring)."""

    plays = ("minidoudizhu",)

    description = "Mini Dou Di Zhu rules: smallest beating play, lead the lowest group"
    params = (Param("seed", int, None, "unused (the rules are deterministic)", optional=True),)

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        from spyglass.games.minidoudizhu import kernel as K
        self.K = K

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        K = self.K
        hand = [int(view[K.V_HAND + r]) for r in range(K.N_RANKS)]
        plays = [a for a in legal if a != K.PASS]
        if not plays:
            return K.PASS
        left = sum(hand)
        for a in plays:  # going out wins at once
            if a // K.N_RANKS + 1 == left:
                return a
        if int(view[K.V_LAST_SIZE]) == 0:
            low = min(r for r in range(K.N_RANKS) if hand[r])
            return (hand[low] - 1) * K.N_RANKS + low
        keep = [a for a in plays if a // K.N_RANKS + 1 < 4 or int(view[K.V_LAST_SIZE]) == 4]
        if not keep:
            return K.PASS
        return min(keep, key=lambda a: a % K.N_RANKS)
