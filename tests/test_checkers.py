"""Checkers' rules (hand-set positions and invariants) and UCT playing it."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.games.checkers import kernel as K
from spyglass.games.checkers.game import Checkers
from spyglass.rng import make_rng


def sq(name: str) -> int:
    return (8 - int(name[1])) * 8 + "abcdefgh".index(name[0])


def position(black: str, white: str, kings: str = "", to_move: int = 0) -> np.ndarray:
    """A state with Black's and White's pieces on the named squares (space-separated)."""
    s = np.zeros(K.STATE_SIZE, dtype=np.int64)
    u = s.view(np.uint64)
    for slot, names in ((K.P0, black), (K.P1, white), (K.KINGS, kings)):
        for n in names.split():
            u[slot] |= np.uint64(1) << np.uint64(sq(n))
    s[K.TO_MOVE], s[K.RESULT], s[K.CHAIN] = to_move, K.PLAYING, -1
    K._list_moves(s)
    return s


def texts(g: Checkers, s: np.ndarray) -> list[str]:
    return [g.action_text(a) for a in g.legal_actions(s)]


def play(g: Checkers, s: np.ndarray, move: str) -> None:
    g.kernel.apply(s, g.parse_action(move, g.legal_actions(s)))


def test_opening_moves_are_openspiels():
    g = Checkers()
    s = g.new_state(0)
    assert texts(g, s) == ["a3b4", "c3b4", "c3d4", "e3d4", "e3f4", "g3f4", "g3h4"]
    assert g.legal_actions(s) == [322, 336, 338, 352, 354, 368, 370]


def test_captures_are_forced_and_chain_with_a_free_choice():
    g = Checkers()
    s = position("c3 g3", "d4 d6 f6 h8")
    assert texts(g, s) == ["c3e5"]  # g3's steps are not allowed: a capture is
    play(g, s, "c3e5")
    # The same player goes on with the capturing piece, choosing either branch.
    assert g.kernel.actor(s) == 0 and s[K.CHAIN] == sq("e5")
    assert sorted(texts(g, s)) == ["e5c7", "e5g7"]
    play(g, s, "e5g7")
    assert g.kernel.actor(s) == 1 and s[K.CHAIN] == -1 and s[K.QUIET] == 0
    assert bin(int(s[K.P1:K.P1 + 1].view(np.uint64)[0])).count("1") == 2  # d6, h8 remain


def test_a_man_crowned_by_a_capture_ends_the_turn_but_a_king_goes_on():
    g = Checkers()
    s = position("b6 h2", "c7 e7 a1")
    play(g, s, "b6d8")
    assert g.kernel.actor(s) == 1  # crowned on d8: the turn ends though d8xf6 exists
    assert s[K.KINGS:K.KINGS + 1].view(np.uint64)[0] >> np.uint64(sq("d8")) & np.uint64(1)
    s = position("b6 h2", "c7 e7 a1", kings="b6")
    play(g, s, "b6d8")
    assert g.kernel.actor(s) == 0 and texts(g, s) == ["d8f6"]


def test_no_legal_move_loses():
    g = Checkers()
    s = position("a3", "b4 c5 h6", to_move=1)
    play(g, s, "h6g5")
    # Black's only man is blocked (b4 cannot be jumped: c5 is occupied).
    assert g.kernel.is_terminal(s) and g.rewards(s) == (0.0, 1.0)


def test_forty_actions_without_a_capture_draw():
    g = Checkers()
    s = position("g1", "b8", kings="g1 b8")
    shuffle = [("g1h2", "b8a7"), ("h2g1", "a7b8")]
    for i in range(K.QUIET_LIMIT):
        assert not g.kernel.is_terminal(s), i
        play(g, s, shuffle[i // 2 % 2][i % 2])
    assert g.kernel.is_terminal(s) and g.rewards(s) == (0.5, 0.5)
    assert "a draw" in g.view_text(g.view(s, 0), 0)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_random_play_keeps_the_board_consistent(seed):
    g = Checkers()
    s = g.new_state(0)
    rng = np.random.default_rng(seed)
    dark = sum(1 << (r * 8 + c) for r in range(8) for c in range(8) if (r + c) % 2)
    while not g.kernel.is_terminal(s):
        legal = g.legal_actions(s)
        jumps = [a & 1 for a in legal]
        assert len(set(jumps)) == 1 and len(legal) <= K.MAX_LEGAL and legal == sorted(legal)
        a = legal[int(rng.integers(len(legal)))]
        u = s.view(np.uint64)
        before = int(u[K.P0]).bit_count() + int(u[K.P1]).bit_count()
        g.kernel.apply(s, a)
        b, w, k = (int(x) for x in s[:3].view(np.uint64))
        assert b & w == 0 and k & ~(b | w) == 0 and (b | w) & ~dark == 0
        assert b.bit_count() + w.bit_count() == before - (a & 1)
    assert s[K.RESULT] in (0, 1, K.DRAW)


def test_playout_is_seeded_and_uct_beats_random():
    s1, s2 = K.new_state(), K.new_state()
    K.playout(s1, make_rng(5))
    K.playout(s2, make_rng(5))
    assert (s1 == s2).all()
    g = registry.make("checkers")
    score = 0.0
    for seed in range(4):
        agents = ["uct:iterations=300", "random"] if seed % 2 == 0 else \
            ["random", "uct:iterations=300"]
        r = play_match(g, agents, seed=seed)
        assert r.error is None
        score += r.rewards[seed % 2]
    assert score >= 3


def test_words():
    g = Checkers()
    s = g.new_state(0)
    text = g.view_text(g.view(s, 0), 0)
    assert "b" in text and "your move" in text and "  a b c d e f g h" in text
    assert g.observation_text(338 + 1, 0, 1) == "White moved c3d4"
    assert g.observation_text(sq("c3") * 8 + 2 + 1 + 1, 1, 0) == "Black captured c3e5"
    assert g.parse_action("C3D4", g.legal_actions(s)) == 338
    for bad in (-1, 512, 0):  # 0 = a8 up-left: off the board
        try:
            g.action_text(bad)
        except ValueError:
            continue
        raise AssertionError(bad)


def test_bench_measures_uct_and_openspiel_side_by_side():
    from spyglass.bench.board import openspiel_rate, playout_rate, uct_rate

    assert uct_rate("checkers", 500, 1) > 0 and playout_rate("checkers", 50) > 0
    theirs = openspiel_rate("checkers", 50, 1)
    assert theirs is None or theirs > 0  # None: OpenSpiel is not installed
