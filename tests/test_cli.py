"""The command line: game, replay, play (a human on stdin), bots and bench."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import SIZES

from spyglass.games.resistance.observation import GameView, PublicRecord
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.bots.human import HumanBot


@pytest.mark.parametrize("n", SIZES)
def test_game_of_every_size(cli, n):
    result = cli("game", "--players", n, "--seed", 3)
    assert result.exit_code == 0, result.output
    assert f"{n} players" in result.output and "Mission 1" in result.output
    assert "The resistance wins" in result.output or "The spies win" in result.output


def test_game_fills_seats_with_the_last_bot(cli):
    result = cli("game", "-p", 6, "--seed", 1, "--bot", "randombot", "--bot", "randombot:",
                 "--rules", "forced", "--first-leader", 4)
    assert result.exit_code == 0, result.output
    assert "randombot#6" in result.output and "First leader: 4" in result.output
    assert "goes ahead without a vote" in result.output


def test_game_record_replays_to_the_same_transcript(cli, tmp_path):
    path = tmp_path / "games.jsonl"
    first = cli("game", "--seed", 11, "-p", 7, "--record", path)
    second = cli("game", "--seed", 12, "-p", 5, "--record", path)
    assert first.exit_code == second.exit_code == 0
    assert len(path.read_text().splitlines()) == 2
    check = cli("replay", path, "--check")
    assert check.exit_code == 0 and "2 of 2 game(s) replay exactly" in check.output
    replayed = cli("replay", path, "--game", 1)
    assert replayed.exit_code == 0
    # Same game, line for line, except that the replay also names who played fail cards.
    live = first.output.split("Record appended")[0].splitlines()
    again = [line.split("   fail cards from")[0] for line in replayed.output.splitlines()]
    assert again[: len(live)] == live


def test_replay_names_a_bad_event(cli, tmp_path):
    good = play_game(["randombot"] * 5, seed=2).to_record()
    good["events"][0]["leader"] = (good["events"][0]["leader"] + 2) % 5
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps(good) + "\n")
    result = cli("replay", path)
    assert result.exit_code == 1
    assert "game 1 does not replay" in result.output and "event 1 (proposal" in result.output
    assert cli("replay", tmp_path / "missing.jsonl").exit_code == 2
    assert cli("replay", path, "--game", 3).exit_code == 2


@pytest.mark.parametrize(
    "args, words",
    [
        (("--bot", "no_such_bot"), "no bot named 'no_such_bot'"),
        (("--players", 4), "5 to 10 players"),
        (("--players", 5, "--bot", "randombot", "--bot", "randombot", "--bot", "randombot", "--bot",
          "randombot", "--bot", "randombot", "--bot", "randombot"), "6 bots given for 5 seats"),
        (("--rules", "sometimes"), "unknown rules 'sometimes'"),
        (("--first-leader", 5), "first leader must be a seat 0-4"),
        (("--bot", "randombot:depth=3"), "takes no parameters"),
        (("--time-limit", 0), "must be positive"),
    ],
)
def test_game_bad_input_is_a_clear_error(cli, args, words):
    result = cli("game", *args)
    assert result.exit_code == 2
    assert words in result.output.replace("\n", " ") and "Traceback" not in result.output


BAD_BOTS = '''
from spyglass.resistance.bots.base import Bot


class ShortTeam(Bot):
    """Proposes one seat too few."""

    def select(self, players, count):
        return list(players[: count - 1])


class Raiser(Bot):
    """Raises when voting."""

    def vote(self, team):
        raise RuntimeError("deliberate")
'''


def test_a_failing_bot_is_reported_without_a_traceback(cli, tmp_path, monkeypatch):
    (tmp_path / "cli_bad_bots.py").write_text(BAD_BOTS)
    monkeypatch.syspath_prepend(str(tmp_path))
    result = cli("game", "--seed", 1, "--first-leader", 0, "--bot", "cli_bad_bots.ShortTeam")
    assert result.exit_code == 1
    text = result.output.replace("\n", " ")
    assert "in seat 0: invalid select" in text and "needs a team of 2, not 1" in text
    assert "Traceback" not in result.output
    result = cli("game", "--seed", 1, "--bot", "randombot", "--bot", "cli_bad_bots.Raiser",
                 "--traceback")
    assert result.exit_code == 1
    assert "invalid vote" in result.output and "RuntimeError: deliberate" in result.output
    assert 'raise RuntimeError("deliberate")' in result.output  # --traceback shows it


# --- the human player -----------------------------------------------------------------

ANSWERS = "0 1\n0 1 2\ny\nf\n" * 80  # every prompt finds its kind of answer in turn


def _seed_where(spy: bool) -> int:
    return next(s for s in range(100)
                if (0 in play_game(["randombot"] * 5, seed=s).spies) == spy)


def test_play_as_resistance_sees_only_its_own_view(cli):
    seed = _seed_where(spy=False)
    result = cli("play", "--seed", seed, "--seat", 0, input=ANSWERS)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "You are RESISTANCE" in out and "Approve team" in out
    assert "You win!" in out or "You lose." in out
    during, _, after = out.partition("The resistance wins" if "The resistance wins" in out
                                     else "The spies win")
    assert after, out
    # Nothing about the roles or who played which card before the end.
    assert "Spies:" not in during and "SPY" not in during and "fail cards from" not in out
    assert "Play [f]ail" not in out  # resistance members are never asked for a card
    assert "Spies:" in after and f"--seed {seed}" in after
    assert f"seed {seed}" not in during  # the seed fixes the deal: shown only afterwards


def test_play_as_a_spy_knows_the_other_spy_and_chooses_cards(cli):
    seed = _seed_where(spy=True)
    spies = play_game(["randombot"] * 5, seed=seed).spies
    other = next(s for s in spies if s != 0)
    result = cli("play", "--seed", seed, "--first-leader", 0, input=ANSWERS)
    assert result.exit_code == 0, result.output
    assert f"You are a SPY. The other spies: {other} " in result.output
    assert "Choose 2 seats for mission 1" in result.output
    assert "Play [f]ail or [s]uccess?" in result.output  # asked only of spies on a mission


def test_play_reprompts_on_bad_input_and_can_be_left(cli):
    answers = "7 8\nfoo\n0 0\n?\n0,1\nmaybe\nq\n"
    result = cli("play", "--seed", 1, "--first-leader", 0, input=answers)
    out = result.output
    assert "there is no seat 7" in out and "'foo' is neither a seat number" in out
    assert "seat 0 is named twice" in out and "You are seat 0" in out  # ? shows the status
    assert "Please answer y or n" in out
    assert result.exit_code == 0 and "Game abandoned: you left the game" in out


def test_play_stops_cleanly_when_input_ends(cli):
    result = cli("play", "--seed", 1, input="")
    assert result.exit_code == 1 and "the input ended" in result.output
    assert cli("play", "--seat", 5).exit_code == 2


def test_human_team_parsing():
    bot = HumanBot()
    bot._seat(2, False, GameView(PublicRecord(6, ("ann", "bob", "cy", "dee", "ed", "flo"))),
              None, {}, "human")
    assert bot.parse_team("1 3", 2) == (1, 3)
    assert bot.parse_team(" 3,1 ", 2) == (1, 3)
    assert bot.parse_team("4, 0;5", 3) == (0, 4, 5)
    assert bot.parse_team("bob me", 2) == (1, 2)
    assert "exactly 2" in bot.parse_team("1", 2)
    assert "no seat 6" in bot.parse_team("1 6", 2)
    assert "named twice" in bot.parse_team("1 bob", 2)
    assert "neither" in bot.parse_team("1 zed", 2)


# --- bots and bench ------------------------------------------------------------------


def test_bots_lists_names_descriptions_and_parameters(cli):
    result = cli("bots")
    assert result.exit_code == 0
    assert "randombot" in result.output and "human" in result.output
    assert "Every decision uniformly at random" in result.output.replace("\n", " ")


def test_bench_json(cli):
    result = cli("bench", "--json", "--quick", "--only", "rules")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["random_playouts_per_s"] > 0 and data["random_playouts_per_s_10p"] > 0
    assert data["machine"]["logical_cpus"] >= 1
    assert all(isinstance(v, float) for k, v in data.items() if k != "machine")
    assert cli("bench", "--only", "nonsense").exit_code == 2


def test_the_spyglass_entry_point_runs():
    proc = subprocess.run(
        [sys.executable, "-c", "from spyglass.cli import main; main()", "game", "--seed", "5"],
        capture_output=True, text=True, timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert "Mission 1" in proc.stdout


def test_the_readme_tutorial_bot_plays(cli, tmp_path):
    """The bot file of the README's tutorial, run exactly as the README says."""
    readme = (Path(__file__).parent.parent / "README.md").read_text(encoding="utf-8")
    code = readme.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "my_bot.py").write_text(code)
    result = cli("game", "--bot", tmp_path / "my_bot.py", "--bot", "randombot", "--seed", 2,
                 "--record", tmp_path / "games.jsonl")
    assert result.exit_code == 0, result.output
    assert "0 Cautious" in result.output
    assert cli("replay", tmp_path / "games.jsonl").exit_code == 0


# --- start-up: only the command's own module is imported ----------------------------------
def test_command_modules_map_every_command_to_its_module():
    import typer.main

    from spyglass.cli import COMMAND_MODULES, _load_commands
    from spyglass.cli.app import app

    _load_commands()
    group = typer.main.get_command(app)
    registered = {}
    for info in app.registered_commands:
        name = info.name or info.callback.__name__.replace("_", "-")
        registered[name] = info.callback.__module__
    for info in app.registered_groups:
        registered[info.name] = info.typer_instance.registered_commands[0].callback.__module__
    assert set(registered) == set(group.commands) == set(COMMAND_MODULES)
    for name, module in registered.items():
        assert module == f"spyglass.cli.{COMMAND_MODULES[name]}", name


def _startup(modules) -> str:
    """A script that runs the command line and prints which of ``modules`` it loaded."""
    return f"""
import sys
sys.argv = ["spyglass"] + sys.argv[1:]
from spyglass.cli import main
try:
    main()
except SystemExit as exc:
    code = exc.code
heavy = [m for m in {tuple(modules)!r} if m in sys.modules]
print("HEAVY", heavy, "CODE", code)
"""


_STARTUP = _startup(("scipy.stats", "statsmodels", "matplotlib", "spyglass.cli.tournament_cmd",
                     "spyglass.experiments.fig1", "spyglass.bench"))


def test_game_command_does_not_import_the_heavy_modules():
    import os
    import subprocess
    import sys
    from pathlib import Path

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    out = subprocess.run([sys.executable, "-c", _STARTUP, "game", "--seed", "3"], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert "HEAVY [] CODE 0" in out, out[-500:]




@pytest.mark.parametrize("argv", [["tournament", "--help"], ["tournament", "--backend", "x", "a"]])
def test_commands_that_play_no_search_start_without_numba(argv):
    """`spyglass tournament --help` and an argument error load neither
    the compiled rules (numba) nor matplotlib: start-up must not dominate short commands."""
    import os

    env = dict(os.environ, PYTHONPATH=str(Path(__file__).resolve().parents[1]))
    out = subprocess.run([sys.executable, "-c", _startup(("numba", "matplotlib")), *argv],
                         env=env, capture_output=True, text=True).stdout
    assert "HEAVY []" in out, out[-500:]


def test_a_chosen_seed_with_an_isolated_bot_is_warned_about(capsys):
    """README, Security: a chosen seed is guessable and fixes every deal; an untrusted
    (isolated) bot under one is worth a warning, a trusted one or `--isolate none` not."""
    from spyglass.cli.tournament_cmd import _warn_chosen_seed

    _warn_chosen_seed(["bots/x.py:Bot", "randombot"], "auto")
    assert "chosen --seed" in capsys.readouterr().err
    for bots, isolate in ((["randombot", "pkg.mod.Bot"], "auto"), (["x.py:Bot"], "none")):
        _warn_chosen_seed(bots, isolate)
        assert capsys.readouterr().err == ""
    _warn_chosen_seed(["randombot"], "all")
    assert "chosen --seed" in capsys.readouterr().err
