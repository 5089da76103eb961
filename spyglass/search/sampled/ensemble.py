"""Determinized UCT (PIMC) and the cheating ensemble: many UCT trees, one vote each.

Perfect-information Monte Carlo (Whitehouse 2014, §3.3.1 and §5.1): ``d`` full states --
determinizations sampled from the searcher's view, or ``d`` copies of the true state for
a cheating ensemble -- each searched by ``s`` iterations of plain UCT (:mod:`.uct`).
The trees are combined as in the thesis (§5.1, "taking the action most frequently
chosen across all sampled determinizations"; Ginsberg's weighted majority vote with
equal weights, since sampled states are equally likely): each tree votes for its most
visited root action, the action with most votes is played, ties go to the larger summed
root visits, then to the lower action id. Copies of the true state still give different
trees (the playouts are random); averaging over them is what made the cheating ensemble
stronger than one cheating tree in the thesis's phantom 4,4,4 experiment (§6.3.2).

The Resistance's :mod:`spyglass.search.pimc` does the same over enumerated
configurations and action indices (and shares :func:`~spyglass.search.pimc.vote`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spyglass.search.pimc import vote
from spyglass.search.sampled.driver import UCTSearch


@dataclass
class EnsembleResult:
    """The ensemble's choice, each action's votes and summed root visits."""

    action: int
    votes: dict[int, int]
    visits: dict[int, int]
    iterations: int
    seconds: float


def ensemble_search(uct: UCTSearch, states: list[np.ndarray], rng: np.ndarray,
                    ) -> EnsembleResult:
    """One UCT tree per state, each with ``uct.settings``' budget; majority vote.

    The combination is the thesis's (Whitehouse 2014, §5.1, after Ginsberg's GIB):
    each tree votes for its most visited root action and the action with most votes is
    played (equal weights: the states are sampled, not enumerated with probabilities);
    ties go to the larger summed root visits, then to the lower action id.
    """
    if not states:
        raise ValueError("an ensemble needs at least one state")
    pool = uct.pool
    pool.reset()
    roots = pool.new_roots(len(states))
    per_tree, done, secs = [], 0, 0.0
    for root, st in zip(roots.tolist(), states, strict=True):
        n, t = uct.grow(st, root, rng, uct.settings)
        done += n
        secs += t
        per_tree.append({pool.key(ch): pool.visits(ch) for ch in pool.children(root)})
    winner, votes, summed = vote(per_tree)
    return EnsembleResult(winner, votes, summed, done, secs)
