"""The official tables of The Resistance for 5 to 10 players.

Cowling, Whitehouse & Powley 2015, §III and Taylor 2014, §2.1 give the 5-player numbers;
the full table is in the game's official rulebook (Eskridge, The Resistance).
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
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


def subset_masks(n: int, k: int) -> np.ndarray:
    """All bitmasks of ``k`` seats out of ``n``, in lexicographic order of seat tuples."""
    import numpy as np

    return np.array(
        [sum(1 << s for s in combo) for combo in combinations(range(n), k)], dtype=np.int64
    )


#: The dense arrays for the compiled kernels, built (with NumPy) on first use: a process
#: that only reads the rules, such as an isolated bot's worker, never imports NumPy.
_ARRAYS = ("N_SPIES", "TEAM_SIZE", "FAILS_NEEDED", "TEAMS", "TEAM_START", "TEAM_COUNT")


def _build_arrays() -> dict[str, Any]:
    import numpy as np

    # Indexed by player count (rows 0-4 unused).
    n_spies = np.zeros(MAX_PLAYERS + 1, dtype=np.int64)
    team_size = np.zeros((MAX_PLAYERS + 1, N_MISSIONS), dtype=np.int64)
    fails = np.zeros((MAX_PLAYERS + 1, N_MISSIONS), dtype=np.int64)
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        n_spies[n] = SPIES_BY_PLAYERS[n]
        for m in range(N_MISSIONS):
            team_size[n, m] = TEAM_SIZES_BY_PLAYERS[n][m]
            fails[n, m] = fails_needed(n, m)
    # Every team of every legal size, flattened: TEAMS[TEAM_START[n, k] : + TEAM_COUNT[n, k]].
    teams: list[np.ndarray] = []
    team_start = np.zeros((MAX_PLAYERS + 1, MAX_PLAYERS + 1), dtype=np.int64)
    team_count = np.zeros((MAX_PLAYERS + 1, MAX_PLAYERS + 1), dtype=np.int64)
    offset = 0
    for n in range(MIN_PLAYERS, MAX_PLAYERS + 1):
        for k in range(1, n + 1):
            masks = subset_masks(n, k)
            team_start[n, k] = offset
            team_count[n, k] = len(masks)
            teams.append(masks)
            offset += len(masks)
    return {"N_SPIES": n_spies, "TEAM_SIZE": team_size, "FAILS_NEEDED": fails,
            "TEAMS": np.concatenate(teams), "TEAM_START": team_start, "TEAM_COUNT": team_count}


def __getattr__(name: str) -> Any:
    """The dense arrays (:data:`_ARRAYS`), built once on first access (PEP 562)."""
    if name in _ARRAYS:
        arrays = _build_arrays()
        globals().update(arrays)
        return arrays[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
