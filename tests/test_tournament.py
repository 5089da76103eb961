"""Tournaments end to end: results directory, invariance, bad bots, memory, CLI."""

from __future__ import annotations

import csv
import json

import pytest
from tournament_outputs import records_by_index, results_json

from spyglass import tournament
from spyglass.resistance.arena.table import TournamentError

FIVE = ["randombot"] * 5




def test_results_directory(tmp_path):
    out = tmp_path / "run"
    res = tournament.run(FIVE, games=300, seed=1, out=out, workers=1, progress=False,
                         chunk=100)
    assert res.complete and not res.interrupted and res.games == 300
    files = sorted(p.name for p in out.iterdir())
    assert files == ["agents.csv", "bots.csv", "games.jsonl", "results.json",
                     "tournament.json", "winrates.png"]
    data = results_json(out)
    assert data["games"] == 300 and data["games_with_errors"] == 0
    assert set(data["bots"]) == {"randombot"} | {f"randombot({k})" for k in range(2, 6)}
    # every seat of every game is some bot's game: 5 x 300 = 1500 bot-games
    assert sum(b["overall"]["n"] for b in data["bots"].values()) == 1500
    assert sum(b["spy"]["n"] for b in data["bots"].values()) == 600
    assert sorted(records_by_index(out)) == list(range(300))
    rows = list(csv.DictReader(open(out / "bots.csv")))
    assert [r["bot"] for r in rows] == list(data["bots"])
    assert int(rows[0]["overall_n"]) == 300
    manifest = json.loads((out / "tournament.json").read_text())
    assert manifest["status"] == "complete" and manifest["config"]["seed"] == 1
    assert manifest["schedule"]["hash"] == res.schedule.digest()
    # statistics recomputed from the records agree with the ones kept during the run
    assert tournament.load(out).to_dict() == data
    assert (out / "winrates.png").read_bytes()[:4] == b"\x89PNG"


def test_same_seed_same_games_whatever_the_worker_count(tmp_path):
    kw = dict(games=400, seed=9, progress=False, chunk=50)
    one = tournament.run(FIVE, out=tmp_path / "one", workers=1, **kw)
    two = tournament.run(FIVE, out=tmp_path / "two", workers=2, **kw)
    assert one.to_dict() == two.to_dict() == results_json(tmp_path / "two")
    assert records_by_index(tmp_path / "one") == records_by_index(tmp_path / "two")
    other = tournament.run(FIVE, games=400, seed=10, progress=False, chunk=50, workers=1)
    assert other.to_dict() != one.to_dict()


def test_a_failing_bot_is_recorded_and_the_rest_goes_on(tmp_path):
    out = tmp_path / "flaky"
    res = tournament.run(["tournament_bots.Flaky:p=0.02", "randombot"], games=200, seed=2,
                         out=out, workers=2, progress=False, chunk=50)
    data = results_json(out)
    flaky = data["bots"]["flaky:p=0.02"]
    assert res.complete and flaky["errors"] > 0
    assert data["bots"]["randombot"]["errors"] == 0
    assert data["games_with_errors"] == flaky["errors"] == res.tally.errors
    assert data["games"] == 200 - flaky["errors"] == res.games
    recs = records_by_index(out)
    bad = [r for r in recs.values() if "error" in r]
    assert len(bad) == flaky["errors"]
    assert all(r["error"]["bot"].startswith("flaky") and "on purpose" in r["error"]["reason"]
               for r in bad)
    # games with errors are excluded: the counted games are the records without one
    assert flaky["played"] == sum(r["tournament"]["players"].count("flaky:p=0.02")
                                  for r in recs.values())


def test_a_slow_decision_breaks_the_time_limit(tmp_path):
    res = tournament.run(["tournament_bots.Sleepy:ms=30", "randombot"], games=4, seed=1,
                         workers=1, progress=False, time_limit=0.01)
    sleepy = res.bot("sleepy:ms=30")
    assert sleepy.errors == res.tally.errors > 0


def test_a_hung_bot_is_stopped_and_the_tournament_goes_on(tmp_path):
    res = tournament.run(["tournament_bots.Hangs", "randombot"], games=6, seed=1, players=5,
                         workers=2, progress=False, time_limit=0.01, out=tmp_path / "hang")
    hangs = res.bot("hangs")
    assert hangs.errors > 0 and res.tally.errors == hangs.errors
    assert res.games + res.tally.errors == 6


def test_learning_lasts_one_burst(tmp_path):
    out = tmp_path / "burst"
    tournament.run(["tournament_bots.Learner"], games=60, seed=3, model="burst", burst=20,
                   out=out, workers=2, progress=False, track_suspicion=True)
    recs = records_by_index(out)
    for index, rec in recs.items():
        extra = rec["extra"]
        # memory is fresh every burst: the n-th game of a burst is the n-th it remembers
        assert {e["games"] for e in extra.values()} == {index % 20 + 1}
        assert all(e["names_seen"] == 5 for e in extra.values())  # one identity per burst
        if any(e["type"] == "mission" for e in rec["events"]):  # sampled after missions
            assert set(rec["suspicion"]) == {"0", "1", "2", "3", "4"}
    names = [tuple(recs[i]["setup"]["bots"]) for i in range(60)]
    assert len({frozenset(names[i]) for i in range(0, 60, 20)}) == 3
    assert names[0] != names[20] and set(names[0]) == set(names[19])


def test_learning_lasts_one_chunk_in_permutations():
    res = tournament.run(["tournament_bots.Learner"] * 5, games=30, seed=4, chunk=10,
                         workers=1, progress=False)
    assert res.games == 30
    out = tournament.run(["tournament_bots.Learner"] * 5, games=30, seed=4, chunk=30,
                         workers=1, progress=False)
    assert out.to_dict()["bots"] == res.to_dict()["bots"]  # learner plays randomly


def test_balanced_spy_team_and_compare(tmp_path):
    a, b = tmp_path / "a", tmp_path / "b"
    ra = tournament.run(spy_bot="randombot", resistance_bot="randombot", games=100, seed=1,
                        model="balanced", out=a, workers=1, progress=False, interval="wilson")
    tournament.run(["randombot"], games=100, seed=2, model="balanced", out=b, workers=1,
                   progress=False)
    bal = results_json(a)["balanced"]
    assert bal["spy_bot"] == "randombot" and bal["resistance_bot"] == "randombot(2)"
    assert bal["spy_team"]["n"] == 100 and bal["spy_team"]["wins"] == ra.tally.spy_wins
    assert bal["spy_team"]["method"] == "wilson"
    assert {k: v["n"] for k, v in bal["by_configuration"].items()} == {
        f"{i},{j}": 10 for i in range(5) for j in range(i + 1, 5)}
    spy = ra.bot("randombot")
    assert spy.resistance.n == 0 and spy.spy.n == 200  # two spy seats per game
    cmp = tournament.compare(a, b)
    first = cmp["rows"][0]
    assert first["what"] == "spy team wins"
    assert first["test"]["n1"] == first["test"]["n2"] == 100
    assert 0 <= first["test"]["p_fisher"] <= 1
    # The rows are one family: Holm multiplies the smallest p-value by the family's size.
    tests = [row["test"] for row in cmp["rows"]]
    least = min(tests, key=lambda t: t["p_fisher"])
    assert least["p_holm"] == pytest.approx(min(1.0, len(tests) * least["p_fisher"]))
    assert all(t["p_fisher"] <= t["p_holm"] <= 1 for t in tests)


def test_runs_of_the_same_schedule_are_compared_as_paired(tmp_path):
    """Same seed, other rules: game i has the same deal, seats and roles in both runs, so
    compare pairs the games (McNemar, exact) and Holm-adjusts those p-values."""
    from scipy.stats import binomtest

    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    kw = {"games": 60, "seed": 8, "workers": 1, "progress": False}
    tournament.run(["randombot", "hippie"], out=a, **kw)
    tournament.run(["randombot", "hippie"], out=b, rules="forced", **kw)
    tournament.run(["randombot", "hippie"], out=c, **{**kw, "seed": 9})
    assert tournament.compare(a, c)["paired"] is False  # other seed: independent samples
    cmp = tournament.compare(a, b)
    assert cmp["paired"] is True
    bots = results_json(a)["bots"]
    for row in cmp["rows"]:
        label, part = row["what"].rsplit(" ", 1)
        pair = row["paired"]
        assert pair["pairs"] == bots[label][part]["n"]  # every seat it played, in both runs
        k, n = pair["only_a"], pair["only_a"] + pair["only_b"]
        expected = 1.0 if n == 0 else binomtest(k, n, 0.5).pvalue
        assert pair["p_mcnemar"] == pytest.approx(expected)
    ps = sorted(row["paired"]["p_mcnemar"] for row in cmp["rows"])
    least = min(cmp["rows"], key=lambda r: r["paired"]["p_mcnemar"])
    assert least["test"]["p_holm"] == pytest.approx(min(1.0, len(ps) * ps[0]))


def test_the_resistance_reports_every_games_section_with_the_2012_numbers(tmp_path):
    """results.json keeps the 2012 keys and adds every game's per-agent, per-seat and
    per-role section, whose rates are the same numbers (one statistics path)."""
    tournament.run(["randombot", "hippie"], games=40, seed=3, out=tmp_path, workers=1,
                   progress=False)
    data = results_json(tmp_path)
    assert {"bots", "games", "interval", "agents", "seats", "head_to_head", "roles"} <= set(data)
    for agent in data["agents"]:
        bot = data["bots"][agent["label"]]
        assert agent["win_rate"] == bot["overall"]
        assert agent["roles"]["spy"] == bot["spy"]
        assert agent["roles"]["resistance"] == bot["resistance"]
        assert sum(s["n"] for s in agent["seats"]) == bot["overall"]["n"]
    spies = data["roles"]["spy"]["win_rate"]
    assert spies["n"] == 2 * data["games"]  # two spies per 5-player game
    assert (tmp_path / "agents.csv").read_text().startswith("agent,games,errors,win_rate")


def test_bad_input_is_refused_with_a_clear_error(tmp_path):
    with pytest.raises(TournamentError, match="no bot named 'nobody'"):
        tournament.run(["nobody"], games=10, progress=False)
    with pytest.raises(TournamentError, match="'1x' is not a valid name"):
        tournament.run(["randombot:1x=3"], games=10, progress=False)
    with pytest.raises(TournamentError, match="cannot build bot"):
        tournament.run(["tournament_bots.Flaky:q=1"], games=10, progress=False)
    with pytest.raises(TournamentError, match="unknown fifth_rejection"):
        tournament.run(["randombot"], games=10, rules="sometimes", progress=False)
    tournament.run(["randombot"], games=5, out=tmp_path / "x", workers=1, progress=False)
    with pytest.raises(TournamentError, match="already holds a tournament"):
        tournament.run(["randombot"], games=5, out=tmp_path / "x", progress=False)
    with pytest.raises(TournamentError, match="holds no tournament"):
        tournament.run(resume=tmp_path / "nothing", progress=False)


def test_cli_tournament_and_compare(cli, tmp_path):
    out = tmp_path / "cli"
    r = cli("tournament", "randombot", "randombot", "--games", "60", "--players", "6", "--seed",
            "5", "--out", out, "--workers", "1", "--chunk", "20", "--rules", "forced", "-q")
    assert r.exit_code == 0, r.output
    assert "TOTAL" in r.output and "randombot(2)" in r.output
    data = results_json(out)
    assert data["games"] == 60 and data["players"] == 6
    assert json.loads((out / "tournament.json").read_text())["config"]["rules"] == {
        "fifth_rejection": "forced"}
    r = cli("tournament", "--resume", out, "-q")
    assert r.exit_code == 0 and results_json(out) == data
    r = cli("compare", out, out, "--json")
    assert r.exit_code == 0 and json.loads(r.output)["rows"][0]["test"]["p_fisher"] == 1.0


@pytest.mark.parametrize("args,message", [
    (["nobody"], "no bot named 'nobody'"),
    (["randombot", "--players", "4"], "5 to 10 players"),
    (["randombot", "--model", "league"], "unknown model"),
    (["randombot", "--burst", "10"], "only applies to the burst model"),
    (["randombot", "--model", "burst"], "burst size"),
    (["randombot", "--backend", "cloud"], "unknown backend"),
    (["randombot", "--workers", "0"], "at least 1"),
    (["randombot", "--games", "0"], "positive integer"),
    ([], "name at least one bot"),
])
def test_cli_errors_without_traceback(cli, tmp_path, args, message):
    r = cli("tournament", *args, "--out", tmp_path / "o", "-q")
    assert r.exit_code == 2
    assert message in " ".join(r.output.split()) and "Traceback" not in r.output


def test_cli_exit_code_when_every_game_of_a_bot_errored_or_strict(cli, tmp_path):
    always = ["tournament_bots.Flaky:p=1", "randombot", "--players", "5", "--seed", "3",
              "--workers", "1", "-q", "--games"]
    r = cli("tournament", *always, "12", "--out", tmp_path / "all")
    assert r.exit_code == 1, r.output
    said = " ".join(r.output.split())
    assert "every game of flaky:p=1 ended in an error (errors of its own" in said
    assert "no game of randombot counted" in said
    sometimes = ["tournament_bots.Flaky:p=0.02", "randombot", "--seed", "2", "--workers", "1",
                 "-q", "--games", "60"]
    r = cli("tournament", *sometimes, "--out", tmp_path / "some")
    assert r.exit_code == 0, r.output
    assert results_json(tmp_path / "some")["games_with_errors"] > 0
    r = cli("tournament", *sometimes, "--out", tmp_path / "strict", "--strict")
    assert r.exit_code == 1 and "(--strict)" in r.output
    r = cli("tournament", "randombot", "--games", "10", "--workers", "1", "-q", "--strict",
            "--out", tmp_path / "clean")
    assert r.exit_code == 0, r.output


def test_cli_resume_with_more_games_extends_the_tournament(cli, tmp_path):
    """`--resume DIR --games N` grows a balanced tournament: the first games are kept as
    they were and the whole equals a fresh run of N games (same seed)."""
    grown, fresh = tmp_path / "grown", tmp_path / "fresh"
    args = ("--model", "balanced", "--spy-bot", "randombot", "--resistance-bot", "randombot",
            "--seed", "4", "--workers", "1", "--quiet")
    assert cli("tournament", *args, "--games", "20", "--out", grown).exit_code == 0
    first = (grown / "games.jsonl").read_text().splitlines()
    r = cli("tournament", "--resume", grown, "--games", "40", "--quiet")
    assert r.exit_code == 0, r.output
    assert cli("tournament", *args, "--games", "40", "--out", fresh).exit_code == 0
    lines = (grown / "games.jsonl").read_text().splitlines()
    assert lines[:20] == first and len(lines) == 40
    assert records_by_index(grown) == records_by_index(fresh)
    assert results_json(grown)["balanced"] == results_json(fresh)["balanced"]
    r = cli("tournament", "--resume", grown, "--games", "30", "--quiet")
    assert r.exit_code == 2 and "cannot shrink" in r.output


def test_a_directory_in_use_by_another_run_is_refused(cli, tmp_path):
    """A second run on a results directory that a run is writing (here: held as a running
    one holds it) is refused at once, naming the directory, and the stored games are
    untouched; a lock file left by a killed run does not block the next one."""
    from spyglass.arena.results_dir import LOCK, hold

    out = tmp_path / "busy"
    args = ("--model", "balanced", "--spy-bot", "randombot", "--resistance-bot", "randombot",
            "--seed", "4", "--workers", "1", "--quiet")
    assert cli("tournament", *args, "--games", "10", "--out", out).exit_code == 0
    assert not (out / LOCK).exists()  # released and removed when the run ended
    before = (out / "games.jsonl").read_text()
    with hold(out, TournamentError):
        r = cli("tournament", "--resume", out, "--games", "20", "--quiet")
        assert r.exit_code != 0
        said = " ".join(r.output.split())
        assert "is in use by another run" in said and "busy" in said, said
        assert "Traceback" not in r.output
        with pytest.raises(TournamentError, match="in use by another run"):
            tournament.run(resume=out, progress=False)
    assert (out / "games.jsonl").read_text() == before
    (out / LOCK).write_text("999999")  # as a killed run leaves it: unlocked
    r = cli("tournament", "--resume", out, "--games", "20", "--quiet")
    assert r.exit_code == 0, r.output
    assert len((out / "games.jsonl").read_text().splitlines()) == 20


def test_a_game_tournament_directory_in_use_is_refused(tmp_path):
    from spyglass.arena.results_dir import hold
    from spyglass.arena.tournament import GameTournamentError, run_game_tournament

    out = tmp_path / "busy"
    with hold(out, GameTournamentError):
        with pytest.raises(GameTournamentError, match="in use by another run"):
            run_game_tournament("phantom", ["random", "random"], games=4, seed=1,
                                out=out, workers=1)
    res = run_game_tournament("phantom", ["random", "random"], games=4, seed=1, out=out,
                              workers=1)
    assert res.played_now == 4 and not res.interrupted and not (out / ".lock").exists()
