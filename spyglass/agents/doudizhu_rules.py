"""A rule-based Dou Di Zhu player: the habits of a club player, as a baseline for search.

Leading, it sheds its lowest group whole (the longest move whose lowest rank is its
lowest rank and that takes every card it holds of each rank it uses: a chain, an
airplane, a trio with the lowest spare card as kicker, a pair, a single), never leading
a bomb or the rocket while anything else is left. Following, it plays the smallest move
that beats the table without breaking a larger group (then the smallest that beats it at
all), keeping bombs and the rocket for when an opponent is down to a few cards or it can
go out. A peasant does not beat its partner. Kickers are its lowest spare cards (ranks
it holds alone for solos, as pairs for pairs). In the auction it bids by counting high
cards (2s, jokers, bombs, aces). It sees only its own view and is deterministic.
Whitehouse 2014, §4.2.1 describes these habits: keep strong groups for later, and lead
what opponents must answer.
"""

from __future__ import annotations

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.games.base import Game
from spyglass.params import Param

#: An opponent holding this many cards or fewer is "about to go out".
DANGER = 4


@register("doudizhu_rules")
class DouDiZhuRules(Agent):
    """Shed the lowest group, beat cheaply, keep bombs (see the module docstring)."""

    plays = ("doudizhu",)

    description = "Dou Di Zhu rules: lead the lowest group, beat cheaply, keep bombs"
    params = (Param("seed", int, None, "unused (the rules are deterministic)", optional=True),)

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        from spyglass.games.doudizhu import kernel as K
        from spyglass.games.doudizhu import tables as T
        self.K, self.T = K, T

    # --- helpers ----------------------------------------------------------------------

    def _size(self, a: int) -> int:
        """Cards a complete move of base ``a`` puts down (kickers included)."""
        T = self.T
        n = len(T.action_cards(a))
        k = int(T.A_NK[a])
        return n + k * (2 if T.A_KKIND[a] == T.K_PAIR else 1)

    def _breaks(self, a: int, hand: list[int]) -> bool:
        """Base ``a`` leaves part of a group behind (or splits a bomb or the rocket)."""
        T = self.T
        if T.A_CAT[a] == T.ROCKET:
            return False
        cards = T.action_cards(a)
        if T.A_CAT[a] == T.SOLO and cards[0] >= T.BLACK_JOKER:
            return hand[T.BLACK_JOKER] and hand[T.RED_JOKER]
        return any(hand[r] != cards.count(r) for r in set(cards))

    def _is_bomb(self, a: int) -> bool:
        return int(self.T.A_CAT[a]) in (self.T.BOMB, self.T.ROCKET)

    # --- the policy -------------------------------------------------------------------

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        K, T = self.K, self.T
        if len(legal) == 1:
            return legal[0]
        hand = [int(view[K.V_HAND + r]) for r in range(T.N_RANKS)]
        if int(view[K.PHASE]) == K.BIDDING:
            return self._bid(hand, legal)
        if int(view[K.K_LEFT]) > 0:
            return self._kicker(hand, legal)
        left = sum(hand)
        plays = [a for a in legal if a != T.PASS]
        out = [a for a in plays if self._size(a) == left]
        if out:
            return out[0]
        lord = int(view[K.LANDLORD])
        me = self.seat
        opponents = [p for p in range(3) if p != me and (me == lord or p == lord)]
        danger = min(int(view[K.V_SIZE + p]) for p in opponents) <= DANGER
        if int(view[K.LAST_ACTION]) < 0:
            return self._lead(hand, plays)
        last_player = int(view[K.LAST_PLAYER])
        if me != lord and last_player != lord:
            return T.PASS  # the partner holds the round
        normal = [a for a in plays if not self._is_bomb(a)]
        whole = [a for a in normal if not self._breaks(a, hand)]
        for group in (whole, normal):
            if group:
                return min(group, key=lambda a: (int(T.A_HEAD[a]), a))
        bombs = [a for a in plays if self._is_bomb(a)]
        if bombs and danger:
            return bombs[0]
        return T.PASS

    def _lead(self, hand: list[int], plays: list[int]) -> int:
        T = self.T
        normal = [a for a in plays if not self._is_bomb(a)]
        if not normal:
            return plays[0]
        whole = [a for a in normal if not self._breaks(a, hand)] or normal
        low = min(int(T.A_HEAD[a]) for a in whole)
        first = [a for a in whole if int(T.A_HEAD[a]) == low]
        return max(first, key=lambda a: (self._size(a), -a))

    def _kicker(self, hand: list[int], legal: list[int]) -> int:
        T = self.T

        def spare(a: int) -> tuple[int, int]:
            r = (a - T.KICK_PAIR0) if a >= T.KICK_PAIR0 else (a - T.KICK_SOLO0)
            want = 2 if a >= T.KICK_PAIR0 else 1
            return (0 if hand[r] == want else 1, r)

        return min(legal, key=spare)

    def _bid(self, hand: list[int], legal: list[int]) -> int:
        T = self.T
        strength = (hand[T.TWO] + 1.5 * (hand[T.BLACK_JOKER] + hand[T.RED_JOKER])
                    + 0.5 * hand[T.TWO - 1] + 2 * sum(1 for r in range(13) if hand[r] == 4))
        want = 3 if strength >= 7 else 2 if strength >= 5.5 else 1 if strength >= 4 else 0
        bids = [a for a in legal if a != T.PASS and a - T.BID1 + 1 <= want]
        return bids[-1] if bids else T.PASS
