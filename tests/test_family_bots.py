"""The ISMCTS-family bots: legal full games at 5-10 players, replay per seed, the
omniscient privilege, parameters, and a small seeded strength check."""

from __future__ import annotations

import pytest

from spyglass.games.resistance.options import Rules
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.cheatinguct import CheatingUCTBot
from spyglass.resistance.bots.soismcts import SOISMCTSBot

SMALL = {
    "soismcts_enum": "soismcts_enum:iterations=60",
    "soismcts_pom_enum": "soismcts_pom_enum:iterations=60,exp3=true",
    "moismcts_enum": "moismcts_enum:iterations=60",
    "moismcts_exp3": "moismcts_enum:iterations=60,exp3=true",
    "pimc_enum": "pimc_enum:d=2,s=30",
    "cheatinguct_ensemble": "cheatinguct_ensemble:d=2,s=30",
    "searchagent": "searchagent:iterations=60,d=2",
}


@pytest.mark.parametrize("n", range(5, 11))
@pytest.mark.parametrize("rule", ["spies_win", "forced"])
def test_family_plays_legal_games_at_every_size(n, rule):
    full = list(SMALL.values())
    for shift in (0, 3):  # every bot sits at every size; seeds vary the roles
        bots = (full[shift:] + full[:shift] + ["randombot"] * 3)[:n]
        result = play_game(bots, seed=100 * n + shift, rules=Rules(rule))
        assert result.error is None, result.error
        assert result.winner in ("resistance", "spies")


@pytest.mark.parametrize("name", sorted(SMALL))
def test_same_seed_same_game(name):
    def record(seed):
        r = play_game([SMALL[name]] * 3 + ["randombot"] * 2, seed=seed)
        assert r.error is None, r.error
        return r.to_record()
    assert record(5) == record(5)
    assert record(5)["events"] != record(6)["events"]


class Snoop(Bot):
    """Records what it was told about the spies."""

    def on_game_revealed(self, players, spies):
        self.told = (frozenset(spies), frozenset(self.spies))


class OmniscientSnoop(Snoop):
    omniscient = True


def test_only_omniscient_bots_are_told_the_spies():
    spies = (3, 4)
    bots = [Snoop(), OmniscientSnoop(), Snoop(), Snoop(), Snoop()]
    result = play_game(bots, seed=1, spies=spies)
    assert result.error is None
    assert bots[0].told == (frozenset(), frozenset())  # resistance: nothing
    assert bots[2].told == (frozenset(), frozenset())
    assert bots[1].told[1] == frozenset(spies)  # privileged: the truth in self.spies
    assert bots[3].told == (frozenset(spies), frozenset(spies))  # a spy knows anyway
    assert result.to_record()["setup"]["omniscient"] == [1]
    plain = play_game([Snoop() for _ in range(5)], seed=1, spies=spies)
    assert "omniscient" not in plain.to_record()["setup"]


def test_cheating_uct_uses_the_truth():
    bot = CheatingUCTBot(d=2, s=20)
    result = play_game([bot] + ["randombot"] * 4, seed=2, spies=(3, 4))
    assert result.error is None and result.omniscient == (0,)
    assert bot.weights.sum() == 1 and bot.configs[bot.weights.argmax()] == 0b11000


def test_parameters_are_checked():
    with pytest.raises(ValueError, match="iterations"):
        SOISMCTSBot(iterations=0)
    with pytest.raises(ValueError, match="either"):
        SOISMCTSBot(iterations=5, seconds=1.0)
    with pytest.raises(ValueError, match="bandit"):
        SOISMCTSBot(bandit="ucb9")
    with pytest.raises(ValueError, match="exp3"):
        SOISMCTSBot(exp3="yes")
    with pytest.raises(ValueError, match="d must"):
        CheatingUCTBot(d=0)


# A small seeded strength sanity check (5 players, spies in seats 3-4, fixed seeds).
STRENGTH = {
    "soismcts_enum": "soismcts_enum:iterations=300",
    "soismcts_pom_enum": "soismcts_pom_enum:iterations=300",
    "moismcts_enum": "moismcts_enum:iterations=300",
    "pimc_enum": "pimc_enum:d=3,s=100",
    "cheatinguct_ensemble": "cheatinguct_ensemble:d=3,s=100",
    "searchagent": "searchagent:iterations=300,d=2",
}
GAMES = 30


def _resistance_wins(spec: str) -> int:
    return sum(play_game([spec] * 3 + ["randombot"] * 2, seed=1000 + g, spies=(3, 4)).winner
               == "resistance" for g in range(GAMES))


def _spy_wins(spec: str) -> int:
    return sum(play_game(["randombot"] * 3 + [spec] * 2, seed=2000 + g, spies=(3, 4)).winner
               == "spies" for g in range(GAMES))


@pytest.mark.parametrize("name", sorted(STRENGTH))
def test_beats_random_in_both_roles(name):
    assert _resistance_wins(STRENGTH[name]) > _resistance_wins("randombot")
    assert _spy_wins(STRENGTH[name]) >= 0.9 * GAMES > _spy_wins("randombot")
