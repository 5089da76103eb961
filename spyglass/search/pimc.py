"""Determinized UCT (PIMC) and cheating UCT (Whitehouse 2014, §3.3, §5.1; Algorithm-free: plain
UCT).

Perfect-information Monte Carlo search: sample ``d`` determinizations (full states
consistent with what the searcher knows), run ``s`` iterations of ordinary UCT on each
with every move visible, and let the ``d`` trees vote: each tree's most visited root
action gets one vote, the action with most votes is played, ties going to the larger
summed root visits and then to the lower action index. Cheating UCT is the same
ensemble on the true state (every determinization is the truth), which is why it must be
told the hidden information (see :mod:`spyglass.resistance.bots.cheatinguct`).

In each tree a node's statistics are those of the player who made the move into it
(maxⁿ). Each tree is searched by the one UCT loop over this pool
(:data:`spyglass.search.sampled.uct.run_compact`), whose playout policy is a parameter
(``playout(s, rng, cfg, w)``), so Marsh's SearchAgent reuses it with its
suspicion-weighted playouts.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from spyglass.search.bandits import DEFAULT_BANDIT, DEFAULT_C, bandit_code
from spyglass.search.tree import FULL, MAX_VISITS, NodePool


@dataclass
class PIMCResult:
    """The ensemble's choice, each tree's vote and the summed root visits per action."""

    action_index: int
    votes: dict[int, int]
    visits: dict[int, int]
    iterations: int
    seconds: float


def vote(tree_visits: list[dict[int, int]]) -> tuple[int, dict[int, int], dict[int, int]]:
    """Majority vote over trees' most visited actions; ties to summed visits, then index.

    ``tree_visits``: per tree, root action index -> visits. Returns the winner, the
    votes and the summed visits.
    """
    votes: dict[int, int] = {}
    summed: dict[int, int] = {}
    for tv in tree_visits:
        if not tv:
            continue
        best = max(tv, key=lambda a: (tv[a], -a))
        votes[best] = votes.get(best, 0) + 1
        for a, n in tv.items():
            summed[a] = summed.get(a, 0) + n
    if not votes:
        raise ValueError("no tree has a root action to vote for")
    winner = max(votes, key=lambda a: (votes[a], summed.get(a, 0), -a))
    return winner, dict(sorted(votes.items())), dict(sorted(summed.items()))


class PIMC:
    """A reusable determinized-UCT ensemble searcher.

    ``run``: the game's cached entry point binding
    :data:`spyglass.search.sampled.uct.run_compact` to its kernel and a playout policy (all
    other arguments as that loop's). ``bandit``/``c`` as in
    :mod:`spyglass.search.bandits`.
    """

    def __init__(self, run, *, bandit: str = DEFAULT_BANDIT, c: float = DEFAULT_C,
                 max_actions: int, max_depth: int, capacity: int = 1 << 15,
                 binary_rewards: bool = False) -> None:
        if not (isinstance(c, (int, float)) and c >= 0):
            raise ValueError(f"the exploration constant c must be a number >= 0, not {c!r}")
        self.run = run
        self.kind = bandit_code(bandit)
        self.c = float(c)
        self.max_actions = int(max_actions)
        self.max_depth = int(max_depth)
        self.pool = NodePool(capacity, binary_rewards=binary_rewards)

    def search(self, states: list[np.ndarray], rng: np.ndarray, *, iterations: int,
               cfg: np.ndarray | None = None, w: np.ndarray | None = None,
               batch: int = 4096) -> PIMCResult:
        """One UCT tree of ``iterations`` per full state in ``states``; the vote decides."""
        if not states:
            raise ValueError("PIMC needs at least one determinization")
        if not isinstance(iterations, (int, np.integer)) or iterations < 1:
            raise ValueError(f"iterations must be a positive integer, not {iterations!r}")
        if iterations > MAX_VISITS:
            raise ValueError(f"a tree is limited to {MAX_VISITS:,} iterations")
        cfg = np.zeros(1, dtype=np.int64) if cfg is None else cfg
        w = np.zeros(1, dtype=np.float64) if w is None else w
        pool = self.pool
        pool.reset()
        roots = pool.new_roots(len(states))
        t0 = time.perf_counter()
        done = 0
        per_tree = []
        for root_node, st in zip(roots.tolist(), states, strict=True):
            st = np.ascontiguousarray(st, dtype=np.int64)
            got = 0
            while got < iterations:
                todo = min(batch, iterations - got)
                pool.ensure(todo + 1)
                pool.meta[FULL] = 0
                got += self.run(cfg, w, st, root_node, pool.data, pool.fdata, pool.meta,
                                self.kind, self.c, todo, rng, self.max_actions,
                                self.max_depth)
                pool.check_rewards()
            done += got
            per_tree.append({pool.key(ch): pool.visits(ch) for ch in pool.children(root_node)})
        winner, votes, summed = vote(per_tree)
        return PIMCResult(winner, votes, summed, done, time.perf_counter() - t0)
