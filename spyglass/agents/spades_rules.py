"""A rule-based Spades player: the baseline a Spades player would recognise.

Bidding counts likely tricks: aces and kings of the side suits, the A♠/K♠/Q♠, and one
for each spade beyond three (never more than partners may bid together). In play it
saves effort for its side: following, it plays low when its partner is already
winning the trick, otherwise the cheapest card that wins, otherwise its lowest card;
void, it trumps with its lowest spade unless its partner is winning, else discards its
lowest card; leading, it plays its highest side-suit ace or king, else its lowest
card of its longest side suit. It sees only its own view and is deterministic.
"""

from __future__ import annotations

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.games.base import Game
from spyglass.params import Param


def _suit(c: int) -> int:
    return c // 13


def _rank(c: int) -> int:
    return c % 13


def _beats(c: int, best: int) -> bool:
    if _suit(c) == _suit(best):
        return _rank(c) > _rank(best)
    return _suit(c) == 3


@register("spades_rules")
class SpadesRules(Agent):
    """Count-the-tricks bidding, cheapest winning card play (see the module docstring)."""

    plays = ("spades",)

    description = "Spades rules: count tricks to bid, win cheaply, let partner win"
    params = (Param("seed", int, None, "unused (the rules are deterministic)", optional=True),)

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        from spyglass.games.spades import kernel as K
        self.K = K

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        K = self.K
        hand = [c for c in range(52) if (int(view[K.V_HAND]) >> c) & 1]
        if legal[0] >= K.BID:
            spades = [c for c in hand if _suit(c) == 3]
            est = sum(1 for c in hand if _suit(c) < 3 and _rank(c) >= 11)
            est += sum(1 for c in spades if _rank(c) >= 10) + max(0, len(spades) - 3)
            est = max(1, min(est, legal[-1] - K.BID))
            return K.BID + est
        if len(legal) == 1:
            return legal[0]
        n = int(view[K.N_PLAYED])
        if n % 4 == 0:
            high = [c for c in legal if _suit(c) < 3 and _rank(c) >= 11]
            if high:
                return max(high, key=_rank)
            side = [c for c in legal if _suit(c) < 3] or legal
            longest = max(range(4), key=lambda s: sum(1 for c in hand if _suit(c) == s))
            pick = [c for c in side if _suit(c) == longest] or side
            return min(pick, key=_rank)
        leader = int(view[K.LEADER])
        trick = {q: int(view[K.V_TRICK + q]) for q in range(4) if int(view[K.V_TRICK + q]) >= 0}
        order = [(leader + i) % 4 for i in range(len(trick))]
        best_seat = order[0]
        for q in order[1:]:
            if _beats(trick[q], trick[best_seat]):
                best_seat = q
        partner_winning = best_seat == (self.seat + 2) % 4
        lowest = min(legal, key=lambda c: (_suit(c) == 3, _rank(c)))
        if partner_winning:
            return lowest
        winners = [c for c in legal if _beats(c, trick[best_seat])]
        if winners:
            return min(winners, key=lambda c: (_suit(c) == 3, _rank(c)))
        return lowest
