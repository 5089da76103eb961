"""The game-general searches give the same pools, decisions and games as when the hashes
were recorded, on every registered game (see ``tests/search_identity_games.py``)."""

from __future__ import annotations

import pytest
from icarus_cases import GAMES
from search_identity_games import decision_hashes, record_hashes, recorded


def _recorded_for(game_name: str) -> dict[str, str]:
    want = recorded()
    if not any(k.startswith(f"{game_name} ") for k in want):
        pytest.skip(f"no hashes recorded for {game_name} yet: run "
                    f"`python tests/search_identity_games.py --record {game_name}` on main")
    return want


@pytest.mark.timeout(3600)  # cold: compiles the game's SO/POM/MO/UCT and ICARUS loops
@pytest.mark.parametrize("game_name", GAMES)
def test_seeded_searches_unchanged(game_name):
    want = _recorded_for(game_name)
    got = decision_hashes(game_name)
    assert got and set(got) <= set(want), sorted(set(got) - set(want))
    assert [k for k in got if got[k] != want[k]] == []


@pytest.mark.timeout(3600)
@pytest.mark.parametrize("game_name", GAMES)
def test_seeded_games_unchanged(game_name):
    want = _recorded_for(game_name)
    got = record_hashes(game_name)
    assert got and set(got) <= set(want), sorted(set(got) - set(want))
    assert [k for k in got if got[k] != want[k]] == []
