"""The rules of Checkers (English draughts), once, as numba-compiled bitboard kernels.

English draughts as Whitehouse 2014, §4.2.8 describes it: an 8 x 8 board, 12 men a side
on the dark squares of the three rows nearest each player. Men step diagonally forward
to an empty square or jump diagonally forward over an adjacent opponent piece to the
empty square beyond, capturing it. Captures are forced, with a free choice among them;
a piece that has just captured and can capture again must go on (a chained capture). A
man reaching the far row is crowned a king, which moves and captures backwards too; a
man crowned by a capture ends the turn there (as in English draughts). A player with
no legal move loses.

**Granularity and ids: OpenSpiel's** (Lanctot et al. 2019, game ``checkers``), so the
cross-check compares ids one to one. One action is one step or one *single* jump; a
chained capture is a sequence of jump actions by the same player (who stays the actor
until the chain ends). The id of a move from square ``sq`` in direction ``d`` is
``sq * 8 + d * 2 + t`` (``t`` = 0 step, 1 jump; 512 ids), where ``sq = row * 8 + col``
with row 0 the top row ("8") and col 0 column "a", and ``d`` is 0 up-left, 1 up-right,
2 down-right, 3 down-left. Seat 0 moves first, from rows 1-3 at the bottom, upwards.

**Draw rule (the move cap): OpenSpiel's.** The game is drawn when 40 actions in a row
have captured nothing (``QUIET_LIMIT``; every step counts, each jump resets the count),
checked before the no-legal-move loss. Captures are at most 23, so a game has at most
23 + 24 * 39 + 1 < 1000 actions (``MAX_MOVES``, OpenSpiel's ``max_game_length``).

Perfect information: a view is the state and :func:`sample` copies it.

Boards are 64-bit masks in ``int64`` slots read through a ``uint64`` view of the same
array, so every shift is a logical one, compiled or not. State layout:

==========  ===============================================================
P0, P1      each seat's pieces (bit ``sq``)
KINGS       the kings of both sides
TO_MOVE     seat to act, -1 when the game is over
RESULT      -1 while playing, 0 or 1 the winner, ``DRAW``
CHAIN       the square of the piece that must continue a chained capture, or -1
QUIET       actions since the last capture
N_LEGAL     the actor's number of legal actions, cached by :func:`apply`
LEGAL..     the actor's legal action ids in increasing order (``MAX_LEGAL`` slots)
==========  ===============================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng import rand_below
from spyglass.search.protocol import Kernel, legal_actions_from

P0, P1, KINGS, TO_MOVE, RESULT, CHAIN, QUIET, N_LEGAL, LEGAL = range(9)
#: 12 pieces with at most 4 directions each.
MAX_LEGAL = 48
STATE_SIZE = LEGAL + MAX_LEGAL
VIEW_SIZE = STATE_SIZE
PLAYING, DRAW = -1, 2
N_ACTIONS = 512
QUIET_LIMIT = 40
MAX_MOVES = 1000
STEP, JUMP = 0, 1

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S4 = np.uint64(4)
_S7 = np.uint64(7)
_S8 = np.uint64(8)
_S9 = np.uint64(9)
_S14 = np.uint64(14)
_S16 = np.uint64(16)
_S18 = np.uint64(18)
_S32 = np.uint64(32)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_MFF = np.uint64(0x7F)

_COL_A = 0x0101010101010101
NOT_A = np.uint64(~_COL_A & 0xFFFFFFFFFFFFFFFF)
NOT_H = np.uint64(~(_COL_A << 7) & 0xFFFFFFFFFFFFFFFF)
NOT_AB = np.uint64(~(_COL_A | _COL_A << 1) & 0xFFFFFFFFFFFFFFFF)
NOT_GH = np.uint64(~(_COL_A << 6 | _COL_A << 7) & 0xFFFFFFFFFFFFFFFF)
#: The row each seat's men are crowned on: row 0 ("8") for seat 0, row 7 ("1") for seat 1.
CROWN_ROW = np.array([0xFF, 0xFF << 56], dtype=np.uint64)
#: Square offsets of the four directions (up-left, up-right, down-right, down-left).
DELTA = np.array([-9, -7, 9, 7], dtype=np.int64)
#: Seat 0's men move up (directions 0, 1), seat 1's down (2, 3).
MEN_DIRS = np.array([[1, 1, 0, 0], [0, 0, 1, 1]], dtype=np.int64)


@njit(cache=True, inline="always")
def popcount(x: np.uint64) -> int:
    """Set bits of a uint64 (shifts, masks and adds only: no overflow uncompiled)."""
    x = x - ((x >> _S1) & _M1)
    x = (x & _M2) + ((x >> _S2) & _M2)
    x = (x + (x >> _S4)) & _M4
    x = x + (x >> _S8)
    x = x + (x >> _S16)
    x = x + (x >> _S32)
    return np.int64(x & _MFF)  # int64: uint64 would unify with int64 into float64


@njit(cache=True, inline="always")
def lowest_index(x: np.uint64) -> int:
    """The index of the lowest set bit of a non-zero uint64."""
    return popcount((x & ~(x - _U1)) - _U1)


@njit(cache=True, inline="always")
def _step(x: np.uint64, d: int) -> np.uint64:
    """Every piece of ``x`` moved one square in direction ``d`` (none leaves the board or
    wraps round a column edge: the column masks drop them first)."""
    if d == 0:
        return (x & NOT_A) >> _S9
    if d == 1:
        return (x & NOT_H) >> _S7
    if d == 2:
        return (x & NOT_H) << _S9
    return (x & NOT_A) << _S7


@njit(cache=True, inline="always")
def _back2(x: np.uint64, d: int) -> np.uint64:
    """Squares two steps back from ``x`` against direction ``d`` (a jump's sources)."""
    if d == 0:
        return (x & NOT_GH) << _S18
    if d == 1:
        return (x & NOT_AB) << _S14
    if d == 2:
        return (x & NOT_AB) >> _S18
    return (x & NOT_GH) >> _S14


@njit(cache=True, inline="always")
def _back1(x: np.uint64, d: int) -> np.uint64:
    """Squares one step back from ``x`` against direction ``d`` (a step's sources)."""
    if d == 0:
        return (x & NOT_H) << _S9
    if d == 1:
        return (x & NOT_A) << _S7
    if d == 2:
        return (x & NOT_A) >> _S9
    return (x & NOT_H) >> _S7


@njit(cache=True, inline="always")
def _movers(pieces: np.uint64, kings: np.uint64, p: int, d: int) -> np.uint64:
    """The pieces of ``pieces`` (seat ``p``'s) allowed to move in direction ``d``."""
    if MEN_DIRS[p, d]:
        return pieces
    return pieces & kings


@njit(cache=True, inline="always")
def _jumps(pieces: np.uint64, kings: np.uint64, p: int, opp: np.uint64, empty: np.uint64,
           d: int) -> np.uint64:
    """The pieces of ``pieces`` that can jump in direction ``d``."""
    return _back2(_step(_step(_movers(pieces, kings, p, d), d) & opp, d) & empty, d)


@njit(cache=True, inline="always")
def can_jump(pieces: np.uint64, kings: np.uint64, p: int, opp: np.uint64,
             empty: np.uint64) -> bool:
    """Whether any piece of ``pieces`` (seat ``p``'s) has a capture."""
    for d in range(4):
        if _jumps(pieces, kings, p, opp, empty, d) != _U0:
            return True
    return False


@njit(cache=True, inline="always")
def _write_list(s: np.ndarray, m0: np.uint64, m1: np.uint64, m2: np.uint64, m3: np.uint64,
                t: int) -> None:
    """Store the ids of the moves of type ``t`` from each square set per direction, in
    increasing id order (square, then direction)."""
    n = 0
    x = m0 | m1 | m2 | m3
    while x != _U0:
        sq = lowest_index(x)
        b = _U1 << np.uint64(sq)
        base = sq * 8 + t
        if m0 & b:
            s[LEGAL + n] = base
            n += 1
        if m1 & b:
            s[LEGAL + n] = base + 2
            n += 1
        if m2 & b:
            s[LEGAL + n] = base + 4
            n += 1
        if m3 & b:
            s[LEGAL + n] = base + 6
            n += 1
        x &= x - _U1
    s[N_LEGAL] = n


@njit(cache=True, inline="always")
def _list_moves(s: np.ndarray) -> None:
    """Cache the actor's legal actions: the jumps if any (only the chaining piece's in a
    chain), else the steps."""
    u = s.view(np.uint64)
    p = s[TO_MOVE]
    own = u[p]
    opp = u[1 - p]
    kings = u[KINGS]
    empty = ~(own | opp)
    if s[CHAIN] >= 0:
        own = _U1 << np.uint64(s[CHAIN])
    j0 = _jumps(own, kings, p, opp, empty, 0)
    j1 = _jumps(own, kings, p, opp, empty, 1)
    j2 = _jumps(own, kings, p, opp, empty, 2)
    j3 = _jumps(own, kings, p, opp, empty, 3)
    if (j0 | j1 | j2 | j3) != _U0:
        _write_list(s, j0, j1, j2, j3, JUMP)
        return
    m0 = _back1(_step(_movers(own, kings, p, 0), 0) & empty, 0)
    m1 = _back1(_step(_movers(own, kings, p, 1), 1) & empty, 1)
    m2 = _back1(_step(_movers(own, kings, p, 2), 2) & empty, 2)
    m3 = _back1(_step(_movers(own, kings, p, 3), 3) & empty, 3)
    _write_list(s, m0, m1, m2, m3, STEP)


@njit(cache=True)
def new_state() -> np.ndarray:
    """The opening position, seat 0 to move."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    u = s.view(np.uint64)
    for r in range(8):
        for c in range(8):
            if (r + c) % 2 == 1:
                if r < 3:
                    u[P1] |= _U1 << np.uint64(r * 8 + c)
                elif r >= 5:
                    u[P0] |= _U1 << np.uint64(r * 8 + c)
    s[TO_MOVE] = 0
    s[RESULT] = PLAYING
    s[CHAIN] = -1
    _list_moves(s)
    return s


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    """The actor's number of legal actions (0 when the game is over)."""
    if s[TO_MOVE] < 0:
        return 0
    return s[N_LEGAL]


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    """The ``i``-th legal action id, in increasing order."""
    return s[LEGAL + i]


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """Play action ``a`` for the actor in place: a step, or one jump of a (possibly
    chained) capture; ends the game on the move cap or when the next actor cannot move."""
    u = s.view(np.uint64)
    p = s[TO_MOVE]
    sq = a >> 3
    d = (a >> 1) & 3
    jump = a & 1
    frm = _U1 << np.uint64(sq)
    king = (u[KINGS] & frm) != _U0
    s[QUIET] += 1
    to = sq + DELTA[d]
    if jump:
        mid = _U1 << np.uint64(to)
        u[1 - p] &= ~mid
        u[KINGS] &= ~mid
        to += DELTA[d]
        s[QUIET] = 0
    tb = _U1 << np.uint64(to)
    u[p] = (u[p] & ~frm) | tb
    crowned = False
    if king:
        u[KINGS] = (u[KINGS] & ~frm) | tb
    elif tb & CROWN_ROW[p]:
        u[KINGS] |= tb
        crowned = True
    s[CHAIN] = -1
    if jump and not crowned:
        own = u[p]
        opp = u[1 - p]
        if can_jump(tb, u[KINGS], p, opp, ~(own | opp)):
            s[CHAIN] = to
    if s[CHAIN] < 0:
        s[TO_MOVE] = 1 - p
    _list_moves(s)
    if s[QUIET] >= QUIET_LIMIT:
        s[RESULT] = DRAW
        s[TO_MOVE] = -1
    elif s[N_LEGAL] == 0:
        s[RESULT] = 1 - s[TO_MOVE]
        s[TO_MOVE] = -1


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    """Everyone sees every move: the key is ``a + 1`` (never ``UNSEEN``)."""
    return a + 1


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    return False


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    """1 for a win, ½ for a draw, 0 for a loss (and 0 while playing)."""
    r = s[RESULT]
    if r == DRAW:
        return 0.5
    return 1.0 if r == j else 0.0


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal actions until the game ends (in place)."""
    while s[TO_MOVE] >= 0:
        apply(s, s[LEGAL + rand_below(rng, s[N_LEGAL])])


@njit(cache=True)
def random_games(n_games: int, rng: np.ndarray) -> int:
    """Play ``n_games`` uniformly random games; return seat 0's wins (benchmarks)."""
    wins = 0
    for _ in range(n_games):
        s = new_state()
        playout(s, rng)
        wins += s[RESULT] == 0
    return wins


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    """Perfect information: every seat's view is the state."""
    v[:] = s


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """The only state consistent with a view is the view itself (a copy)."""
    s[:] = v
    return True


_Z_TO_MOVE = 3 * 64
_Z_RESULT = _Z_TO_MOVE + 3
_Z_CHAIN = _Z_RESULT + 4
_Z_QUIET = _Z_CHAIN + 65


def _zobrist_table() -> np.ndarray:
    gen = np.random.default_rng(0xC4EC_4E25)
    return gen.integers(1, 1 << 63, size=(_Z_QUIET + QUIET_LIMIT + 1,), dtype=np.int64)


ZOBRIST = _zobrist_table()


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """A 63-bit Zobrist hash of the position, the side to move, the chain, the move-cap
    count and the result (XOR only, so it behaves the same uncompiled)."""
    u = s.view(np.uint64)
    h = (ZOBRIST[_Z_TO_MOVE + s[TO_MOVE] + 1] ^ ZOBRIST[_Z_RESULT + s[RESULT] + 1]
         ^ ZOBRIST[_Z_CHAIN + s[CHAIN] + 1] ^ ZOBRIST[_Z_QUIET + s[QUIET]])
    for c in range(3):
        x = u[c]
        while x:
            h ^= ZOBRIST[c * 64 + lowest_index(x)]
            x &= x - _U1
    return h


KERNEL = Kernel(
    actor=actor,
    n_legal=n_legal,
    legal_action=legal_action,
    legal_actions=legal_actions_from(n_legal, legal_action),
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
