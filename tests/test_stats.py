"""Tournament statistics against values computed by hand (Taylor 2014, §5.1 for the columns)."""

from __future__ import annotations

import copy
import math

import pytest

from spyglass.arena.game_stats import agent_results, seat_results
from spyglass.arena.stats import INTERVAL_2012, compare_proportions, rate_interval
from spyglass.resistance.arena.counts import F, seat_counts
from spyglass.resistance.arena.stats import bot_stats, spy_team_rate, tally_records

T, N = True, False


def prop(mission, attempt, leader, team, votes, approved):
    return {"type": "proposal", "mission": mission, "attempt": attempt, "leader": leader,
            "team": team, "votes": votes, "approved": approved}


def mission(m, team, fails):
    return {"type": "mission", "mission": m, "team": team, "fails": fails,
            "sabotaged": fails > 0, "cards": [i < fails for i in range(len(team))]}


def game_record() -> dict:
    """Spies 0 and 1 win on the fourth mission; seats 2, 3, 4 are the resistance."""
    events = [
        prop(1, 1, 2, [0, 2], [T, T, N, T, N], True), mission(1, [0, 2], 1),
        prop(2, 1, 3, [2, 3, 4], [N, N, T, T, T], True), mission(2, [2, 3, 4], 0),
        prop(3, 1, 4, [1, 4], [T, T, N, N, T], True), mission(3, [1, 4], 1),
        prop(4, 1, 0, [0, 2, 3], [T, T, N, N, N], False),
        prop(4, 2, 1, [1, 3, 4], [T, T, T, N, T], True), mission(4, [1, 3, 4], 1),
    ]
    return {
        "version": 1,
        "setup": {"seed": 1, "players": 5, "rules": {"fifth_rejection": "spies_win"},
                  "bots": ["A", "B", "C", "D", "E"], "sources": [], "first_leader": 2},
        "roles": {"spies": [0, 1]},
        "events": events,
        "outcome": {"winner": "spies", "reason": "three missions failed"},
    }


def row(counts, seat):
    return {name: int(counts[seat, i]) for name, i in F.items()}


def test_seat_counts_by_hand():
    c = seat_counts(game_record())
    # Seat 0, a spy, was on the teams of proposals 1 and 4: resistance (2, 3, 4) voted
    # N,T,N then N,N,N -> 1 approval of 6; of the 3 teams led by resistance it was on 1.
    assert (row(c, 0)["spy_votes"], row(c, 0)["spy_votes_for"]) == (6, 1)
    assert (row(c, 0)["spy_res_teams"], row(c, 0)["spy_res_teams_on"]) == (3, 1)
    # Seat 1: teams [1,4] (N,N,T) and [1,3,4] (T,N,T) -> 3 of 6; on 1 of 3 resistance teams.
    assert (row(c, 1)["spy_votes"], row(c, 1)["spy_votes_for"]) == (6, 3)
    assert (row(c, 1)["spy_res_teams"], row(c, 1)["spy_res_teams_on"]) == (3, 1)
    # The one spy-free team [2,3,4] everyone approved; spied teams: proposals 1, 3, 4a, 4b.
    expected = {2: (1, 1, 4, 3, 1, 0), 3: (1, 1, 4, 3, 1, 1), 4: (1, 1, 4, 2, 1, 0)}
    for seat, values in expected.items():
        r = row(c, seat)
        assert (r["res_clean_votes"], r["res_clean_approved"], r["res_spied_votes"],
                r["res_spied_rejected"], r["res_proposals"], r["res_proposals_clean"]) == values
    tally = tally_records([game_record()])
    for seat, bot in enumerate("ABCDE"):
        r = row(c, seat)
        spy = seat < 2
        got = {k: tally.get(bot, k) for k in ("played", "games", "wins", "errors")}
        assert got == {"played": 1, "games": 1, "wins": int(spy), "errors": 0}
        assert (tally.get(bot, "spy_games"), tally.get(bot, "spy_wins")) == (
            (1, 1) if spy else (0, 0))
        assert (tally.get(bot, "res_games"), tally.get(bot, "res_wins")) == (
            (0, 0) if spy else (1, 0))
        if spy:
            assert r["res_proposals"] == r["res_clean_votes"] == 0


def test_a_forced_fifth_proposal_counts_as_put_forth_but_not_voted():
    rec = game_record()
    rec["events"][2]["votes"] = None  # [2,3,4] went without a vote
    c = seat_counts(rec)
    assert row(c, 3)["res_proposals_clean"] == 1 and row(c, 3)["res_clean_votes"] == 0
    assert row(c, 0)["spy_res_teams"] == 3


def test_errors_are_counted_per_bot_and_excluded():
    good = game_record()
    bad = copy.deepcopy(good)
    bad["error"] = {"bot": "D", "seat": 3, "decision": "vote", "value": "None",
                    "reason": "raised RuntimeError", "message": "", "detail": ""}
    bad["outcome"] = {"winner": None, "reason": None}
    tally = tally_records([good, bad, good])
    assert (tally.played, tally.ok, tally.errors, tally.spy_wins) == (3, 2, 1, 2)
    stats = {b.label: b for b in bot_stats(tally)}
    assert stats["D"].errors == 1 and stats["D"].played == 3 and stats["D"].overall.n == 2
    assert all(stats[x].errors == 0 for x in "ABCE")
    assert stats["A"].spy.wins == 2 and stats["C"].resistance.wins == 0
    # behaviour shares from two counted games: seat 2 rejected 3 of 4 spied teams each time
    assert stats["C"].behaviour["res_reject_spied"] == pytest.approx(6 / 8)
    assert stats["E"].behaviour["res_reject_spied"] == pytest.approx(4 / 8)
    assert stats["B"].behaviour["spy_voted"] == pytest.approx(6 / 12)
    assert stats["A"].behaviour["spy_selected"] == pytest.approx(2 / 6)
    assert stats["D"].behaviour["res_select_clean"] == 1.0
    assert spy_team_rate(tally).wins == 2 and spy_team_rate(tally).n == 2
    assert tally.configs == {(0, 1): [2, 2]}


def test_records_of_one_bot_in_several_seats_add_up():
    rec = game_record()
    rec["setup"]["bots"] = ["X", "X#2", "Y", "Y#2", "Y#3"]  # names as the referee makes them
    stats = {b.label: b for b in bot_stats(tally_records([rec]))}
    assert set(stats) == {"X", "Y"}
    assert stats["X"].spy.n == 2 and stats["Y"].resistance.n == 3


@pytest.mark.parametrize("wins,n,shown,e", [
    # Taylor 2014 Figure 31 and Figure 14: "59.3% (e=0.88 n=12000)", "27.8% (e=0.80 n=12000)"
    (7116, 12000, 59.3, 0.88), (3336, 12000, 27.8, 0.80), (5520, 12000, 46.0, 0.89),
])
def test_2012_agresti_coull_reproduces_the_published_margins(wins, n, shown, e):
    r = rate_interval(wins, n, INTERVAL_2012)
    p = (wins + 1.92) / (n + 3.84)
    assert r.estimate == pytest.approx(p)
    assert r.half_width == pytest.approx(1.96 * math.sqrt(p * (1 - p) / (n + 3.84)))
    assert round(100 * r.estimate, 1) == shown and round(100 * r.half_width, 2) == e
    assert r.rate == wins / n and r.low == pytest.approx(p - r.half_width)


def test_wilson_interval_by_hand():
    r = rate_interval(7, 10, "wilson")
    z = 1.959964
    centre = (7 + z * z / 2) / (10 + z * z)
    half = z / (10 + z * z) * math.sqrt(7 * 3 / 10 + z * z / 4)
    assert (r.low, r.high) == pytest.approx((centre - half, centre + half), abs=1e-5)
    assert (round(r.low, 4), round(r.high, 4)) == (0.3968, 0.8922)
    assert math.isnan(rate_interval(0, 0).rate)
    with pytest.raises(ValueError, match="unknown interval method"):
        rate_interval(1, 2, "guess")


def test_compare_two_runs_by_hand():
    t = compare_proportions(50, 100, 60, 100)
    pooled = 110 / 200
    z = (0.5 - 0.6) / math.sqrt(pooled * (1 - pooled) * (2 / 100))
    assert t["z"] == pytest.approx(z) and t["difference"] == pytest.approx(-0.1)
    assert t["p_ztest"] == pytest.approx(math.erfc(abs(z) / math.sqrt(2)))

    # Fisher's exact test: sum the hypergeometric tables no likelier than the observed one.
    def pmf(a):
        return math.comb(100, a) * math.comb(100, 110 - a) / math.comb(200, 110)

    observed = pmf(50)
    p = sum(pmf(a) for a in range(10, 101) if pmf(a) <= observed * (1 + 1e-7))
    assert t["p_fisher"] == pytest.approx(p)
    assert t["difference_low"] < -0.1 < t["difference_high"] < 0.1
    with pytest.raises(ValueError, match="cannot compare"):
        compare_proportions(5, 0, 1, 2)


def test_the_2012_columns_are_the_generic_per_agent_and_per_role_figures():
    """The Resistance's overall / spy / resistance rates come from every game's tally:
    the same wins and games, per agent and per (agent, role), with the same interval."""
    good, other = game_record(), copy.deepcopy(game_record())
    other["roles"]["spies"] = [3, 4]
    other["outcome"]["winner"] = "resistance"
    tally = tally_records([good, other, good])
    generic = {a.label: a for a in agent_results(tally.games, INTERVAL_2012)}
    for b in bot_stats(tally):
        a = generic[b.label]
        assert repr(a.win_rate) == repr(b.overall)  # repr: NaN for no games equals NaN
        assert repr(a.roles["spy"]) == repr(b.spy)
        assert repr(a.roles["resistance"]) == repr(b.resistance)
    # A (seat 0): spy twice (won both), resistance once (won): 3 of 3; D: resistance twice
    # (lost, lost), spy once (lost): 0 of 3.
    assert (generic["A"].win_rate.wins, generic["A"].win_rate.n) == (3, 3)
    assert (generic["D"].roles["spy"].wins, generic["D"].roles["spy"].n) == (0, 1)
    assert generic["A"].seats[0].n == 3 and generic["A"].seats[1].n == 0
    seats = seat_results(tally.games)
    assert [s.rate for s in seats] == pytest.approx([1, 1, 1 / 3, 0, 0])
    assert tally.spy_wins == 2 and tally.configs == {(0, 1): [2, 2], (3, 4): [1, 0]}
