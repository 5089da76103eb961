"""The faster copy of inlined functions (spyglass.search.inline_copy) is in place and changes
no result; the search loops' own fingerprints (tests/search_identity*.py) check it on every
game."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import spyglass.search  # noqa: F401  (installs it)
from spyglass.search import inline_copy

ROOT = Path(__file__).resolve().parents[1]

_PROGRAM = """
import numpy as np
from numba import njit
import spyglass.search
from spyglass.search import inline_copy

@njit(inline="always")
def step(x, k):
    acc = 0
    for i in range(k):
        if (x + i) % 3 == 0:
            acc += i * x
        elif i % 2:
            acc -= x
        else:
            acc ^= i
    return acc

@njit(inline="always")
def twice(a, k):
    t = 0
    for j in range(a.size):
        t += step(a[j], k) - step(k, a[j] % 7)
    return t

@njit
def run(a):
    out = np.zeros(5, np.int64)
    for k in range(5):
        out[k] = twice(a, k + 3) + step(k, 4)
    return out

print(inline_copy._state["installed"], run(np.arange(40, dtype=np.int64) * 7 - 13).tolist())
"""


def test_installed_with_this_numba():
    assert inline_copy.install() is (os.environ.get("SPYGLASS_INLINE_COPY", "1") != "0")


def test_inlined_functions_compute_the_same_with_and_without_it(tmp_path):
    out = {}
    for flag in ("0", "1"):
        env = dict(os.environ, SPYGLASS_INLINE_COPY=flag, PYTHONPATH=str(ROOT),
                   NUMBA_CACHE_DIR=str(tmp_path / flag))
        r = subprocess.run([sys.executable, "-c", _PROGRAM], env=env, capture_output=True,
                           text=True, timeout=300, check=False)
        assert r.returncode == 0, r.stderr[-2000:]
        out[flag] = r.stdout.split(" ", 1)
    assert out["0"][0] == "False" and out["1"][0] == "True"
    assert out["0"][1] == out["1"][1]
