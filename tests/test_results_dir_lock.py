"""The results directory's lock (``spyglass.arena.results_dir.hold``) and forked children."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time

import pytest

from spyglass.arena.results_dir import hold

SCRIPT = textwrap.dedent("""
    import os, signal, sys, time
    from pathlib import Path
    from spyglass.arena.results_dir import hold
    out = Path(sys.argv[1])
    with hold(out, RuntimeError):
        child = os.fork()
        if child == 0:  # a pool worker that outlives its run
            time.sleep(60)
            os._exit(0)
        (out / "child").write_text(str(child))
        os.kill(os.getpid(), signal.SIGKILL)
""")


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork")
def test_a_forked_child_does_not_keep_a_killed_runs_directory_locked(tmp_path):
    """A run killed outright while a forked worker of it still lives: the next run may take
    the directory (the worker's inherited descriptor must not hold the lock)."""
    out = tmp_path / "run"
    proc = subprocess.run([sys.executable, "-c", SCRIPT, str(out)], timeout=60)
    assert proc.returncode == -signal.SIGKILL
    child = int((out / "child").read_text())
    try:
        os.kill(child, 0)  # still alive, holding whatever it inherited
        with hold(out, RuntimeError):
            pass
    finally:
        os.kill(child, signal.SIGKILL)
        time.sleep(0.05)


def test_a_held_directory_is_refused_with_the_holders_pid(tmp_path):
    with hold(tmp_path, RuntimeError):
        proc = subprocess.run(
            [sys.executable, "-c",
             "import sys; from pathlib import Path; from spyglass.arena.results_dir import hold\n"
             "with hold(Path(sys.argv[1]), RuntimeError): pass", str(tmp_path)],
            capture_output=True, text=True, timeout=60)
    assert proc.returncode != 0
    assert f"in use by another run (process {os.getpid()})" in proc.stderr
