"""The Resistance bound to the game-general protocol (:class:`~spyglass.search.protocol.Kernel`).

The rules stay the kernel's (:mod:`spyglass.games.resistance.kernel`, unchanged, so the
existing referee, bots and searches give the same games). This module adds what sampled
determinizations and views need: a protocol state is the kernel's 16-int state followed
by the public mission history and the hidden cards of the mission in play.

State layout (``STATE_SIZE`` int64 values): fields ``0 .. 15`` are the kernel's
(:mod:`~spyglass.games.resistance.kernel`); then

==============  ==================================================================
``TEAMS_DONE``  ``TEAMS_DONE + m``: the team (bitmask) of finished mission ``m``, 0 if
                the mission has not been played (its fail count is in the kernel's
                public ``HISTORY`` field)
``CARDS``       seats that played a fail card so far in the mission in play (hidden)
==============  ==================================================================

View of seat ``j`` (``VIEW_SIZE``): the state's fields with what ``j`` cannot see
replaced: ``SPIES`` is ``UNKNOWN_SPIES`` for a resistance member (a spy knows the
spies); during a vote ``VOTES`` holds only ``j``'s own vote; during a mission ``FAILS``
and ``CARDS`` hold only ``j``'s own card; then ``V_SEAT = j``. Past votes and proposals
are public but left out: they constrain nothing (any player may vote or propose
anything), so states that differ only there are the same state for the rest of the game.

Sampling (:func:`sample`): the spies are drawn uniformly from the spy sets of the right
size that exclude a resistance viewer and are consistent with every finished mission (a
mission with ``f`` fail cards had at least ``f`` spies on its team: Cowling, Whitehouse
& Powley 2015, §V; resistance members can only play success); a spy viewer knows them.
Hidden votes already cast this round and hidden cards already played this mission are
drawn uniformly among the legal ones (a vote either way; a spy's card either way; a
resistance member's card is a success).

Legal actions are the kernel's, listed in increasing id order (:func:`legal_action`).
Observation keys are the kernel's (:func:`~spyglass.games.resistance.kernel.observe`),
and :func:`move_reveals` is the search binding's (the last vote of a round and the last
card of a mission reveal the others' choices).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.keys import hash_words
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.search_kernel import move_reveals
from spyglass.games.resistance.tables import N_MISSIONS, N_SPIES, TEAM_COUNT, TEAM_START, TEAMS
from spyglass.rng import rand_below
from spyglass.search.protocol import Kernel

TEAMS_DONE = K.STATE_SIZE
CARDS = TEAMS_DONE + N_MISSIONS
STATE_SIZE = CARDS + 1
V_SEAT = STATE_SIZE
VIEW_SIZE = STATE_SIZE + 1
UNKNOWN_SPIES = -1


def _sorted_teams() -> np.ndarray:
    """:data:`~spyglass.games.resistance.tables.TEAMS` with each block in increasing mask
    order (the protocol lists legal actions by increasing id; the kernel's own order,
    which the existing searches use, is lexicographic in seats)."""
    out = TEAMS.copy()
    for n in range(TEAM_START.shape[0]):
        for k in range(TEAM_START.shape[1]):
            start, count = TEAM_START[n, k], TEAM_COUNT[n, k]
            out[start : start + count] = np.sort(TEAMS[start : start + count])
    return out


TEAMS_SORTED = _sorted_teams()


@njit(cache=True)
def new_state(n_players: int, spies: int, leader: int, rules: int) -> np.ndarray:
    """A fresh protocol state (the kernel's :func:`~kernel.new_state` plus empty history)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[: K.STATE_SIZE] = K.new_state(n_players, spies, leader, rules)
    return s


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """The kernel's ``apply``, keeping the mission history and the hidden cards."""
    if s[K.PHASE] == K.MISSION_PHASE:
        if a:
            s[CARDS] |= np.int64(1) << s[K.CURSOR]
        if move_reveals(s):
            s[TEAMS_DONE + s[K.MISSION]] = s[K.TEAM]
            K.apply(s, a)
            s[CARDS] = 0
            return
    K.apply(s, a)


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    """The ``i``-th legal action in increasing id order."""
    if s[K.PHASE] == K.PROPOSE:
        n = s[K.N]
        return TEAMS_SORTED[TEAM_START[n, K.team_size(s)] + i]
    return i


@njit(cache=True, inline="always")
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal actions into ``out`` in increasing id order; return how many (a
    proposal's block of teams is located once, not once per team)."""
    nl = K.n_legal(s)
    if s[K.PHASE] == K.PROPOSE:
        start = TEAM_START[s[K.N], K.team_size(s)]
        for i in range(nl):
            out[i] = TEAMS_SORTED[start + i]
    else:
        for i in range(nl):
            out[i] = i
    return nl


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    return K.observe(s, a, j)


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal moves (the kernel's default policy) to the end, in place."""
    while s[K.PHASE] != K.OVER:
        apply(s, K.random_action(s, rng))


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    """Write seat ``j``'s view (see the module docstring) into ``v``."""
    for i in range(STATE_SIZE):
        v[i] = s[i]
    if not (s[K.SPIES] >> j) & 1:
        v[K.SPIES] = UNKNOWN_SPIES
    ph = s[K.PHASE]
    if ph == K.VOTE:
        v[K.VOTES] = s[K.VOTES] & (np.int64(1) << j)
    elif ph == K.MISSION_PHASE:
        v[K.FAILS] = (s[CARDS] >> j) & 1
        v[CARDS] = s[CARDS] & (np.int64(1) << j)
    v[V_SEAT] = j


@njit(cache=True, inline="always")
def spies_consistent(spies: int, v: np.ndarray) -> bool:
    """Whether every finished mission had at least as many spies as fail cards."""
    for m in range(N_MISSIONS):
        team = v[TEAMS_DONE + m]
        if team != 0 and K.popcount(spies & team) < (v[K.HISTORY] >> (4 * m)) & 15:
            return False
    return True


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """Write into ``s`` a state drawn uniformly from those consistent with ``j``'s view."""
    for i in range(STATE_SIZE):
        s[i] = v[i]
    n = v[K.N]
    spies = v[K.SPIES]
    if spies == UNKNOWN_SPIES:
        k = N_SPIES[n]
        start = TEAM_START[n, k]
        count = TEAM_COUNT[n, k]
        n_ok = 0
        for t in range(count):
            c = TEAMS[start + t]
            if not (c >> j) & 1 and spies_consistent(c, v):
                n_ok += 1
        if n_ok == 0:
            return False
        pick = rand_below(rng, n_ok)
        for t in range(count):
            c = TEAMS[start + t]
            if not (c >> j) & 1 and spies_consistent(c, v):
                if pick == 0:
                    spies = c
                    break
                pick -= 1
    s[K.SPIES] = spies
    ph = v[K.PHASE]
    if ph == K.VOTE:
        votes = v[K.VOTES] & (np.int64(1) << j)
        for seat in range(v[K.CURSOR]):
            if seat != j and rand_below(rng, 2):
                votes |= np.int64(1) << seat
        s[K.VOTES] = votes
    elif ph == K.MISSION_PHASE:
        cards = v[CARDS] & (np.int64(1) << j)
        team = v[K.TEAM]
        for seat in range(v[K.CURSOR]):
            if seat != j and (team >> seat) & 1 and (spies >> seat) & 1 and rand_below(rng, 2):
                cards |= np.int64(1) << seat
        s[CARDS] = cards
        s[K.FAILS] = K.popcount(cards)
    return True


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """A 62-bit hash of ``j``'s view (:func:`spyglass.games.keys.hash_words`)."""
    v = np.empty(VIEW_SIZE, dtype=np.int64)
    view(s, j, v)
    return hash_words(v, VIEW_SIZE)


KERNEL = Kernel(
    actor=K.actor,
    n_legal=K.n_legal,
    legal_action=legal_action,
    legal_actions=legal_actions,
    apply=apply,
    observe=observe,
    move_reveals=move_reveals,
    is_terminal=K.is_terminal,
    reward=K.reward,
    playout=playout,
    view=view,
    sample=sample,
    info_key=info_key,
)


@njit(cache=True)
def simultaneous(s: np.ndarray) -> bool:
    """Votes and mission cards are simultaneous in the real game (the search's EXP3 applies)."""
    return s[K.PHASE] == K.VOTE or s[K.PHASE] == K.MISSION_PHASE
