"""2012 bot files written in Python 2 run unmodified, with Python 2 semantics.

The bot files in tests/compat_bots/py2_*.py and tests/compat_bots/py2repo/ are Python 2
code written for these tests; each idiom checks its own Python 2 result and raises if
it differs, so a game without error means the idioms behaved as in Python 2.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from spyglass.resistance.arena.bot_loader import load_class
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.compat import py2_runtime as rt
from spyglass.resistance.compat.loader import import_bot_file, is_2012_source, module_name_for
from spyglass.resistance.compat.py2 import convert
from spyglass.resistance.compat.py2_import import PATH_VARIABLE, Py2CompatWarning

BOTS = Path(__file__).parent / "compat_bots"


def src(file: str, cls: str, **params: str) -> str:
    extra = "".join(f":{k}={v}" for k, v in params.items())
    return f"{BOTS / file}:{cls}{extra}"


# --- the runtime's Python 2 rules ------------------------------------------------------
def test_mixed_type_order_is_python2s():
    # CPython 2.7: None < numbers < other types by type name ('list' < 'str' < 'tuple').
    assert rt.py2_sorted([(1,), "b", [0], 2.5, None, -3, True]) == [
        None, -3, True, 2.5, [0], "b", (1,)]
    assert rt.gt((1, 2), 5) and rt.gt([0], 10**9) and rt.lt(None, -(10**9))
    assert rt.lt((1, None), (1, 0)) and rt.gt((2, "a"), (1, "b"))
    assert rt.py2_cmp({}, {1: 2}) == -1  # dicts: shorter first
    assert rt.py2_max([1, "x", None]) == "x" and rt.py2_min([(0,), 2]) == 2
    assert rt.chain(1, "lt", lambda: 2, "le", lambda: 2, "gt", lambda: 0)
    assert not rt.chain(3, "lt", lambda: 2, "gt", lambda: 1 / 0)  # short-circuits


def test_division_builtins_and_sort_are_python2s():
    assert rt.div(7, 2) == 3 and rt.div(-7, 2) == -4 and rt.div(7.0, 2) == 3.5
    assert rt.py2_round(2.5) == 3.0 and rt.py2_round(-0.5) == -1.0
    assert rt.py2_map(None, [1, 2], [3]) == [(1, 3), (2, None)]
    assert rt.py2_filter(None, (0, 1, 2)) == (1, 2) and rt.py2_filter(str.isdigit, "a1") == "1"
    values = [3, None, "z", 1]
    rt.sort(values, lambda a, b: rt.py2_cmp(b, a))  # positional cmp, as in Python 2
    assert values == ["z", 3, 1, None]


def test_conversion_rewrites_and_keeps_true_division_files():
    tree, issues = convert("x = 7 / 2\nif x > None: y = 1\n", "f.py")
    text = __import__("ast").unparse(tree)
    assert "__spyglass_py2__.div(7, 2)" in text and "__spyglass_py2__.gt(x, None)" in text
    assert issues == []
    tree, _ = convert("from __future__ import division\nx = 7 / 2\n", "g.py")
    assert "div(" not in __import__("ast").unparse(tree)


def test_which_files_are_2012_files():
    assert is_2012_source("from player import Bot\n")
    assert is_2012_source("print 'python 2'\n")
    assert not is_2012_source("from spyglass.resistance.bots import Bot\n")


# --- whole games ------------------------------------------------------------------------
LINEUPS = {
    "idioms": [src("py2_idioms.py", "Idioms")] * 2 + [src("py2_idioms.py", "Tallies")] * 2
    + [src("py2_idioms.py", "Sibling")] * 2 + ["randombot"],
    "table": [src("py2_table.py", "Copycat")] * 4 + [src("py2_table.py", "Simulator")]
    + ["logicalbot"],
    "rooted": [str(BOTS / "py2repo/bots/py2_rooted.py") + ":Rooted"] * 3 + ["randombot"] * 2,
    "constants": [src("py2_game_constants.py", "Constants")] * 3 + ["randombot"] * 2,
}


@pytest.mark.parametrize("lineup", sorted(LINEUPS))
@pytest.mark.parametrize("n", [5, 7])
def test_python2_files_play_whole_games(lineup, n, capsys):
    bots = (LINEUPS[lineup] * 2)[:n]
    for seed in range(4):
        result = play_game(bots, seed=seed)
        assert result.error is None, result.error
        assert result.winner in ("resistance", "spies")


def test_2012_table_conventions_are_needed_and_matched():
    # Spyglass's numbering breaks Copycat (random first leader; the second copy's name
    # is Copycat#2, so it does not equal its own seat); the default 2012 mode does not.
    failures = 0
    for seed in range(6):
        spyglass_mode = [src("py2_table.py", "Copycat", table="spyglass")] * 5
        result = play_game(spyglass_mode, seed=seed)
        failures += result.error is not None
        assert play_game([src("py2_table.py", "Copycat")] * 5, seed=seed).error is None
    assert failures == 6


def test_2012_copies_share_their_name_and_spyglass_mode_keeps_the_referees():
    recorder = load_class(src("basics.py", "Recorder"))
    names = {}
    for mode in ("2012", "spyglass"):
        bots = [recorder(table=mode) for _ in range(5)]
        result = play_game(bots, seed=2)
        assert result.error is None, result.error
        names[mode] = sorted(p.name for p in bots[0].legacy.game.players)
        assert [b.legacy.game.players[b.legacy.index] == b.legacy for b in bots] == [True] * 5
    assert names["2012"] == ["Recorder"] * 5
    assert names["spyglass"] == ["Recorder"] + [f"Recorder#{k}" for k in range(2, 6)]


def test_unknown_table_mode_is_a_clear_error():
    bots = [src("py2_table.py", "Copycat", table="nope")] * 5
    with pytest.raises(Exception, match="unknown table mode 'nope'"):
        play_game(bots, seed=0, isolate="none")
    # Isolated (the default for files), the bot's worker fails: the game ends with an
    # error that names the bot and the problem.
    result = play_game(bots, seed=0)
    assert "unknown table mode 'nope'" in str(result.error)


def test_game_class_runs_a_2012_game():
    module = import_bot_file(BOTS / "py2_table.py")
    game = module.Game([module.Copycat] * 6)
    game.run()
    assert game.won != game.lost
    assert len(game.spies) == 2
    with pytest.raises(ValueError, match="5 to 10 bots"):
        module.Game([module.Copycat] * 4)


def test_root_given_in_the_environment_is_importable(tmp_path, monkeypatch):
    bot = tmp_path / "elsewhere" / "rooted_copy.py"
    bot.parent.mkdir()
    shutil.copy(BOTS / "py2repo/bots/py2_rooted.py", bot)
    sys.modules.pop("mods", None)
    sys.modules.pop("mods.helpers", None)
    try:
        monkeypatch.setenv(PATH_VARIABLE, str(BOTS / "py2repo"))
        result = play_game([f"{bot}:Rooted"] * 5, seed=3)
        assert result.error is None, result.error
    finally:
        sys.modules.pop(module_name_for(bot), None)


def test_files_are_never_written(tmp_path):
    before = {p: p.read_bytes() for p in BOTS.rglob("py2*.py")}
    play_game(LINEUPS["rooted"], seed=9)
    assert {p: p.read_bytes() for p in BOTS.rglob("py2*.py")} == before
    assert not list(BOTS.rglob("__pycache__"))


def test_what_cannot_be_emulated_is_reported_once_with_file_and_line(tmp_path):
    copy = tmp_path / "stringly.py"
    shutil.copy(BOTS / "py2_unsupported.py", copy)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            import_bot_file(copy)
            import_bot_file(copy)
        reports = [w for w in caught if issubclass(w.category, Py2CompatWarning)]
        assert len(reports) == 1
        text = str(reports[0].message)
        assert f"{copy}:10: string.letters" in text
        assert f"{copy}:18: could not convert" in text
    finally:
        sys.modules.pop(module_name_for(copy), None)


_REPLAY = """
import json, sys, warnings
from spyglass.resistance.arena.referee import play_game
from spyglass.resistance.arena.bot_loader import load_class
print(json.dumps([play_game(sys.argv[1:], seed=s).to_record() for s in range(2)]))
"""


def test_python2_games_replay_exactly_in_another_process(capsys):
    lineup = LINEUPS["table"][:5]
    here = [play_game(lineup, seed=s).to_record() for s in range(2)]
    env = {"PYTHONHASHSEED": "4242", "PATH": "", "PYTHONPATH": str(Path.cwd())}
    out = subprocess.run([sys.executable, "-c", _REPLAY, *lineup], env=env,
                         capture_output=True, text=True, check=True).stdout
    import json

    assert json.loads(out.splitlines()[-1]) == json.loads(json.dumps(here))


def test_a_runtime_failure_is_reported_once_with_file_and_line():
    bots = [src("py2_unsupported.py", "Stringly")] * 5
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # In-process: an isolated worker's warnings stay in the worker (not forwarded yet).
        results = [play_game(bots, seed=s, isolate="none") for s in range(4)]
    assert all(r.error is not None for r in results)  # the referee still ends each game
    failures = [str(w.message) for w in caught if issubclass(w.category, Py2CompatWarning)
                and "raised" in str(w.message)]
    where = f"{BOTS / 'py2_unsupported.py'}:10: Stringly raised AttributeError"
    assert len([m for m in failures if m.startswith(where)]) == 1, failures
    assert "does not emulate" in failures[0]


def test_conversion_cache_gives_the_same_module_and_survives_damage(tmp_path, monkeypatch):
    """Issue 27: the on-disk cache of fissix's step returns exactly what converting does;
    a damaged entry is converted again, and an empty SPYGLASS_CACHE_DIR writes nothing."""
    import ast

    from spyglass.resistance.compat import py2

    source = (BOTS / "py2_idioms.py").read_text()
    path = "py2_idioms.py"
    monkeypatch.setenv("SPYGLASS_CACHE_DIR", "")
    plain_tree, plain_issues = convert(source, path)
    monkeypatch.setenv("SPYGLASS_CACHE_DIR", str(tmp_path))
    calls = []
    real = py2._fissix
    monkeypatch.setattr(py2, "_fissix", lambda *a: calls.append(a) or real(*a))
    first = convert(source, path)
    second = convert(source, path)
    assert len(calls) == 1  # the second came from the cache
    (entry,) = (tmp_path / "py2").glob("*.json")
    for tree, issues in (first, second):
        assert ast.dump(tree) == ast.dump(plain_tree) and issues == plain_issues
    entry.write_text("{not json")
    assert ast.dump(convert(source, path)[0]) == ast.dump(plain_tree)
    assert len(calls) == 2
    assert ast.dump(convert(source + "\n# changed\n", path)[0]) == ast.dump(plain_tree)
    assert len(calls) == 3  # another text is another entry


def test_compiled_cache_gives_the_same_code_and_survives_damage(tmp_path, monkeypatch):
    """Issue 27: the cached code object of a converted file (``<key>.code``) is the one
    compiling the conversion gives, with the same issues; a damaged entry is compiled
    again, and an empty SPYGLASS_CACHE_DIR writes nothing."""
    from spyglass.resistance.compat import py2

    source = (BOTS / "py2_idioms.py").read_text()
    path = "py2_idioms.py"
    monkeypatch.setenv("SPYGLASS_CACHE_DIR", "")
    plain_code, plain_issues = py2.compiled(source, path)
    assert not list(tmp_path.iterdir())
    monkeypatch.setenv("SPYGLASS_CACHE_DIR", str(tmp_path))
    calls = []
    real = py2.convert
    monkeypatch.setattr(py2, "convert", lambda *a: calls.append(a) or real(*a))
    first = py2.compiled(source, path)
    second = py2.compiled(source, path)
    assert len(calls) == 1  # the second came from the cache
    for code, issues in (first, second):
        assert code == plain_code and issues == plain_issues
    (entry,) = (tmp_path / "py2").glob("*.code")
    entry.write_bytes(b"\x00damaged")
    assert py2.compiled(source, path)[0] == plain_code
    assert len(calls) == 2
