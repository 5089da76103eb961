"""Spades rules, scoring and players (Whitehouse 2014, §4.2.4)."""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.arena.match import play_match
from spyglass.games.spades import kernel as K
from spyglass.games.spades.game import Spades, card_text
from spyglass.rng import make_rng


def scored(bids, tricks, bags=(0, 0), score=(0, 0), flags=0) -> np.ndarray:
    s = K.new_state(make_rng(0), flags, 0)
    for p in range(4):
        s[K.BIDS + p] = bids[p]
        s[K.TRICKS + p] = tricks[p]
    for k in range(2):
        s[K.BAGS + k] = bags[k]
        s[K.SCORE + k] = score[k]
    K._end_round(s)
    return s


def test_scoring_contracts_bags_and_nil():
    s = scored([3, 2, 4, 3], [4, 2, 4, 3])  # N-S bid 7 took 8; E-W bid 5 took 5
    assert (s[K.SCORE], s[K.SCORE + 1]) == (71, 50) and s[K.BAGS] == 1
    s = scored([3, 2, 4, 3], [2, 4, 3, 4])  # N-S bid 7 took 5: set
    assert s[K.SCORE] == -70
    s = scored([0, 2, 4, 3], [0, 4, 5, 4])  # North's nil made (+100), N-S 4 bid 5 taken
    assert s[K.SCORE] == 100 + 40 + 1
    s = scored([0, 2, 4, 3], [1, 4, 4, 4])  # nil failed: -100, N-S took 5 of 4
    assert s[K.SCORE] == -100 + 40 + 1
    s = scored([3, 2, 3, 3], [5, 2, 4, 2], bags=(8, 0))  # 3 bags more: 11 -> -100, 1 left
    assert s[K.SCORE] == 60 + 3 - 100 and s[K.BAGS] == 1


def test_round_value_is_equation_4_1():
    s = scored([3, 2, 4, 3], [4, 2, 4, 3], flags=K.F_ROUND_VALUE)
    v = ((71 - 10 * 1) - (50 - 0)) / 200
    assert K.reward(s, 0) == pytest.approx((1 + v) / 2)
    assert K.reward(s, 1) == pytest.approx((1 - v) / 2)


def test_spades_trump_and_follow_suit():
    g = Spades(target=0)
    for seed in range(30):
        s = g.new_state(seed)
        rng = make_rng(seed)
        while not K.is_terminal(s):
            legal = g.legal_actions(s)
            if s[K.PHASE] == K.BIDDING:
                p = K.actor(s)
                partner = int(s[K.BIDS + (p + 2) % 4])
                assert legal[-1] - K.BID == (13 - partner if partner >= 0 else 13)
            elif s[K.N_PLAYED] % 4 == 3:
                a = legal[int(K._rand_small(rng, len(legal)))]
                t = s.copy()
                K.apply(t, a)
                cards = [int(t[K.TRICK + q]) for q in range(4)]
                spades = [c for c in cards if c // 13 == 3]
                led = cards[int(s[K.LEADER])] // 13
                best = max(spades) if spades else max(c for c in cards if c // 13 == led)
                assert int(t[K.LEADER]) == cards.index(best), card_text(best)
                s = t
                continue
            K.apply(s, legal[int(K._rand_small(rng, len(legal)))])


def test_game_to_target_and_words():
    g = Spades()
    for seed in range(20):
        s = g.new_state(seed)
        K.playout(s, make_rng(seed))
        ns, ew = g.scores(s)
        assert max(ns, ew) > 500 or min(ns, ew) < K.MERCY_THRESHOLD or \
            s[K.ROUND_NO] >= K.MAX_ROUNDS
    s = g.new_state(0)
    legal = g.legal_actions(s)
    assert g.parse_action("nil", legal) == K.BID
    assert g.parse_action("bid 4", legal) == K.BID + 4


def test_search_agents_play_spades():
    g = Spades(target=0)
    for spec in ("soismcts:iterations=200", "moismcts:iterations=100", "pimc:d=3,s=30"):
        r = play_match(g, [spec, "random", spec, "random"], seed=2)
        assert r.error is None


def test_rules_agent_beats_random():
    g = Spades()
    total = 0.0
    n = 20
    for seed in range(n):
        seats = ["spades_rules", "random"] * 2 if seed % 2 == 0 else ["random", "spades_rules"] * 2
        r = play_match(g, seats, seed=seed)
        assert r.error is None
        total += r.rewards[seed % 2]
    assert total / n > 0.8  # 1.0 over 200 games
