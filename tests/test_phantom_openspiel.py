"""Phantom 3,3,3 side by side with OpenSpiel's ``phantom_ttt`` (classical, reveal-nothing).

A rules cross-check against an independent implementation (Lanctot et al. 2019,
OpenSpiel): thousands of seeded random games are played in both at once, asserting the
same player to move, legal actions, each player's information (OpenSpiel's information
state string, translated to our view), what each player learns from each move, and the
outcome. Action ids are the same in both (square ``row * 3 + col``). Needs the
``crosscheck`` extra (``pip install -e .[crosscheck]``); skipped without it.
"""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.games.phantom import kernel as K
from spyglass.games.phantom.game import Phantom

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install -e '.[crosscheck]')"
)

MARKS = ("x", "o")


def os_view(info: str, player: int) -> tuple[int, int]:
    """(own marks, opponent marks seen) from an OpenSpiel information state string."""
    rows = info.split("\n")[:3]
    own = seen = 0
    for r, row in enumerate(rows):
        for c, ch in enumerate(row):
            if ch == MARKS[player]:
                own |= 1 << (r * 3 + c)
            elif ch == MARKS[1 - player]:
                seen |= 1 << (r * 3 + c)
    return own, seen


def play_side_by_side(os_game, game: Phantom, seed: int) -> int:
    """One random game in both implementations; returns the number of moves."""
    rng = np.random.default_rng(seed)
    st = os_game.new_initial_state()
    s = game.new_state(seed)
    k = game.kernel
    moves = 0
    while True:
        assert st.is_terminal() == bool(k.is_terminal(s))
        infos = [st.information_state_string(p) for p in range(2)]
        for p in range(2):
            v = game.view(s, p)
            assert os_view(infos[p], p) == (int(v[K.V_OWN]), int(v[K.V_REFUSED])), (seed, moves)
        if st.is_terminal():
            break
        p = st.current_player()
        assert p == k.actor(s)
        legal = game.legal_actions(s)
        assert list(st.legal_actions()) == legal
        a = legal[int(rng.integers(len(legal)))]
        obs = [int(k.observe(s, a, j)) for j in range(2)]
        st.apply_action(a)
        k.apply(s, a)
        moves += 1
        # The actor learns the square and whether it was refused; the opponent nothing.
        own, seen = os_view(st.information_state_string(p), p)
        refused = (obs[p] - K.OBS_OWN) % 2 == 1
        assert obs[p] - K.OBS_OWN == 2 * a + refused
        assert bool((seen >> a) & 1) == refused and bool((own >> a) & 1) == (not refused)
        assert st.information_state_string(1 - p) == infos[1 - p]
        # A rejected try is unseen by the opponent; an accepted one passes the turn.
        assert (obs[1 - p] == K.OBS_UNSEEN) == refused
        if not refused:
            want = K.OBS_OPP_PLACED if not st.is_terminal() else (
                K.OBS_OPP_DREW if st.returns()[0] == 0 else K.OBS_OPP_WON)
            assert obs[1 - p] == want
    returns = st.returns()
    assert game.rewards(s) == tuple((r + 1) / 2 for r in returns)
    assert moves <= min(game.max_moves, os_game.max_game_length())
    return moves


@pytest.fixture(scope="module")
def games():
    os_game = pyspiel.load_game(
        "phantom_ttt", {"gameversion": "classical", "obstype": "reveal-nothing"}
    )
    assert os_game.num_distinct_actions() == 9
    return os_game, Phantom(m=3, n=3, k=3)


def test_phantom_ttt_matches_openspiel(games):
    os_game, game = games
    total = sum(play_side_by_side(os_game, game, seed) for seed in range(5000))
    assert total > 5000 * 5


@pytest.mark.slow
def test_phantom_ttt_matches_openspiel_many(games):
    os_game, game = games
    for seed in range(5000, 105000):
        play_side_by_side(os_game, game, seed)
