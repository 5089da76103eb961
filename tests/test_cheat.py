"""Rules of Cheat (Bitan & Kraus 2018, §4): invariants under random play and scripted games."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.games import registry
from spyglass.games.cheat import kernel as K
from spyglass.games.cheat.game import claim_id, claim_parts
from spyglass.rng import make_rng

GAME = registry.make("cheat")


def _counts(s):
    total = np.zeros(13, dtype=np.int64)
    for p in range(2):
        total += s[K.HAND + 13 * p:K.HAND + 13 * p + 13] + s[K.PBY + 13 * p:K.PBY + 13 * p + 13]
    for i in range(int(s[K.DECK_N])):
        total[s[K.DECK + i]] += 1
    total[s[K.STARTER]] += 1
    return total


def _play(seed: int, g=GAME):
    rng = np.random.default_rng(seed)
    s = g.new_state(seed)
    states = [s.copy()]
    while not g.kernel.is_terminal(s):
        acts = g.legal_actions(s)
        a = acts[int(rng.integers(len(acts)))]
        prev = s.copy()
        g.kernel.apply(s, a)
        states.append((prev, a, s.copy()))
    return states


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_every_card_is_somewhere_and_claims_move_the_rank_by_one(seed):
    states = _play(seed)
    assert (_counts(states[0]) == 4).all()
    for prev, a, s in states[1:]:
        assert (_counts(s) == 4).all()
        if a >= K.CLAIM0:
            d, ranks = claim_parts(a)
            assert s[K.REF] == (prev[K.REF] + (1 if d == 0 else -1)) % 13
            p = prev[K.TO_MOVE]
            assert K.hand_size(s, p) == K.hand_size(prev, p) - len(ranks)
        if a == K.CALL:
            assert prev[K.PREV_KIND] == K.K_CLAIM
            liar = int(prev[K.LAST_BY])
            truth = K.last_claim_true(prev)
            taker = 1 - liar if truth else liar
            pile = K.pile_size(prev, 0) + K.pile_size(prev, 1)
            assert K.hand_size(s, taker) == K.hand_size(prev, taker) + pile
            assert K.pile_size(s, 0) + K.pile_size(s, 1) == 0
    last = states[-1][2]
    h0, h1 = K.hand_size(last, 0), K.hand_size(last, 1)
    if h0 and h1:  # ended on the round limit: fewer cards wins
        assert last[K.ROUND] >= last[K.MAX_ROUNDS]
        assert GAME.rewards(last) == ((1.0, 0.0) if h0 < h1 else (0.0, 1.0) if h1 < h0
                                      else (0.5, 0.5))
    else:
        winner = 0 if h0 == 0 else 1
        assert GAME.rewards(last)[winner] == 1.0


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**31 - 1), st.sampled_from([-1, 0, 1]))
def test_semi_determinized_samples_fix_the_last_claims_truth(seed, truth):
    rng = np.random.default_rng(seed)
    s = GAME.new_state(seed)
    krng = make_rng(seed)
    while not GAME.kernel.is_terminal(s):
        if s[K.PREV_KIND] == K.K_CLAIM:
            j = int(s[K.TO_MOVE])
            v = GAME.view(s, j)
            s2 = np.zeros(K.STATE_SIZE, dtype=np.int64)
            if K.sample_claim(v, j, krng, s2, truth):
                assert (GAME.view(s2, j) == v).all()
                if truth >= 0:
                    assert K.last_claim_true(s2) == bool(truth)
            else:  # then the forced truth is impossible (or very rare): free samples agree
                assert truth >= 0
                for _ in range(50):
                    assert K.sample_claim(v, j, krng, s2, -1)
                    assert K.last_claim_true(s2) != bool(truth)
        acts = GAME.legal_actions(s)
        GAME.kernel.apply(s, acts[int(rng.integers(len(acts)))])


def test_a_scripted_game_liar_takes_the_pile_and_an_empty_hand_must_be_checked():
    g = registry.make("cheat", hand_size=2, after_call="claimant")
    # Deck drawn from the end: seat 0 gets 5 and 9, seat 1 gets 6 and 6; starter 4 (rank 3).
    order = np.array([0] * 47 + [3, 5, 8, 5, 4], dtype=np.int64)
    s = K.new_state(order, 2, 0, 100, 0)
    assert list(s[K.HAND:K.HAND + 13].nonzero()[0]) == [4, 8]
    assert s[K.HAND + 13 + 5] == 2 and s[K.REF] == 3
    up5 = claim_id(0, [4])  # a true claim: a 5 as "one up" from 4
    assert g.action_text(up5) == "up 5" and g.parse_action("up 5", g.legal_actions(s)) == up5
    K.apply(s, up5)
    assert K.can_call(s) and K.last_claim_true(s)
    K.apply(s, claim_id(0, [5]))  # seat 1 plays a 6 and says 6: true
    assert K.last_claim_true(s)
    K.apply(s, K.CALL)  # seat 0 calls a true claim: takes the pile (5 and 6)
    assert K.hand_size(s, 0) == 3 and s[K.TO_MOVE] == 1 and s[K.CAUGHT_N + 1] == 0
    assert s[K.KNOWN + 13 * 1 + 4] == 1 and s[K.KNOWN + 13 * 1 + 5] == 1
    K.apply(s, claim_id(1, [5]))  # seat 1's last card (a 6) claimed as a 5: a lie
    assert s[K.FORCED] == 1 and GAME.legal_actions(s) == [K.CALL]
    K.apply(s, K.CALL)  # the lie is caught: seat 1 takes its card back, play goes on
    assert not K.is_terminal(s) and K.hand_size(s, 1) == 1 and s[K.CAUGHT_N + 1] == 1
    assert s[K.TO_MOVE] == 1  # the claimant moves after a call


def test_round_limit_and_option_validation():
    g = registry.make("cheat", max_rounds=3)
    s = g.new_state(5)
    g.kernel.playout(s, make_rng(1))
    assert s[K.ROUND] == 3 and g.kernel.is_terminal(s)
    with pytest.raises(ValueError, match="after_call"):
        registry.make("cheat", after_call="nobody")
    with pytest.raises(ValueError):
        registry.make("cheat", 3)


def test_words_for_people():
    s = GAME.new_state(11)
    legal = GAME.legal_actions(s)
    for a in legal:
        assert GAME.parse_action(GAME.action_text(a), legal) == a
    with pytest.raises(ValueError, match="not a rank"):
        GAME.parse_action("up Z", legal)
    with pytest.raises(ValueError, match="not legal"):
        GAME.parse_action("call", legal)
    assert "your hand" in GAME.view_text(GAME.view(s, 0), 0)
