"""Dou Di Zhu: ``333444555666`` can be led under three readings (docs/card-games.md):
a four-trio airplane, or a three-trio airplane with the other end trio's three cards as
solo kickers. Whitehouse 2014, §4.2.1 (Table 4.1's airplane with kickers) and
OpenSpiel's rule that an airplane's solo kickers may share a rank."""

from __future__ import annotations

import numpy as np

from spyglass.games.doudizhu import kernel as K
from spyglass.games.doudizhu.game import action_text


def _lead_state() -> np.ndarray:
    hands = np.zeros((3, K.N_RANKS), dtype=np.int64)
    hands[0, 0:4] = 3  # 333 444 555 666
    hands[0, 6:11] = 1  # 9 T J Q K
    rest = [r for r in range(K.N_RANKS)
            for _ in range((4 if r < 13 else 1) - int(hands[0, r]))]
    kitty = np.zeros(K.N_RANKS, dtype=np.int64)
    for r in (4, 5, 12):
        kitty[r] += 1
        rest.remove(r)
    for i, r in enumerate(rest):
        hands[1 + i % 2, r] += 1
    return K.from_hands(hands, kitty, 0, 0, 0)


def _legal(s: np.ndarray) -> dict[str, int]:
    return {action_text(a): a for a in (K.legal_action(s, i) for i in range(K.n_legal(s)))}


def test_333444555666_has_three_readings():
    s = _lead_state()
    legal = _legal(s)
    assert "333444555666" in legal  # four trios, no kickers
    for base, kicker in (("333444555+sss", "+6"), ("444555666+sss", "+3")):
        t = s.copy()
        K.apply(t, legal[base])
        for _ in range(3):  # the fourth trio's cards as the three solo kickers
            step = _legal(t)
            assert kicker in step, (base, sorted(step))
            K.apply(t, step[kicker])
