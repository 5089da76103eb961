"""An isolated 2012 bot's worker starts without NumPy (issue 27: a worker is started for
each bot of each chunk, and importing NumPy was about half of its start-up)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.test_legacy_random import _write


def test_a_bot_worker_imports_no_numpy(tmp_path):
    spec = _write(tmp_path, "Plain", from_import=False) + ":Plain"
    init = {"source": spec, "params": [], "label": "Plain"}
    script = (
        "import sys\n"
        "from spyglass.resistance.arena.isolation import BotHost\n"
        f"host = BotHost({json.dumps(init)})\n"
        "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))\n"
    )
    root = str(Path(__file__).resolve().parents[1])
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=root, env={"PYTHONPATH": root, "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "[]"
