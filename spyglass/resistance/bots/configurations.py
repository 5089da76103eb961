"""Configuration-set bookkeeping for the deduction bots (Bounder, Rebounder, Invalidator...).

A configuration is one possible set of spies, as a bitmask over seats. A bot that plays
as a resistance member starts from every configuration that leaves its own seat out —
C(n-1, spies) of them, the seed's "permutations of [True, True, False, False] over the
other four players" (Taylor 2014, §4.1.5) for any table size — and narrows them down.
Hard, always-safe constraints come from :mod:`spyglass.games.resistance.knowledge`;
the softer assumptions (spies always sabotage, spies vote for spy teams...) are the
bots' own and live with them.
"""

from __future__ import annotations

import functools
import random
from collections.abc import Iterable, Sequence

import numpy as np

from spyglass.games.resistance.tables import (
    TEAM_COUNT,
    TEAM_START,
    TEAMS,
    mask_to_seats,
    seats_to_mask,
    spy_configurations,
)


class Configurations:
    """An immutable set of candidate spy configurations with vectorised queries."""

    __slots__ = ("n_players", "masks", "bits", "_on", "_clean")

    def __init__(self, n_players: int, masks: np.ndarray | Iterable[int] | None = None) -> None:
        self.n_players = n_players
        arr = spy_configurations(n_players) if masks is None else masks
        self.masks = np.asarray(arr, dtype=np.int64).reshape(-1)
        self.bits = ((self.masks[:, None] >> np.arange(n_players)[None, :]) & 1).astype(bool)
        self.masks.flags.writeable = False  # immutable: queries are cached
        self.bits.flags.writeable = False
        self._on: dict[tuple[int, ...], np.ndarray] = {}  # spies_on answers, by team
        self._clean: dict[tuple[int, int], tuple[np.ndarray, np.ndarray]] = {}

    @classmethod
    def excluding(cls, n_players: int, seats: Iterable[int] = ()) -> Configurations:
        """Every configuration in which none of ``seats`` is a spy (e.g. the bot itself).

        One shared, read-only set per (players, seats): bots build these every game, and
        a shared set keeps its ``spies_on`` answers from game to game."""
        return _excluding(int(n_players), seats_to_mask(seats))

    def __len__(self) -> int:
        return len(self.masks)

    def __bool__(self) -> bool:
        return len(self.masks) > 0

    def __iter__(self):
        return (int(m) for m in self.masks)

    def __contains__(self, config: int | Iterable[int]) -> bool:
        mask = config if isinstance(config, (int, np.integer)) else seats_to_mask(config)
        return bool(np.any(self.masks == int(mask)))

    def __repr__(self) -> str:
        shown = ", ".join(str(mask_to_seats(int(m))) for m in self.masks[:6])
        more = ", ..." if len(self) > 6 else ""
        return f"Configurations({len(self)}: {shown}{more})"

    # --- set algebra -------------------------------------------------------------
    def keep(self, selector: np.ndarray | Sequence[bool]) -> Configurations:
        """The configurations where the boolean ``selector`` is True (a shared set)."""
        return _shared(self.n_players, self.masks[np.asarray(selector, dtype=bool)])

    def intersect(self, other: Configurations) -> Configurations:
        """Configurations in both sets, in this set's order."""
        theirs = set(other.masks.tolist())
        return self.keep([m in theirs for m in self.masks.tolist()])

    def seats(self) -> list[tuple[int, ...]]:
        """Each configuration as a tuple of spy seats."""
        return [mask_to_seats(int(m)) for m in self.masks]

    # --- queries -----------------------------------------------------------------
    def spies_on(self, team: Iterable[int]) -> np.ndarray:
        """For each configuration, how many spies it puts on ``team`` (read-only array).

        The bots ask this of the same few teams many times a game, and the set is
        immutable, so each team's answer is computed once."""
        key = tuple(team)
        found = self._on.get(key)
        if found is None:
            idx = list(key)
            found = (self.bits[:, idx].sum(axis=1) if idx
                     else np.zeros(len(self), dtype=np.int64))
            found.flags.writeable = False
            self._on[key] = found
        return found

    def is_spy(self, seat: int) -> np.ndarray:
        """For each configuration, whether ``seat`` is a spy in it."""
        return self.bits[:, seat]

    def clean_teams(self, count: int, include: Iterable[int] = ()) -> tuple[np.ndarray, np.ndarray]:
        """Every team of ``count`` seats holding all of ``include`` (bitmasks), and for each
        configuration and team whether the team is spy-free there (read-only arrays).

        A leader or voter weighing every team asks this of the same few team sizes all
        game, so each answer is computed once, like :meth:`spies_on`'s."""
        need = seats_to_mask(include)
        found = self._clean.get((count, need))
        if found is None:
            n = self.n_players
            teams = TEAMS[TEAM_START[n, count]: TEAM_START[n, count] + TEAM_COUNT[n, count]]
            teams = teams[(teams & need) == need]
            clean = (self.masks[:, None] & teams[None, :]) == 0
            teams.flags.writeable = clean.flags.writeable = False
            found = self._clean[count, need] = teams, clean
        return found

    def clean(self, team: Iterable[int]) -> np.ndarray:
        """For each configuration, whether ``team`` holds no spy."""
        return self.spies_on(team) == 0

    def possibly_clean(self, team: Iterable[int]) -> bool:
        """Some configuration leaves ``team`` without a spy."""
        return bool(self.clean(team).any())

    def marginals(self, weights: np.ndarray | None = None) -> np.ndarray:
        """Probability that each seat is a spy, under ``weights`` (uniform by default)."""
        if len(self) == 0:
            return np.zeros(self.n_players)
        w = np.ones(len(self)) if weights is None else np.asarray(weights, dtype=float)
        total = w.sum()
        if total <= 0:
            w, total = np.ones(len(self)), float(len(self))
        return (w[:, None] * self.bits).sum(axis=0) / total

    def certain_spies(self) -> tuple[int, ...]:
        """Seats that are spies in every configuration (none if the set is empty)."""
        if len(self) == 0:
            return ()
        return tuple(int(s) for s in np.flatnonzero(self.bits.all(axis=0)))

    def sample(self, rng: random.Random, weights: Sequence[float] | None = None) -> tuple[int, ...]:
        """One configuration drawn at random (by ``weights`` if given), as spy seats."""
        if len(self) == 0:
            raise ValueError("cannot draw from an empty configuration set")
        if weights is None:
            return mask_to_seats(int(self.masks[rng.randrange(len(self))]))
        (mask,) = rng.choices(list(self.masks), weights=list(weights), k=1)
        return mask_to_seats(int(mask))

    # --- decisions -----------------------------------------------------------------
    def best_teams(
        self, count: int, include: Iterable[int] = (), weights: np.ndarray | None = None
    ) -> tuple[list[tuple[int, ...]], float]:
        """Teams of ``count`` (containing ``include``) most likely to hold no spy.

        Returns every team tied for the highest weighted share of configurations in
        which it is clean, and that share.
        """
        n = self.n_players
        teams = TEAMS[TEAM_START[n, count]: TEAM_START[n, count] + TEAM_COUNT[n, count]]
        need = seats_to_mask(include)
        teams = teams[(teams & need) == need]
        if len(self) == 0 or len(teams) == 0:
            return [mask_to_seats(int(t)) for t in teams], 0.0
        w = np.ones(len(self)) if weights is None else np.asarray(weights, dtype=float)
        clean = (self.masks[:, None] & teams[None, :]) == 0
        share = (w[:, None] * clean).sum(axis=0) / max(w.sum(), 1e-300)
        best = share.max()
        winners = teams[np.isclose(share, best, rtol=1e-9, atol=1e-12)]
        return [mask_to_seats(int(t)) for t in winners], float(best)


def ordered_intersection(sets: Sequence[Configurations]) -> Configurations:
    """Intersect the sets in order, skipping any that would leave nothing (Rebounder, §4.1.6)."""
    result = sets[0]
    for other in sets[1:]:
        both = result.intersect(other)
        if both:
            result = both
    return result


__all__ = ["Configurations", "ordered_intersection"]


#: Sets already built, by (players, masks): the deduction bots narrow their sets down to
#: the same few subsets game after game, and a shared set keeps its ``spies_on`` answers.
_SHARED: dict[tuple[int, bytes], Configurations] = {}
_SHARED_MAX = 4096


def _shared(n_players: int, masks: np.ndarray) -> Configurations:
    key = (n_players, masks.tobytes())
    found = _SHARED.get(key)
    if found is None:
        if len(_SHARED) >= _SHARED_MAX:
            _SHARED.clear()
        found = _SHARED[key] = Configurations(n_players, masks)
    return found


@functools.lru_cache(maxsize=256)
def _excluding(n_players: int, out: int) -> Configurations:
    all_masks = spy_configurations(n_players)
    return Configurations(n_players, all_masks[(all_masks & out) == 0])
