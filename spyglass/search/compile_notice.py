"""Say on stderr when a run must compile, and about how long it will take.

Spyglass's searches are numba-compiled per game and cached on disk (``cache=True``); the
first run of a search on a machine (or after its sources change) compiles it, which takes
seconds to tens of seconds of CPU with no output of its own. :func:`install` registers
one listener for numba's ``numba:compile`` event, which numba fires only when it
compiles (not when it loads from its cache), so every command, agent and game gets the
same notice from this one place:

- a game's search entry point (the generated ``<game>/search_entry.py``,
  ``icarus_entry.py``, ``mt_entry.py``, ...) gets a line naming the search and the game,
  with the expected CPU time (:data:`EXPECTED_CPU_S`, measured by
  ``tools/cold_compile.py``, see docs/search-speed.md), and a line when it is done;
- any other cached Spyglass function compiled (a game's rules, helpers) gets one line
  per process.

Only the outermost compile is announced (what it calls compiles inside it). Installed
when :mod:`spyglass.search` is imported; ``SPYGLASS_COMPILE_NOTICE=0`` turns it off.
"""

from __future__ import annotations

import os
import sys
import time

#: CPU seconds of each entry point's cold compile, rounded up (``tools/cold_compile.py
#: phantom``, 2026-11-28: the search itself; the first ICARUS search also compiles the
#: policy parts the three share; the toy game of tests/toy_game.py takes up to 1.3x these;
#: SD-MCTS: Cheat's, 8.0 s as the first search of a process).
EXPECTED_CPU_S = {
    "run_so": 4, "run_pom": 5, "run_mo": 4, "run_uct": 4, "run_so_icarus": 10,
    "run_mo_icarus": 8, "run_uct_icarus": 6, "run_mt": 5, "run_sdmcts": 4,
}
#: Added to the first search compiled in a process: the compiled parts the searches share
#: (numba's array and string helpers, the game's sampler and playout, compiled once).
FIRST_EXTRA_S = 6
#: What each entry point runs, in words.
SEARCHES = {
    "run_so": "SO-ISMCTS", "run_pom": "SO-ISMCTS+POM", "run_mo": "MO-ISMCTS",
    "run_uct": "UCT", "run_so_icarus": "ICARUS SO-ISMCTS", "run_mo_icarus": "ICARUS MO-ISMCTS",
    "run_uct_icarus": "ICARUS UCT", "run_mt": "MT-ISMCTS", "run_sdmcts": "SD-MCTS",
}
_state: dict = {"installed": False, "depth": 0, "started": None, "rules_said": False,
                "searches": 0}


def _ours_and_cached(dispatcher) -> bool:
    """A function cached on disk (``cache=True``) of Spyglass or of a game's entry module."""
    from numba.core.caching import NullCache

    cache = getattr(dispatcher, "_cache", None)
    if cache is None or isinstance(cache, NullCache):
        return False
    module = getattr(getattr(dispatcher, "py_func", None), "__module__", "") or ""
    return module.startswith("spyglass.") or module.endswith("_entry")


def _say(text: str) -> None:
    try:
        sys.stderr.write(f"spyglass: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):  # a closed stderr must not break a compile
        pass


def describe(module: str, name: str, first: bool = False) -> str | None:
    """The notice for entry point ``name`` of ``module`` (None if it is not an entry);
    ``first``: the first search compiled in this process."""
    if not module.endswith("_entry") or name not in SEARCHES:
        return None
    game = module.rpartition(".")[0].rpartition(".")[2] or module
    wait = EXPECTED_CPU_S[name] + (FIRST_EXTRA_S if first else 0)
    return (f"compiling {game}'s {SEARCHES[name]} search for this machine, about {wait} s "
            "of CPU (first run only: numba caches it on disk)...")


def _start(event) -> None:
    _state["depth"] += 1
    if _state["depth"] != 1:
        return
    dispatcher = event.data["dispatcher"]
    if not _ours_and_cached(dispatcher):
        return
    text = describe(dispatcher.py_func.__module__, dispatcher.py_func.__name__,
                    first=_state["searches"] == 0)
    if text is not None:
        _state["searches"] += 1
        _say(text)
        _state["started"] = time.process_time()
    elif not _state["rules_said"]:
        _state["rules_said"] = True
        _say("compiling numba code for this machine (first run only: numba caches it on "
             "disk; a game's searches take 5-20 s of CPU each)...")


def _end(event) -> None:
    _state["depth"] -= 1
    if _state["depth"] == 0 and _state["started"] is not None:
        took = time.process_time() - _state["started"]
        _state["started"] = None
        _say(f"compiled in {took:.1f} s of CPU")


def install() -> bool:
    """Register the notice with numba's compile events; True if installed."""
    if _state["installed"]:
        return True
    if os.environ.get("SPYGLASS_COMPILE_NOTICE", "1") == "0":
        return False
    try:
        from numba.core import event
    except ImportError:  # pragma: no cover
        return False

    class _Notice(event.Listener):
        def on_start(self, ev):
            _start(ev)

        def on_end(self, ev):
            _end(ev)

    event.register("numba:compile", _Notice())
    _state["installed"] = True
    return True
