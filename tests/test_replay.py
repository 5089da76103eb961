"""Replaying records through the rules, catching tampered records, and transcripts."""

from __future__ import annotations

import copy
import io

import pytest
from conftest import SIZES
from rich.console import Console

from spyglass.games.resistance.options import Rules
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.arena.replay import ReplayError, replay_record
from spyglass.resistance.arena.transcript import LiveTranscript, render_record


def record(n=5, seed=4, rules="spies_win", **kw):
    return play_game(["randombot"] * n, seed=seed, rules=Rules(rules), **kw).to_record()


def find(rec, kind, pred=lambda e: True):
    return next(i for i, e in enumerate(rec["events"]) if e["type"] == kind and pred(e))


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("rules", ["spies_win", "forced"])
def test_real_games_replay_exactly(n, rules):
    for seed in range(8):
        rec = record(n, seed, rules)
        check = replay_record(rec)
        assert check.finished
        assert (check.winner, check.reason) == (rec["outcome"]["winner"],
                                                rec["outcome"]["reason"])
        assert check.n_events == len(rec["events"])


def _spy_mission(rec):
    """A failed mission with a spy and a resistance member on the team: index and seats."""
    spies = set(rec["roles"]["spies"])
    for i, e in enumerate(rec["events"]):
        if e["type"] == "mission" and e["fails"]:
            s = [p for p in e["team"] if p in spies]
            r = [p for p in e["team"] if p not in spies]
            if s and r:
                return i, s, r
    raise AssertionError("no mixed mission in this game")


def tamper_leader(rec):
    i = find(rec, "proposal")
    rec["events"][i]["leader"] = (rec["events"][i]["leader"] + 1) % 5
    return i + 1, "leader"


def tamper_team_size(rec):
    i = find(rec, "proposal")
    rec["events"][i]["team"] = rec["events"][i]["team"][:-1]
    return i + 1, "team"


def tamper_duplicate_seat(rec):
    i = find(rec, "proposal")
    team = rec["events"][i]["team"]
    rec["events"][i]["team"] = [team[0]] * len(team)
    return i + 1, "distinct seats"


def tamper_vote(rec):
    i = find(rec, "proposal", lambda e: e["votes"] is not None)
    e = rec["events"][i]
    e["votes"] = [not e["approved"]] * 5  # unanimous against the recorded result
    return i + 1, "approved"


def tamper_resistance_fail(rec):
    i, _, res = _spy_mission(rec)
    e = rec["events"][i]
    e["cards"][e["team"].index(res[0])] = True
    e["fails"] = sum(e["cards"])
    return i + 1, f"seat {res[0]} is resistance"


def tamper_fail_count(rec):
    i = find(rec, "mission")
    rec["events"][i]["fails"] += 1
    return i + 1, "fail cards"


def tamper_sabotaged(rec):
    i = find(rec, "mission")
    rec["events"][i]["sabotaged"] = not rec["events"][i]["sabotaged"]
    return i + 1, "sabotaged"


def tamper_order(rec):
    i = find(rec, "mission")
    rec["events"].insert(i, copy.deepcopy(rec["events"][i]))
    rec["events"][i]["type"] = "proposal"
    return i + 1, "a proposal where the rules expect a mission"


TAMPER = {f.__name__: f for f in (tamper_leader, tamper_team_size, tamper_duplicate_seat,
                                   tamper_vote, tamper_resistance_fail, tamper_fail_count,
                                   tamper_sabotaged, tamper_order)}


@pytest.mark.parametrize("how", sorted(TAMPER))
def test_tampered_records_fail_naming_the_event(how):
    rec = record(5, seed=next(s for s in range(100) if _mixed(s)))
    index, words = TAMPER[how](rec)
    with pytest.raises(ReplayError) as info:
        replay_record(rec)
    assert f"event {index} (" in str(info.value)
    assert words in str(info.value)


def _mixed(seed):
    try:
        _spy_mission(record(5, seed))
        return True
    except AssertionError:
        return False


def test_truncated_and_overlong_records_fail():
    rec = record(6, seed=2)
    short = copy.deepcopy(rec)
    short["events"].pop()
    with pytest.raises(ReplayError, match="not over"):
        replay_record(short)
    long = copy.deepcopy(rec)
    long["events"].append(copy.deepcopy(rec["events"][-1]))
    with pytest.raises(ReplayError, match="game is over"):
        replay_record(long)
    wrong = copy.deepcopy(rec)
    wrong["outcome"]["winner"] = "resistance" if rec["outcome"]["winner"] == "spies" else "spies"
    with pytest.raises(ReplayError, match="outcome"):
        replay_record(wrong)


def test_bad_setups_are_named():
    rec = record()
    for key, value, words in (("players", 11, "5 to 10"), ("first_leader", 9, "first leader"),
                              ("rules", {"fifth_rejection": "never"}, "fifth_rejection")):
        bad = copy.deepcopy(rec)
        bad["setup"][key] = value
        with pytest.raises(ReplayError, match=words):
            replay_record(bad)
    bad = copy.deepcopy(rec)
    bad["roles"]["spies"] = [0]
    with pytest.raises(ReplayError, match="spies"):
        replay_record(bad)


def test_forced_fifth_proposal_must_not_have_votes(script_bot):
    rec = play_game([script_bot(vote=False) for _ in range(5)], seed=1, spies=[0, 1],
                    rules=Rules("forced")).to_record()
    replay_record(rec)
    i = find(rec, "proposal", lambda e: e["attempt"] == 5)
    rec["events"][i]["votes"] = [False] * 5
    with pytest.raises(ReplayError, match=f"event {i + 1} .*fifth proposal"):
        replay_record(rec)


def test_public_only_records_replay_and_impossible_fail_counts_are_caught():
    rec = record(7, seed=5)
    public = copy.deepcopy(rec)
    for e in public["events"]:
        e.pop("cards", None)
    assert replay_record(public).winner == rec["outcome"]["winner"]
    i = find(public, "mission")
    spies_on_team = len(set(public["events"][i]["team"]) & set(public["roles"]["spies"]))
    public["events"][i]["fails"] = spies_on_team + 1
    with pytest.raises(ReplayError, match=f"event {i + 1} .*only {spies_on_team} spies"):
        replay_record(public)


def _text(render) -> str:
    buf = io.StringIO()
    render(Console(file=buf, width=200, color_system=None))
    return buf.getvalue()


def test_transcripts_reveal_fail_cards_only_from_the_full_record():
    seed = next(s for s in range(100) if _mixed(s))
    rec = record(5, seed=seed)
    i, spies_on, _ = _spy_mission(rec)
    full = _text(lambda c: render_record(rec, c))
    e = rec["events"][i]
    assert f"mission {e['mission']} with" in full
    failed = [p for p, c in zip(e["team"], e["cards"], strict=True) if c]
    assert failed and set(failed) <= set(spies_on)
    assert "fail cards from " + ", ".join(map(str, failed)) in full
    assert "Spies: " in full and full.index("Spies: ") > full.index(f"mission {e['mission']}")

    def live(console):
        observer = LiveTranscript(console, Rules(), seed)
        result = play_game(["randombot"] * 5, seed=seed, observers=[observer])
        observer.finish(result)

    text = _text(live)
    assert "fail cards from" not in text  # the live (public) transcript never says who
    # The public part of both transcripts is the same game, line for line.
    strip = [line.split("   fail cards from")[0] for line in full.splitlines()]
    assert text.splitlines() == strip


def test_transcript_of_an_aborted_game_names_the_error(script_bot):
    bots = [script_bot(vote="maybe")] + [script_bot() for _ in range(4)]
    rec = play_game(bots, seed=1, names=list("abcde")).to_record()
    text = _text(lambda c: render_record(rec, c))
    assert "stopped before the end" in text and "bot 'a' in seat 0: invalid vote" in text
