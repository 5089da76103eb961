"""Checkers side by side with OpenSpiel's ``checkers`` (Lanctot et al. 2019).

Seeded random games are played in both implementations at once, asserting after every
action the same player to move, the same legal action ids (OpenSpiel's: ``sq * 8 +
direction * 2 + jump``, one action per jump of a chained capture), the same board (men
and kings of both sides) and, at the end, the same outcome, including draws by
OpenSpiel's 40-actions-without-a-capture rule. The default run plays a few hundred
games; ``-m slow`` plays thousands more. There is no deliberate difference. Needs
OpenSpiel (``pip install open_spiel``); skipped without it.
"""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.games.checkers import kernel as K
from spyglass.games.checkers.game import Checkers

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")

#: OpenSpiel's board characters: seat 0 man and king, seat 1 man and king.
OS_PIECES = {"o": (0, False), "8": (0, True), "+": (1, False), "*": (1, True)}


def os_board(st) -> tuple[int, int, int]:
    """(seat 0's pieces, seat 1's pieces, kings) as bit masks from OpenSpiel's text."""
    rows = [ln for ln in str(st).split("\n") if ln[:1].isdigit()]
    assert len(rows) == 8
    mine = [0, 0]
    kings = 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row[1:9]):
            if ch in OS_PIECES:
                seat, king = OS_PIECES[ch]
                mine[seat] |= 1 << (r * 8 + c)
                kings |= king << (r * 8 + c)
    return mine[0], mine[1], kings


def ours(s: np.ndarray) -> tuple[int, int, int]:
    u = s.view(np.uint64)
    return int(u[K.P0]), int(u[K.P1]), int(u[K.KINGS])


def play_side_by_side(os_game, game: Checkers, seed: int) -> tuple[int, float, bool]:
    """One random game in both; returns (actions, seat 0's reward, a chain was seen)."""
    rng = np.random.default_rng(seed)
    st = os_game.new_initial_state()
    s = game.new_state(seed)
    k = game.kernel
    moves = 0
    chained = False
    while True:
        assert st.is_terminal() == bool(k.is_terminal(s)), (seed, moves)
        assert os_board(st) == ours(s), (seed, moves)
        if st.is_terminal():
            break
        assert st.current_player() == k.actor(s), (seed, moves)
        legal = game.legal_actions(s)
        assert list(st.legal_actions()) == legal, (seed, moves)
        a = legal[int(rng.integers(len(legal)))]
        p = k.actor(s)
        st.apply_action(a)
        k.apply(s, a)
        chained |= a & 1 and k.actor(s) == p
        moves += 1
        assert moves <= game.max_moves
    ours_r = game.rewards(s)
    assert tuple((r + 1) / 2 for r in st.returns()) == ours_r, seed
    return moves, ours_r[0], chained


def run_block(first: int, n: int) -> list[tuple[int, float, bool]]:
    os_game = pyspiel.load_game("checkers")
    game = Checkers()
    return [play_side_by_side(os_game, game, first + i) for i in range(n)]


@pytest.mark.parametrize("block", range(2))
def test_random_games_match_openspiel(block):
    out = run_block(10_000 * block, 150)
    rewards = {r for _, r, _ in out}
    # Wins for both sides and draws by the move cap all occurred, and chained captures.
    assert rewards == {0.0, 0.5, 1.0}
    assert any(c for _, _, c in out)


@pytest.mark.slow
@pytest.mark.parametrize("block", range(2, 12))
def test_many_random_games_match_openspiel(block):
    out = run_block(10_000 * block, 500)
    assert {r for _, r, _ in out} == {0.0, 0.5, 1.0}
