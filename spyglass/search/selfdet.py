"""Self-determinization and bluffing (Cowling et al. 2015, §VI; Whitehouse 2014, §7.4).

A self-determinizing player keeps, besides its belief φ, a belief ψ: its model of what
the opponents have inferred so far, initialised uniform over *all* determinizations and
updated from the merged tree (see :class:`~spyglass.search.inference.MergedTreeWalk`).
The variants differ in where each phase of a search samples from and how the move is
chosen:

==========  ==========================================================================
TRUEONLY    sample only from φ (no self-determinization): the benchmark
PURE        sample only from ψ; the decision tree learns only from the iterations
            whose determinization happens to be in the player's information set
SPLIT       ``t1`` iterations from ψ, then the rest from φ
TWOSTEP     as SPLIT, but in the second phase the opponents play the mixed policy
            proportional to their first-phase visits and their trees are not updated
BLUFF       as SPLIT, then choose the move by eq. 3 (:func:`bluff_choice`)
==========  ==========================================================================

Only a player with something to hide gains from these: for a spy, ψ spreads over
information sets it knows to be false; a resistance member has nothing the others
could not guess, so the variants mostly cost it iterations.

One implementation serves both MT-ISMCTS searches: the Resistance's enumerating search
(:mod:`spyglass.search.mtismcts`, ψ a weight vector over its determinizations, updated
from the merged tree) and the game-general one over particles
(:mod:`spyglass.search.sampled.mt_driver`, ψ a second particle set,
:class:`~spyglass.search.particles.PublicParticleFilter`). Each search reads a
:class:`Phase`'s ``belief`` in its own form; :func:`plan_phases` and
:func:`bluff_choice` do not look inside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

VARIANTS = ("trueonly", "pure", "split", "twostep", "bluff")
#: Which iterations' visits update ψ (and BLUFF's merged counts): ``"all"``, the paper's
#: "summing the visit counts across all trees", the decision tree included (Cowling et
#: al. 2015, §VI), or ``"phase1"``, only the self-determinizing phase's (this project's
#: earlier departure, kept as an option: the runs recorded before 2026-11-27 used it).
PSI_COUNTS = ("all", "phase1")


@dataclass(frozen=True)
class Phase:
    """One stretch of a search (Cowling et al. 2015, §VI): where its determinizations come from.

    ``belief``: what the phase samples from, in the search's own form (the enumerating
    search: weights over its determinizations; the particle search: a
    :class:`~spyglass.search.particles.WeightedStates`); None: the search's own belief φ.
    Unlike φ it may cover several of the searcher's information sets (ψ).
    ``iterations`` or ``seconds``: its budget. ``fixed_opponents``: TWOSTEP's second
    phase, every opponent tree frozen and playing its visit-proportional mixed policy.
    ``count_merged``: count visits in all of the searcher's trees (the merged tree, for
    ψ's update and BLUFF's eq. 3).
    """

    belief: Any = None
    iterations: int | None = None
    seconds: float | None = None
    fixed_opponents: bool = False
    count_merged: bool = False


def check_variant(name: str) -> str:
    """The canonical variant name, or a ValueError naming the choices."""
    v = str(name).lower()
    if v not in VARIANTS:
        raise ValueError(f"unknown bluff variant {name!r}; choose one of {', '.join(VARIANTS)}")
    return v


def uniform_psi(n_dets: int) -> np.ndarray:
    """ψ's starting point: every determinization equally likely, whatever the player is."""
    return np.full(n_dets, 1.0 / n_dets)


def plan_phases(variant: str, phi: Any, psi: Any | None, *,
                iterations: int | None = None, seconds: float | None = None,
                t1: int | None = None, psi_counts: str = "all",
                share: float = 0.5) -> list[Phase]:
    """The search phases of ``variant`` for a budget of ``iterations`` (or ``seconds``).

    ``phi``, ``psi``: the two beliefs, in the search's own form (:class:`Phase`).
    ``t1``: iterations of the self-determinizing first phase (SPLIT, TWOSTEP, BLUFF);
    without it, ``share`` of the budget (default half, iterations rounded down).
    ``psi_counts``: one of :data:`PSI_COUNTS`.
    """
    variant = check_variant(variant)
    if psi_counts not in PSI_COUNTS:
        raise ValueError(f"psi_counts must be one of {', '.join(PSI_COUNTS)}, not {psi_counts!r}")
    if (iterations is None) == (seconds is None):
        raise ValueError("give exactly one budget: iterations or seconds")
    if variant == "trueonly":
        return [Phase(phi, iterations, seconds)]
    if psi is None:
        raise ValueError(f"the {variant} variant needs a belief psi")
    if variant == "pure":
        return [Phase(psi, iterations, seconds, count_merged=True)]
    twostep = variant == "twostep"
    if not 0.0 <= share <= 1.0:
        raise ValueError(f"share must lie in [0, 1], not {share!r}")
    if seconds is not None:
        if t1 is not None:
            raise ValueError("t1 counts iterations; with a seconds budget give a share")
        first = dict(seconds=seconds * share)
        second = dict(seconds=seconds * (1.0 - share))  # a phase of no time is no phase
    else:
        t1 = int(iterations * share) if t1 is None else t1
        if not 0 <= t1 <= iterations:
            raise ValueError(f"t1 must lie in 0..{iterations} (the budget), not {t1}")
        first, second = dict(iterations=t1), dict(iterations=iterations - t1)
    phases = []
    if first.get("iterations", first.get("seconds", 1)):
        phases.append(Phase(psi, count_merged=True, **first))
    if second.get("iterations", second.get("seconds", 1)):
        phases.append(Phase(phi, fixed_opponents=twostep, count_merged=psi_counts == "all",
                            **second))
    return phases


def bluff_choice(
    stats: Mapping[int, tuple[int, float, float]], merged_visits: Mapping[int, int]
) -> int:
    """Eq. 3 of Cowling et al. 2015: the bluff that is not significantly worse than the best move.

    ``stats[a] = (visits, mean, std)`` of each action at the root of the decision tree;
    ``merged_visits[a]``: its root visits summed over all of the player's trees.
    ``a*`` is the most visited action of the decision tree (ties: lowest index);
    ``A* = {a : μ(a*) − μ(a) < min(σ(a*), σ(a))}`` (``a*`` always included, also when
    its σ is 0); the member of A* with most merged visits is played (ties: ``a*``, then
    the lowest index).
    """
    visited = {a: v for a, v in stats.items() if v[0] > 0}
    if not visited:
        raise ValueError("eq. 3 needs at least one visited action at the root")
    best = max(visited, key=lambda a: (visited[a][0], -a))
    _, mu_b, sd_b = visited[best]
    candidates = [best] + [a for a, (_, mu, sd) in visited.items()
                           if a != best and mu_b - mu < min(sd_b, sd)]
    return max(candidates,
               key=lambda a: (merged_visits.get(a, 0), a == best, -a))
