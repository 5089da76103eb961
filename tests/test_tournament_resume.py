"""Nothing is lost: a killed run, a killed worker and Ctrl-C, each resumed to the same results
as an uninterrupted run of the same seed, with no game played or counted twice."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from tournament_outputs import records_by_index, results_json

import spyglass.resistance.arena.table as resistance_table
from spyglass import tournament

TESTS = Path(__file__).parent




def count_lines(path: Path) -> int:
    try:
        return path.read_bytes().count(b"\n")
    except FileNotFoundError:
        return 0


def test_sigkill_mid_run_then_resume(tmp_path):
    bots = ["tournament_bots.Slow:ms=1", "randombot", "randombot", "randombot", "randombot"]
    games, out = 1500, tmp_path / "killed"
    args = [*bots, "--games", str(games), "--seed", "11", "--chunk", "50", "--workers", "2",
            "--out", str(out), "-q"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), *sys.path]))
    proc = subprocess.Popen(
        [sys.executable, "-c", "from spyglass.cli import main; main()", "tournament", *args],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while count_lines(out / "games.jsonl") < 300 and proc.poll() is None:
            assert time.monotonic() < deadline, "the tournament never got going"
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)  # the run and its workers, no clean-up
        _, err = proc.communicate()
    assert proc.returncode == -signal.SIGKILL, err.decode()
    assert 300 <= count_lines(out / "games.jsonl") < games
    kept = tournament.load(out).tally.played  # whole chunks and games of cut chunks
    assert count_lines(out / "games.jsonl") <= kept < games
    assert json.loads((out / "tournament.json").read_text())["status"] == "running"
    with open(out / "games.jsonl", "a") as fh:  # as if the kill tore a line in half
        fh.write('{"version":1,"setup":{"seed":12')

    resumed = tournament.run(resume=out, workers=1, progress=False)
    assert resumed.complete and resumed.games_played_now == games - kept
    reference = tournament.run(bots, games=games, seed=11, chunk=50, out=tmp_path / "ref",
                               workers=2, progress=False)
    assert results_json(out) == results_json(tmp_path / "ref") == reference.to_dict()
    assert records_by_index(out) == records_by_index(tmp_path / "ref")
    assert json.loads((out / "tournament.json").read_text())["status"] == "complete"

    # A record written twice (say, by hand) is still counted once.
    first = (out / "games.jsonl").read_text().splitlines()[0]
    with open(out / "games.jsonl", "a") as fh:
        fh.write(first + "\n")
    assert tournament.load(out).to_dict() == reference.to_dict()


def test_sigkill_mid_chunk_keeps_its_finished_games(tmp_path):
    """One chunk of the whole run: games are kept as they finish, not when the chunk ends;
    the resume replays the chunk from its start (same memory) and counts each game once."""
    bots = ["tournament_bots.Learner", "tournament_bots.Slow:ms=2", "randombot"]
    games, out = 240, tmp_path / "killed"
    args = [*bots, "--games", str(games), "--seed", "4", "--chunk", "1000", "--workers", "1",
            "--out", str(out), "-q"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), *sys.path]))
    proc = subprocess.Popen(
        [sys.executable, "-c", "from spyglass.cli import main; main()", "tournament", *args],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True,
    )
    partial = out / "partial" / "chunk-000000.0.jsonl"  # attempt 0 of chunk 0
    try:
        deadline = time.monotonic() + 60
        while count_lines(partial) < 40 and proc.poll() is None:
            assert time.monotonic() < deadline, "the tournament never got going"
            time.sleep(0.01)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        _, err = proc.communicate()
    assert proc.returncode == -signal.SIGKILL, err.decode()
    assert count_lines(out / "games.jsonl") == 0  # the chunk never finished
    kept = count_lines(partial)
    assert 40 <= kept < games
    assert tournament.load(out).tally.played == kept  # readable before any resume

    resumed = tournament.run(resume=out, workers=1, progress=False)
    assert resumed.complete and resumed.games_played_now == games - kept
    assert not (out / "partial").exists()
    reference = tournament.run(bots, games=games, seed=4, chunk=1000, out=tmp_path / "ref",
                               workers=1, progress=False)
    assert results_json(out) == results_json(tmp_path / "ref") == reference.to_dict()
    assert records_by_index(out) == records_by_index(tmp_path / "ref")
    assert count_lines(out / "games.jsonl") == games


def test_a_killed_worker_is_replaced_and_its_chunk_replayed(tmp_path):
    marker = tmp_path / "killed-once"
    bots = [f"tournament_bots.Killer:marker={marker}", "randombot"]
    kw = dict(games=300, seed=5, chunk=50, workers=2, progress=False)
    res = tournament.run(bots, out=tmp_path / "run", **kw)
    assert marker.exists(), "the killer bot never killed its worker"
    assert res.complete and not res.interrupted and res.tally.errors == 0
    assert not (tmp_path / "run" / "partial").exists()
    reference = tournament.run(bots, out=tmp_path / "ref", **kw)  # marker exists: no kill
    assert res.to_dict() == reference.to_dict()
    assert records_by_index(tmp_path / "run") == records_by_index(tmp_path / "ref")


def test_a_worker_killed_while_the_parent_writes_results_is_replaced(tmp_path, monkeypatch):
    """The pool breaks asynchronously: here a worker dies while the parent is still writing
    an earlier chunk's games, so the break surfaces from the next submission (not from a
    future). The run used to stop there with "the process pool is not usable anymore"
    (the flaky failure of the test above); now the chunks in flight are replayed once."""
    absorb, slow_calls = resistance_table._absorb, []

    def slow_absorb(*args, **kwargs):
        if len(slow_calls) < 2:  # a parent busy (or descheduled) while the kill happens
            slow_calls.append(1)
            time.sleep(0.5)
        return absorb(*args, **kwargs)

    monkeypatch.setattr(resistance_table, "_absorb", slow_absorb)
    marker = tmp_path / "killed-once"
    # ~2.5 killer seats per game: the kill comes in each worker's second chunk of 10
    bots = [f"tournament_bots.Killer:marker={marker},after=40", "randombot"]
    kw = dict(games=160, seed=5, chunk=10, workers=2, progress=False)
    res = tournament.run(bots, out=tmp_path / "run", **kw)
    assert marker.exists(), "the killer bot never killed its worker"
    assert res.complete and not res.interrupted and res.tally.errors == 0, res.message
    assert res.games_played_now == 160
    monkeypatch.setattr(resistance_table, "_absorb", absorb)
    reference = tournament.run(bots, out=tmp_path / "ref", **kw)  # marker exists: no kill
    assert res.to_dict() == reference.to_dict()
    assert records_by_index(tmp_path / "run") == records_by_index(tmp_path / "ref")


def test_a_pool_that_keeps_breaking_stops_the_run_with_a_clear_message(tmp_path):
    marker = tmp_path / "unused"
    bots = [f"tournament_bots.Killer:marker={marker},always=true", "randombot"]
    res = tournament.run(bots, games=40, seed=5, chunk=10, workers=2, out=tmp_path / "run",
                         progress=False)
    assert res.interrupted and not res.complete and res.tally.played == 0
    assert "worker processes died 4 times" in res.message and "--resume" in res.message
    assert not (tmp_path / "run" / "partial").exists()


def test_ctrl_c_keeps_finished_chunks_and_resume_completes(tmp_path):
    marker = tmp_path / "ctrl-c"
    # 3 interrupter seats per game: Ctrl-C comes in game 111, in the middle of chunk 2
    bots = [f"tournament_bots.Interrupter:marker={marker},after=330", "randombot"]
    out = tmp_path / "run"
    # The command a user stops, in a fresh process: the bot sends that process a real
    # SIGINT (see Interrupter). (In-process, a pytest worker that has run a thousand tests
    # before it lost the signal in two whole-suite runs, not alone; cause not yet found.)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), *sys.path]))
    proc = subprocess.run(
        [sys.executable, "-c", "from spyglass.cli import main; main()", "tournament", *bots,
         "--games", "300", "--seed", "8", "--chunk", "50", "--workers", "1", "--out", str(out),
         "-q"], env=env, capture_output=True, text=True, timeout=300)
    said = proc.stdout + proc.stderr
    assert proc.returncode == 130 and "Ctrl-C" in said and "--resume" in said, said[-2000:]
    kept = len(records_by_index(out))
    # the games of the chunk cut short are kept too (not only whole chunks)
    assert kept % 50 != 0 and 0 < kept < 300
    assert results_json(out)["games"] == kept and not results_json(out)["complete"]
    assert json.loads((out / "tournament.json").read_text())["status"] == "interrupted"
    done = tournament.run(resume=out, workers=2, progress=False)
    assert done.complete and done.games_played_now == 300 - kept
    reference = tournament.run(bots, games=300, seed=8, chunk=50, workers=1, progress=False)
    assert results_json(out) == reference.to_dict()


def _children(pid: int) -> list[int]:
    found = []
    for entry in filter(str.isdigit, os.listdir("/proc")):
        try:
            with open(f"/proc/{entry}/status") as fh:
                ppid = next(int(line.split()[1]) for line in fh if line.startswith("PPid:"))
        except (OSError, StopIteration, ValueError):
            continue
        if ppid == pid:
            found.append(int(entry))
    return found


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/status") as fh:
            return not any(line.startswith("State:") and "Z" in line for line in fh)
    except OSError:
        return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="parent-death signal: Linux")
def test_workers_end_with_a_killed_parent_and_the_directory_resumes(tmp_path):
    """Kill only the run's own process: its pool workers must not play on for nobody (using
    the cores and holding the directory), and the directory resumes at once."""
    bots = ["tournament_bots.Slow:ms=1", "randombot", "randombot", "randombot", "randombot"]
    out = tmp_path / "orphaned"
    args = [*bots, "--games", "3000", "--seed", "11", "--chunk", "50", "--workers", "2",
            "--out", str(out), "-q"]
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(TESTS), *sys.path]))
    # (no pipes: a worker that outlived the parent would hold them open)
    proc = subprocess.Popen(
        [sys.executable, "-c", "from spyglass.cli import main; main()", "tournament", *args],
        env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
    )
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 60
        while count_lines(out / "games.jsonl") < 100 and proc.poll() is None:
            assert time.monotonic() < deadline, "the tournament never got going"
            time.sleep(0.01)
        workers = _children(proc.pid)
        assert len(workers) >= 2, workers
        os.kill(proc.pid, signal.SIGKILL)  # the parent alone
        proc.wait()
        deadline = time.monotonic() + 10
        while any(_alive(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(_alive(w) for w in workers), "a worker outlived its killed parent"
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
        for w in workers:
            if _alive(w):
                os.kill(w, signal.SIGKILL)
    assert proc.returncode == -signal.SIGKILL
    resumed = tournament.run(resume=out, workers=2, progress=False)
    assert resumed.complete and not (out / ".lock").exists()
