"""Hostile bots (issue 11): every attack must fail to do harm.

Bots from ``tests/hostile/*.py`` are loaded from files, so the arena runs each in its
own worker process by default. Checks: no role learned beyond chance (a binomial bound,
not a fixed count), no forgery seen by another bot, no tournament stopped or game lost,
every offender named by bot, seat and decision.
"""

from __future__ import annotations

import itertools
import json
import math
import os
import time
from pathlib import Path

import pytest
from tournament_outputs import records_by_index

from spyglass import tournament
from spyglass.arena.sandbox import WorkerPool
from spyglass.resistance.arena import referee
from spyglass.resistance.arena.referee import BotError, play_game
from spyglass.resistance.arena.replay import replay_record
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.random_bot import RandomBot

HOSTILE = Path(__file__).parent / "hostile"
LEAKS, DOS, VALUES = (str(HOSTILE / f) for f in ("leaks.py", "dos.py", "values.py"))


def _max_hits(n: int, p: float, alpha: float = 1e-6) -> int:
    """The smallest k with P(Binomial(n, p) >= k) <= alpha: more hits than chance allows."""
    tail = 1.0
    for k in range(n + 1):
        if tail <= alpha:
            return k
        tail -= math.comb(n, k) * p**k * (1 - p) ** (n - k)
    return n + 1


def _extras(out: Path, label: str) -> list[tuple[dict, dict]]:
    """(extra, record) for every seat of bot ``label`` in a results directory."""
    rows = []
    for rec in records_by_index(out).values():
        for seat, who in enumerate(rec["tournament"]["players"]):
            if who == label:
                rows.append((rec.get("extra", {}).get(str(seat)), rec))
    return rows


# --- information leaks ------------------------------------------------------------------
@pytest.mark.parametrize("attacker", ["NameSnoop", "FrameWalker", "GcScanner"])
def test_no_role_is_learned_beyond_chance(tmp_path, attacker):
    games = 40
    out = tmp_path / attacker
    res = tournament.run(spy_bot="randombot", resistance_bot=f"{LEAKS}:{attacker}",
                         model="balanced", games=games, seed=11, out=out, workers=1,
                         progress=False, chunk=games)
    assert res.complete and res.tally.errors == 0
    assert res.to_dict()["isolation"]["isolated_bots"] == [attacker.lower()]
    hits = total = 0
    for extra, rec in _extras(out, attacker.lower()):
        assert not extra["found"], "the attacker reached another object's roles"
        total += 1
        hits += sorted(extra["guess"]) == sorted(rec["roles"]["spies"])
    assert total >= games  # at least one resistance seat per game
    # Under no leak a guess made without the roles hits a uniform deal with p = 1/10.
    assert hits < _max_hits(total, 1 / math.comb(5, 2)), f"{hits} of {total} exact guesses"


def test_balanced_names_are_neutral_even_in_process(tmp_path):
    out = tmp_path / "names"
    tournament.run([], spy_bot="randombot", resistance_bot=f"{LEAKS}:NameSnoop",
                   model="balanced", games=20, seed=2, out=out, workers=1, progress=False,
                   isolate="none")
    for extra, rec in _extras(out, "namesnoop"):
        assert rec["setup"]["bots"] == [f"seat{i}" for i in range(5)]
        assert sorted(extra["guess"]) != sorted(rec["roles"]["spies"])


@pytest.mark.parametrize("isolate", ["auto", "none"])
def test_a_forger_changes_only_its_own_view(isolate):
    forger, witness = f"{LEAKS}:Forger", f"{LEAKS}:Witness"
    bots = [witness, forger, witness, witness, witness]
    result = play_game(bots, seed=4, isolate=isolate, time_limit=5)
    assert result.ok, result.error
    rec = result.to_record()
    votes = [e["votes"] for e in rec["events"] if e["type"] == "proposal"]
    wins = sum(1 for e in rec["events"] if e["type"] == "mission" and not e["sabotaged"])
    for seat in (0, 2, 3, 4):
        seen = rec["extra"][str(seat)]
        assert seen["votes"] == votes and seen["wins"] == wins
        assert seen["names"] == list(rec["setup"]["bots"])


# --- denial of service ------------------------------------------------------------------
@pytest.mark.parametrize("attacker", ["Exits", "HardExits", "RaisesInterrupt", "Stubborn",
                                      "IgnoresAlarm", "RegexBomb"])
def test_a_bot_cannot_stop_the_tournament(tmp_path, attacker):
    out = tmp_path / attacker
    t0 = time.monotonic()
    res = tournament.run([f"{DOS}:{attacker}", "randombot"], games=2, seed=1, workers=1,
                         out=out, progress=False, time_limit=0.1)
    assert time.monotonic() - t0 < 60
    assert res.complete and not res.interrupted
    recs = records_by_index(out)
    assert len(recs) == 2 and (out / "results.json").is_file()
    errors = [r["error"] for r in recs.values() if "error" in r]
    assert errors and res.tally.errors == len(errors)
    for err in errors:
        assert err["bot"] is not None and err["decision"] == "vote"
        assert err["seat"] is not None and len(json.dumps(err)) < 20_000


def test_a_sleeping_bot_meets_the_default_time_limit(tmp_path, monkeypatch):
    monkeypatch.setattr(referee, "DEFAULT_TIME_LIMIT", 0.2)
    t0 = time.monotonic()
    result = play_game([f"{DOS}:Sleeper"] + ["randombot"] * 4, seed=0)
    assert time.monotonic() - t0 < 30
    assert result.error is not None and result.error.decision == "vote"
    assert result.error.seat == 0 and "did not answer" in result.error.reason


def test_bad_extras_are_dropped_and_resume_still_works(tmp_path):
    out = tmp_path / "extras"
    res = tournament.run([f"{VALUES}:BadExtra", "randombot"], games=6, seed=3, workers=1,
                         out=out, progress=False)
    assert res.complete and res.tally.errors == 0 and res.games == 6
    for rec in records_by_index(out).values():
        assert "extra" not in rec or all(v is not None for v in rec["extra"].values())
    lines = (out / "games.jsonl").read_text().splitlines()
    assert any("record_extra dropped" in line for line in lines)
    again = tournament.run(resume=out, progress=False)
    assert again.complete and again.games == 6


# --- values built to fool the referee -----------------------------------------------------
@pytest.mark.parametrize("attacker,words", [
    ("LiarSeat", "no seat"), ("BrokenGenerator", "boom while being read"),
    ("EndlessSelect", "too many values"), ("HugeSelect", "too many values")])
@pytest.mark.parametrize("isolate", ["auto", "none"])
def test_bad_teams_are_named_errors(attacker, words, isolate):
    t0 = time.monotonic()
    result = play_game([f"{VALUES}:{attacker}"] + ["randombot"] * 4, seed=5, first_leader=0,
                       isolate=isolate, time_limit=2)
    assert time.monotonic() - t0 < 20
    err = result.error
    assert isinstance(err, BotError) and (err.seat, err.decision) == (0, "select")
    assert err.bot == attacker.lower() and words in err.reason
    line = json.dumps(result.to_record(), allow_nan=False)
    assert len(line) < 30_000
    replay_record(json.loads(line))  # the referee and the rules kernel stayed in step


@pytest.mark.parametrize("attacker", ["WordySuspicion", "NanSuspicion"])
def test_bad_suspicion_is_dropped_with_a_warning(attacker):
    result = play_game([f"{VALUES}:{attacker}"] + ["randombot"] * 4, seed=6,
                       track_suspicion=True)
    assert result.ok and result.winner is not None
    rec = result.to_record()
    json.dumps(rec, allow_nan=False)
    assert "0" not in rec.get("suspicion", {})
    assert rec["warnings"] and "suspicion" in rec["warnings"][0]


# --- the contract: a seat's inputs do not depend on another seat's hidden role -------------
def test_inputs_do_not_depend_on_other_seats_roles():
    recorder, plain = f"{HOSTILE / 'contract.py'}:Recorder", f"{HOSTILE / 'contract.py'}:Steady"
    digests = []
    with WorkerPool() as workers:  # one worker per seat, reused by the isolated games
        for spies, isolate in itertools.product(([1, 2], [3, 4], [2, 4]), ("auto", "none")):
            result = play_game([recorder] + [plain] * 4, seed=9, spies=spies,
                               isolate=isolate, first_leader=0, workers=workers)
            assert result.ok, result.error
            digests.append(result.to_record()["extra"]["0"])
    assert len(set(digests)) == 1 and digests[0]


# --- inputs and the API -------------------------------------------------------------------
def test_no_seed_means_a_fresh_deal_every_time():
    seeds = {play_game(["randombot"] * 5).seed for _ in range(20)}
    assert len(seeds) == 20 and max(seeds) > 2**40


class _Mine(RandomBot):
    pass


def test_the_api_takes_classes_instances_factories_and_names(tmp_path):
    assert play_game([RandomBot, _Mine(), lambda: RandomBot(), "randombot", _Mine]).ok
    same = RandomBot()
    with pytest.raises(ValueError, match="same Bot instance"):
        play_game([same] * 5)
    res = tournament.run([_Mine, "randombot", RandomBot()], games=30, seed=1, progress=False,
                         workers=1)
    assert res.complete and res.tally.errors == 0


@pytest.mark.parametrize("kwargs,error,word", [
    (dict(rules=3.5), TypeError, "rules"), (dict(rules="bogus"), ValueError, "rules"),
    (dict(time_limit=-1), ValueError, "time_limit"), (dict(first_leader="0"), TypeError,
                                                      "first_leader"),
    (dict(seed=1.5), TypeError, "seed"), (dict(seed=-1), ValueError, "seed"),
    (dict(seed=2**64), ValueError, "seed"), (dict(track_suspicion="no"), TypeError,
                                              "track_suspicion"),
    (dict(isolate="maybe"), ValueError, "isolate")])
def test_bad_play_game_arguments_are_named(kwargs, error, word):
    with pytest.raises(error, match=word):
        play_game(["randombot"] * 5, **kwargs)
    assert play_game(["randombot"] * 5, rules="forced", seed=1).ok


@pytest.mark.parametrize("kwargs,word", [
    (dict(games=True), "games"), (dict(seed=1.5), "seed"), (dict(chunk=2.5), "chunk"),
    (dict(track_suspicion="no"), "track_suspicion"), (dict(time_limit=-1), "time"),
    (dict(games=10**20), "games"), (dict(seed=-5), "seed"), (dict(rules="bogus"), "rules")])
def test_bad_tournament_arguments_are_named(kwargs, word):
    with pytest.raises((TypeError, ValueError), match=word):
        tournament.run(["randombot"], **{"games": 10, "progress": False, **kwargs})


def test_a_bot_is_not_a_user(monkeypatch):
    class Plain(Bot):
        pass

    with pytest.raises(TypeError, match=r"bots\[0\]"):
        play_game([object()] + ["randombot"] * 4)
    with pytest.raises(TypeError, match=r"bots\[1\]"):
        tournament.run(["randombot", 42], games=10, progress=False)
    assert play_game([Plain] * 5, seed=0).ok


def test_resume_names_a_corrupt_or_conflicting_line_and_repair_drops_it(tmp_path):
    out = tmp_path / "t"
    ref = tournament.run(["randombot", "randombot"], games=20, seed=3, chunk=5, out=out,
                         workers=1, progress=False)
    path = out / "games.jsonl"
    lines = path.read_text().splitlines()
    other = json.loads(lines[3])
    other["outcome"]["winner"] = "resistance" if other["outcome"]["winner"] == "spies" else \
        "spies"
    broken = [lines[0], other and json.dumps(other), "{garbage"] + lines[1:]
    path.write_text("\n".join(broken) + "\n")
    with pytest.raises(tournament.TournamentError) as info:
        tournament.run(resume=out, progress=False)
    message = str(info.value)
    assert "line 2" in message and "line 3" in message and "--repair" in message
    assert "line 6" in message  # the original of the conflicting record: neither is chosen
    fixed = tournament.run(resume=out, progress=False, repair=True)
    assert fixed.complete and fixed.to_dict() == ref.to_dict()
    assert (out / "games.jsonl.bak").is_file()


# --- the command line ------------------------------------------------------------------------
@pytest.mark.parametrize("args,word", [
    (["tournament", "randombot", "--games", "99999999999999999999"], "games"),
    (["tournament", "randombot", "--seed", "-3"], "seed"),
    (["tournament", "randombot", "--seed", str(2**64)], "seed"),
    (["tournament", "randombot", "--time-limit", "-1"], "time"),
    (["tournament", "human", "randombot", "--games", "10"], "person"),
    (["tournament", "randombot", "--isolate", "maybe"], "isolation"),
    (["game", "--seed", "-1"], "seed"),
    (["game", "--time-limit", "0"], "time"),
])
def test_bad_numbers_on_the_command_line_exit_2(cli, tmp_path, args, word):
    result = cli(*args, "--out", tmp_path / "t") if args[0] == "tournament" else cli(*args)
    assert result.exit_code == 2, result.output
    assert word in result.output.lower()


def test_record_is_checked_before_the_game_is_played(cli, tmp_path):
    result = cli("game", "--seed", "1", "--record", tmp_path)
    assert result.exit_code == 2 and "directory" in result.output
    assert "Mission" not in result.output and "mission" not in result.output


def test_a_live_game_does_not_show_its_seed_before_the_end(cli):
    result = cli("game", "--bot", "human", "--seed", "123456789", input="q\n")
    head = result.output.split("Seed 123456789")[0]
    assert "123456789" not in head


@pytest.mark.parametrize("exc", [KeyboardInterrupt, SystemExit, GeneratorExit])
def test_in_process_a_raised_interrupt_or_exit_is_the_bots_error(exc):
    class Quitter(RandomBot):
        def vote(self, team):
            raise exc

    result = play_game([Quitter(), "randombot", "randombot", "randombot", "randombot"], seed=2)
    assert result.error is not None and (result.error.seat, result.error.decision) == (0, "vote")
    assert exc.__name__ in result.error.reason


def _sandbox_workers() -> list[int]:
    """Worker processes (spyglass.arena.sandbox) whose parent is this process."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{pid}/status") as fh:
                ppid = next(int(line.split()[1]) for line in fh if line.startswith("PPid:"))
            with open(f"/proc/{pid}/cmdline", "rb") as fh:
                cmd = fh.read()
        except (OSError, StopIteration, ValueError):
            continue
        if ppid == os.getpid() and b"spyglass.arena.sandbox" in cmd:
            found.append(int(pid))
    return found


@pytest.mark.skipif(not os.path.isdir("/proc"), reason="needs /proc (Linux)")
def test_no_worker_process_outlives_its_games(tmp_path):
    assert not _sandbox_workers()
    result = play_game([f"{DOS}:Stubborn"] + ["randombot"] * 4, seed=1, time_limit=0.1)
    assert result.error is not None and result.error.seat == 0
    assert not _sandbox_workers()  # (tournament chunks close their pool the same way)
