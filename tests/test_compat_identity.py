"""2012-framework bot files play exactly the same games as before the compat speed-ups.

Issue 27 made the compat path faster (hooks resolved once per game, Bot's empty hooks not
entered, cached Python 2 hashes, posted notifications written with the next call, the
conversion cache). None of it may change a decision. Each case plays a seeded tournament
of the benchmark's five 2012-style bots (:mod:`spyglass.bench.compat`, module-level
``random``, class hierarchies with hooks at several levels) in this process or isolated,
and hashes the sorted ``games.jsonl`` lines against hashes taken from the code before
the speed-ups (main at 79c7fe1). The original 2012 files are checked the same way outside
the repository (docs/search-speed.md).
"""

from __future__ import annotations

import hashlib

import pytest

from spyglass import tournament
from spyglass.bench.compat import _specs

# name: (isolate, games, players, seed, sha256 prefix of the sorted lines)
CASES = {
    "in-process-5": ("none", 120, 5, 11, "66153849dbf7b015"),
    "in-process-7": ("none", 60, 7, 12, "4a840f1fc7324291"),
    "isolated-5": ("auto", 24, 5, 13, "d268c0efe2ba9d7d"),
}


def digest(tmp_path, isolate: str, games: int, players: int, seed: int) -> str:
    out = tmp_path / "run"
    tournament.run(_specs(tmp_path), games=games, players=players, seed=seed,
                   isolate=isolate, out=out, workers=1, progress=False)
    text = (out / "games.jsonl").read_text().replace(str(tmp_path), "DIR")  # sources' folder
    lines = sorted(text.splitlines())
    assert len(lines) == games
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]


@pytest.mark.parametrize("case", list(CASES))
def test_same_games_as_before(case, tmp_path):
    isolate, games, players, seed, expected = CASES[case]
    assert digest(tmp_path, isolate, games, players, seed) == expected, f"{case}: changed"
