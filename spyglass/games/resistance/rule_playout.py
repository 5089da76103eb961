"""A rule-based playout policy for The Resistance (a named option of the search).

MT-ISMCTS's default playout plays uniformly random legal moves, so in its simulations a
spy on a mission fails it only half the time and a resistance member approves any team:
a team with a spy then looks nearly as good as one without (issue 31: as a resistance
member the searcher approved spy-free teams only about half of the time). Taylor 2014,
§4.2 lists the expert rules most 2012 competition bots share; this policy plays a few of
them, and Taylor 2014, §3.7 (knowledge injected into the simulations of MCTS) and Marsh,
§4.2 (a playout weighted by an opponent model) are the idea. Marsh also names the trap:
a playout must not give resistance members the determinization's spies. So:

* a **resistance** member uses only what is public *within the playout*: the seats that
  were on a mission that failed since the playout began (``suspects``). As leader it
  picks itself and others not suspected (random among them, random fill if too few);
  it rejects a team with a suspect other than itself, and a team that must hold a spy by
  counting (it is not on it and the team is larger than the other resistance members);
  it approves the last proposal of a mission (rejecting it loses the game), and
  otherwise approves;
* a **spy** knows the spies (as in the real game). As leader it picks itself and
  resistance members; it approves a team iff the team holds a spy; on a mission it fails
  it, the spies on the team coordinating by seat so that just the fail cards needed are
  played (the lowest-seated spies fail).

Every draw comes from the search's generator, so a seeded search stays reproducible.
The history before the playout is not in the compact state (past teams are not kept), so
suspicion starts empty at each playout: the searcher's belief φ, not the playout, carries
what the real game has shown.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.tables import FAILS_NEEDED, MAX_ATTEMPTS, N_SPIES
from spyglass.rng import rand_below


@njit(cache=True, inline="always")
def _fill(team: int, pool: int, need: int, rng: np.ndarray) -> int:
    """``team`` plus ``need`` seats drawn uniformly without replacement from ``pool``
    (a bitmask with at least ``need`` seats)."""
    for _ in range(need):
        r = rand_below(rng, K.popcount(pool))
        p = pool
        while r > 0:
            p &= p - 1
            r -= 1
        low = p & -p
        team |= low
        pool &= ~low
    return team


@njit(cache=True)
def rule_action(s: np.ndarray, suspects: int, rng: np.ndarray) -> int:
    """The rule policy's (legal) action for the actor of ``s``; ``suspects``: the seats
    on a failed mission so far in this playout (public)."""
    ph = s[K.PHASE]
    n = s[K.N]
    everyone = (1 << n) - 1
    spies = s[K.SPIES]
    if ph == K.PROPOSE:
        leader = s[K.LEADER]
        me = np.int64(1) << leader
        need = K.team_size(s) - 1
        others = everyone & ~me
        if (spies >> leader) & 1:
            pool = others & ~spies  # a spy leader: itself and resistance members
        else:
            pool = others & ~suspects
        if K.popcount(pool) >= need:
            return _fill(me, pool, need, rng)
        return _fill(me | pool, others & ~pool, need - K.popcount(pool), rng)
    team = s[K.TEAM]
    p = s[K.CURSOR]
    if ph == K.VOTE:
        if (spies >> p) & 1:
            return np.int64(1) if team & spies else np.int64(0)
        if s[K.ATTEMPT] == MAX_ATTEMPTS - 1:
            return np.int64(1)
        if team & suspects & ~(np.int64(1) << p):
            return np.int64(0)
        resistance = n - N_SPIES[n]
        if not (team >> p) & 1 and K.popcount(team) > resistance - 1:
            return np.int64(0)
        return np.int64(1)
    # A mission card: the lowest-seated spies of the team fail, as many as needed.
    if not (spies >> p) & 1:
        return np.int64(0)
    below = team & spies & ((np.int64(1) << p) - 1)
    return np.int64(1) if K.popcount(below) < FAILS_NEEDED[n, s[K.MISSION]] else np.int64(0)


@njit(cache=True)
def rule_playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Play :func:`rule_action` from ``s`` (in place) until the game ends."""
    suspects = np.int64(0)
    while s[K.PHASE] != K.OVER:
        mission = s[K.MISSION]
        on_mission = s[K.PHASE] == K.MISSION_PHASE
        team = s[K.TEAM]
        K.apply(s, rule_action(s, suspects, rng))
        if on_mission and (s[K.PHASE] != K.MISSION_PHASE or s[K.MISSION] != mission):
            if (s[K.HISTORY] >> (4 * mission)) & 15:
                suspects |= team
