"""The classic-bot adapter: a 2012 Bot-API bot plays through the generic referee and is
told exactly the Bot-API events of the game, rebuilt from its own seat's information."""

from __future__ import annotations

import pytest

from spyglass.arena.match import play_match
from spyglass.games import registry
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.tables import mask_to_seats
from spyglass.resistance.arena.bot_agent import BotAgent
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.registry import get


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


@pytest.mark.parametrize("name", ["pandsbot", "logicalbot", "randombot"])
def test_classic_bots_finish_games_through_the_adapter(name):
    game = registry.make("resistance", 5)
    result = play_match(game, [BotAgent(get(name)()) for _ in range(5)], seed=9)
    assert result.ok, result.error


# --- one judgement of a bot's answers under both referees ---------------------------------

def _raise(*_):
    raise RuntimeError("kaboom")


def _forged(bot, team):
    from spyglass.resistance.arena.bot_answers import BotError

    raise BotError("someone else", 4, "vote", None, "forged")


BAD_ANSWERS = {
    # case: ScriptBot keyword arguments (see conftest.ScriptBot)
    "long team": dict(select=lambda b, p, c: list(p[: c + 1])),
    "unknown seat": dict(select=lambda b, p, c: [len(p)] + list(p[: c - 1])),
    "duplicate seat": dict(select=lambda b, p, c: [p[0]] * c),
    "bool seat": dict(select=lambda b, p, c: [True] + list(p[1:c])),
    "not a collection": dict(select=lambda b, p, c: 3),
    "object team": dict(select=lambda b, p, c: [object()] * c),
    "str vote": dict(vote="yes"),
    "int vote": dict(vote=1),
    "None sabotage": dict(sabotage=None),
    "raising select": dict(select=_raise),
    "raising vote": dict(vote=_raise),
    "forged error": dict(vote=_forged),
}


@pytest.mark.parametrize("case", sorted(BAD_ANSWERS))
def test_a_bad_answer_is_the_same_error_under_both_referees(case, script_bot):
    """The Resistance referee and the generic one (through BotAgent) name the same seat,
    decision and reason for the same bad answer in the same seeded game."""
    from spyglass.resistance.arena.referee import play_game

    game = registry.make("resistance", 5)
    culprit = 1
    seen = 0
    for seed in range(6):
        def lineup():
            kw = dict(sabotage=True) | BAD_ANSWERS[case]
            return [script_bot(**kw) if j == culprit else script_bot(sabotage=True)
                    for j in range(5)]

        old = play_game(lineup(), seed=seed, names=[f"bot{j}" for j in range(5)])
        new = play_match(game, [BotAgent(b, f"bot{j}") for j, b in enumerate(lineup())],
                         seed=seed, labels=[f"bot{j}" for j in range(5)])
        if old.error is None:
            assert new.error is None and new.ok
            continue
        seen += 1
        assert new.error is not None, f"{case}, seed {seed}: only the referee refused"
        assert (new.error.seat, new.error.decision, new.error.reason) == (
            old.error.seat, old.error.decision, old.error.reason)
        assert new.error.seat == culprit and new.error.agent == "bot1"
    assert seen, f"{case}: the bad answer was never given"


def test_a_bot_failing_in_a_notification_is_named_with_the_notification(script_bot):
    class Grumpy(script_bot):
        def on_vote_complete(self, votes):
            raise ValueError("no")

    game = registry.make("resistance", 5)
    bots = [script_bot() for _ in range(5)]
    bots[3] = Grumpy()
    result = play_match(game, [BotAgent(b) for b in bots], seed=2)
    err = result.error
    assert (err.seat, err.decision) == (3, "on_vote_complete")
    assert err.reason == "raised ValueError: no" and "on_vote_complete" in err.detail


def _moves(events: list[dict]) -> list[int]:
    """A Resistance record's events as the protocol's action ids, in order."""
    out: list[int] = []
    for e in events:
        if e["type"] == "proposal":
            out.append(sum(1 << s for s in e["team"]))
            out += [] if e["votes"] is None else [int(v) for v in e["votes"]]
        else:
            out += [int(c) for c in e["cards"]]
    return out


@pytest.mark.parametrize("lineup", [
    ("pandsbot", "scepticbot", "magi", "rebounder", "garboa"),
    ("pandsbot", "scepticbot", "magi", "rebounder", "garboa", "logicalbot", "randombot",
     "bayesagent", "clymily", "ruru"),
])
def test_both_referees_play_the_same_game_for_a_seed(lineup):
    """Same seed, same classic bots: the Resistance referee and the generic referee (via
    BotAgent) deal the same roles, seed the bots alike and so play the same moves."""
    from spyglass.resistance.arena.referee import play_game

    n = len(lineup)
    game = registry.make("resistance", n)
    for seed in range(12 if n == 5 else 4):
        old = play_game(list(lineup), seed=seed, memory={}, isolate="none")
        new = play_match(game, [BotAgent(get(b)()) for b in lineup], seed=seed)
        assert old.ok and new.ok
        assert [a for _, a in new.actions] == _moves(old.events), f"seed {seed}"
        state = game.new_state(seed)
        assert old.spies == mask_to_seats(int(state[K.SPIES]))
        assert old.first_leader == int(state[K.LEADER])
        spies_won = new.rewards[old.spies[0]] == 1.0
        assert spies_won == old.spies_won
