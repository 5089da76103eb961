"""The command line with --game NAME (a game other than The Resistance): the toy game of
tests/toy_game.py is registered for these tests, with agents given by import path."""

from __future__ import annotations

import json

import pytest

from spyglass.agents.human import HumanAgent
from spyglass.arena.match import play_match
from spyglass.games import registry

RANDOM = "toy_game.RandomToy"
FIRST = "toy_game.FirstLegal"


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "toy_game:SecretNumbers")


def test_games_lists_games_with_players_and_options(cli):
    r = cli("games")
    assert r.exit_code == 0
    assert "Secret numbers" in r.output and "2-3" in r.output and "rounds=2" in r.output


def test_game_prints_a_transcript_and_the_record_replays(cli, tmp_path):
    rec = tmp_path / "games.jsonl"
    r = cli("game", "--game", "toy", "--seed", "5", "--agent", RANDOM, "--agent", FIRST,
            "--option", "rounds=3", "--record", rec)
    assert r.exit_code == 0, r.output
    assert "seat 1 (first)" in r.output and "rewards:" in r.output and "seed 5" in r.output
    again = cli("game", "--game", "toy", "--seed", "5", "--agent", RANDOM, "--agent", FIRST,
                "--option", "rounds=3")
    assert again.output == r.output.split("Record appended")[0]
    record = json.loads(rec.read_text())
    assert record["options"] == {"rounds": 3} and len(record["actions"]) == 6
    check = cli("replay", rec, "--check")
    assert check.exit_code == 0 and "1 of 1 game(s) replay exactly" in check.output
    shown = cli("replay", rec, "--game", "toy")
    assert shown.exit_code == 0 and "seat 1 (first)" in shown.output


def test_replay_reports_a_corrupted_record(cli, tmp_path):
    rec = tmp_path / "games.jsonl"
    cli("game", "--game", "toy", "--seed", "5", "--agent", FIRST, "--record", rec)
    record = json.loads(rec.read_text())
    record["actions"][1][1] = 9
    rec.write_text(json.dumps(record) + "\n")
    r = cli("replay", rec, "--check")
    assert r.exit_code == 1 and "move 2" in r.output and "illegal" in r.output
    record["version"] = 99
    rec.write_text(json.dumps(record) + "\n")
    r = cli("replay", rec)
    assert r.exit_code == 1 and "version 99 is not supported" in r.output


def test_replay_reads_resistance_and_other_records_in_one_file(cli, tmp_path):
    rec = tmp_path / "mixed.jsonl"
    assert cli("game", "--seed", "2", "--record", rec).exit_code == 0  # The Resistance
    assert cli("game", "--game", "toy", "--seed", "2", "--agent", FIRST,
               "--record", rec).exit_code == 0
    r = cli("replay", rec, "--check")
    assert r.exit_code == 0 and "2 of 2 game(s) replay exactly" in r.output
    r = cli("replay", rec, "--game", "resistance", "--check")
    assert "1 of 1" in r.output
    r = cli("replay", rec, "--game", "2")
    assert r.exit_code == 0 and "Secret numbers" in r.output


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["game", "--game", "nope"], "no game named 'nope'"),
        (["game", "--game", "toy", "--option", "rounds=9"], "rounds must be at most 3"),
        (["game", "--game", "toy", "--option", "speed=1"], "unknown parameter"),
        (["game", "--game", "toy", "--option", "rounds"], "expected key=value"),
        (["game", "--game", "toy", "--rules", "forced"], "--rules: only for --game resistance"),
        (["game", "--game", "toy", "--agent", "no_such_agent_xyz"], "no agent named"),
        (["game", "--game", "toy", "--agent", f"{RANDOM}:bias=5"], "bias must be at most"),
        (["game", "--game", "toy", "-p", "7", "--agent", FIRST], "2 to 3 players"),
        (["game", "--option", "x=1"], "--option is for other games"),
        (["tournament", "--game", "toy"], "name at least one agent"),
        (["tournament", "--game", "toy", FIRST, "--model", "balanced"], "--model: only for"),
        (["replay", "x.jsonl", "--game", "nope"], "no such file"),
        (["bots", "--game", "nope"], "no game named"),
    ],
)
def test_bad_command_lines_exit_2(cli, args, words):
    r = cli(*args)
    assert r.exit_code == 2, r.output
    assert words in r.output


def test_an_agent_error_exits_1(cli):
    r = cli("game", "--game", "toy", "--seed", "1", "--agent", "test_match.Raises",
            "--traceback")
    assert r.exit_code == 1 and "RuntimeError: boom" in r.output


def test_tournament_reports_win_rates_and_resumes(cli, tmp_path):
    out = tmp_path / "t"
    r = cli("tournament", "--game", "toy", RANDOM, FIRST, "--games", "8", "--seed", "1",
            "--out", out, "--workers", "1", "-q")
    assert r.exit_code == 0, r.output
    assert "win rate" in r.output and "randomtoy" in r.output and "8 games counted" in r.output
    assert (out / "agents.csv").read_text().startswith("agent,games")
    r = cli("tournament", "--game", "toy", "--resume", out, "-q")
    assert r.exit_code == 0 and "8 games counted of 8" in r.output
    r = cli("tournament", "--resume", out, "-q")  # the stored game, without --game
    assert r.exit_code == 0 and "8 games counted of 8" in r.output
    r = cli("tournament", "--game", "toy", "test_match.Raises", "--games", "2",
            "--out", tmp_path / "bad", "--workers", "1", "-q")
    assert r.exit_code == 1 and "every game ended by an error" in r.output


def test_bots_lists_the_game_general_agents(cli):
    r = cli("bots", "--game", "toy")
    assert r.exit_code == 0


def test_play_sees_only_its_own_view_and_the_seed_comes_last(cli):
    r = cli("play", "--game", "toy", "--seed", "3", "--agent", FIRST,
            input="?\nzz\nn1\n1\n")
    assert r.exit_code == 0, r.output
    out = r.output
    assert "You: seat 0 played n1" in out and "Seat 1: seat 1 played an odd number" in out
    assert "is not a legal move" in out and "quit leaves the game" in out
    before_end = out.split("Game over")[0]
    assert "seed 3" not in before_end.lower() and "secrets:" not in before_end
    assert out.index("Seed 3") > out.index("Game over")


def test_play_can_be_left(cli):
    r = cli("play", "--game", "toy", "--seed", "3", "--agent", FIRST, input="q\n")
    assert r.exit_code == 0 and "Game abandoned: you left the game" in r.output
    r = cli("play", "--game", "toy", "--seed", "3", "--agent", FIRST, input="")
    assert r.exit_code == 0 and "input ended" in r.output


def test_the_human_agent_is_told_only_its_seat():
    from toy_game import FirstLegal, SecretNumbers

    lines: list[str] = []
    answers = iter(["1", "1"])
    human = HumanAgent(read=lambda prompt: next(answers), write=lines.append)
    game = SecretNumbers(2)
    state = game.new_state(11)
    result = play_match(game, [FirstLegal(), human], seed=11)
    assert result.ok
    text = "\n".join(lines)
    assert f"secret n{state[4]}" in text  # its own secret
    assert "secrets:" not in text  # never the full state


# --- Phantom (m,n,k), the framework's second game -------------------------------------
LOGGER = "test_match_every_game.Logger"  # random legal moves, seeded


def test_phantom_game_record_and_replay(cli, tmp_path):
    rec = tmp_path / "phantom.jsonl"
    r = cli("game", "--game", "phantom", "--seed", "1", "--agent", LOGGER, "--record", rec)
    assert r.exit_code == 0, r.output
    assert "rewards:" in r.output
    r = cli("game", "--game", "phantom", "--seed", "2", "--agent", LOGGER, "-o", "m=3",
            "-o", "n=3", "-o", "k=3", "--record", rec)
    assert r.exit_code == 0, r.output
    assert json.loads(rec.read_text().splitlines()[1])["options"] == {"m": 3, "n": 3, "k": 3}
    r = cli("replay", rec, "--check")
    assert r.exit_code == 0 and "2 of 2 game(s) replay exactly" in r.output


def test_phantom_tournament(cli, tmp_path):
    r = cli("tournament", "--game", "phantom", LOGGER, f"{FIRST}", "--games", "4",
            "--out", tmp_path / "t", "--workers", "1", "-q")
    # FirstLegal is a toy-game agent but plays any game: the lowest legal action
    assert r.exit_code == 0, r.output
    assert "4 games counted of 4" in r.output


def test_phantom_play_shows_only_the_players_stones(cli):
    r = cli("play", "--game", "phantom", "--seat", "1", "--seed", "4", "--agent", FIRST,
            input="a1\nb1\nc1\nq\n")
    assert r.exit_code == 0, r.output
    first_view = r.output.split("Legal moves")[0]
    assert "Seat 0: " in first_view and "unseen" in first_view  # seat 0 has moved ...
    rows = [line for line in first_view.splitlines() if line[:2].strip().isdigit()]
    assert len(rows) == 4 and not any("X" in row for row in rows)  # ... but its stone is hidden
    assert "refused" in r.output and "Game abandoned" in r.output


def test_phantom_with_the_registered_agents(cli, tmp_path):
    r = cli("bots", "--game", "phantom")
    assert r.exit_code == 0 and "moismcts" in r.output and "iterations=" in r.output
    r = cli("game", "--game", "phantom", "--seed", "1")  # default agents: random
    assert r.exit_code == 0 and "seat 1 (random#2)" in r.output
    out = tmp_path / "t"
    r = cli("tournament", "--game", "phantom", "moismcts:iterations=50",
            "soismcts:iterations=50", "pimc:d=2,s=25", "--games", "6", "--seed", "1",
            "--out", out, "--workers", "1", "-q")
    assert r.exit_code == 0, r.output
    assert "6 games counted of 6" in r.output and "moismcts:iterations=50" in r.output
    assert cli("replay", out / "games.jsonl", "--check").exit_code == 0


def test_the_entry_point_lists_the_games():
    """Through ``main`` (which loads only the invoked command's module)."""
    import os
    import subprocess
    import sys

    proc = subprocess.run([sys.executable, "-c", "from spyglass.cli import main; main()",
                           "games"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "COLUMNS": "200"})
    assert proc.returncode == 0, proc.stderr
    assert "resistance" in proc.stdout and "phantom" in proc.stdout and "m=4" in proc.stdout


def test_a_persons_game_is_kept_without_record(cli, tmp_path, monkeypatch):
    # Every game a person plays is kept (models of people train on them): here in
    # SPYGLASS_DATA_DIR, as JSON Lines that `spyglass replay --check` verifies.
    monkeypatch.setenv("SPYGLASS_DATA_DIR", str(tmp_path))
    r = cli("play", "--game", "phantom", "--option", "m=3", "--option", "n=3",
            "--option", "k=3", "--seat", "0", "--seed", "2", "--agent", FIRST,
            input="a1\nb1\nc1\na2\nb2\nc2\na3\nb3\nc3\n")
    assert r.exit_code == 0, r.output
    log = tmp_path / "played" / "phantom.jsonl"
    assert log.exists() and str(log) in r.output.replace("\n", "")
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert len(records) == 1 and records[0]["agents"][0] == "human"
    assert cli("replay", log, "--check").exit_code == 0
