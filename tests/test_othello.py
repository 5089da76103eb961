"""Othello's rules (hand-checked positions and invariants) and UCT playing it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.games.othello import kernel as K
from spyglass.games.othello.game import Othello
from spyglass.rng import make_rng


def discs(s: np.ndarray, c: int) -> int:
    return int(s[c:c + 1].view(np.uint64)[0])


def test_opening_moves_and_first_flip():
    g = Othello()
    s = g.new_state(0)
    assert [g.action_text(a) for a in g.legal_actions(s)] == ["d3", "c4", "f5", "e6"]
    g.kernel.apply(s, g.parse_action("d3", g.legal_actions(s)))
    # d3 brackets d4 (White) against d5 (Black): four Black discs, one White.
    assert bin(discs(s, K.BLACK)).count("1") == 4 and bin(discs(s, K.WHITE)).count("1") == 1
    assert g.kernel.actor(s) == 1
    assert [g.action_text(a) for a in g.legal_actions(s)] == ["c3", "e3", "c5"]


def test_pass_and_end_when_nobody_can_move():
    g = Othello()
    s = np.zeros(K.STATE_SIZE, dtype=np.int64)
    u = s.view(np.uint64)
    # A made-up corner position: Black a1, White b1, Black to move.
    u[K.BLACK] = np.uint64(1)  # a1
    u[K.WHITE] = np.uint64(2)  # b1
    s[K.TO_MOVE] = 0
    s[K.RESULT] = K.PLAYING
    u[K.LEGAL] = K.moves_of(u[K.BLACK], u[K.WHITE])
    assert g.legal_actions(s) == [2]  # c1 flips b1
    g.kernel.apply(s, 2)
    # White has no discs: nobody can move, Black wins 3-0.
    assert g.kernel.is_terminal(s) and g.rewards(s) == (1.0, 0.0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_every_move_flips_at_least_one_and_discs_add_up(seed):
    g = Othello()
    s = g.new_state(0)
    rng = np.random.default_rng(seed)
    while not g.kernel.is_terminal(s):
        legal = g.legal_actions(s)
        a = legal[int(rng.integers(len(legal)))]
        p = g.kernel.actor(s)
        before = bin(discs(s, p)).count("1"), bin(discs(s, 1 - p)).count("1")
        g.kernel.apply(s, a)
        after = bin(discs(s, p)).count("1"), bin(discs(s, 1 - p)).count("1")
        if a == K.PASS:
            assert after == before and legal == [K.PASS]
        else:
            flipped = before[1] - after[1]
            assert flipped >= 1 and after[0] == before[0] + 1 + flipped
        assert discs(s, K.BLACK) & discs(s, K.WHITE) == 0


def test_playout_is_seeded_and_uct_beats_random():
    s1, s2 = K.new_state(), K.new_state()
    K.playout(s1, make_rng(5))
    K.playout(s2, make_rng(5))
    assert (s1 == s2).all()
    g = registry.make("othello")
    wins = 0
    for seed in range(4):
        agents = ["uct:iterations=300", "random"] if seed % 2 == 0 else \
            ["random", "uct:iterations=300"]
        r = play_match(g, agents, seed=seed)
        assert r.error is None
        wins += r.rewards[seed % 2]
    assert wins >= 3


def test_words():
    g = Othello()
    s = g.new_state(0)
    text = g.view_text(g.view(s, 0), 0)
    assert "x" in text and "your move" in text
    assert g.observation_text(K.PASS + 1, 0, 1) == "White passed"
    assert g.action_text(K.PASS) == "pass"


def test_bench_measures_uct_and_openspiel_side_by_side():
    from spyglass.bench.board import openspiel_rate, uct_rate

    assert uct_rate("othello", 500, 1) > 0
    theirs = openspiel_rate("othello", 50, 1)
    assert theirs is None or theirs > 0  # None: OpenSpiel is not installed
