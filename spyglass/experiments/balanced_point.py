"""One point of a paired experiment on The Resistance, played to the size asked.

Cowling, Whitehouse & Powley 2015's Figs 1-3 compare points (a bar, a value of T1, a
budget): each is a balanced-model tournament of one spy bot against one resistance bot in
a results directory of its own, with the same seed at every point, so that game ``i`` has
the same spy configuration and game seed everywhere and points are compared game by game.

The balanced schedule of N games begins with the schedule of any smaller whole number of
sets, so a point need not be played to its final size at once. Asked for ``games``, a
point plays what its first ``games`` games lack: it extends a shorter stored run
(:func:`spyglass.resistance.arena.table.extend_config`), leaves a longer one's later games
for later, and reports the outcomes of exactly its first ``games`` games. An experiment
can thus run every point at a small size, be read, and grow later with nothing replayed.
"""

from __future__ import annotations

import json
from pathlib import Path

from spyglass import tournament
from spyglass.arena.stats import rate_interval
from spyglass.arena.tournament import MANIFEST, run_tournament
from spyglass.resistance.arena.outcomes import spy_outcomes
from spyglass.resistance.arena.spec import parse_spec
from spyglass.resistance.arena.table import ResistanceTable, extend_config, load_config

PLAYERS = 5
#: The fifth proposal of a round goes ahead unvoted, as in the authors' implementation
#: (see :mod:`spyglass.experiments.fig1`); intervals are Wilson's.
RULES = "forced"
INTERVAL = "wilson"


def _params(spec: str) -> dict:
    return dict(parse_spec(spec)[0].params)


def check_same_design(d: Path, spy: str, resistance: str, *, seed: int, rules: str) -> None:
    """Refuse a stored point of another design (bots, seed, rules, model or players):
    its games would not pair with the others'."""
    cfg = load_config(d)
    got = [dict((k, v) for k, v in b["params"]) for b in cfg.bots]
    want = [_params(spy), _params(resistance)]
    if (cfg.seed, cfg.rules.get("fifth_rejection"), cfg.model, cfg.players, got) != (
            seed, rules, "balanced", PLAYERS, want):
        raise ValueError(
            f"{d} holds a different run (seed={cfg.seed}, rules="
            f"{cfg.rules.get('fifth_rejection')}, model={cfg.model}, bots {got}); use "
            f"another --out for seed={seed}, bots {want}")


def play_point(d: Path, spy: str, resistance: str, *, games: int, seed: int,
               rules: str = RULES, interval: str = INTERVAL, backend: str = "local",
               workers: int | None = None, chunk: int = 10,
               progress: bool = True) -> dict[int, bool]:
    """Play (or finish, or extend) the point stored in ``d`` to its first ``games``
    games; return whether the spies won each of them (games ended by a bot error are
    left out). Ctrl-C raises :class:`KeyboardInterrupt` with every finished game kept."""
    d = Path(d)
    if (d / MANIFEST).is_file():
        check_same_design(d, spy, resistance, seed=seed, rules=rules)
        config = load_config(d)
        if config.games < games:
            config = extend_config(d, games)
        if json.loads((d / MANIFEST).read_text(encoding="utf-8")).get("status") == "complete":
            res = None  # every game is there: nothing to play or count again
        else:
            res = run_tournament(ResistanceTable(config, d, until=games), resuming=True,
                                 backend=backend, workers=workers, progress=progress)
    else:
        res = tournament.run(games=games, players=PLAYERS, seed=seed, model="balanced",
                             out=d, backend=backend, workers=workers, rules=rules,
                             progress=progress, chunk=chunk, interval=interval,
                             spy_bot=spy, resistance_bot=resistance)
    if res is not None and res.interrupted:
        raise KeyboardInterrupt(res.message)
    return {i: won for i, won in spy_outcomes(d).items() if i < games}


def point_row(outcomes: dict[int, bool], interval: str = INTERVAL) -> dict:
    """Spy wins, counted games and the spy win rate with its interval."""
    w, n = sum(outcomes.values()), len(outcomes)
    r = rate_interval(w, n, interval)
    return {"wins": w, "games": n, "spy_win_rate": r.rate, "low": r.low, "high": r.high}
