"""The game-general searches give the same pools, decisions and games as when the hashes
were recorded, on every registered game (see ``tests/search_identity_games.py``)."""

from __future__ import annotations

import pytest
from icarus_cases import GAMES
from search_identity_games import decision_hashes, record_hashes, recorded


@pytest.mark.timeout(3600)  # cold: compiles the game's SO/POM/MO/UCT and ICARUS loops
@pytest.mark.parametrize("game_name", GAMES)
def test_seeded_searches_unchanged(game_name):
    want = recorded()
    got = decision_hashes(game_name)
    assert got and set(got) <= set(want), sorted(set(got) - set(want))
    assert [k for k in got if got[k] != want[k]] == []


@pytest.mark.timeout(3600)
@pytest.mark.parametrize("game_name", GAMES)
def test_seeded_games_unchanged(game_name):
    want = recorded()
    got = record_hashes(game_name)
    assert got and set(got) <= set(want), sorted(set(got) - set(want))
    assert [k for k in got if got[k] != want[k]] == []
