"""Particle-filter inference over determinizations (Cowling et al. 2015, §V eq. 2; Whitehouse 2014
Algorithm 7).

The searching player keeps a belief φ over determinizations, separate from the trees,
and samples the determinization of every iteration from it. After a search, it walks
its decision tree along what it observes; for an observed opponent action leading from
node ``u`` to child ``v`` it moves φ towards the frequency with which each
determinization reached ``v``::

    φ(d) := (1 − n(v)/N)·φ(d) + (n(v)/N)·c(v, d)/n(v)          (eq. 2)

``N`` is the number of iterations of the last search that reached its decision node
(the paper's search root, so its ``N``). Its own moves and moves it cannot see (a hidden
vote or card looks the same whatever was played) give no update; nor does a child the
search never visited or never tracked. Hard constraints (a move impossible under ``d``)
set φ(d) = 0 for good, and φ is renormalised after every change.
"""

from __future__ import annotations

import numpy as np

from spyglass.search.mtismcts import SearchResult


def particle_filter_update(
    phi: np.ndarray, n_v: int, n_total: int, c_v: np.ndarray
) -> np.ndarray:
    """Eq. 2 of Cowling et al. 2015: the belief after observing the move into node ``v``.

    ``phi``: current belief; ``n_v``: visits to ``v``; ``n_total``: the search's ``N``;
    ``c_v[d]``: visits to ``v`` under determinization ``d`` (summing to ``n_v``).
    """
    phi = np.asarray(phi, dtype=np.float64)
    c_v = np.asarray(c_v, dtype=np.float64)
    if not 0 < n_v <= n_total:
        raise ValueError(f"need 0 < n(v) <= N, got n(v)={n_v}, N={n_total}")
    if c_v.shape != phi.shape:
        raise ValueError(f"counts have shape {c_v.shape}, the belief {phi.shape}")
    w = n_v / n_total
    return (1.0 - w) * phi + w * (c_v / n_v)


class Belief:
    """A belief φ over determinizations, with the hard constraints observed so far."""

    def __init__(self, weights) -> None:
        w = np.asarray(weights, dtype=np.float64)
        if w.ndim != 1 or np.any(w < 0) or w.sum() <= 0:
            raise ValueError("a belief needs non-negative weights with a positive sum")
        self.allowed = w > 0
        self._phi = w / w.sum()

    @property
    def phi(self) -> np.ndarray:
        """The current distribution (a copy)."""
        return self._phi.copy()

    def constrain(self, keep) -> None:
        """Rule out (for good) every determinization where ``keep`` is False."""
        keep = np.asarray(keep, dtype=bool)
        allowed = self.allowed & keep
        if not allowed.any():
            raise ValueError("the observation rules out every determinization still possible")
        self.allowed = allowed
        self._set(self._phi)

    def reweight(self, likelihood) -> None:
        """Bayes' rule with a likelihood per determinization (an outside opponent model,
        instead of eq. 2's search counts); a likelihood of zero everywhere allowed is
        ignored (the model was wrong, the hard constraints still hold)."""
        like = np.asarray(likelihood, dtype=np.float64)
        if like.shape != self._phi.shape or np.any(like < 0) or not np.all(np.isfinite(like)):
            raise ValueError("a likelihood needs one finite non-negative value per "
                             "determinization")
        phi = self._phi * like
        if (phi * self.allowed).sum() > 0:
            self._set(phi)

    def update(self, n_v: int, n_total: int, c_v) -> None:
        """Apply eq. 2 (see :func:`particle_filter_update`)."""
        self._set(particle_filter_update(self._phi, n_v, n_total, c_v))

    def _set(self, phi: np.ndarray) -> None:
        phi = np.where(self.allowed, phi, 0.0)
        total = phi.sum()
        if total <= 0:  # eq. 2 never empties an allowed set; guard all the same
            phi = self.allowed.astype(np.float64)
            total = phi.sum()
        self._phi = phi / total


class TreeWalk:
    """Follows a player's observations down the decision tree of its last search.

    Steps are ``("own", action_index)`` for the player's own moves and
    ``("obs", key, informative)`` for what it sees of everyone else's.
    """

    def __init__(self, result: SearchResult) -> None:
        self.result = result
        self.node = result.decision_node
        self.n_total = result.decision_visits()
        self.updates = 0

    @property
    def in_tree(self) -> bool:
        return self.node >= 0

    def step(self, step: tuple, belief: Belief | None) -> None:
        """Descend one step; update ``belief`` by eq. 2 when the step is informative."""
        if self.node < 0:
            return
        if self.result.stale:
            self.node = -1  # a newer search replaced the trees
            return
        pool = self.result.pool
        if step[0] == "own":
            self.node = pool.child(self.node, int(step[1]))
            return
        _, key, informative = step
        v = pool.child(self.node, int(key))
        self.node = v
        if v < 0 or not informative or belief is None:
            return
        n_v = pool.visits(v)
        c_v = self.result.counts_of(v)
        if n_v == 0 or c_v is None or self.n_total == 0:
            return
        belief.update(n_v, self.n_total, c_v)
        self.updates += 1

    def walk(self, steps, belief: Belief | None) -> None:
        """Take every step in order."""
        for st in steps:
            self.step(st, belief)


class MergedTreeWalk:
    """Follows the *merged* tree of a player's last search, for ψ (Cowling et al. 2015, §VI).

    The merged tree sums every one of the player's trees at corresponding nodes: what an
    outside observer, who cannot see the player's hidden information, would have built.
    Its node after some public history is a set of nodes (a frontier) across the
    player's trees: the player's own hidden moves (a vote or card not yet revealed)
    are not seen by that observer, so they branch over every child, and the later
    reveal keeps only the branches that match it. ``n(v)``, ``c(v, d)`` and ``N`` are
    summed over the frontier, from the counts of the self-determinizing phases
    (``SearchResult.merged_counts_of``). Every informative public step updates ψ by
    eq. 2, the player's own public moves (its proposals) included: the opponents see
    them too.
    """

    def __init__(self, result: SearchResult) -> None:
        self.result = result
        nodes = result.decision_nodes
        self.frontier = [int(u) for u in nodes if u >= 0] if nodes is not None else []
        self.n_total = self._merged(self.frontier)[0]
        self.updates = 0

    def _merged(self, frontier) -> tuple[int, np.ndarray | None]:
        total = None
        for u in frontier:
            c = self.result.merged_counts_of(u)
            if c is not None:
                total = c if total is None else total + c
        if total is None:
            return 0, None
        return int(total.sum()), total

    @property
    def in_tree(self) -> bool:
        return bool(self.frontier)

    def step(self, step: tuple, belief: Belief | None) -> None:
        """Descend one step; update ``belief`` (ψ) by eq. 2 when the step is public."""
        if not self.frontier:
            return
        if self.result.stale:
            self.frontier = []
            return
        pool = self.result.pool
        if step[0] == "own":
            public = len(step) > 2 and step[2]
            if public:
                key, informative = int(step[1]), True
            else:
                self.frontier = [c for u in self.frontier for c in pool.children(u)]
                return
        else:
            _, key, informative = step
        self.frontier = [v for v in (pool.child(u, int(key)) for u in self.frontier) if v >= 0]
        if not informative or belief is None or not self.frontier:
            return
        n_v, c_v = self._merged(self.frontier)
        if n_v == 0 or self.n_total == 0:
            return
        belief.update(n_v, self.n_total, c_v)
        self.updates += 1

    def walk(self, steps, belief: Belief | None) -> None:
        """Take every step in order."""
        for st in steps:
            self.step(st, belief)
