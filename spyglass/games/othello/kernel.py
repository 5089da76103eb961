"""The rules of Othello, once, as numba-compiled bitboard kernels over a 5-value state.

Standard Othello (Reversi with the fixed centre start; Whitehouse 2014, §4.2.9): an
8 x 8 board, Black (seat 0) moves first from the four centre discs (d4, e5 White;
e4, d5 Black). A move places a disc so that it brackets one or more lines of opponent
discs, which are flipped. A player with no such move passes (the only legal action is
``PASS``); when neither player can move the game ends and the player with more discs
wins (equal counts: a draw, ½ each). Perfect information: a view is the state, and
:func:`sample` copies it.

Squares are numbered ``row * 8 + col`` (row 0 is row "1" at the top, col 0 is "a"), so
action ids are OpenSpiel's ``othello`` ids: squares 0-63 and ``PASS`` = 64.

Boards are 64-bit masks stored in ``int64`` slots and read through a ``uint64`` view of
the same array (``s.view(np.uint64)``), so every shift is a logical one, compiled or not.

State layout (``STATE_SIZE`` int64 values):

=========  ================================================================
BLACK      Black's discs (bit pattern of a uint64)
WHITE      White's discs
TO_MOVE    seat to act (0 Black, 1 White), -1 when the game is over
RESULT     -1 while playing, 0 or 1 the winner, DRAW
LEGAL      the actor's legal squares (0 while playing: the actor must pass).
           Cached by :func:`apply`, so listing moves costs a popcount
=========  ================================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng import rand_below
from spyglass.search.protocol import Kernel

BLACK, WHITE, TO_MOVE, RESULT, LEGAL = range(5)
STATE_SIZE = 5
VIEW_SIZE = STATE_SIZE
PLAYING, DRAW = -1, 2
PASS = 64
N_ACTIONS = 65
#: 60 placements at most, and a pass is always followed by a placement.
MAX_MOVES = 120

_U0 = np.uint64(0)
_U1 = np.uint64(1)
_U7 = np.uint64(7)
_U8 = np.uint64(8)
_U9 = np.uint64(9)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_H01 = np.uint64(0x0101010101010101)
_S56 = np.uint64(56)
_S1 = np.uint64(1)
_S2 = np.uint64(2)
_S4 = np.uint64(4)
_S8 = np.uint64(8)
_S16 = np.uint64(16)
_S32 = np.uint64(32)
_MFF = np.uint64(0x7F)


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


INNER = np.uint64(0x7E7E7E7E7E7E7E7E)  # columns b-g: a line that crosses a column edge
#                                          must pass through them, so masking the flanked
#                                          discs with INNER stops wrap-around (shifts of 1,
#                                          7 and 9 step a column; 8 steps only a row)


@njit(cache=True, inline="always")
def _moves_dir(own: np.uint64, om: np.uint64, empty: np.uint64, k: np.uint64) -> np.uint64:
    """Landing squares of lines of ``om`` discs flanked by ``own``, both ways along ``k``."""
    x = (own << k) & om
    x |= (x << k) & om
    x |= (x << k) & om
    x |= (x << k) & om
    x |= (x << k) & om
    x |= (x << k) & om
    y = (own >> k) & om
    y |= (y >> k) & om
    y |= (y >> k) & om
    y |= (y >> k) & om
    y |= (y >> k) & om
    y |= (y >> k) & om
    return ((x << k) | (y >> k)) & empty


@njit(cache=True, inline="always")
def moves_of(own: np.uint64, opp: np.uint64) -> np.uint64:
    """The squares where the player with discs ``own`` may play against ``opp``."""
    empty = ~(own | opp)
    inner = opp & INNER
    return (_moves_dir(own, inner, empty, _U1) | _moves_dir(own, opp, empty, _U8)
            | _moves_dir(own, inner, empty, _U7) | _moves_dir(own, inner, empty, _U9))


@njit(cache=True, inline="always")
def _flips_dir(own: np.uint64, om: np.uint64, bit: np.uint64, k: np.uint64) -> np.uint64:
    out = _U0
    f = _U0
    x = bit << k
    while x & om:
        f |= x
        x <<= k
    if x & own:
        out = f
    f = _U0
    x = bit >> k
    while x & om:
        f |= x
        x >>= k
    if x & own:
        out |= f
    return out


@njit(cache=True, inline="always")
def flips_of(own: np.uint64, opp: np.uint64, bit: np.uint64) -> np.uint64:
    """The opponent discs a disc placed at ``bit`` flips."""
    inner = opp & INNER
    return (_flips_dir(own, inner, bit, _U1) | _flips_dir(own, opp, bit, _U8)
            | _flips_dir(own, inner, bit, _U7) | _flips_dir(own, inner, bit, _U9))


@njit(cache=True)
def new_state() -> np.ndarray:
    """The opening position, Black to move."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    u = s.view(np.uint64)
    u[BLACK] = (_U1 << np.uint64(28)) | (_U1 << np.uint64(35))
    u[WHITE] = (_U1 << np.uint64(27)) | (_U1 << np.uint64(36))
    s[TO_MOVE] = 0
    s[RESULT] = PLAYING
    u[LEGAL] = moves_of(u[BLACK], u[WHITE])
    return s


@njit(cache=True, inline="always")
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal squares (or ``PASS``) into ``out`` in increasing order."""
    if s[TO_MOVE] < 0:
        return 0
    if s[LEGAL] == 0:
        out[0] = PASS
        return 1
    x = s.view(np.uint64)[LEGAL]
    n = 0
    while x:
        out[n] = lowest_index(x)
        n += 1
        x &= x - _U1
    return n


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    """The actor's legal moves: its squares, or 1 (the pass) when it has none."""
    if s[TO_MOVE] < 0:
        return 0
    if s[LEGAL] == 0:
        return 1
    return popcount(s.view(np.uint64)[LEGAL])


@njit(cache=True, inline="always")
def nth_bit(x: np.uint64, i: int) -> int:
    """The index of the ``i``-th lowest set bit of ``x``."""
    for _ in range(i):
        x &= x - _U1
    return lowest_index(x)


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    """The ``i``-th legal square in increasing order, or ``PASS``."""
    if s[LEGAL] == 0:
        return PASS
    return nth_bit(s.view(np.uint64)[LEGAL], i)


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """Play square ``a`` (or ``PASS``) for the actor, in place; ends the game when neither
    side can move."""
    u = s.view(np.uint64)
    p = s[TO_MOVE]
    if a == PASS:
        s[TO_MOVE] = 1 - p
        u[LEGAL] = moves_of(u[1 - p], u[p])
        return
    bit = _U1 << np.uint64(a)
    own = u[p]
    opp = u[1 - p]
    f = flips_of(own, opp, bit)
    own |= bit | f
    opp &= ~f
    u[p] = own
    u[1 - p] = opp
    theirs = moves_of(opp, own)
    s[TO_MOVE] = 1 - p
    u[LEGAL] = theirs
    if theirs == _U0 and moves_of(own, opp) == _U0:
        nb = popcount(u[BLACK])
        nw = popcount(u[WHITE])
        s[TO_MOVE] = -1
        s[RESULT] = 0 if nb > nw else 1 if nw > nb else DRAW


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
    """Uniformly random legal moves until the game ends (in place)."""
    u = s.view(np.uint64)
    while s[TO_MOVE] >= 0:
        m = u[LEGAL]
        if m == _U0:
            apply(s, PASS)
        else:
            apply(s, nth_bit(m, rand_below(rng, popcount(m))))


@njit(cache=True)
def random_games(n_games: int, rng: np.ndarray) -> int:
    """Play ``n_games`` uniformly random games; return Black's wins (benchmarks)."""
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


def _zobrist_table() -> np.ndarray:
    gen = np.random.default_rng(0x07E1_1000)
    return gen.integers(1, 1 << 63, size=(2 * 64 + 8,), dtype=np.int64)


ZOBRIST = _zobrist_table()


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """A 63-bit Zobrist hash of the position, the side to move and the result (XOR only,
    so it behaves the same uncompiled)."""
    u = s.view(np.uint64)
    h = ZOBRIST[128 + s[TO_MOVE] + 1] ^ ZOBRIST[132 + s[RESULT] + 1]
    for c in range(2):
        x = u[c]
        while x:
            h ^= ZOBRIST[c * 64 + lowest_index(x)]
            x &= x - _U1
    return h


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
