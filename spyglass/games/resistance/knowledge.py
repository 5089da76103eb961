"""Hard facts a seat can deduce from public events: which spy configurations remain possible.

A configuration is a bitmask of spy seats. A mission with ``k`` fail cards had at least
``k`` spies on its team (Whitehouse 2014, §4.2.11, Cowling et al. 2015, §V); a resistance member
also knows
it is not a spy, and a spy knows the whole configuration.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from spyglass.games.resistance.observation import MissionResult
from spyglass.games.resistance.tables import seats_to_mask, spy_configurations


def popcount(x: int) -> int:
    return int(x).bit_count()


def consistent_configurations(
    n_players: int,
    missions: Iterable[MissionResult],
    seat: int | None = None,
    spy: bool = False,
    spies: Iterable[int] = (),
) -> np.ndarray:
    """Spy configurations (bitmasks) consistent with the mission results and own role.

    ``seat=None`` gives an outside observer's view (no private knowledge).
    """
    configs = spy_configurations(n_players)
    keep = np.ones(len(configs), dtype=bool)
    if seat is not None:
        if spy:
            keep &= configs == seats_to_mask(spies)
        else:
            keep &= (configs >> seat) & 1 == 0
    for m in missions:
        if m.fails:
            team = seats_to_mask(m.team)
            keep &= np.array([popcount(c & team) >= m.fails for c in configs], dtype=bool)
    return configs[keep]


def spy_marginals(configs: np.ndarray, n_players: int, weights=None) -> np.ndarray:
    """Probability that each seat is a spy, under ``weights`` over ``configs`` (uniform)."""
    if len(configs) == 0:
        return np.zeros(n_players)
    w = np.ones(len(configs)) if weights is None else np.asarray(weights, dtype=float)
    w = w / w.sum()
    bits = (configs[:, None] >> np.arange(n_players)[None, :]) & 1
    return (w[:, None] * bits).sum(axis=0)
