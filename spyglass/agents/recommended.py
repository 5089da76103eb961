"""The recommended agent of each game: one declared table, read by ``spyglass bots --game G
--best``, ``spyglass play`` (its default opponents) and the Python API (:func:`best`).

Each entry is the strongest *fair* player (never an omniscient or peeking baseline) that
the project's own measurements in docs/ support, at a budget of at most 0.25 CPU seconds
per decision on the project's 2-core machine. ``evidence`` says where the choice comes
from; ``measured`` is False where docs/ hold no comparison that ranks the entry above the
project's other agents in that game (then it is the family's baseline, SO-ISMCTS, and
the table says so: no strength is claimed). ``cpu_per_decision`` is the CPU time per
decision measured for the spec (``python -m spyglass.bench.recommended``, 2026-11-27
20:05-20:12 UTC, load ~5-7 on 2 cores, ``nice 19``; median of the first decisions of one
seeded game: a rough figure). The Resistance's bot is a statistics-and-rules bot of
the 2012 Bot API (not timed there; its cost per decision is negligible). An entry
keeps the budget of the measurement it cites: a larger budget may be stronger, but
nothing here measured it.

A game not in the table (a game added later) gets :data:`DEFAULT`: SO-ISMCTS with a
0.2-second deadline per decision, which bounds its CPU time for any game's speed (a
deadline is wall-clock time, so the moves are not reproducible from the seed; set
``iterations`` for that). Adding a game's entry is one line here, with its evidence.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The budget every entry keeps to (CPU seconds per decision).
BUDGET_CPU_SECONDS = 0.25


@dataclass(frozen=True)
class Recommendation:
    """One game's recommended agent: its spec (``name:key=value,...``), the CPU seconds per
    decision measured for it (None: not timed: a deadline bounds it, or a 2012 Bot-API
    bot), and where the choice comes from."""

    spec: str
    cpu_per_decision: float | None
    evidence: str
    measured: bool


DEFAULT = Recommendation(
    "soismcts:seconds=0.2", None,
    "no measurement for this game: SO-ISMCTS, the family's baseline (Cowling et al. 2012), "
    "with a 0.2 s deadline per decision", measured=False)

RECOMMENDED: dict[str, Recommendation] = {
    "resistance": Recommendation(
        "scepticbot", None,
        "docs/bot-zoo.md: first of the Vienna 2012 final line-up (59.5% +-1.2, 5 players) "
        "and first of our reimplementations in the issue-12 line-up (57.7%); docs/"
        "strength.md: against the original 2012 files on 200 shared deals it won 61.0% "
        "[54.1, 67.5], the best MT-ISMCTS (learned opponent models) 55.0% [48.1, 61.7] "
        "(paired p = 0.14: not shown better, so not recommended)", measured=True),
    "phantom": Recommendation(
        "moismcts:iterations=10000", 0.016,
        "docs/phantom.md: best non-cheating player of the round robin at 10,000 iterations "
        "(48.6% [46.6, 50.6] over both seats, determinized UCT 45.4%, SO-ISMCTS 42.3%)",
        measured=True),
    "hearts": Recommendation(
        "soismcts:iterations=10000", 0.070,
        "not measured against the project's other Hearts agents at this budget: SO-ISMCTS, "
        "the family's baseline. Against OpenSpiel's ISMCTSBot with its c tuned (87), 300 "
        "deals with both seatings (docs/strength.md): 1.06 fewer points per deal at 0.03 s "
        "(paired t p = 0.005), 0.74 fewer at 0.1 s (p = 0.016)", measured=False),
    "spades": Recommendation(
        "soismcts:iterations=5000", 0.025,
        "not measured: SO-ISMCTS, the family's baseline", measured=False),
    "minidoudizhu": Recommendation(
        "soismcts:iterations=5000", 0.0034,
        "not measured against the project's other agents: SO-ISMCTS, the family's "
        "baseline", measured=False),
    "doudizhu": Recommendation(
        "soismcts:iterations=8726,c=1.0", 0.080,
        "docs/card-games.md, SO-ISMCTS vs PIMC at equal time (thesis Fig 6.7): 76.7% as "
        "landlord at 0.1 CPU s against PIMC 10x50 peasants, PIMC 73.3% (no significant "
        "difference; the two are tied, SO-ISMCTS kept as the family's own). "
        "docs/strength.md, against RLCard's doudizhu-rule-v1 on 500 shared deals: 81.0% as "
        "landlord (rule agent 46.2%), 73.0% as a peasant (53.8%), McNemar Holm p < 1e-15",
        measured=True),
    "cheat": Recommendation(
        "mga:iterations=400", 0.0037,
        "docs/cheat.md: MGA won 0.902 +- 0.042 against simulated subjects at 400 "
        "iterations, ISMCTS 0.385 (FPMGA, higher, peeks at the truth: not fair play)",
        measured=True),
    "othello": Recommendation(
        "uct:iterations=500,enhance=ER", 0.014,
        "docs/icarus.md, Table 8.1 (Othello, 500 iterations): EPIC+RAVE won 45/50 against "
        "plain UCT (0.90, 0.78-0.97); factors E and R significant", measured=True),
    "checkers": Recommendation(
        "uct:iterations=300", 0.0012,
        "docs/icarus.md, Table 8.1 (Checkers, 300 iterations): no enhancement beat plain "
        "UCT significantly; plain UCT kept", measured=True),
    "backgammon": Recommendation(
        "uct:iterations=100", 0.016,
        "docs/icarus.md, Table 8.1 (Backgammon, 100 iterations, 12 games a cell: too small "
        "to rank the enhancements): plain UCT, not measured as best", measured=False),
}


def best(game: str) -> Recommendation:
    """The recommended agent of ``game`` (a registered game name); :data:`DEFAULT` for a
    game the table does not list."""
    return RECOMMENDED.get(game.strip().lower(), DEFAULT)
