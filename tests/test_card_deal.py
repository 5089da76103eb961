"""The card games' shared constrained deal (spyglass.games.cards.deal): exactly uniform
over the deals that respect each player's allowed cards, by proposals or by counting."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from spyglass.games.cards.deal import choose_subset, deal_exact, deal_three, nth_bit
from spyglass.rng import make_rng

CLUBS, DIAMONDS, HEARTS = 0x1111111111111, 0x1111111111111 << 1, 0x1111111111111 << 2
GROUPS = np.array([CLUBS, DIAMONDS, HEARTS, 0x1111111111111 << 3], dtype=np.int64)
ALL = (1 << 52) - 1


def mask(cards) -> int:
    return sum(1 << c for c in cards)


CARDS = [0, 4, 1, 5, 2, 6]  # 2♣ 3♣ 2♦ 3♦ 2♥ 3♥ (Hearts' numbering: rank * 4 + suit)
ALLOWED = (ALL & ~HEARTS, ALL, ALL & ~CLUBS)


def valid_deals() -> set[tuple[int, int, int]]:
    out = set()
    for a in itertools.combinations(CARDS, 2):
        rest = [c for c in CARDS if c not in a]
        for b in itertools.combinations(rest, 2):
            c = [x for x in rest if x not in b]
            hands = (mask(a), mask(b), mask(c))
            if all(h & ~al == 0 for h, al in zip(hands, ALLOWED, strict=True)):
                out.add(hands)
    return out


@pytest.mark.parametrize("tries", [0, 1, 24])
def test_deal_is_uniform_over_the_consistent_deals(tries):
    """0 tries: always by counting; 1: mostly; 24: mostly by proposals. Each deal's
    frequency within 5 sigma of uniform, and only consistent deals drawn."""
    valid = valid_deals()
    rng = make_rng(tries + 1)
    counts: dict[tuple, int] = {}
    n = 12_000
    for _ in range(n):
        if tries == 0:
            ok, *hands = deal_exact(mask(CARDS), 2, 2, 2, *ALLOWED, GROUPS, rng)
        else:
            ok, *hands = deal_three(mask(CARDS), 2, 2, 2, *ALLOWED, GROUPS, tries, rng)
        assert ok
        key = tuple(int(h) for h in hands)
        assert key in valid
        counts[key] = counts.get(key, 0) + 1
    assert len(counts) == len(valid)
    expect = n / len(valid)
    assert all(abs(v - expect) < 5 * np.sqrt(expect) for v in counts.values())


def test_an_impossible_deal_is_refused():
    # Nobody may hold hearts, and two hearts are unseen.
    no_hearts = ALL & ~HEARTS
    assert not deal_three(mask(CARDS), 2, 2, 2, no_hearts, no_hearts, no_hearts, GROUPS, 4,
                          make_rng(0))[0]


def test_subset_and_nth_bit():
    rng = make_rng(3)
    pool = mask([1, 7, 9, 20, 33, 51])
    for k in range(7):
        sub = int(choose_subset(pool, k, rng))
        assert sub & ~pool == 0 and bin(sub).count("1") == k
    assert [int(nth_bit(pool, i)) for i in range(6)] == [1, 7, 9, 20, 33, 51]
