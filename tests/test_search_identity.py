"""Same seed, same search and same game, whatever the node layout (issue 17).

The hashes in ``search_identity_hashes.json`` were recorded on the code before the
memory-layout changes (its "note" names the commit); see ``tests/search_identity.py``
for what is hashed. The default run checks the search results and two seeds per bot
and player count; the slow run checks every recorded game.
"""

from __future__ import annotations

import json

import pytest
from search_identity import HASH_FILE, game_hashes, search_hashes

RECORDED = json.loads(HASH_FILE.read_text())["hashes"]


def _compare(got: dict[str, str]) -> None:
    missing = sorted(set(got) - set(RECORDED))
    assert not missing, f"no recorded hash for {missing}"
    differ = sorted(k for k in got if got[k] != RECORDED[k])
    assert not differ, f"results changed for the same seed: {differ}"


def test_search_trees_counts_and_beliefs_are_unchanged():
    _compare(search_hashes())


def test_seeded_games_are_unchanged_quick():
    _compare(game_hashes(quick=True))


@pytest.mark.slow
def test_seeded_games_are_unchanged_all():
    _compare(game_hashes(quick=False))
