"""Spades (one round) side by side with OpenSpiel's ``spades``.

Our deal is fed to OpenSpiel as its 52 chance moves (card ``i`` of the deal to seat
``i % 4``), then seeded random bids and cards are played in both, asserting at every
step the player to move, the legal action set (the ids are OpenSpiel's: ``suit * 13 +
rank`` for cards, ``52 + bid``), each seat's hand and the tricks taken (parsed from
OpenSpiel's observation string), and at the end the round's score of each partnership
(OpenSpiel's returns).

One deliberate difference is tested as such: OpenSpiel 2.0.2 never marks spades
broken, so a spade can be led only from a hand of spades; our default breaks spades
when one is played (thesis §4.2.4). The cross-check runs with ``spades_never_break``;
``test_spades_break_differs_from_openspiel`` shows that the default does differ.
"""

from __future__ import annotations

import numpy as np
import pytest

from spyglass.games.spades import kernel as K
from spyglass.games.spades.game import Spades

pyspiel = pytest.importorskip(
    "pyspiel", reason="OpenSpiel is not installed (pip install -e '.[crosscheck]')"
)

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def parse_obs(text: str) -> tuple[int, list[int] | None]:
    """(hand mask, tricks taken per seat or None) from an observation string."""
    lines = text.split("\n")
    hand = 0
    for row in lines[:4]:
        suit = SUITS.index(row[0])
        if not row.endswith("none"):
            for ch in row[2:]:
                hand |= 1 << (suit * 13 + RANKS.index(ch))
    tricks = None
    if "Tricks taken:" in lines:
        i = lines.index("Tricks taken:")
        tricks = [int(x) for x in lines[i + 3].split()]
    return hand, tricks


def play_side_by_side(os_game, game: Spades, seed: int, check_views: bool) -> int:
    rng = np.random.default_rng(seed)
    s = game.new_state(seed)
    k = game.kernel
    st = os_game.new_initial_state()
    hands = [[c for c in range(52) if (int(s[K.HAND + p]) >> c) & 1] for p in range(4)]
    for i in range(52):
        st.apply_action(hands[i % 4][i // 4])
    moves = 0
    while not st.is_terminal():
        p = st.current_player()
        assert p == k.actor(s), (seed, moves)
        legal = game.legal_actions(s)
        assert list(st.legal_actions()) == legal, (seed, moves)
        if check_views:
            for j in range(4):
                hand, tricks = parse_obs(st.observation_string(j))
                v = game.view(s, j)
                assert hand == int(v[K.V_HAND]), (seed, moves, j)
                if tricks is not None:
                    assert tricks == [int(v[K.V_TRICKS + q]) for q in range(4)]
        a = legal[int(rng.integers(len(legal)))]
        st.apply_action(a)
        k.apply(s, a)
        moves += 1
    assert k.is_terminal(s)
    ns, ew = game.scores(s)
    assert [ns, ew, ns, ew] == [round(r) for r in st.returns()], seed
    return moves


@pytest.fixture(scope="module")
def os_game():
    g = pyspiel.load_game("spades")
    assert g.num_distinct_actions() == K.N_ACTIONS
    return g


def test_spades_matches_openspiel(os_game):
    game = Spades(target=0, spades_never_break=True)
    total = sum(play_side_by_side(os_game, game, seed, seed < 500) for seed in range(2000))
    assert total == 2000 * 56


def test_spades_break_differs_from_openspiel(os_game):
    """With our default (spades broken once played) some legal sets differ."""
    game = Spades(target=0)
    differs = 0
    for seed in range(200):
        try:
            play_side_by_side(os_game, game, seed, False)
        except AssertionError:
            differs += 1
    assert differs > 0


@pytest.mark.slow
def test_spades_matches_openspiel_many(os_game):
    game = Spades(target=0, spades_never_break=True)
    for seed in range(2000, 42000):
        play_side_by_side(os_game, game, seed, False)
