"""A rule-based Hearts player, the baseline a card player would recognise.

Search needs something better than random play to beat. These are the common
habits of Hearts players: pass Q♠ and the A♠/K♠ that attract it
when spades are short, then high hearts, then the high cards of a short suit to void
it; when following, play the highest card that still loses the trick ("dump the highest
safe card"), and win with the highest card when winning is forced or the trick is
last and pointless; when void, discard Q♠, then high hearts, then the highest card of
the shortest suit; lead low, from a suit that is not hearts, and lead spades to flush
Q♠ only without holding it or A♠/K♠. It sees only its own view.
"""

from __future__ import annotations

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.games.base import Game
from spyglass.params import Param

QS, KS, AS = 43, 47, 51
HEARTS, SPADES = 2, 3


def _cards(mask: int) -> list[int]:
    return [c for c in range(52) if (mask >> c) & 1]


def _rank(c: int) -> int:
    return c >> 2


def _suit(c: int) -> int:
    return c & 3


@register("hearts_rules")
class HeartsRules(Agent):
    """Rule-based Hearts (see the module docstring); deterministic given the view."""

    plays = ("hearts",)

    description = "Hearts rules: pass danger cards, dump highest safe card, void suits"
    params = (Param("seed", int, None, "unused (the rules are deterministic)", optional=True),)

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        from spyglass.games.hearts import kernel as K
        self.K = K

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        K = self.K
        hand = _cards(int(view[K.V_HAND]))
        if int(view[K.PHASE]) == K.PASSING:
            return max(legal, key=lambda c: self._pass_danger(c, hand))
        if len(legal) == 1:
            return legal[0]
        played = 0
        for p in range(4):
            played |= int(view[K.V_PLAYED + p])
        qs_out = not (played >> QS) & 1 and QS not in hand
        n = int(view[K.N_PLAYED])
        if n % 4 == 0:
            return self._lead(legal, hand, qs_out)
        leader = int(view[K.LEADER])
        trick = [int(view[K.V_TRICK + p]) for p in range(4)]
        led = _suit(trick[leader])
        on = [c for c in trick if c >= 0]
        best = max(_rank(c) for c in on if _suit(c) == led)
        points = any(_suit(c) == HEARTS or c == QS for c in on)
        last = len(on) == 3
        if _suit(legal[0]) == led:
            under = [c for c in legal if _rank(c) < best]
            if QS in under:
                return QS
            if under:
                return max(under, key=_rank)
            if last and not points and QS in legal and len(legal) > 1:
                return max((c for c in legal if c != QS), key=_rank)
            if last and not points:
                return max(legal, key=_rank)
            safe = [c for c in legal if c != QS] or legal
            return min(safe, key=_rank)
        return self._discard(legal, hand, qs_out)

    @staticmethod
    def _pass_danger(c: int, hand: list[int]) -> float:
        spades = sum(1 for x in hand if _suit(x) == SPADES)
        length = sum(1 for x in hand if _suit(x) == _suit(c))
        if c == QS:
            return 100 if spades < 5 else 20
        if c in (AS, KS):
            return 80 if spades < 5 else 5
        if _suit(c) == HEARTS:
            return 30 + _rank(c)
        return _rank(c) + max(0, 4 - length) * 5

    @staticmethod
    def _lead(legal: list[int], hand: list[int], qs_out: bool) -> int:
        def cost(c: int) -> float:
            x = _rank(c)
            if _suit(c) == HEARTS:
                x += 20
            if _suit(c) == SPADES:
                if QS in hand or AS in hand or KS in hand:
                    x += 30
                elif qs_out:
                    x -= 3  # flush Q♠ out with a low spade
            return x
        return min(legal, key=cost)

    @staticmethod
    def _discard(legal: list[int], hand: list[int], qs_out: bool) -> int:
        if QS in legal:
            return QS
        if qs_out:
            for c in (AS, KS):
                if c in legal:
                    return c
        hearts = [c for c in legal if _suit(c) == HEARTS]
        if hearts:
            return max(hearts, key=_rank)

        def key(c: int) -> tuple:
            length = sum(1 for x in hand if _suit(x) == _suit(c))
            return (_rank(c) >= 9, -length, _rank(c))
        return max(legal, key=key)
