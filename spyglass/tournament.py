"""Tournaments from Python (notebooks): the API behind ``spyglass tournament``.

>>> from spyglass import tournament
>>> res = tournament.run(["random", "random"], games=1200, seed=1, progress=False)
>>> res.games, [b.label for b in res.bots]

Competition models (Taylor 2014, §4.4, Cowling et al. 2015, §VII-A) are described in
:mod:`spyglass.arena.schedule`; statistics in :mod:`spyglass.arena.stats`.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from spyglass.arena.backends import BackendError
from spyglass.arena.schedule import DEFAULT_CHUNK, ScheduleError
from spyglass.arena.spec import BotSpec
from spyglass.arena.stats import INTERVAL_2012, compare_proportions
from spyglass.arena.tournament import (
    RESULTS,
    TournamentError,
    TournamentResults,
    check_new_out,
    load_config,
    load_results,
    new_config,
    run_tournament,
)
from spyglass.games.resistance.options import Rules

__all__ = ["BackendError", "ScheduleError", "TournamentError", "TournamentResults",
           "compare", "load", "run"]


def run(
    bots: Sequence[str | BotSpec] = (),
    *,
    games: int = 1000,
    players: int = 5,
    seed: int | None = None,
    model: str = "permutations",
    out: str | Path | None = None,
    backend: str = "local",
    workers: int | None = None,
    address: str | None = None,
    burst: int | None = None,
    rules: Rules | str | dict | None = None,
    time_limit: float | None = None,
    track_suspicion: bool = False,
    resume: str | Path | None = None,
    progress: bool = True,
    chunk: int = DEFAULT_CHUNK,
    interval: str = INTERVAL_2012,
    spy_bot: str | BotSpec | None = None,
    resistance_bot: str | BotSpec | None = None,
    isolate: str = "auto",
    repair: bool = False,
) -> TournamentResults:
    """Run a tournament and return its results (also written to ``out`` when given).

    ``bots``: registry names, ``module.Class``, ``file.py`` or ``name:key=value`` specs.
    ``model``: ``permutations`` (2012), ``burst`` (needs ``burst``) or ``balanced`` (the
    spy bot then the resistance bot, or ``spy_bot=``/``resistance_bot=``). ``seed``:
    None draws one (stored in the manifest). ``backend``: ``local`` (process pool of
    ``workers``, all cores by default; in-process for one worker) or ``ray``
    (``address`` joins a cluster). ``chunk``: games per chunk, played in order by one
    worker with one memory (cross-game learning lasts one chunk; a burst is a chunk).
    ``resume``: a results directory to continue; its stored configuration is used and
    only ``backend``, ``workers``, ``address`` and ``progress`` apply.
    Results are identical for the same configuration whatever the backend and workers.
    ``bots`` may also be Bot classes, instances (copied for each game) or factories.
    ``isolate``: ``auto`` (untrusted bots, from files or other modules, each play in a
    worker process of their own), ``all`` or ``none`` (see the README's security
    section). ``repair`` (with ``resume``): drop corrupt or conflicting lines of
    ``games.jsonl`` (reported by line number otherwise) and play those games again.
    """
    for name, value in (("progress", progress), ("repair", repair)):
        if type(value) is not bool:
            raise TypeError(f"{name} must be True or False, not {value!r}")
    if workers is not None and type(workers) is not int:
        raise TypeError(f"workers must be an integer or None, not {workers!r}")
    run_opts = {"backend": backend, "workers": workers, "address": address,
                "progress": progress}
    if resume is not None:
        return run_tournament(load_config(resume), out=resume, resuming=True, repair=repair,
                              **run_opts)
    if repair:
        raise TournamentError("repair=True is for continuing a tournament (with resume=...)")
    if spy_bot is not None or resistance_bot is not None:
        if model != "balanced":
            raise TournamentError("spy_bot / resistance_bot are for the balanced model")
        if spy_bot is None or resistance_bot is None or bots:
            raise TournamentError(
                "give both spy_bot and resistance_bot (and no other bots), or two bots in order"
            )
        bots = [spy_bot, resistance_bot]
    config = new_config(bots, games=games, players=players, seed=seed, model=model,
                        burst=burst, chunk=chunk, rules=rules, time_limit=time_limit,
                        track_suspicion=track_suspicion, interval=interval, isolate=isolate)
    if out is not None:
        check_new_out(out)
    return run_tournament(config, out=out, **run_opts)


def load(out: str | Path) -> TournamentResults:
    """Load a results directory (statistics recomputed from its game records)."""
    return load_results(out)


def _counts(out: str | Path) -> dict:
    """The stored ``results.json`` of a run, or one recomputed from its records."""
    import json

    path = Path(out) / RESULTS
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    return load_results(out).to_dict()


def compare(run1: str | Path, run2: str | Path) -> dict:
    """Test whether two runs differ: the spy team's win rate (balanced runs) and the
    overall win rate of every bot present in both.

    Each row holds both rates, the difference with a 95% interval, a two-proportion
    z-test and Fisher's exact test (two-sided).
    """
    a, b = _counts(run1), _counts(run2)
    rows = []
    if "balanced" in a and "balanced" in b:
        sa, sb = a["balanced"]["spy_team"], b["balanced"]["spy_team"]
        if sa["n"] and sb["n"]:
            rows.append({"what": "spy team wins",
                         "test": compare_proportions(sa["wins"], sa["n"], sb["wins"], sb["n"])})
    for label in a["bots"]:
        if label not in b["bots"]:
            continue
        for part in ("overall", "spy", "resistance"):
            ra, rb = a["bots"][label][part], b["bots"][label][part]
            if ra["n"] and rb["n"]:
                rows.append({"what": f"{label} {part}",
                             "test": compare_proportions(ra["wins"], ra["n"],
                                                         rb["wins"], rb["n"])})
    if not rows:
        raise TournamentError(f"{run1} and {run2} have nothing in common to compare")
    return {"run1": str(run1), "run2": str(run2), "rows": rows}
