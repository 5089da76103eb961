"""The rules of Mini Dou Di Zhu, once, as numba-compiled kernels over a tiny int64 state.

Whitehouse 2014, §4.2.2: a two-player simplification of Dou Di Zhu small enough to
solve exactly. The deck has 18 cards: four ranks of four suits and two jokers (black
below red); suits are irrelevant, so a hand is a count per rank. Ranks are numbered
0..5 from low to high: the four plain ranks, then the black joker (4) and the red joker
(5), each a single card. Each player is dealt 7 cards; the other 4 are hidden from
both. Player 0 leads.

Moves (the thesis's four categories): 1, 2, 3 or 4 cards of one rank. A leading play
may be any of them. The other player must answer with the same number of cards of a
higher rank, or pass; a pass ends the round and the player who made the last play
leads again (two players: one pass ends a round, as two passes do in the 3-player
game). There are no bombs: four of a kind answers only four of a kind. The first
player to play all their cards wins. These choices are the ones that give the thesis's
figure: with them, exact minimax over the 8,832 distinct deals, weighted by how likely
shuffling makes each, gives player 0 a win in 70.71 % of games (thesis: "approximately
70.7 %"; :mod:`spyglass.experiments.minidoudizhu_exact`). With four of a kind as a bomb
it would be 69.76 %.

Action ids: ``(size - 1) * 6 + rank`` for a play (0..23) and ``PASS`` (24).

State layout (``STATE_SIZE`` int64 values):
``TO_MOVE`` (-1 when over), ``LAST_SIZE`` (size of the play to answer, 0 when leading),
``LAST_RANK``, ``WINNER`` (-1 while playing), ``HAND + 6 * p + r`` (p's count of rank
r), ``PLAYED + 6 * p + r`` (what p has played), ``HIDDEN + r`` (the 4 cards nobody
holds).

View: ``V_SEAT``, the public ``TO_MOVE``, ``LAST_SIZE``, ``LAST_RANK``, ``WINNER``, the
viewer's hand ``V_HAND + r``, everyone's played cards ``V_PLAYED + 6 * p + r``, and the
opponent's hand size ``V_OPP_SIZE``. Every move is public: the observation key of a
move is ``1 + action``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng import rand_below
from spyglass.search.protocol import Kernel

N_RANKS = 6
RANK_LIMIT = np.array([4, 4, 4, 4, 1, 1], dtype=np.int64)
HAND_SIZE = 7
PASS = 24
N_ACTIONS = 25

TO_MOVE, LAST_SIZE, LAST_RANK, WINNER = 0, 1, 2, 3
HAND, PLAYED, HIDDEN = 4, 16, 28
STATE_SIZE = 34

V_SEAT, V_TO_MOVE, V_LAST_SIZE, V_LAST_RANK, V_WINNER = 0, 1, 2, 3, 4
V_HAND, V_PLAYED, V_OPP_SIZE = 5, 11, 23
VIEW_SIZE = 24


@njit(cache=True)
def deal(rng: np.ndarray) -> np.ndarray:
    """A shuffled deal of the 18 cards: 7 each, 4 hidden; player 0 to lead."""
    deck = np.empty(18, dtype=np.int64)
    i = 0
    for r in range(N_RANKS):
        for _ in range(RANK_LIMIT[r]):
            deck[i] = r
            i += 1
    for i in range(17, 0, -1):
        k = rand_below(rng, i + 1)
        t = deck[i]
        deck[i] = deck[k]
        deck[k] = t
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    for i in range(18):
        if i < 7:
            s[HAND + deck[i]] += 1
        elif i < 14:
            s[HAND + N_RANKS + deck[i]] += 1
        else:
            s[HIDDEN + deck[i]] += 1
    s[WINNER] = -1
    return s


@njit(cache=True)
def from_hands(h0: np.ndarray, h1: np.ndarray) -> np.ndarray:
    """The starting state of the deal with these hands (counts per rank)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    for r in range(N_RANKS):
        s[HAND + r] = h0[r]
        s[HAND + N_RANKS + r] = h1[r]
        s[HIDDEN + r] = RANK_LIMIT[r] - h0[r] - h1[r]
    s[WINNER] = -1
    return s


@njit(cache=True, inline="always")
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal actions into ``out`` in increasing order (one pass over the ids)."""
    n = 0
    for a in range(N_ACTIONS):
        if _legal(s, a):
            out[n] = a
            n += 1
    return n


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True, inline="always")
def _legal(s: np.ndarray, a: int) -> bool:
    p = s[TO_MOVE]
    if p < 0:
        return False
    last = s[LAST_SIZE]
    if a == PASS:
        return last > 0
    size = a // N_RANKS + 1
    r = a % N_RANKS
    if s[HAND + N_RANKS * p + r] < size:
        return False
    return last == 0 or (size == last and r > s[LAST_RANK])


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    n = 0
    for a in range(N_ACTIONS):
        n += _legal(s, a)
    return n


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    for a in range(N_ACTIONS):
        if _legal(s, a):
            if i == 0:
                return a
            i -= 1
    return -1


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """The actor plays ``a`` (a legal action) in place."""
    p = s[TO_MOVE]
    if a == PASS:
        s[LAST_SIZE] = 0
        s[TO_MOVE] = 1 - p
        return
    size = a // N_RANKS + 1
    r = a % N_RANKS
    s[HAND + N_RANKS * p + r] -= size
    s[PLAYED + N_RANKS * p + r] += size
    left = 0
    for q in range(N_RANKS):
        left += s[HAND + N_RANKS * p + q]
    if left == 0:
        s[WINNER] = p
        s[TO_MOVE] = -1
        return
    s[LAST_SIZE] = size
    s[LAST_RANK] = r
    s[TO_MOVE] = 1 - p


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    """Every move is public."""
    return 1 + a


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    return False


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    return 1.0 if s[WINNER] == j else 0.0


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    while s[TO_MOVE] >= 0:
        apply(s, legal_action(s, rand_below(rng, n_legal(s))))


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    v[V_SEAT] = j
    v[V_TO_MOVE] = s[TO_MOVE]
    v[V_LAST_SIZE] = s[LAST_SIZE]
    v[V_LAST_RANK] = s[LAST_RANK]
    v[V_WINNER] = s[WINNER]
    opp = 0
    for r in range(N_RANKS):
        v[V_HAND + r] = s[HAND + N_RANKS * j + r]
        opp += s[HAND + N_RANKS * (1 - j) + r]
        v[V_PLAYED + r] = s[PLAYED + r]
        v[V_PLAYED + N_RANKS + r] = s[PLAYED + N_RANKS + r]
    v[V_OPP_SIZE] = opp


#: Bits per view field in :func:`info_key` (56 in all, so the packing is exact).
KEY_BITS = np.array([1, 2, 3, 3, 2] + [3, 3, 3, 3, 1, 1] * 3 + [3], dtype=np.int64)


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """``j``'s view packed exactly into 56 bits (equal keys iff equal views)."""
    v = np.zeros(VIEW_SIZE, dtype=np.int64)
    view(s, j, v)
    key = 0
    for i in range(VIEW_SIZE):
        x = v[i] + 1 if i == V_TO_MOVE or i == V_WINNER else v[i]
        key = (key << KEY_BITS[i]) | x
    return key


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """A state drawn uniformly from those consistent with ``j``'s view.

    The cards ``j`` has not seen (not in its hand, not played) are the opponent's hand
    and the 4 hidden ones; every split of them is consistent (no move shows anything
    about a hand but the cards played), so the opponent's ``V_OPP_SIZE`` cards are a
    uniform draw of the unseen physical cards and the rest are hidden.
    """
    pool = np.empty(18, dtype=np.int64)
    n = 0
    for r in range(N_RANKS):
        unseen = RANK_LIMIT[r] - v[V_HAND + r] - v[V_PLAYED + r] - v[V_PLAYED + N_RANKS + r]
        if unseen < 0:
            return False
        for _ in range(unseen):
            pool[n] = r
            n += 1
    need = v[V_OPP_SIZE]
    if need > n:
        return False
    for i in range(need):
        k = i + rand_below(rng, n - i)
        t = pool[i]
        pool[i] = pool[k]
        pool[k] = t
    o = 1 - j
    for r in range(N_RANKS):
        s[HAND + N_RANKS * j + r] = v[V_HAND + r]
        s[HAND + N_RANKS * o + r] = 0
        s[HIDDEN + r] = 0
        s[PLAYED + r] = v[V_PLAYED + r]
        s[PLAYED + N_RANKS + r] = v[V_PLAYED + N_RANKS + r]
    for i in range(n):
        if i < need:
            s[HAND + N_RANKS * o + pool[i]] += 1
        else:
            s[HIDDEN + pool[i]] += 1
    s[TO_MOVE] = v[V_TO_MOVE]
    s[LAST_SIZE] = v[V_LAST_SIZE]
    s[LAST_RANK] = v[V_LAST_RANK]
    s[WINNER] = v[V_WINNER]
    return True


KERNEL = Kernel(
    actor=actor,
    n_legal=n_legal,
    legal_action=legal_action,
    legal_actions=legal_actions,
    apply=apply,
    observe=observe,
    move_reveals=move_reveals,
    is_terminal=is_terminal,
    reward=reward,
    playout=playout,
    view=view,
    sample=sample,
    info_key=info_key,
)
