"""The classic-bot adapter: a 2012 Bot-API bot plays through the generic referee and is
told exactly the Bot-API events of the game, rebuilt from its own seat's information."""

from __future__ import annotations

import pytest

from spyglass.arena.bot_agent import BotAgent
from spyglass.arena.match import play_match
from spyglass.bots.base import Bot
from spyglass.bots.registry import get
from spyglass.games import registry
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.tables import mask_to_seats


class Recorder(Bot):
    """Random play, and a log of every Bot-API call."""

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple] = []

    def on_game_revealed(self, players, spies):
        self.calls.append(("revealed", players, spies))

    def on_mission_attempt(self, mission, attempt, leader):
        self.calls.append(("attempt", mission, attempt, leader))

    def on_team_selected(self, leader, team):
        self.calls.append(("team", leader, tuple(team)))

    def on_vote_complete(self, votes):
        self.calls.append(("votes", tuple(votes)))

    def on_mission_complete(self, fails):
        self.calls.append(("fails", fails))

    def on_game_complete(self, resistance_won, spies):
        self.calls.append(("over", resistance_won, spies))


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_bot_api_events_match_the_game(seed):
    game = registry.make("resistance", 5)
    bots = [Recorder() for _ in range(5)]
    result = play_match(game, [BotAgent(b) for b in bots], seed=seed)
    assert result.ok, result.error
    state = game.new_state(seed)
    spies = frozenset(mask_to_seats(int(state[K.SPIES])))
    # The events every seat should see, from the record and the rules.
    expected: list[tuple] = []
    s = state.copy()
    expected.append(("attempt", int(s[K.MISSION]) + 1, int(s[K.ATTEMPT]) + 1, int(s[K.LEADER])))
    for actor, action in result.actions:
        obs = int(game.kernel.observe(s, action, 0))
        game.kernel.apply(s, action)
        tag, low = obs & ~((1 << 20) - 1), obs & ((1 << 20) - 1)
        if tag == K.OBS_TEAM:
            expected.append(("team", actor, mask_to_seats(low)))
        elif tag == K.OBS_VOTES:
            expected.append(("votes", tuple(bool(low >> j & 1) for j in range(5))))
        elif tag == K.OBS_FAILS:
            expected.append(("fails", low))
        if tag in (K.OBS_VOTES, K.OBS_FAILS) and s[K.PHASE] == K.PROPOSE:
            expected.append(("attempt", int(s[K.MISSION]) + 1, int(s[K.ATTEMPT]) + 1,
                             int(s[K.LEADER])))
    won = result.rewards[min(set(range(5)) - spies)] == 1.0
    for seat, bot in enumerate(bots):
        told = spies if seat in spies else frozenset()
        assert bot.calls[0] == ("revealed", tuple(range(5)), told)
        assert bot.calls[1:-1] == expected
        assert bot.calls[-1] == ("over", won, spies)
        assert bot.spy == (seat in spies)
        assert len(bot.game.missions) == sum(1 for e in expected if e[0] == "fails")


@pytest.mark.parametrize("name", ["pandsbot", "logicalbot", "random"])
def test_classic_bots_finish_games_through_the_adapter(name):
    game = registry.make("resistance", 5)
    result = play_match(game, [BotAgent(get(name)()) for _ in range(5)], seed=9)
    assert result.ok, result.error
