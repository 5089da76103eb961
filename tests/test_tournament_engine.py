"""The one tournament engine: every game through spyglass.arena.tournament, one backend
path for every table, and the public API dispatching to it."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pytest
from toy_game import FirstLegal, RandomToy

import spyglass
from spyglass import tournament
from spyglass.arena import game_chunks
from spyglass.arena.backends import make_backend
from spyglass.arena.game_table import GameTable
from spyglass.arena.tournament import (
    GAMES,
    GameTournamentError,
    GameTournamentResults,
    run_game_tournament,
)
from spyglass.games import registry


@pytest.fixture(autouse=True)
def toy_registered(monkeypatch):
    monkeypatch.setitem(registry.GAMES, "toy", "toy_game:SecretNumbers")


def test_only_the_engine_and_the_public_api_are_called_tournament_py():
    root = Path(spyglass.__file__).parent
    found = sorted(str(p.relative_to(root)) for p in root.rglob("tournament.py"))
    assert found == ["arena/tournament.py", "tournament.py"]


@dataclass(frozen=True)
class _Job:
    chunk: int
    value: int
    attempt: int = 0


def _square(job: _Job) -> tuple[int, int]:
    return job.chunk, job.value * job.value


@pytest.mark.parametrize("workers", [1, 2])
def test_a_backend_plays_any_tables_jobs(workers):
    runner = make_backend("local", workers)
    runner.start()
    try:
        got = sorted(runner.imap_unordered((_Job(c, c + 3) for c in range(9)), _square))
    finally:
        runner.close()
    assert got == [(c, (c + 3) ** 2) for c in range(9)]


def test_the_public_api_runs_other_games_through_the_same_engine(tmp_path):
    via_api = tournament.run([RandomToy, FirstLegal], game="toy", games=12, seed=4, workers=1,
                             out=tmp_path / "api", progress=False)
    direct = run_game_tournament("toy", [RandomToy, FirstLegal], games=12, seed=4, workers=1,
                                 out=tmp_path / "direct")
    assert isinstance(via_api, GameTournamentResults)
    assert via_api.to_dict() == direct.to_dict()
    assert ((tmp_path / "api" / GAMES).read_text()
            == (tmp_path / "direct" / GAMES).read_text())
    loaded = tournament.load(tmp_path / "api")
    assert isinstance(loaded, GameTournamentResults)
    assert loaded.to_dict() == via_api.to_dict()


def test_resistance_only_arguments_are_refused_for_other_games():
    for kw in ({"model": "balanced"}, {"burst": 5}, {"rules": "forced"},
               {"track_suspicion": True}):
        with pytest.raises(GameTournamentError, match="only for The Resistance"):
            tournament.run([RandomToy], game="toy", games=2, progress=False, **kw)
    with pytest.raises(tournament.TournamentError, match="options are for other games"):
        tournament.run(["randombot"], games=2, options={"m": 3}, progress=False)


def test_the_public_api_resumes_another_games_tournament(tmp_path):
    full = tournament.run(["toy_game.RandomToy", "toy_game.FirstLegal"], game="toy",
                          games=10, seed=8, workers=1, out=tmp_path / "full", progress=False)
    part = tmp_path / "part"
    tournament.run(["toy_game.RandomToy", "toy_game.FirstLegal"], game="toy", games=10,
                   seed=8, workers=1, out=part, progress=False)
    lines = (part / GAMES).read_text().splitlines(keepends=True)
    (part / GAMES).write_text("".join(lines[:4]))
    resumed = tournament.run(resume=part, workers=1, progress=False)  # no game= needed
    assert resumed.played_now == 6 and resumed.tally.games == 10
    assert resumed.to_dict() == full.to_dict()


def test_ctrl_c_keeps_finished_games_of_any_game_and_resume_completes_it(tmp_path,
                                                                         monkeypatch):
    real = game_chunks.play_chunk
    calls = []

    def stop_in_third_chunk(chunk):
        calls.append(chunk.chunk)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real(chunk)

    out = tmp_path / "t"
    with monkeypatch.context() as m:
        m.setattr(GameTable, "play", staticmethod(stop_in_third_chunk))
        res = run_game_tournament("toy", ["toy_game.RandomToy", "toy_game.FirstLegal"],
                                  games=12, seed=2, workers=1, chunk=2, out=out)
    assert res.interrupted and "Ctrl-C" in res.message and "--resume" in res.message
    assert res.played_now == 4 and res.tally.games == 4
    assert len((out / GAMES).read_text().splitlines()) == 4
    assert json.loads((out / "results.json").read_text())["games"] == 4
    done = run_game_tournament("toy", out=out, resume=True, workers=1, chunk=2)
    ref = run_game_tournament("toy", ["toy_game.RandomToy", "toy_game.FirstLegal"], games=12,
                              seed=2, workers=1, out=tmp_path / "ref")
    assert done.played_now == 8 and done.tally.games == 12
    assert done.to_dict()["agents"] == ref.to_dict()["agents"]


def test_games_finished_in_a_chunk_cut_short_are_kept_for_any_game(tmp_path, monkeypatch):
    """A run stopped in the middle of a chunk keeps the chunk's finished games (from its
    partial file), as The Resistance's tournaments do; resume plays only the rest."""
    real, calls = game_chunks.play_match, []

    def stop_at_the_eleventh_game(*args, **kwargs):
        calls.append(1)
        if len(calls) == 11:
            raise KeyboardInterrupt
        return real(*args, **kwargs)

    out = tmp_path / "t"
    pool = ["toy_game.RandomToy", "toy_game.FirstLegal"]
    with monkeypatch.context() as m:
        m.setattr(game_chunks, "play_match", stop_at_the_eleventh_game)
        res = run_game_tournament("toy", pool, games=16, seed=6, workers=1, chunk=4, out=out)
    assert res.interrupted and res.played_now == 10 and res.tally.games == 10
    assert sorted(json.loads(line)["tournament"]["index"]
                  for line in (out / GAMES).read_text().splitlines()) == list(range(10))
    assert not (out / "partial").exists()
    done = run_game_tournament("toy", out=out, resume=True, workers=1, chunk=4)
    ref = run_game_tournament("toy", pool, games=16, seed=6, workers=1, out=tmp_path / "ref")
    assert done.played_now == 6 and done.to_dict()["agents"] == ref.to_dict()["agents"]


def test_other_games_resume_refuses_conflicting_records_unless_repair(tmp_path):
    pool = ["toy_game.RandomToy", "toy_game.FirstLegal"]
    ref = run_game_tournament("toy", pool, games=10, seed=3, workers=1, out=tmp_path / "ref")
    out = tmp_path / "t"
    run_game_tournament("toy", pool, games=10, seed=3, workers=1, out=out)
    lines = (out / GAMES).read_text().splitlines(keepends=True)
    other = json.loads(lines[2])
    other["rewards"] = [9.0, -9.0]  # game 2 recorded twice, differently
    (out / GAMES).write_text("".join(lines[:6]) + json.dumps(other) + "\n")
    with pytest.raises(GameTournamentError, match=r"2 bad line\(s\).*--repair"):
        run_game_tournament("toy", out=out, resume=True, workers=1)
    fixed = run_game_tournament("toy", out=out, resume=True, workers=1, repair=True)
    assert fixed.played_now == 5 and fixed.to_dict()["agents"] == ref.to_dict()["agents"]
    assert (out / (GAMES + ".bak")).exists()


def test_killing_the_pool_stops_its_workers_and_no_other_child():
    import multiprocessing as mp
    import signal
    import time

    ctx = mp.get_context("fork")
    bystander = ctx.Process(target=time.sleep, args=(60,))
    bystander.start()  # a child of this process from before the pool: not the pool's
    try:
        runner = make_backend("local", 2)
        runner.start()
        workers = [p for p in mp.active_children() if p is not bystander]
        assert len(workers) == 2
        runner.close(kill=True)
        assert all(p.exitcode == -signal.SIGTERM for p in workers)
        assert bystander.is_alive()
    finally:
        bystander.terminate()
        bystander.join()


def test_the_arena_holds_only_what_serves_every_game():
    """Issue 27: no module of spyglass/arena/ imports The Resistance's code (its tournament
    side is spyglass/resistance/arena/, a layer above; its bots and compat are below) and
    none is named after it."""
    import ast

    arena = Path(spyglass.__file__).parent / "arena"
    for path in arena.glob("*.py"):
        assert "resistance" not in path.stem and "bot" not in path.stem, path.name
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom | ast.Import):
                names = [node.module or ""] if isinstance(node, ast.ImportFrom) else [
                    a.name for a in node.names]
                for name in names:
                    assert not name.startswith(("spyglass.resistance",
                                                "spyglass.games.resistance")
                                               ), f"{path.name} imports {name}"


def test_every_manifest_states_its_kind(tmp_path):
    res_dir, game_dir = tmp_path / "res", tmp_path / "game"
    tournament.run(["randombot", "randombot"], games=4, seed=1, out=res_dir, workers=1,
                   progress=False)
    tournament.run([RandomToy, FirstLegal], game="toy", games=4, seed=1, out=game_dir,
                   workers=1)
    kinds = [json.loads((d / "tournament.json").read_text())["kind"] for d in (res_dir, game_dir)]
    assert kinds == ["spyglass-resistance-tournament", "spyglass-game-tournament"]


def test_the_resistance_package_is_its_three_layers():
    """Issue 27: The Resistance's own parts live under spyglass/resistance/, in three
    subpackages at three layers (bots and compat below the agents, arena above the arena).
    The layering rules name the subpackages, so the package's own ``__init__`` must hold
    nothing a lower layer could reach through it, and no module may sit beside them."""
    import ast

    root = Path(spyglass.__file__).parent / "resistance"
    assert sorted(p.name for p in root.glob("*.py")) == ["__init__.py"]
    assert sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file()) == [
        "arena", "bots", "compat"]
    tree = ast.parse((root / "__init__.py").read_text(encoding="utf-8"))
    assert [type(n) for n in tree.body] == [ast.Expr], "only a docstring"


def test_a_bot_class_stored_under_its_old_import_path_still_loads():
    """Manifests written before issue 27 moved the Bot API name a bot class given from
    Python by its old import path; resuming them needs the old path to load the same class."""
    from spyglass.resistance.arena.bot_loader import load_class
    from spyglass.resistance.bots.magi import Magi

    assert load_class("spyglass.bots.magi.Magi") is Magi
    assert load_class("spyglass.resistance.bots.magi.Magi") is Magi
    with pytest.raises(ValueError, match="cannot import module"):
        load_class("spyglass.botsx.magi.Magi")
