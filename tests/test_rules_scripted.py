"""Scripted games through the referee: each way a game can end, and the two-fail rule.

Rules from Cowling et al. 2015, §III and Taylor 2014, §2.1 (three missions win; five rejected
proposals
in one round win for the spies; a majority approves), the "forced" fifth proposal from
Cowling et al. 2015/001 (issue 2), and the 7+ player mission-4 rule from shared/seeds/README.md.
"""

from __future__ import annotations

import pytest
from conftest import OFFICIAL, SIZES

from spyglass.games.resistance.options import Rules
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.arena.replay import replay_record


def first_spies(n: int) -> list[int]:
    return list(range(OFFICIAL[n][0]))


def outsiders(n: int, count: int) -> list[int]:
    """``count`` resistance seats when the spies are the first seats."""
    return list(range(n - count, n))


def play(bots, n, rules="spies_win", leader=0, spies=None):
    result = play_game(bots, seed=1, rules=Rules(rules), first_leader=leader,
                       spies=first_spies(n) if spies is None else spies)
    assert result.error is None, result.error
    replay_record(result.to_record())
    return result


def missions(result):
    return [e for e in result.events if e["type"] == "mission"]


def proposals(result):
    return [e for e in result.events if e["type"] == "proposal"]


@pytest.mark.parametrize("n", SIZES)
def test_three_successful_missions_win_for_the_resistance(n, script_bot):
    bots = [script_bot(select=lambda b, p, c: outsiders(len(p), c)) for _ in range(n)]
    result = play(bots, n)
    assert result.winner == "resistance" and result.end_reason == "three missions succeeded"
    assert [m["fails"] for m in missions(result)] == [0, 0, 0]
    assert [len(m["team"]) for m in missions(result)] == list(OFFICIAL[n][1][:3])


@pytest.mark.parametrize("n", SIZES)
def test_three_failed_missions_win_for_the_spies(n, script_bot):
    # The default team starts at the leader's seat; seats 0-1 lead and are spies.
    bots = [script_bot(select=lambda b, p, c: list(range(c)), sabotage=True) for _ in range(n)]
    result = play(bots, n)
    assert result.winner == "spies" and result.end_reason == "three missions failed"
    ms = missions(result)
    assert [m["sabotaged"] for m in ms] == [True] * 3
    spies_on = [min(OFFICIAL[n][0], size) for size in OFFICIAL[n][1][:3]]
    assert [m["fails"] for m in ms] == spies_on  # every spy on the team failed it


@pytest.mark.parametrize("n", SIZES)
def test_five_rejections_win_for_the_spies_under_spies_win(n, script_bot):
    bots = [script_bot(vote=False) for _ in range(n)]
    result = play(bots, n, leader=n - 2)
    assert result.winner == "spies"
    assert result.end_reason == "five proposals rejected in one mission"
    ps = proposals(result)
    assert [(p["mission"], p["attempt"]) for p in ps] == [(1, a) for a in range(1, 6)]
    assert [p["leader"] for p in ps] == [(n - 2 + i) % n for i in range(5)]
    assert not any(p["approved"] for p in ps) and not missions(result)


@pytest.mark.parametrize("n", SIZES)
def test_forced_fifth_proposal_goes_ahead_without_a_vote(n, script_bot):
    bots = [script_bot(vote=False, select=lambda b, p, c: outsiders(len(p), c))
            for _ in range(n)]
    result = play(bots, n, rules="forced", leader=3)
    assert result.winner == "resistance" and result.end_reason == "three missions succeeded"
    ps = proposals(result)
    assert len(ps) == 15
    for i, p in enumerate(ps):
        assert p["leader"] == (3 + i) % n  # the leader moves on after every proposal
        if p["attempt"] == 5:
            assert p["votes"] is None and p["approved"]
        else:
            assert p["votes"] == [False] * n and not p["approved"]
    # Nobody is asked to vote on a forced proposal: 4 votes per mission per bot.
    assert all(sum(c[0] == "vote" for c in b.calls) == 4 * 3 for b in bots)


@pytest.mark.parametrize("n", SIZES)
def test_approval_needs_a_strict_majority(n, script_bot):
    half = n // 2
    # Exactly half approve: rejected (a tie is not a majority); half + 1: approved.
    for yes, approved in ((half, False), (half + 1, True)):
        bots = [script_bot(vote=lambda b, t, yes=yes: b.seat < yes) for _ in range(n)]
        result = play_game(bots, seed=2, first_leader=0, spies=first_spies(n))
        first = proposals(result)[0]
        assert first["votes"] == [s < yes for s in range(n)]
        assert first["approved"] is approved


def _mission4_bots(n, fails_on_mission_4, script_bot):
    """M1 clean (success), M2 with spy 0 (fails), M3 clean, M4 with spies 0 and 1."""
    spies, sizes, _ = OFFICIAL[n]

    def select(bot, players, count):
        m = bot.game.mission
        if m in (2, 4):
            return list(range(2 if m == 4 else 1)) + outsiders(n, count - (2 if m == 4 else 1))
        return outsiders(n, count)

    def sabotage(bot):
        m = bot.game.mission
        if m == 2:
            return bot.seat == 0
        if m == 4:
            return bot.seat < fails_on_mission_4
        return False

    return [script_bot(select=select, sabotage=sabotage) for _ in range(n)]


@pytest.mark.parametrize("n", [7, 8, 9, 10])
def test_mission_four_with_one_fail_succeeds_at_seven_or_more(n, script_bot):
    result = play(_mission4_bots(n, 1, script_bot), n)
    m4 = missions(result)[3]
    assert m4["fails"] == 1 and not m4["sabotaged"]
    assert result.winner == "resistance" and len(missions(result)) == 4


@pytest.mark.parametrize("n", [7, 8, 9, 10])
def test_mission_four_with_two_fails_fails_at_seven_or_more(n, script_bot):
    result = play(_mission4_bots(n, 2, script_bot), n)
    ms = missions(result)
    assert ms[3]["fails"] == 2 and ms[3]["sabotaged"]
    assert len(ms) == 5 and result.winner == "resistance"  # mission 5 is clean
    assert [m["sabotaged"] for m in ms] == [False, True, False, True, False]


@pytest.mark.parametrize("n", [5, 6])
def test_mission_four_with_one_fail_fails_below_seven(n, script_bot):
    result = play(_mission4_bots(n, 1, script_bot), n)
    ms = missions(result)
    assert ms[3]["fails"] == 1 and ms[3]["sabotaged"]


def test_first_leader_is_seeded_or_given(script_bot):
    leaders = {play_game(["randombot"] * 6, seed=s).first_leader for s in range(30)}
    assert len(leaders) > 1  # drawn from the seed ...
    assert all(play_game(["randombot"] * 6, seed=s).first_leader ==
               play_game(["randombot"] * 6, seed=s).first_leader for s in range(5))  # ... fixed
    result = play_game(["randombot"] * 6, seed=4, first_leader=5)
    assert result.first_leader == 5 and proposals(result)[0]["leader"] == 5
