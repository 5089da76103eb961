"""Othello side by side with OpenSpiel's ``othello`` (Lanctot et al. 2019).

Thousands of seeded random games are played in both implementations at once, asserting
the same player to move, the same legal action ids (squares ``row * 8 + col``, pass 64),
the same board after every move, and the same outcome. Needs OpenSpiel
(``pip install open_spiel``); skipped without it.
"""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.games.othello import kernel as K
from spyglass.games.othello.game import Othello

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install open_spiel)")


def os_board(st) -> tuple[int, int]:
    """(Black's, White's) discs from OpenSpiel's observation tensor (empty, x, o planes...)."""
    text = str(st).split("\n")
    black = white = 0
    rows = [ln for ln in text if ln[:1].isdigit()]
    for r, row in enumerate(rows):
        cells = row.split()[1:9]
        for c, ch in enumerate(cells):
            if ch == "x":
                black |= 1 << (r * 8 + c)
            elif ch == "o":
                white |= 1 << (r * 8 + c)
    return black, white


def play_side_by_side(os_game, game: Othello, seed: int) -> int:
    rng = np.random.default_rng(seed)
    st = os_game.new_initial_state()
    s = game.new_state(seed)
    k = game.kernel
    moves = 0
    while True:
        assert st.is_terminal() == bool(k.is_terminal(s)), (seed, moves)
        b, w = os_board(st)
        assert (b, w) == (int(s[K.BLACK:K.BLACK + 1].view(np.uint64)[0]),
                          int(s[K.WHITE:K.WHITE + 1].view(np.uint64)[0])), (seed, moves)
        if st.is_terminal():
            break
        assert st.current_player() == k.actor(s), (seed, moves)
        legal = game.legal_actions(s)
        assert list(st.legal_actions()) == legal, (seed, moves)
        a = legal[int(rng.integers(len(legal)))]
        st.apply_action(a)
        k.apply(s, a)
        moves += 1
        assert moves <= game.max_moves
    returns = st.returns()
    ours = game.rewards(s)
    # OpenSpiel: +1/-1/0; ours: 1/0/0.5.
    assert tuple((r + 1) / 2 for r in returns) == ours, seed
    return moves


@pytest.mark.parametrize("block", range(4))
def test_random_games_match_openspiel(block):
    os_game = pyspiel.load_game("othello")
    game = Othello()
    lengths = [play_side_by_side(os_game, game, 1000 * block + i) for i in range(500)]
    assert max(lengths) >= 60  # full games were played, with passes sometimes
