"""The referee: validation of every decision, hidden information, determinism, and random
games of every size checked against the official table (shared/seeds/README.md)."""

from __future__ import annotations

import gc
import time
import types

import numpy as np
import pytest
from conftest import OFFICIAL, SIZES
from hypothesis import given, settings
from hypothesis import strategies as st

from spyglass.games.resistance.observation import GameView
from spyglass.games.resistance.options import Rules
from spyglass.resistance.arena.referee import BotError, GameResult, play_game
from spyglass.resistance.arena.replay import replay_record
from spyglass.resistance.bots.base import Bot

# --- validation ------------------------------------------------------------------------


def _raise(*_):
    raise RuntimeError("kaboom")


def _slow_vote(bot, team):
    time.sleep(0.1)
    return True


BAD = {
    # case: (ScriptBot kwargs, decision, value in the message, words in the reason)
    "short team": (dict(select=lambda b, p, c: list(p[: c - 1])), "select", None, "team of"),
    "long team": (dict(select=lambda b, p, c: list(p[: c + 1])), "select", None, "team of"),
    "unknown seat": (dict(select=lambda b, p, c: [len(p)] + list(p[: c - 1])), "select",
                     None, "no seat"),
    "negative seat": (dict(select=lambda b, p, c: [-1] + list(p[: c - 1])), "select", None,
                      "no seat"),
    "duplicate seat": (dict(select=lambda b, p, c: [p[0]] * c), "select", None, "twice"),
    "not a seat": (dict(select=lambda b, p, c: ["0"] + list(p[1:c])), "select", None,
                   "not a seat"),
    "bool seat": (dict(select=lambda b, p, c: [True] + list(p[1:c])), "select", None,
                  "not a seat"),
    "not a collection": (dict(select=lambda b, p, c: 3), "select", "3", "collection"),
    "int vote": (dict(vote=1), "vote", "1", "True or False"),
    "str vote": (dict(vote="yes"), "vote", "'yes'", "True or False"),
    "None vote": (dict(vote=None), "vote", "None", "True or False"),
    "int sabotage": (dict(sabotage=1), "sabotage", "1", "True or False"),
    "None sabotage": (dict(sabotage=None), "sabotage", "None", "True or False"),
    "raising select": (dict(select=_raise), "select", None, "RuntimeError: kaboom"),
    "raising vote": (dict(vote=_raise), "vote", None, "RuntimeError: kaboom"),
    "raising sabotage": (dict(sabotage=_raise), "sabotage", None, "RuntimeError: kaboom"),
    "slow vote": (dict(vote=_slow_vote), "vote", "True", "time limit"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_invalid_decisions_end_the_game_with_a_named_error(case, script_bot):
    kwargs, decision, value, reason = BAD[case]
    n, culprit = 5, 1  # seat 1 is a spy and leads the first proposal
    bots = [script_bot(sabotage=True) for _ in range(n)]
    bots[culprit] = script_bot(**kwargs) if "sabotage" in kwargs else script_bot(
        sabotage=True, **kwargs)
    result = play_game(bots, seed=3, first_leader=culprit, spies=[0, 1],
                       names=[f"bot{i}" for i in range(n)],
                       time_limit=0.05 if case == "slow vote" else None)
    err = result.error
    assert isinstance(err, BotError), f"{case}: no error raised"
    assert (err.bot, err.seat, err.decision) == (f"bot{culprit}", culprit, decision)
    message = str(err)
    assert f"'bot{culprit}'" in message and f"seat {culprit}" in message and decision in message
    if value is not None:
        assert value in message
    assert reason in message
    assert result.winner is None
    record = result.to_record()
    assert record["error"]["decision"] == decision and record["error"]["seat"] == culprit
    replay_record(record)  # an aborted game still replays up to where it stopped
    # The process carries on: the next game is unaffected.
    assert play_game(["randombot"] * 5, seed=3).error is None


def test_a_raising_notification_is_an_error_too(script_bot):
    bot = script_bot()
    bot.on_mission_complete = _raise
    result = play_game([script_bot(), bot] + [script_bot() for _ in range(3)], seed=1,
                       spies=[3, 4])
    assert result.error is not None and result.error.decision == "on_mission_complete"
    assert result.error.seat == 1


def test_numpy_bools_and_seats_are_accepted(script_bot):
    bots = [script_bot(vote=lambda b, t: np.bool_(True),
                       select=lambda b, p, c: np.arange(c, dtype=np.int64),
                       sabotage=np.bool_(False)) for _ in range(5)]
    result = play_game(bots, seed=0)
    assert result.error is None and result.winner == "resistance"


# --- hidden information ------------------------------------------------------------------

_PUBLIC_VIEW = ("mission", "attempt", "wins", "losses", "leader", "team", "phase", "players",
                "n_players", "n_spies", "names", "team_size", "fails_needed", "proposals",
                "missions", "winner", "rules")


class Snoop(Bot):
    """Records everything it is given: arguments, every view field, its own attributes.

    Decisions use only ``self.rng`` (seeded by seat), so they do not depend on the role;
    as a spy it never fails a mission, so the public game does not depend on the roles.
    """

    def __init__(self) -> None:
        super().__init__()
        self.log: list = []
        self.reachable: list = []

    def _record(self, name, *args):
        view = {f: getattr(self.game, f) for f in _PUBLIC_VIEW}
        self.log.append((name, args, view, self.spy, tuple(sorted(self.spies))))
        self.reachable.append(_reachable([self, *args]))

    def on_game_revealed(self, players, spies):
        self._record("on_game_revealed", players, spies)

    def on_mission_attempt(self, mission, attempt, leader):
        self._record("on_mission_attempt", mission, attempt, leader)

    def select(self, players, count):
        self._record("select", players, count)
        return self.rng.sample(list(players), count)

    def on_team_selected(self, leader, team):
        self._record("on_team_selected", leader, team)

    def vote(self, team):
        self._record("vote", team)
        return self.rng.random() < 0.6

    def on_vote_complete(self, votes):
        self._record("on_vote_complete", votes)

    def sabotage(self):
        self._record("sabotage")
        return False

    def on_mission_complete(self, fails):
        self._record("on_mission_complete", fails)

    def on_game_complete(self, resistance_won, spies):
        self._record("on_game_complete", resistance_won, spies)


_OPAQUE = (types.ModuleType, type, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType)


def _reachable(roots) -> list:
    """Every object reachable from ``roots`` through data (not through modules or code)."""
    seen, out, todo = set(), [], list(roots)
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, _OPAQUE):
            continue
        seen.add(id(obj))
        out.append(obj)
        todo.extend(gc.get_referents(obj))
    return out


def _forbidden(obj) -> bool:
    from spyglass.resistance.arena.referee import _Game

    return (isinstance(obj, (np.ndarray, GameResult, _Game))
            or (isinstance(obj, dict) and "cards" in obj))


@pytest.mark.parametrize("n", SIZES)
def test_resistance_seats_learn_nothing_of_the_roles(n):
    """Same public game, two different spy sets: a resistance seat's whole input is equal.

    The snooping seat is resistance in both deals; until the game is over everything it
    was given (arguments, the whole game view, its own attributes) must be identical.
    """
    k = OFFICIAL[n][0]
    deal_a, deal_b = list(range(1, k + 1)), list(range(n - k, n))
    runs = []
    for spies in (deal_a, deal_b):
        bots = [Snoop() for _ in range(n)]
        result = play_game(bots, seed=n, spies=spies, first_leader=0)
        assert result.error is None
        runs.append((bots, result))
    (bots_a, res_a), (bots_b, res_b) = runs
    public = [{k: v for k, v in e.items() if k != "cards"} for e in res_a.events]
    assert public == [{k: v for k, v in e.items() if k != "cards"} for e in res_b.events]
    seat = 0  # resistance in both deals
    log_a, log_b = bots_a[seat].log, bots_b[seat].log
    assert log_a[:-1] == log_b[:-1]
    assert log_a[0][1][1] == frozenset() and log_a[0][4] == ()
    # The end reveals the spies (and only then do the logs differ).
    assert log_a[-1][1][1] == frozenset(deal_a) and log_b[-1][1][1] == frozenset(deal_b)


@pytest.mark.parametrize("n", SIZES)
def test_spies_learn_exactly_the_spies_and_nobody_reaches_the_secrets(n):
    result = None
    bots = [Snoop() for _ in range(n)]
    seen_by_observer: list[dict] = []
    result = play_game(bots, seed=100 + n, observers=[lambda e, v: seen_by_observer.append(e)])
    spies = frozenset(result.spies)
    for seat, bot in enumerate(bots):
        name, args, _, spy, known = bot.log[0]
        assert name == "on_game_revealed" and spy == (seat in spies)
        assert args[1] == (spies if spy else frozenset())
        assert all(entry[4] == (tuple(sorted(spies)) if spy else ()) for entry in bot.log)
        assert bot.log[-1][1][1] == spies
        for objs in bot.reachable:
            bad = [o for o in objs if _forbidden(o)]
            assert not bad, f"seat {seat} can reach {type(bad[0]).__name__}"
    # Observers (transcripts, spectators) never see who played which card.
    assert not any("cards" in e for e in seen_by_observer)
    assert all("spies" not in e for e in seen_by_observer if e["type"] != "end")
    assert seen_by_observer[-1] == {"type": "end", "winner": result.winner,
                                    "reason": result.end_reason, "spies": list(result.spies)}


def test_the_game_view_is_read_only():
    bot = Snoop()
    play_game([bot] + ["randombot"] * 4, seed=1)
    assert isinstance(bot.game, GameView)
    with pytest.raises(AttributeError):
        bot.game.wins = 3
    assert isinstance(bot.game.proposals, tuple) and isinstance(bot.game.missions, tuple)


# --- determinism and random games ------------------------------------------------------


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("rules", ["spies_win", "forced"])
def test_same_seed_same_game(n, rules):
    records = [play_game(["randombot"] * n, seed=s, rules=Rules(rules)).to_record()
               for s in (7, 7, 8)]
    assert records[0] == records[1]
    assert records[0] != records[2]


@settings(max_examples=60, deadline=None)
@given(n=st.sampled_from(SIZES), forced=st.booleans(), seed=st.integers(0, 2**40))
def test_random_games_follow_the_official_table(n, forced, seed):
    spies, sizes, needed = OFFICIAL[n]
    result = play_game(["randombot"] * n, seed=seed, rules=Rules("forced" if forced else
                                                              "spies_win"))
    assert result.error is None and result.winner in ("resistance", "spies")
    assert len(result.spies) == spies
    check = replay_record(result.to_record())
    assert check.finished and check.winner == result.winner
    leader = None
    wins = losses = 0
    for e in result.events:
        m = e["mission"] - 1
        assert len(e["team"]) == sizes[m]
        if e["type"] == "proposal":
            if leader is not None:
                assert e["leader"] == (leader + 1) % n
            leader = e["leader"]
            if forced and e["attempt"] == 5:
                assert e["votes"] is None and e["approved"]
            else:
                assert e["approved"] == (2 * sum(e["votes"]) > n)
        else:
            assert e["fails"] == sum(e["cards"])
            assert all(not c or seat in result.spies for seat, c in zip(e["team"], e["cards"],
                                                                        strict=True))
            assert e["sabotaged"] == (e["fails"] >= needed[m])
            wins += not e["sabotaged"]
            losses += e["sabotaged"]
    assert (wins == 3) == (result.winner == "resistance" and
                           result.end_reason == "three missions succeeded")
    if result.end_reason == "five proposals rejected in one mission":
        assert not forced and result.winner == "spies" and wins < 3 and losses < 3


def test_a_bot_that_never_answers_is_stopped_and_named(script_bot):
    """A hung decision must not hang the game: the referee's watchdog stops it."""
    import time

    from spyglass.resistance.arena.referee import hard_stop_after

    def hang(bot, team):
        time.sleep(3600)

    bots = [script_bot(sabotage=True) for _ in range(5)]
    bots[2] = script_bot(sabotage=True, vote=hang)
    t0 = time.perf_counter()
    result = play_game(bots, seed=3, first_leader=1, spies=[0, 1],
                       names=[f"bot{i}" for i in range(5)], time_limit=0.05)
    assert time.perf_counter() - t0 < hard_stop_after(0.05) + 5
    err = result.error
    assert isinstance(err, BotError)
    assert (err.bot, err.seat, err.decision) == ("bot2", 2, "vote")
    assert "stopped" in str(err) and "time limit" in str(err)
    assert result.winner is None


def test_a_bot_that_swallows_exceptions_cannot_swallow_the_watchdog(script_bot):
    import time

    def stubborn(bot, team):
        while True:
            try:
                time.sleep(3600)
            except Exception:  # noqa: BLE001 — exactly what the watchdog must get through
                pass

    bots = [script_bot(sabotage=True) for _ in range(5)]
    bots[3] = script_bot(sabotage=True, vote=stubborn)
    result = play_game(bots, seed=3, first_leader=1, spies=[0, 1], time_limit=0.02)
    assert result.error is not None and result.error.seat == 3


def test_the_watchdog_leaves_no_timer_behind(script_bot):
    import signal

    handler = signal.getsignal(signal.SIGALRM)
    outer_left = signal.getitimer(signal.ITIMER_REAL)[0]  # e.g. pytest-timeout's own alarm
    result = play_game([script_bot(sabotage=True) for _ in range(5)], seed=1, time_limit=1.0)
    assert result.ok
    assert signal.getsignal(signal.SIGALRM) is handler
    left = signal.getitimer(signal.ITIMER_REAL)[0]
    if outer_left == 0:
        assert left == 0
    else:  # someone else's timer is still armed, and not extended
        assert 0 < left <= outer_left
