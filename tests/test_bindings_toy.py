"""A game with no hand-written binding runs every search: the toy game's bindings are
generated (:mod:`spyglass.games.bindings`) into a temporary package and every game-general
search agent plays it."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from spyglass.arena.match import play_match
from spyglass.games import bindings

HERE = Path(__file__).resolve().parent
SPECS = ("soismcts:iterations=30", "soismcts_pom:iterations=30", "moismcts:iterations=30",
         "mtismcts_pf:iterations=30", "pimc:d=2,s=15", "cheatinguct:iterations=30",
         "cheatingensemble:d=2,s=15",
         "soismcts:iterations=30,enhance=mast", "moismcts:iterations=30,enhance=rave")
# (ICARUS UCT, `uct:enhance=...`, refuses an imperfect-information game such as the toy.)


@pytest.mark.timeout(1800)  # cold: compiles every loop for the toy game
def test_a_game_with_only_kernel_and_class_runs_every_search(tmp_path, monkeypatch):
    pkg = tmp_path / "toy_generated"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "kernel.py").write_text((HERE / "toy_game.py").read_text())
    monkeypatch.syspath_prepend(str(tmp_path))
    toy = importlib.import_module("toy_generated.kernel")
    written = bindings.bindings_for(toy.SecretNumbers, "toy_generated")
    assert set(written) == {"search_entry.py", "icarus_entry.py", "mt_entry.py"}
    for name, text in written.items():
        (pkg / name).write_text(text)
    game = toy.SecretNumbers(2)  # the agents find its bindings in its own package
    for spec in SPECS:
        result = play_match(game, [spec, "random"], seed=2)
        assert result.error is None, (spec, result.error)
