"""Tournaments from Python (notebooks): the API behind ``spyglass tournament``, for every
game, through the one engine (:mod:`spyglass.arena.tournament`).

>>> from spyglass import tournament
>>> res = tournament.run(["randombot", "randombot"], games=1200, seed=1, progress=False)
>>> res.games, [b.label for b in res.bots]
>>> ph = tournament.run(["moismcts", "pimc"], game="phantom", games=40, progress=False)

The Resistance's competition models (Taylor 2014, §4.4, Cowling et al. 2015, §VII-A) are
described in :mod:`spyglass.resistance.arena.schedule`, other games' seating in
:mod:`spyglass.arena.rotation`; every game's statistics in :mod:`spyglass.arena.game_stats`
(The Resistance adds its 2012 columns: :mod:`spyglass.resistance.arena.stats`), intervals
and tests in :mod:`spyglass.arena.stats`.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from spyglass.arena.backends import BackendError
from spyglass.arena.paired import holm, paired_test
from spyglass.arena.stats import INTERVAL_2012, compare_proportions
from spyglass.arena.tournament import (
    DEFAULT_INTERVAL,
    MANIFEST,
    MANIFEST_KIND,
    RESULTS,
    GameTournamentError,
    GameTournamentResults,
    load_game_results,
    run_game_tournament,
    run_tournament,
)
from spyglass.games.resistance.options import Rules
from spyglass.players import AGENT, lineup_kind
from spyglass.resistance.arena.outcomes import seat_outcomes, spy_outcomes
from spyglass.resistance.arena.schedule import DEFAULT_CHUNK, ScheduleError
from spyglass.resistance.arena.spec import BotSpec
from spyglass.resistance.arena.table import (
    ResistanceTable,
    TournamentError,
    TournamentResults,
    check_new_out,
    load_config,
    load_results,
    new_config,
)

__all__ = ["BackendError", "GameTournamentError", "GameTournamentResults", "ScheduleError",
           "TournamentError", "TournamentResults", "compare", "load", "run"]

RESISTANCE = "resistance"


def run(
    bots: Sequence[str | BotSpec | Any] = (),
    *,
    game: str = RESISTANCE,
    options: dict | None = None,
    games: int = 1000,
    players: int | None = None,
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
    chunk: int | None = None,
    interval: str | None = None,
    spy_bot: str | BotSpec | None = None,
    resistance_bot: str | BotSpec | None = None,
    isolate: str = "auto",
    repair: bool = False,
) -> TournamentResults | GameTournamentResults:
    """Run a tournament and return its results (also written to ``out`` when given).

    ``game``: The Resistance (the default) or any registered game (``spyglass games``),
    with its ``options``; the other games' pools are agents (``spyglass bots --game
    NAME``), seated by rotation over shared deals, and return
    :class:`GameTournamentResults`; the Resistance-only arguments (``model``, ``burst``,
    ``rules``, ``track_suspicion``, ``spy_bot``, ``resistance_bot``) are refused for
    them. ``resume`` continues a stored tournament of either kind.

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
    if resume is not None and _stored_kind(resume) == MANIFEST_KIND or (
            resume is None and _general(game, [*bots, spy_bot, resistance_bot])):
        return _run_other_game(
            bots, game=game, options=options, games=games, players=players, seed=seed,
            out=resume if resume is not None else out, resume=resume is not None,
            backend=backend, workers=workers, address=address, time_limit=time_limit,
            chunk=chunk, interval=interval, progress=progress, isolate=isolate,
            resistance_only={"model": model != "permutations", "burst": burst is not None,
                             "rules": rules is not None, "track_suspicion": track_suspicion,
                             "spy_bot": spy_bot is not None,
                             "resistance_bot": resistance_bot is not None},
            repair=repair)
    if options:
        raise TournamentError("options are for other games; The Resistance takes rules=")
    players = 5 if players is None else players
    chunk = DEFAULT_CHUNK if chunk is None else chunk
    interval = INTERVAL_2012 if interval is None else interval
    run_opts = {"backend": backend, "workers": workers, "address": address,
                "progress": progress}
    if resume is not None:
        return run_tournament(ResistanceTable(load_config(resume), resume), resuming=True,
                              repair=repair, **run_opts)
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
    return run_tournament(ResistanceTable(config, out), **run_opts)


def _general(game: str, specs: Sequence[Any]) -> bool:
    """Whether a new tournament plays on the game-general tables: every game but The
    Resistance, and The Resistance with a lineup of game-general agents (the registry's
    kind decides, :func:`spyglass.players.lineup_kind`)."""
    if str(game).strip().lower() != RESISTANCE:
        return True
    try:
        return lineup_kind([s for s in specs if s is not None]) == AGENT
    except ValueError as exc:
        raise TournamentError(str(exc)) from None


def _stored_kind(out: str | Path) -> str | None:
    """The ``kind`` of the tournament stored in ``out`` (None for The Resistance's)."""
    try:
        data = json.loads((Path(out) / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data.get("kind") if isinstance(data, dict) else None


def _run_other_game(bots: Sequence[Any], *, game: str, resistance_only: dict[str, bool],
                    resume: bool, **kw: Any) -> GameTournamentResults:
    """A tournament of a game other than The Resistance, through the same engine."""
    used = [name for name, given in resistance_only.items() if given]
    if used:
        raise GameTournamentError(f"{', '.join(used)}: only for The Resistance, not {game} "
                                  "(other games take options=)")
    if kw["interval"] is None:
        kw["interval"] = DEFAULT_INTERVAL
    if resume:
        kw.update(games=1, seed=None, players=None, options=None)
        game = _stored_game(kw["out"])
    return run_game_tournament(game, list(bots), resume=resume, **kw)


def _stored_game(out: str | Path) -> str:
    data = json.loads((Path(out) / MANIFEST).read_text(encoding="utf-8"))
    return str(data.get("game"))


def load(out: str | Path) -> TournamentResults | GameTournamentResults:
    """Load a results directory of any game (statistics recomputed from its records)."""
    if _stored_kind(out) == MANIFEST_KIND:
        return load_game_results(out)
    return load_results(out)


def _counts(out: str | Path) -> dict:
    """The stored ``results.json`` of a run, or one recomputed from its records."""
    path = Path(out) / RESULTS
    if path.is_file():
        return json.loads(path.read_text(encoding="utf-8"))
    return load_results(out).to_dict()


def compare(run1: str | Path, run2: str | Path) -> dict:
    """Test whether two runs of The Resistance differ: the spy team's win rate (balanced
    runs) and the win rates (overall, as spy, as resistance) of every bot in both.

    Each row holds both rates, the difference with a 95% interval, a two-proportion
    z-test and Fisher's exact test (two-sided), which treat the runs as independent
    samples. Two runs with the same schedule (same seed, model, pool size and games) play
    the same deals, seats and roles game by game (common random numbers): that is a
    paired design, so each row then also holds ``paired``, McNemar's exact test on the
    (game, seat) pairs the bot played in both (:func:`spyglass.arena.paired.paired_test`),
    and the result says ``"paired": true``. The rows are read together, so they are one
    family: ``p_holm`` is the row's p-value (McNemar's when paired, else Fisher's)
    adjusted by Holm's step-down method, which controls the family-wise error rate under
    any dependence (and the rows depend on each other: overall = spy + resistance).
    """
    a, b = _counts(run1), _counts(run2)
    paired = _same_schedule(run1, run2)
    seats = (seat_outcomes(run1), seat_outcomes(run2)) if paired else None
    rows = []
    if "balanced" in a and "balanced" in b:
        sa, sb = a["balanced"]["spy_team"], b["balanced"]["spy_team"]
        if sa["n"] and sb["n"]:
            row = {"what": "spy team wins",
                   "test": compare_proportions(sa["wins"], sa["n"], sb["wins"], sb["n"])}
            if paired:
                row["paired"] = paired_test(spy_outcomes(run1), spy_outcomes(run2))
            rows.append(row)
    for label in a["bots"]:
        if label not in b["bots"]:
            continue
        for part in ("overall", "spy", "resistance"):
            ra, rb = a["bots"][label][part], b["bots"][label][part]
            if ra["n"] and rb["n"]:
                row = {"what": f"{label} {part}",
                       "test": compare_proportions(ra["wins"], ra["n"], rb["wins"], rb["n"])}
                if seats is not None:
                    row["paired"] = _paired_seats(*seats, label, part)
                rows.append(row)
    if not rows:
        raise TournamentError(f"{run1} and {run2} have nothing in common to compare")
    adjusted, _ = holm([row["paired"]["p_mcnemar"] if "paired" in row
                        else row["test"]["p_fisher"] for row in rows])
    for row, p in zip(rows, adjusted, strict=True):
        row["test"]["p_holm"] = p
    return {"run1": str(run1), "run2": str(run2), "paired": paired, "rows": rows}


def _same_schedule(run1: str | Path, run2: str | Path) -> bool:
    """Whether two results directories hold the same schedule (game i: same deal, seats
    and roles in both), so that their games pair up."""
    try:
        h1, h2 = (json.loads((Path(r) / MANIFEST).read_text(encoding="utf-8"))
                  ["schedule"]["hash"] for r in (run1, run2))
    except (OSError, ValueError, KeyError, TypeError):
        return False
    return h1 == h2


def _paired_seats(a: dict, b: dict, label: str, part: str) -> dict:
    """McNemar's test of ``label``'s wins on the (game, seat) pairs it played in both runs
    (in ``part``: overall, or one role)."""
    def wins(outcomes: dict) -> dict:
        return {key: won for key, (who, role, won) in outcomes.items()
                if who == label and part in ("overall", role)}

    wa, wb = wins(a), wins(b)
    if not set(wa) & set(wb):
        return {"pairs": 0, "p_mcnemar": 1.0}
    return paired_test(wa, wb)
