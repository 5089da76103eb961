"""Weighted beliefs over spy configurations, for the suspicion and learning bots.

A :class:`Belief` is a log-weight per spy configuration (a bitmask of spy seats; see
:mod:`spyglass.resistance.bots.configurations`). Hard facts (a mission with ``f`` fail cards held
at least ``f`` spies) set weights to zero; soft evidence (votes, selections, a bot's
model of how spies behave) multiplies them by a likelihood. A seat's suspicion is then
the weighted share of configurations in which it is a spy — the "pair suspicion" of
Taylor 2014, §4.1.9 generalised from pairs to configurations of any size.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import numpy as np

from spyglass.games.resistance.tables import (
    TEAM_COUNT,
    TEAM_START,
    TEAMS,
    mask_to_seats,
    seats_to_mask,
)
from spyglass.resistance.bots.configurations import Configurations

_TINY = 1e-300
_MAX = np.maximum.reduce  # ndarray.max and .all without their Python-level wrappers
_ALL = np.logical_and.reduce


class Belief:
    """Weights over the spy configurations a seat still considers, with vectorised queries."""

    def __init__(self, n_players: int, exclude: Iterable[int] = ()) -> None:
        self.n_players = n_players
        self.configs = Configurations.excluding(n_players, exclude)
        self.bits = self.configs.bits  # (configurations, seats) bool
        self.logw = np.zeros(len(self.configs))

    def copy(self) -> Belief:
        """An independent copy (for what-if reasoning)."""
        other = Belief.__new__(Belief)
        other.n_players, other.configs, other.bits = self.n_players, self.configs, self.bits
        other.logw = self.logw.copy()
        return other

    # --- evidence --------------------------------------------------------------------
    def multiply(self, likelihood: np.ndarray | float) -> None:
        """Multiply every configuration's weight by its likelihood (zeros rule it out)."""
        lik = np.asarray(likelihood, dtype=float)
        if lik.shape != self.logw.shape:
            lik = np.broadcast_to(lik, self.logw.shape)
        if _ALL(lik):  # no zero: no log(0) warning to silence (np.errstate is slow)
            logw = self.logw + np.log(lik)
        else:
            with np.errstate(divide="ignore"):
                logw = self.logw + np.log(lik)
        top = _MAX(logw) if len(logw) else 0.0
        if top != 0.0 and math.isfinite(top):  # (subtracting 0 would change nothing)
            logw -= top
        self.logw = logw

    def observe_fails(self, team: Sequence[int], fails: int) -> None:
        """Hard deduction: a mission with ``fails`` fail cards had at least that many spies."""
        if fails:
            self.multiply(self.spies_on(team) >= fails)

    def _max(self) -> float:
        m = float(_MAX(self.logw)) if len(self.logw) else 0.0
        return m if math.isfinite(m) else 0.0

    # --- queries ---------------------------------------------------------------------
    def weights(self) -> np.ndarray:
        """Normalised weights (uniform over all if every configuration was ruled out)."""
        w = np.exp(self.logw - self._max())
        total = w.sum()
        if not total > 0:
            return np.full(len(w), 1.0 / max(len(w), 1))
        return w / total

    def spies_on(self, team: Iterable[int]) -> np.ndarray:
        """For each configuration, how many spies it puts on ``team``."""
        return self.configs.spies_on(team)

    def is_spy(self, seat: int) -> np.ndarray:
        """For each configuration, whether ``seat`` is a spy in it."""
        return self.bits[:, seat]

    def marginals(self) -> np.ndarray:
        """Probability that each seat is a spy."""
        return self.weights() @ self.bits

    def p_clean(self, team: Iterable[int]) -> float:
        """Probability that ``team`` holds no spy."""
        return float(self.weights() @ (self.spies_on(team) == 0))

    def possible(self) -> np.ndarray:
        """Which configurations have non-zero weight."""
        return np.isfinite(self.logw)

    def certain_spies(self) -> tuple[int, ...]:
        """Seats that are spies in every configuration still possible."""
        bits = self.bits[self.possible()]
        if len(bits) == 0:
            return ()
        return tuple(int(s) for s in np.flatnonzero(bits.all(axis=0)))

    def team_shares(self, count: int, include: Iterable[int] = ()) -> tuple[np.ndarray, np.ndarray]:
        """Every team of ``count`` seats with all of ``include``, and its chance of being clean."""
        teams, clean = self.configs.clean_teams(count, include)  # cached per set
        return teams, self.weights() @ clean

    def best_clean_share(self, count: int, include: Iterable[int] = ()) -> float:
        """The highest probability of being spy-free of any team of ``count`` (with ``include``)."""
        _, shares = self.team_shares(count, include)
        return float(shares.max()) if len(shares) else 0.0


def all_teams(n_players: int, count: int, include: Iterable[int] = ()) -> np.ndarray:
    """Bitmasks of every team of ``count`` seats that contains all of ``include``."""
    start = TEAM_START[n_players, count]
    teams = TEAMS[start : start + TEAM_COUNT[n_players, count]]
    need = seats_to_mask(include)
    return teams[(teams & need) == need]


def pick_best(
    rng, teams: np.ndarray, scores: np.ndarray, rtol: float = 1e-9
) -> tuple[int, ...]:
    """The team with the highest score, ties broken at random with the bot's ``rng``."""
    best = scores.max()
    tied = np.flatnonzero(np.isclose(scores, best, rtol=rtol, atol=1e-12))
    return mask_to_seats(int(teams[tied[rng.randrange(len(tied))]]))


def count_distribution(probs: np.ndarray) -> np.ndarray:
    """Poisson-binomial: P(exactly j of independent events), j = 0..events, per row.

    ``probs`` has shape (rows, events); e.g. "how many fail cards" when each spy on a
    team sabotages with its own probability (non-spies with probability 0), or "how many
    players approve" given each one's predicted approval.
    """
    probs = np.atleast_2d(np.asarray(probs, dtype=float))
    dist = np.zeros((probs.shape[0], probs.shape[1] + 1))
    dist[:, 0] = 1.0
    for j in range(probs.shape[1]):
        p = probs[:, j : j + 1]
        dist[:, 1:] = dist[:, 1:] * (1 - p) + dist[:, :-1] * p
        dist[:, :1] = dist[:, :1] * (1 - p)
    return dist


def exactly_k(probs: np.ndarray, k: int) -> np.ndarray:
    """P(exactly ``k`` of the independent events) per row of ``probs`` (rows, events)."""
    dist = count_distribution(probs)
    if not 0 <= k < dist.shape[1]:
        return np.zeros(dist.shape[0])
    return dist[:, k]


def ranked(scores: dict[int, float], rng) -> list[int]:
    """Seats ordered from least to most suspicious, ties in random order."""
    seats = list(scores)
    rng.shuffle(seats)
    return sorted(seats, key=lambda s: scores[s])


__all__ = ["Belief", "all_teams", "count_distribution", "exactly_k", "pick_best", "ranked"]
