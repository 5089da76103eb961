"""MT-ISMCTS over particles builds the same trees, tables and games as on ``main`` before
it moved onto the multiple-tree loop (issue 26), for every self-determinization variant,
TWOSTEP's frozen trees included (``tests/search_identity_mt.py``)."""

from __future__ import annotations

import pytest
from search_identity_mt import hashes, recorded

#: Long games (Cheat 28 s, Backgammon 11 s of play once compiled): run with ``-m slow``.
SLOW = ("cheat", "backgammon")
GAMES = [pytest.param(g, marks=pytest.mark.slow) if g in SLOW else g
         for g in sorted({key.split(" ", 1)[0] for key in recorded()})]


@pytest.mark.timeout(1800)  # cold: compiles the game's MT and SO (opponent model) loops
@pytest.mark.parametrize("game_name", GAMES)
def test_seeded_mt_games_unchanged(game_name):
    want = recorded()
    got = hashes(game_name)
    assert got and set(got) <= set(want), sorted(set(got) - set(want))
    assert [k for k in got if got[k] != want[k]] == []
