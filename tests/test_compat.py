"""The 2012 competition compatibility layer: 2012-style bot files play Spyglass games.

The bots in tests/compat_bots/ are written for these tests in the style of the 2012
framework that Taylor 2014, §4.1 describes (``from player import Bot``, ``util.Variable``).
"""

from __future__ import annotations

import json
import math
import os
import random
import subprocess
import sys
import types
from pathlib import Path

import pytest

from spyglass.games.resistance.options import Rules
from spyglass.resistance.arena.bot_loader import file_bot_classes, load_class
from spyglass.resistance.arena.referee import play_game as _play_game
from spyglass.resistance.bots import Bot
from spyglass.resistance.compat import game as compat_game
from spyglass.resistance.compat import player as compat_player
from spyglass.resistance.compat.adapter import adapter_for, call_hooks
from spyglass.resistance.compat.loader import (
    BotFileError,
    bot_classes_in_module,
    compat_modules,
    import_bot_file,
    module_name_for,
)
from spyglass.resistance.compat.util import Variable


def play_game(*args, **kwargs):
    """These tests look inside the 2012 bots' modules (and their say/announce channel),
    so they run them in this process; bots from files are otherwise isolated (issue 11)."""
    return _play_game(*args, isolate="none", **kwargs)


BOTS = Path(__file__).parent / "compat_bots"


def src(file: str, cls: str) -> str:
    return f"{BOTS / file}:{cls}"


def make(file: str, cls: str) -> Bot:
    return load_class(src(file, cls))()


# --- util.Variable -------------------------------------------------------------------
def test_variable_empty_and_after_samples_hand_computed():
    v = Variable()
    assert v.estimate() == 0.5
    assert v.value() == pytest.approx(1.92 / 3.84)  # 0.5
    # 1.96 * sqrt(0.25 / 3.84) = 1.96 * 0.5 / 1.959592 = 0.500104
    assert v.error() == pytest.approx(0.500104, abs=1e-6)
    assert repr(v) == "   N/A"
    for x in (1, 0, 1):
        v.sample(x)
    assert (v.total, v.samples) == (2, 3)
    assert v.estimate() == pytest.approx(2 / 3)
    # (2 + 1.92) / (3 + 3.84) = 3.92 / 6.84
    assert v.value() == pytest.approx(0.573099, abs=1e-6)
    # 1.96 * sqrt(0.573099 * 0.426901 / 6.84) = 1.96 * sqrt(0.0357684) = 0.370687
    assert v.error() == pytest.approx(0.370687, abs=1e-6)
    assert v.detail() == "57.3% (e=37.07 n=3)"
    assert repr(v) == "66.7%"
    assert (v.minimum, v.maximum) == (0, 1)


def test_variable_add_and_compare_by_estimate():
    a = Variable(3.0, 4)  # 0.75
    b = Variable()
    b += 1  # a sample
    b += 0
    assert (b.total, b.samples) == (1, 2)
    b += a  # a Variable: merge
    assert (b.total, b.samples) == (4.0, 6)
    assert b.estimate() == pytest.approx(4 / 6)
    assert Variable(1, 4) < a and a > Variable() and a >= 0.75 and a <= 0.75
    assert Variable(1, 2) == Variable(2, 4)  # equal estimates
    assert max([Variable(1, 4), a, Variable()]) is a
    assert len({Variable(), Variable()}) == 2  # hashed by identity, as in Python 2
    c = a + 1
    assert (c.total, c.samples, a.samples) == (4.0, 5, 4)


# --- game.State and player.Player -----------------------------------------------------
def test_state_constants_and_players():
    S = compat_game.State
    assert (S.PHASE_PREPARING, S.PHASE_SELECTION, S.PHASE_VOTING, S.PHASE_MISSION,
            S.PHASE_ANNOUNCING) == (0, 1, 2, 3, 4)
    s = S()
    assert (s.phase, s.turn, s.tries, s.wins, s.losses) == (0, 1, 1, 0, 0)
    assert s.team is None and s.votes is None and s.sabotages is None
    P = compat_player.Player
    assert P("A", 1) == P("A", 1) and P("A", 1) != P("A", 2) and P("A", 1) != P("B", 1)
    assert len({P("A", 1), P("A", 1), P("B", 1)}) == 2
    assert s.clone() == s


def test_hooks_of_every_class_are_called_base_first():
    calls = []

    class A(compat_player.Bot):
        def onVoteComplete(self, votes):
            calls.append(("A", votes))

    class B(A):
        pass  # inherits, must not call A's hook twice

    class C(B):
        def onVoteComplete(self, votes):
            calls.append(("C", votes))

    call_hooks(C(compat_game.State(), 0, False), "onVoteComplete", [True])
    assert calls == [("A", [True]), ("C", [True])]


# --- full games --------------------------------------------------------------------
LINEUP = [
    src("basics.py", "Recorder"),
    src("basics.py", "Counter"),
    src("basics.py", "Layer3"),
    src("sibling.py", "Layer4"),
    src("talkers.py", "Herald"),
    src("native.py", "FirstSeats"),
    src("basics.py", "Counter"),
    src("talkers.py", "Snoop"),
    src("basics.py", "Recorder"),
    src("basics.py", "Layer1"),
]


@pytest.mark.parametrize("n", range(5, 11))
def test_compat_bots_play_full_games(n):
    for seed in range(3):
        result = play_game(LINEUP[:n], seed=seed)
        assert result.error is None, result.error
        assert result.winner in ("resistance", "spies")
        assert result.names[:2] == ("Recorder", "Counter")


def test_same_seed_same_game_and_global_random_untouched():
    random.seed(1234)
    before = random.getstate()
    a = play_game(LINEUP[:7], seed=11).to_record()
    assert random.getstate() == before  # 2012 bots got their own random stream
    random.seed(999)  # whatever the caller's global random does
    b = play_game(LINEUP[:7], seed=11).to_record()
    assert a == b
    c = play_game(LINEUP[:7], seed=12).to_record()
    assert c["events"] != a["events"]


SAMPLERS = [src("basics.py", "SetSampler")] * 5 + [src("talkers.py", "Snoop")] * 2

_REPLAY = """
import json, sys
from spyglass.resistance.arena.referee import play_game
print(json.dumps([play_game(sys.argv[1:], seed=s, isolate="none").to_record()
                  for s in range(3)]))
"""


def test_python2_habits_replay_exactly_in_another_process():
    # random.sample from a set (refused by Python 3.11) works, and the game depends only
    # on the seed, not on the process's string-hash seed.
    original = random.sample
    here = [play_game(SAMPLERS, seed=s).to_record() for s in range(3)]
    assert random.sample == original
    assert all("error" not in r for r in here)
    env = dict(os.environ, PYTHONHASHSEED="12345")
    out = subprocess.run([sys.executable, "-c", _REPLAY, *SAMPLERS], env=env,
                         capture_output=True, text=True, check=True).stdout
    assert json.loads(out) == json.loads(json.dumps(here))


def test_hooks_called_at_every_level_base_first():
    layer3, layer4 = make("basics.py", "Layer3"), make("sibling.py", "Layer4")
    bots = [layer3, layer4] + [make("faulty.py", "Plain") for _ in range(3)]
    result = play_game(bots, seed=5)
    assert result.error is None
    proposals = [e for e in result.events if e["type"] == "proposal"]
    missions = [e for e in result.events if e["type"] == "mission"]
    calls3 = layer3.legacy.calls
    assert calls3[:3] == ["Layer1.onGameRevealed", "Layer2.onGameRevealed",
                          "Layer3.onGameRevealed"]
    assert calls3.count("Layer1.onMissionAttempt") == len(proposals)
    assert calls3.count("Layer3.onVoteComplete") == len(proposals)
    assert calls3.count("Layer1.onMissionComplete") == len(missions)
    assert calls3[-3:] == ["Layer1.onGameComplete", "Layer2.onGameComplete",
                           "Layer3.onGameComplete"]
    i = calls3.index("Layer1.onVoteComplete")
    assert calls3[i + 1] == "Layer3.onVoteComplete"
    calls4 = layer4.legacy.calls
    i = calls4.index("Layer1.onMissionAttempt")
    assert calls4[i:i + 3] == ["Layer1.onMissionAttempt", "Layer2.onMissionAttempt",
                               "Layer4.onMissionAttempt"]


def test_state_fields_follow_the_game():
    rec = make("basics.py", "Recorder")
    bots = [rec] + [make("basics.py", "Counter") for _ in range(5)]
    result = play_game(bots, seed=3, first_leader=0)
    assert result.error is None
    S = compat_game.State
    notes = rec.legacy.notes
    proposals = [e for e in result.events if e["type"] == "proposal"]
    missions = [e for e in result.events if e["type"] == "mission"]

    def at(where):
        return [n for n in notes if n["where"] == where]

    first = notes[0]
    assert first["where"] == "onGameRevealed" and first["phase"] == S.PHASE_PREPARING
    assert (first["turn"], first["tries"]) == (1, 1)
    assert [(n["turn"], n["tries"], n["leader"], n["team"], n["votes"], n["sabotages"],
             n["phase"]) for n in at("onMissionAttempt")] == [
        (p["mission"], p["attempt"], p["leader"], None, None, None, S.PHASE_SELECTION)
        for p in proposals]
    assert all(n["phase"] == S.PHASE_SELECTION and n["team"] is None for n in at("select"))
    assert [(n["team"], n["phase"]) for n in at("onTeamSelected")] == [
        (p["team"], S.PHASE_SELECTION) for p in proposals]
    assert all(n["phase"] == S.PHASE_VOTING and n["team"] for n in at("vote"))
    assert [(n["team"], n["votes"], n["phase"]) for n in at("onVoteComplete")] == [
        (p["team"], p["votes"], S.PHASE_VOTING) for p in proposals]
    rejected = [p for p in proposals if not p["approved"]]
    assert [(n["team"], n["tries"]) for n in at("onMissionFailed")] == [
        (p["team"], p["attempt"]) for p in rejected]
    wins = losses = 0
    expected = []
    for m in missions:
        wins, losses = wins + (not m["sabotaged"]), losses + m["sabotaged"]
        expected.append((m["mission"], m["fails"], wins, losses, m["team"], S.PHASE_MISSION))
    assert [(n["turn"], n["sabotages"], n["wins"], n["losses"], n["team"], n["phase"])
            for n in at("onMissionComplete")] == expected
    # Announcing follows each resolved proposal while the game goes on, turn moved on.
    announces = at("announce")
    assert all(n["phase"] == S.PHASE_ANNOUNCING for n in announces)
    assert len(announces) == len(proposals) - 1
    after_missions = [n for n in announces if n["tries"] == 1]
    assert [n["turn"] for n in after_missions] == [m["mission"] + 1 for m in missions[:-1]]
    last = notes[-1]
    assert last["where"] == "onGameComplete"
    assert last["win"] == (result.winner == "resistance")  # resistance won, for every bot
    assert last["spies"] == sorted(result.spies)
    spy = 0 in result.spies
    assert first["spies"] == (sorted(result.spies) if spy else [])


def test_resistance_and_spy_views_of_the_game_complete():
    # win means "the resistance won" for spies too (the 2012 framework's meaning).
    bots = [make("basics.py", "Recorder") for _ in range(5)]
    result = play_game(bots, seed=8, spies=[1, 3])
    assert result.error is None
    for seat, bot in enumerate(bots):
        note = bot.legacy.notes[-1]
        assert note["win"] == (result.winner == "resistance")
        assert bot.legacy.notes[0]["spies"] == ([1, 3] if seat in (1, 3) else [])


# --- errors reach the referee ------------------------------------------------------
@pytest.mark.parametrize(
    ("cls", "decision", "reason"),
    [
        ("Raiser", "vote", "raised RuntimeError: cannot decide"),
        ("Oversized", "select", "needs a team of 2, not 3"),
        ("Stranger", "select", "0-Nobody is not a seat number"),
        ("Maybe", "vote", "must be True or False"),
    ],
)
def test_invalid_decisions_are_reported_by_the_referee(cls, decision, reason):
    bots = [src("faulty.py", "Plain")] * 2 + [src("faulty.py", cls)] + [
        src("faulty.py", "Plain")] * 2
    result = play_game(bots, seed=1, first_leader=2, spies=[0, 1])
    err = result.error
    assert err is not None and result.winner is None
    assert (err.bot, err.seat, err.decision) == (cls, 2, decision)
    assert reason in err.reason
    assert f"bot {cls!r} in seat 2" in str(err)


def test_bad_announcement_is_reported():
    bots = [src("talkers.py", "BadHerald")] + [src("faulty.py", "Plain")] * 4
    result = play_game(bots, seed=2)
    err = result.error
    assert err is not None and err.bot == "BadHerald" and err.seat == 0
    assert err.decision in ("on_vote_complete", "on_mission_complete")
    assert "announce() key 'not a player'" in err.reason


# --- no hidden information ---------------------------------------------------------
def test_no_hidden_information_reaches_compat_bots():
    talkers = sys.modules[load_class(src("talkers.py", "Snoop")).legacy_class.__module__]
    talkers.HEARD.clear()
    talkers.SEEN.clear()
    # Spyglass numbering (index = seat), so that what is heard can be checked by seat.
    lineup = [src("talkers.py", c) + ":table=spyglass" for c in
              ("Herald", "Snoop", "Snoop", "Herald", "Snoop", "Snoop", "Snoop")]
    state_fields = sorted(["phase", "turn", "tries", "wins", "losses", "leader", "team",
                           "players", "votes", "sabotages"])
    n_said = 0
    for seed in range(6):
        spies = random.Random(seed).sample(range(7), 3)
        talkers.SEEN.clear()
        result = play_game(lineup, seed=seed, spies=spies)
        assert result.error is None
        n_said += 2 * sum(e["type"] == "mission" for e in result.events)
        assert [s[0] for s in talkers.SEEN] == list(range(7))
        for seat, spy, given, fields, player_attrs in talkers.SEEN:
            assert spy == (seat in spies)
            assert given == (set(spies) if spy else set())  # resistance: empty
            assert fields == state_fields  # nothing but the public State
            assert player_attrs == ["index", "name"]
    messages = [h for h in talkers.HEARD if h[2] == "message"]
    announcements = [h for h in talkers.HEARD if h[2] == "announcement"]
    assert messages and announcements
    assert all(h[4] != "I sabotage" for h in messages)  # said inside sabotage(): dropped
    assert all(h[0] != h[3] for h in talkers.HEARD)  # nobody hears itself
    assert all(h[3] in (0, 3) for h in talkers.HEARD)  # only the Heralds spoke
    assert all(h[5] == "str" for h in messages)
    assert all(h[5] == "Player" and set(h[4].values()) == {0.25} for h in announcements)
    # Each Herald's mission messages reach the 6 others (the last mission's before the end).
    assert len(messages) == 6 * n_said


# --- loading -------------------------------------------------------------------------
def test_classes_in_files_honour_all_and_skip_imports():
    assert [c.__name__ for c in file_bot_classes(BOTS / "exported.py")] == ["Shown"]
    assert [c.__name__ for c in file_bot_classes(BOTS / "basics.py")] == [
        "Recorder", "Counter", "Layer1", "Layer2", "Layer3", "SetSampler"]
    assert [c.__name__ for c in file_bot_classes(BOTS / "sibling.py")] == ["Layer4"]
    native = file_bot_classes(BOTS / "native.py")
    assert native == [load_class(src("native.py", "FirstSeats"))]
    assert issubclass(native[0], Bot) and native[0].bot_name == "FirstSeats"
    with pytest.raises(ValueError, match="has no bot class 'Hidden'"):
        load_class(src("exported.py", "Hidden"))


def test_adapter_is_cached_and_named():
    module = import_bot_file(BOTS / "exported.py")
    shown = module.Shown
    adapter = adapter_for(shown)
    assert adapter is adapter_for(shown) and adapter is load_class(src("exported.py", "Shown"))
    assert issubclass(adapter, Bot) and adapter.bot_name == "Shown"
    native = load_class(src("native.py", "FirstSeats"))
    assert adapter_for(native) is native
    with pytest.raises(TypeError):
        adapter_for(int)
    with pytest.raises(TypeError):
        adapter_for(compat_player.Bot)


def test_only_generated_adapters_share_the_referees_view():
    """Issue 27: the referee gives an adapter made by adapter_for the shared (read-only)
    view, as Spyglass's own bots; a subclass of it, or a class claiming to be one, keeps
    a private copy."""
    from spyglass.resistance.arena.referee import _own_class
    from spyglass.resistance.compat.adapter import is_adapter_class

    adapter = adapter_for(import_bot_file(BOTS / "exported.py").Shown)
    impostor = type("Shown", (adapter,), {})
    claiming = type("Shown", (Bot,), {"legacy_class": adapter.legacy_class})
    assert is_adapter_class(adapter) and _own_class(adapter)
    for cls in (impostor, claiming, type("X", (Bot,), {"legacy_class": [1]})):
        assert not is_adapter_class(cls) and not _own_class(cls)


def test_load_by_module_and_class(monkeypatch):
    monkeypatch.syspath_prepend(str(BOTS))
    monkeypatch.delitem(sys.modules, "exported", raising=False)
    try:
        cls = load_class("exported.Shown")
        assert issubclass(cls, Bot) and cls.bot_name == "Shown"
        result = play_game(["exported.Shown"] * 5, seed=4)
        assert result.error is None and result.names[0] == "Shown"
    finally:
        sys.modules.pop("exported", None)
    assert not {"player", "game", "util"} & set(sys.modules)


def test_compat_modules_only_during_import(tmp_path, monkeypatch):
    real_util = types.ModuleType("util")
    monkeypatch.setitem(sys.modules, "util", real_util)
    monkeypatch.delitem(sys.modules, "player", raising=False)
    (tmp_path / "helper.py").write_text("from util import Variable\nHELPER = Variable\n")
    bot_file = tmp_path / "mybot.py"
    bot_file.write_text(
        "from player import Bot\nfrom util import Variable\nfrom helper import HELPER\n"
        "class Mine(Bot):\n    pass\n"
    )
    try:
        module = import_bot_file(bot_file)
        assert module.Variable is Variable and module.HELPER is Variable
        assert sys.modules["util"] is real_util  # restored
        assert "player" not in sys.modules
        assert import_bot_file(bot_file) is module  # once per process
        assert [c.__name__ for c in bot_classes_in_module(module)] == ["Mine"]
        with compat_modules():
            assert sys.modules["util"] is not real_util
        assert sys.modules["util"] is real_util
    finally:
        sys.modules.pop("helper", None)
        sys.modules.pop(module_name_for(bot_file), None)


def test_same_file_name_in_two_folders_are_two_modules(tmp_path):
    paths = []
    for folder in ("a", "b"):
        (tmp_path / folder).mkdir()
        path = tmp_path / folder / "bots.py"
        path.write_text(f"from player import Bot\nclass Bot{folder.upper()}(Bot):\n    pass\n")
        paths.append(path)
    try:
        a, b = (import_bot_file(p) for p in paths)
        assert a is not b and hasattr(a, "BotA") and hasattr(b, "BotB")
    finally:
        for p in paths:
            sys.modules.pop(module_name_for(p), None)


def test_unimportable_files_give_clear_errors(tmp_path):
    broken = tmp_path / "broken.py"
    broken.write_text("from player import Bot\n\ndef f(:\n    pass\n")
    with pytest.raises(BotFileError, match="neither Python 2 nor Python 3.*line 3"):
        import_bot_file(broken)
    missing = tmp_path / "needs.py"
    missing.write_text("import core_of_some_other_framework\n")
    with pytest.raises(BotFileError, match="ModuleNotFoundError"):
        import_bot_file(missing)
    assert module_name_for(missing) not in sys.modules
    with pytest.raises(FileNotFoundError):
        import_bot_file(tmp_path / "absent.py")


def test_variable_error_formula_matches_definition():
    # error() = 1.96 * sqrt(value * (1 - value) / (samples + 3.84)), checked on a grid.
    for total, samples in [(0, 0), (0, 5), (5, 5), (3, 10), (40, 100)]:
        v = Variable(total, samples)
        value = (total + 1.92) / (samples + 3.84)
        assert v.value() == pytest.approx(value)
        assert v.error() == pytest.approx(1.96 * math.sqrt(value * (1 - value) / (samples + 3.84)))


def test_five_rejections_end_the_game_without_a_last_announcement():
    rec = make("basics.py", "Recorder")
    result = play_game([rec] + [src("faulty.py", "Naysayer")] * 4, seed=6)
    assert result.error is None and result.end_reason.startswith("five proposals")
    notes = rec.legacy.notes
    assert [n["tries"] for n in notes if n["where"] == "announce"] == [2, 3, 4, 5]
    assert notes[-1]["where"] == "onGameComplete" and notes[-1]["tries"] == 6
    assert notes[-1]["win"] is False


def test_forced_fifth_proposal_goes_ahead_unvoted():
    rec = make("basics.py", "Recorder")
    rules = Rules(fifth_rejection="forced")
    result = play_game([rec] + [src("faulty.py", "Naysayer")] * 4, seed=6, rules=rules)
    assert result.error is None
    notes = rec.legacy.notes
    first_mission = next(n for n in notes if n["where"] == "onMissionComplete")
    assert (first_mission["turn"], first_mission["tries"], first_mission["votes"]) == (1, 5, None)
    assert first_mission["phase"] == compat_game.State.PHASE_MISSION
