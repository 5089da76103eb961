"""The official tables of The Resistance for 5 to 10 players.

Cowling, Whitehouse & Powley 2015, §III and Taylor 2014, §2.1 give the 5-player numbers;
the full table is in the game's official rulebook (Eskridge, The Resistance).
"""

from __future__ import annotations

from itertools import combinations

import numpy as np

MIN_PLAYERS = 5
MAX_PLAYERS = 10
N_MISSIONS = 5
MAX_ATTEMPTS = 5  # proposals per mission; the fifth is special (rule option)
WINS_NEEDED = 3
#: Rule flag (kernel state field RULES): the fifth proposal of a mission goes ahead unvoted.
#: Declared here, not in the compiled kernel, so that rule options load without numba.
FORCED_FIFTH = 1

SPIES_BY_PLAYERS = {5: 2, 6: 2, 7: 3, 8: 3, 9: 3, 10: 4}

TEAM_SIZES_BY_PLAYERS = {
    5: (2, 3, 2, 3, 3),
    6: (2, 3, 4, 3, 4),
    7: (2, 3, 3, 4, 4),
    8: (3, 4, 4, 5, 5),
    9: (3, 4, 4, 5, 5),
    10: (3, 4, 4, 5, 5),
}


def fails_needed(n_players: int, mission: int) -> int:
    """Fail cards needed to sabotage ``mission`` (0-based): 2 for mission 4 at 7+ players."""
    return 2 if (n_players >= 7 and mission == 3) else 1


# Dense arrays for the compiled kernels, indexed by player count (rows 0-4 unused).
N_SPIES = np.zeros(MAX_PLAYERS + 1, dtype=np.int64)
TEAM_SIZE = np.zeros((MAX_PLAYERS + 1, N_MISSIONS), dtype=np.int64)
FAILS_NEEDED = np.zeros((MAX_PLAYERS + 1, N_MISSIONS), dtype=np.int64)
for _n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
    N_SPIES[_n] = SPIES_BY_PLAYERS[_n]
    for _m in range(N_MISSIONS):
        TEAM_SIZE[_n, _m] = TEAM_SIZES_BY_PLAYERS[_n][_m]
        FAILS_NEEDED[_n, _m] = fails_needed(_n, _m)


def subset_masks(n: int, k: int) -> np.ndarray:
    """All bitmasks of ``k`` seats out of ``n``, in lexicographic order of seat tuples."""
    return np.array(
        [sum(1 << s for s in combo) for combo in combinations(range(n), k)], dtype=np.int64
    )


# Every team of every legal size, flattened: TEAMS[TEAM_START[n, k] : + TEAM_COUNT[n, k]].
_teams: list[np.ndarray] = []
TEAM_START = np.zeros((MAX_PLAYERS + 1, MAX_PLAYERS + 1), dtype=np.int64)
TEAM_COUNT = np.zeros((MAX_PLAYERS + 1, MAX_PLAYERS + 1), dtype=np.int64)
_offset = 0
for _n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
    for _k in range(1, _n + 1):
        _m = subset_masks(_n, _k)
        TEAM_START[_n, _k] = _offset
        TEAM_COUNT[_n, _k] = len(_m)
        _teams.append(_m)
        _offset += len(_m)
TEAMS = np.concatenate(_teams)


def spy_configurations(n_players: int) -> np.ndarray:
    """Every possible spy set (bitmask) for ``n_players``, in a fixed canonical order."""
    return subset_masks(n_players, SPIES_BY_PLAYERS[n_players])


def mask_to_seats(mask: int) -> tuple[int, ...]:
    """The seats set in ``mask``, ascending."""
    return tuple(i for i in range(MAX_PLAYERS) if (mask >> i) & 1)


def seats_to_mask(seats) -> int:
    """The bitmask with the given seats set."""
    m = 0
    for s in seats:
        m |= 1 << int(s)
    return m
