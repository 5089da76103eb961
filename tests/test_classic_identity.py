"""The classic bots play exactly the same games as before their speed-ups.

Optimising the Vienna line-up (PandSBot, ScepticBot, Magi, Rebounder, GarboA), their
helpers (beliefs, configurations, opponent models, expert rules) and the referee must not
change a single decision. Each case plays a seeded tournament in this process and hashes
its sorted ``games.jsonl`` lines (records hold no timings, so the hash pins every team,
vote, card and, with ``track_suspicion``, every reported suspicion bit for bit). The
hashes were recorded from the code as it was before the speed-ups (commit f33516f).
The other bots that share the helpers are pinned too, so a helper change cannot move them.
The two suspicion hashes were re-pinned when records began to store floats rounded to
``RECORD_DECIMALS`` places (same games; every suspicion within 5e-7 of before), so that
they are the same on a CPU whose vectorised NumPy differs in the last bits.
"""

from __future__ import annotations

import hashlib

import pytest

from spyglass import tournament

LINEUP = ["pandsbot", "scepticbot", "magi", "rebounder", "garboa"]
SHARING_HELPERS = [
    "bounder", "invalidator", "statistician", "clymily", "kreuterbot", "bayesagent",
    "deceiver", "hippie", "jammer", "paranoid", "rulefollower", "ruru", "stalker", "trusty",
    "logicalbot", "bot5players",
]

# name: (bots, games, players, seed, track_suspicion, sha256 prefix of the sorted lines)
CASES = {
    "lineup-5": (LINEUP, 200, 5, 1, False, "2390b1690fe25ce6"),
    "lineup-7": (LINEUP, 100, 7, 2, False, "df4a9f7779037fcc"),
    "lineup-6-suspicion": (LINEUP, 40, 6, 3, True, "751198b768275e77"),
    "helpers-5": (SHARING_HELPERS, 160, 5, 4, False, "70a331417a1448f4"),
    "helpers-8-suspicion": (SHARING_HELPERS, 60, 8, 5, True, "8547917653d106ce"),
}


@pytest.mark.parametrize("case", list(CASES))
def test_same_games_as_before(case, tmp_path):
    bots, games, players, seed, track, expected = CASES[case]
    out = tmp_path / "run"
    tournament.run(bots, games=games, players=players, seed=seed, track_suspicion=track,
                   out=out, workers=1, progress=False)
    lines = sorted((out / "games.jsonl").read_text().splitlines())
    assert len(lines) == games
    digest = hashlib.sha256("\n".join(lines).encode()).hexdigest()[:16]
    assert digest == expected, f"{case}: the games changed"


def test_suspicion_is_stored_at_the_stated_precision():
    """A last-bit difference in a bot's suspicion (another CPU's vectorised NumPy) and the
    sign of a zero do not change the stored record line."""
    import math

    from spyglass.arena.records import record_line
    from spyglass.arena.sanitize import RECORD_DECIMALS
    from spyglass.games.resistance.options import Rules
    from spyglass.resistance.arena.referee import GameResult

    x = 0.123456789012345
    lines = set()
    for value, zero in ((x, 0.0), (math.nextafter(x, 1.0), -0.0), (math.nextafter(x, 0.0), -0.0)):
        result = GameResult(seed=1, n_players=5, rules=Rules(), names=("a",) * 5,
                            spies=(0, 1), first_leader=0)
        result.suspicion = {2: [{"mission": 1, "scores": {"0": value, "1": zero}}]}
        result.extra = {2: {"belief": [value]}}
        lines.add(record_line(result))
    assert len(lines) == 1
    assert f'"0":{round(x, RECORD_DECIMALS)!r}' in lines.pop()
