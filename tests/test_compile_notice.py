"""A run that must compile a search says so on stderr with the expected wait; a run that
loads it from numba's cache says nothing (issue 26, item 5)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from spyglass.search.compile_notice import EXPECTED_CPU_S, FIRST_EXTRA_S, describe

ROOT = Path(__file__).resolve().parents[1]
ENTRY = '''
from numba import njit


@njit(cache=True)
def run_uct(x):
    return x + 1
'''
RUN = "import spyglass.search, toy_entry; print(toy_entry.run_uct(41))"


def test_describe_names_the_search_the_game_and_the_wait():
    text = describe("spyglass.games.phantom.icarus_entry", "run_so_icarus", first=True)
    assert "phantom's ICARUS SO-ISMCTS" in text
    assert f"about {EXPECTED_CPU_S['run_so_icarus'] + FIRST_EXTRA_S} s" in text
    assert describe("spyglass.games.phantom.kernel", "apply") is None


def test_a_cold_run_says_it_compiles_and_a_warm_one_is_quiet(tmp_path):
    (tmp_path / "toy_entry.py").write_text(ENTRY)
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path / "cache"),
               PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    env.pop("SPYGLASS_COMPILE_NOTICE", None)
    runs = [subprocess.run([sys.executable, "-c", RUN], env=env, capture_output=True,
                           text=True, timeout=300, check=True) for _ in range(2)]
    assert [r.stdout.strip() for r in runs] == ["42", "42"]
    assert "compiling toy_entry's UCT search for this machine, about" in runs[0].stderr
    assert "compiled in" in runs[0].stderr
    assert "spyglass:" not in runs[1].stderr
    quiet = subprocess.run([sys.executable, "-c", RUN], capture_output=True, text=True,
                           env=dict(env, NUMBA_CACHE_DIR=str(tmp_path / "cache2"),
                                    SPYGLASS_COMPILE_NOTICE="0"), timeout=300, check=True)
    assert "spyglass:" not in quiet.stderr
