"""What an isolated 2012 bot's worker costs (issue 27): it starts without NumPy (a worker
is started for each bot of each chunk, and importing NumPy was about half of its
start-up), and the referee does not ask a 2012 bot for extras it cannot have after
every game (one round trip per seat and game), while a bot that has them still gives
them."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

from spyglass.arena.sandbox import Worker
from spyglass.resistance.arena.isolation import HOST
from spyglass.resistance.arena.referee import play_game
from tests.test_legacy_random import _write

ROOT = Path(__file__).resolve().parents[1]


def _init(spec: str, label: str) -> dict:
    return {"source": spec, "params": [], "label": label}


def test_a_bot_worker_imports_no_numpy(tmp_path):
    spec = _write(tmp_path, "Plain", from_import=False) + ":Plain"
    script = (
        "import sys\n"
        "from spyglass.resistance.arena.isolation import BotHost\n"
        f"host = BotHost({json.dumps(_init(spec, 'Plain'))})\n"
        "print(sorted(m for m in ('numpy', 'numba') if m in sys.modules))\n"
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         check=True, cwd=str(ROOT),
                         env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    assert out.stdout.strip() == "[]"


def test_only_bots_that_can_have_extras_are_asked_for_them(tmp_path):
    legacy = _write(tmp_path, "Plain", from_import=False) + ":Plain"
    native = f"{ROOT / 'tests' / 'hostile' / 'values.py'}:BadExtra"
    for spec, expected in ((legacy, False), (native, True)):
        worker = Worker(HOST, _init(spec, "x"))
        try:
            assert worker.hello == {"record_extra": expected}
        finally:
            worker.kill()
    # A 2012 bot's games are the same isolated or not, with no extras either way.
    isolated = play_game([legacy] * 5, seed=4, isolate="auto", time_limit=10).to_record()
    inline = play_game([legacy] * 5, seed=4, isolate="none").to_record()
    assert "extra" not in isolated and isolated["events"] == inline["events"]


def test_a_seat_generator_travels_as_its_seed_and_draws_the_same(tmp_path):
    """The referee tells an isolated seat the seed of its generator, so a game's first
    message carries 8 bytes, not the 625-word state; the bot draws the same numbers."""
    from spyglass.resistance.arena.isolation import RemoteBot

    isolated = play_game(["randombot"] * 5, seed=11, isolate="all", time_limit=10)
    inline = play_game(["randombot"] * 5, seed=11, isolate="none")
    assert isolated.error is None and isolated.isolated == (0, 1, 2, 3, 4)
    assert isolated.to_record()["events"] == inline.to_record()["events"]
    # Seated without a seed (another referee), the whole state is sent, as before.
    bot = RemoteBot(None, 1.0, None, "x")  # no worker needed to be seated
    rng = random.Random(5)
    bot._seat(0, False, None, rng, {}, "x")
    assert bot._rng_state == rng.getstate()
    bot.rng_seed = 5
    bot._seat(0, False, None, random.Random(5), {}, "x")
    assert bot._rng_state == ("seed", 5) and bot.rng_seed is None

