"""Repaired particles are importance-weighted: checked against an exact posterior.

A tiny Cheat position (the seat's cards and pile hold all but seven cards: three aces,
two 2s and two 3s unseen, three in the opponent's hand and four in the deck) where the
seat takes a card and sees a 2. The posterior over the opponent's hand is
``P(H) * D_2(H) / 4`` (``P`` the uniform deal, ``D_2`` the 2s left in the deck), computed
by enumeration. The particle filter starts from uniform particles; every particle whose
deck has no 2 on top is repaired (a 2 put on top, or, when the opponent holds both 2s,
one swapped into the deck). Averaged over seeded runs, the weighted particle histogram
of the opponent's hand must match the exact posterior (total variation bound), and the
old rule (a repaired particle keeps its weight) must not: the test can fail.
"""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from spyglass.games import registry
from spyglass.games.cheat import kernel as K
from spyglass.games.cheat.repair import repair
from spyglass.rng import make_rng
from spyglass.search.particles import ParticleFilter

UNSEEN = {0: 3, 1: 2, 2: 2}  # rank -> unseen cards (opponent's hand + deck)
OPP_HAND = 3
DECK = [0, 0, 2, 1]  # the true deck, top last: the seat draws a 2 (rank 1)


def _position(g) -> np.ndarray:
    s = g.new_state(0).copy()
    s[:K.DECK + 52] = 0
    s[K.STARTER] = 12
    s[K.HAND + 12] = 1  # the seat holds one king; its other cards are on the pile
    for r in range(13):
        s[K.PBY + r] = 4 - UNSEEN.get(r, 0)
    s[K.PBY + 12] = 2
    for r in range(3):
        s[K.HAND + 13 + r] = 1
    for i, c in enumerate(DECK):
        s[K.DECK + i] = c
    s[K.DECK_N] = len(DECK)
    s[K.TO_MOVE] = 0
    s[K.LAST_BY], s[K.LAST_K], s[K.LASTC + 5], s[K.REF] = 0, 1, 1, 5
    s[K.PREV_KIND], s[K.ROUND], s[K.CLAIMED] = K.K_TAKE, 10, 1 << 5
    s[K.RESULT] = K.PLAYING
    return s


def _exact(r: int) -> dict[tuple, float]:
    post = {}
    for h in itertools.product(*(range(UNSEEN[t] + 1) for t in range(3))):
        if sum(h) == OPP_HAND:
            prior = math.prod(math.comb(UNSEEN[t], h[t]) for t in range(3))
            post[h] = prior * (UNSEEN[r] - h[r]) / len(DECK)
    z = sum(post.values())
    return {h: v / z for h, v in post.items()}


def _histogram(weighted: bool, seeds: range, n: int = 32) -> dict[tuple, float]:
    g = registry.make("cheat")
    s0 = _position(g)
    r = DECK[-1]
    hist = dict.fromkeys(_exact(r), 0.0)
    for seed in seeds:
        pf = ParticleFilter(g.kernel, g.state_size, g.view_size, 0, n, make_rng(seed),
                            None, resample_below=0.0, fresh=0.0, repair=repair,
                            repair_weights=weighted)
        s = s0.copy()
        pf.reset(g.view(s, 0))
        g.kernel.apply(s, K.TAKE)
        pf.update(K.OBS_TAKE_OWN + r, 0, g.view(s, 0))
        assert pf.collapses == 0 and pf.resamples == 0 and pf.repairs > 0
        for i in range(n):
            h = tuple(int(pf.particles[i, K.HAND + 13 + t]) for t in range(3))
            hist[h] += pf.weights[i] / len(seeds)
    return hist


def _tv(p: dict, q: dict) -> float:
    return 0.5 * sum(abs(p[k] - q[k]) for k in p)


def test_weighted_repair_matches_the_exact_posterior_of_a_tiny_cheat_deal():
    exact = _exact(DECK[-1])
    seeds = range(120)
    # 120 x 32 weighted particles: the Monte Carlo TV error here is about 0.015
    assert _tv(_histogram(True, seeds), exact) < 0.045
    assert _tv(_histogram(False, seeds), exact) > 0.12  # the old, unweighted repair


@pytest.mark.slow
def test_weighted_repair_matches_the_exact_posterior_many_seeds():
    exact = _exact(DECK[-1])
    assert _tv(_histogram(True, range(1000, 2500)), exact) < 0.012
