"""The rules of Phantom (m,n,k), once, as numba-compiled kernels over a tiny int64 state.

An m,n,k-game is played on a board ``m`` columns wide and ``n`` rows high; players take
turns to mark a square and the first to mark ``k`` in a row (horizontally, vertically or
diagonally) wins. In the *phantom* game neither player sees the other's marks: a move
onto a square the opponent holds is rejected, the player is told and chooses again, with
no penalty (Whitehouse 2014, §4.2.7). Player 0 moves first. A full board without a line
is a draw (½ each).

How the thesis's "environment valid/invalid move" maps onto the protocol: there is no
chance player. The validity of a move is a function of the state (is the square the
opponent's?), so :func:`apply` decides it, and the *actor's* observation of its own move
(:func:`observe`) says the square and whether it was accepted or rejected. The opponent
does not perceive a rejected try at all (``UNSEEN``: not even that it happened), and of
an accepted move only that the opponent placed a mark somewhere -- which the turn passing
shows anyway -- or that it ended the game. That is OpenSpiel's ``phantom_ttt`` with
``obstype=reveal-nothing``. :func:`move_reveals` is True for every move: the accept/reject answer
depends on stones the actor cannot see, so a search stores the choice of square and the
answer as two levels of the actor's tree (the thesis's environment move).

Squares are numbered ``row * m + col`` (row 0 at the top, col 0 at the left); an action
id is a square, so ``n_actions = m * n`` and, for 3,3,3, the ids are OpenSpiel's.
Boards are bitmasks of squares, so ``m * n <= MAX_SQUARES`` (62: the masks stay positive
int64 values).

State layout (``STATE_SIZE`` int64 values):

=========  ==================================================================
M, N, K    board width, height, line length
STONES     STONES + p: bitmask of player p's marks (p = 0, 1)
KNOWN      KNOWN + p: squares p has been refused on (opponent marks p knows)
TO_MOVE    seat to act, -1 when the game is over
RESULT     -1 while playing, 0 or 1 the winner, DRAW
LINES      LINES + d: the squares where a line of k can start in direction d
           (right, down, down-right, down-left); constant, for a fast line test
=========  ==================================================================

View layout (``VIEW_SIZE`` int64 values; player ``j``'s information state):
``M, N, K, SEAT (= j), TO_MOVE, RESULT, OWN (j's marks), REFUSED (the squares j was
refused on), OWN_COUNT, OPP_COUNT``. The opponent's number of marks is public (turns
pass only on accepted moves, so it follows from ``OWN_COUNT``, the turn and the result);
it is stored for convenience. What the view leaves out is exactly what ``j`` cannot
know: the opponent's other marks, which of ``j``'s marks the opponent has found, and
how many moves of the opponent's were rejected. (The order of ``j``'s own moves is also
left out: it does not change which states are consistent with the view.)

Observation keys (:func:`observe`, non-negative): for the actor, ``OBS_OWN + 2*a`` when
square ``a`` is accepted and ``OBS_OWN + 2*a + 1`` when it is rejected; for the
opponent, ``OBS_UNSEEN`` for a rejected try, ``OBS_OPP_PLACED`` ("the opponent placed a
mark, unseen"), or ``OBS_OPP_WON``/``OBS_OPP_DREW`` when that move ended the game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# The CPU's popcount / trailing-zero count when compiled (a portable shift-and-add
# popcount is not turned into ``popcnt`` by numba): shared with the card games.
from spyglass.games.cards.bits import lowest_index, popcount
from spyglass.rng import rand_below
from spyglass.search.protocol import UNSEEN, Kernel

# State fields.
M, N, K, STONES, KNOWN, TO_MOVE, RESULT, LINES = 0, 1, 2, 3, 5, 7, 8, 9
STATE_SIZE = 13

# View fields.
V_M, V_N, V_K, V_SEAT, V_TO_MOVE, V_RESULT, V_OWN, V_REFUSED, V_OWN_COUNT, V_OPP_COUNT = range(10)
VIEW_SIZE = 10

PLAYING, DRAW = -1, 2
MAX_SQUARES = 62

# Observation keys.
OBS_UNSEEN, OBS_OPP_PLACED, OBS_OPP_WON, OBS_OPP_DREW, OBS_OWN = UNSEEN, 1, 2, 3, 4

#: Random draws :func:`sample` makes before it counts the consistent placements exactly.
SAMPLE_TRIES = 64
#: Above this many candidate placements, :func:`sample` keeps drawing instead of counting.
ENUMERATE_LIMIT = 1 << 20
#: Random draws :func:`sample` makes (in all) when counting would be too slow.
SAMPLE_TRIES_LARGE = 1 << 14


def _zobrist_table() -> np.ndarray:
    """Fixed random 63-bit keys: one per (square, own/refused), seat, turn and result.

    XOR-only hashing (Zobrist 1970) needs no multiplication, so it behaves the same
    compiled and under ``NUMBA_DISABLE_JIT=1`` (no overflow in NumPy scalar arithmetic).
    """
    gen = np.random.default_rng(0x5EED_9A47)
    return gen.integers(1, 1 << 63, size=(2 * MAX_SQUARES + 16,), dtype=np.int64)


ZOBRIST = _zobrist_table()
_Z_SEAT, _Z_TURN, _Z_RESULT = 2 * MAX_SQUARES, 2 * MAX_SQUARES + 2, 2 * MAX_SQUARES + 5


@njit(cache=True)
def new_state(m: int, n: int, k: int) -> np.ndarray:
    """An empty m x n board, line length k, player 0 to move."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[M] = m
    s[N] = n
    s[K] = k
    s[TO_MOVE] = 0
    s[RESULT] = PLAYING
    set_line_starts(s, m, n, k)
    return s


@njit(cache=True, inline="always")
def set_line_starts(s: np.ndarray, m: int, n: int, k: int) -> None:
    """Fill ``s[LINES:LINES + 4]``: where a line of ``k`` fits, for each direction.

    Built from row and column masks (no loop over squares): :func:`sample` calls it for
    every determinization.
    """
    one = np.int64(1)
    row_right = (one << max(m - k + 1, 0)) - 1  # columns c with c + k <= m
    row_anti = ((one << m) - 1) & ~((one << min(k - 1, m)) - 1)  # columns c >= k - 1
    right = 0
    anti_rows = 0
    for r in range(n):
        right |= row_right << (r * m)
        anti_rows |= row_anti << (r * m)
    down = (one << (max(n - k + 1, 0) * m)) - 1  # rows r with r + k <= n
    s[LINES] = right
    s[LINES + 1] = down
    s[LINES + 2] = right & down
    s[LINES + 3] = anti_rows & down


@njit(cache=True, inline="always")
def _line_from(x: int, starts: int, step: int, k: int) -> bool:
    y = x & starts
    for i in range(1, k):
        y &= x >> (i * step)
    return y != 0


@njit(cache=True, inline="always")
def line_in(x: int, s: np.ndarray) -> bool:
    """Whether the marks ``x`` hold ``k`` in a row anywhere (``s`` gives the board)."""
    m = s[M]
    k = s[K]
    return (_line_from(x, s[LINES], 1, k) or _line_from(x, s[LINES + 1], m, k)
            or _line_from(x, s[LINES + 2], m + 1, k) or _line_from(x, s[LINES + 3], m - 1, k))


@njit(cache=True)
def has_line(mask: int, m: int, n: int, k: int) -> bool:
    """Whether ``mask`` holds ``k`` in a row anywhere (slow path: builds the tables)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[M] = m
    s[K] = k
    set_line_starts(s, m, n, k)
    return line_in(mask, s)


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    """The seat to act, -1 when the game is over."""
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True, inline="always")
def _blocked(s: np.ndarray, p: int) -> int:
    """Squares ``p`` may not choose: its own marks and the ones it was refused on."""
    return s[STONES + p] | s[KNOWN + p]


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    """Squares the actor may try: every square it has not marked or been refused on."""
    p = s[TO_MOVE]
    if p < 0:
        return 0
    return s[M] * s[N] - popcount(_blocked(s, p))


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    """The ``i``-th legal square in increasing order."""
    free = ((np.int64(1) << (s[M] * s[N])) - 1) & ~_blocked(s, s[TO_MOVE])
    for _ in range(i):
        free &= free - 1  # drop the lowest free square
    return lowest_index(free)  # the index of the lowest one left


@njit(cache=True, inline="always")
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal squares into ``out`` in increasing order; return how many.

    One pass over the free squares instead of :func:`legal_action`'s walk per index.
    """
    p = s[TO_MOVE]
    if p < 0:
        return 0
    blocked = _blocked(s, p)
    n = 0
    for a in range(s[M] * s[N]):
        if not (blocked >> a) & 1:
            out[n] = a
            n += 1
    return n


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """The actor tries square ``a`` (a legal action) in place.

    On an opponent's mark the move is rejected: the actor learns that square and moves
    again. Otherwise the mark is placed, and the game ends on a line or a full board.
    """
    p = s[TO_MOVE]
    bit = np.int64(1) << a
    if s[STONES + 1 - p] & bit:
        s[KNOWN + p] |= bit
        return
    mine = s[STONES + p] | bit
    s[STONES + p] = mine
    m = s[M]
    if line_in(mine, s):
        s[RESULT] = p
        s[TO_MOVE] = -1
    elif popcount(mine | s[STONES + 1 - p]) == m * s[N]:
        s[RESULT] = DRAW
        s[TO_MOVE] = -1
    else:
        s[TO_MOVE] = 1 - p


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    """Player ``j``'s observation key of the actor trying ``a`` (call before ``apply``)."""
    p = s[TO_MOVE]
    bit = np.int64(1) << a
    rejected = (s[STONES + 1 - p] & bit) != 0
    if j == p:
        return OBS_OWN + 2 * a + (1 if rejected else 0)
    if rejected:
        return OBS_UNSEEN
    mine = s[STONES + p] | bit
    if line_in(mine, s):
        return OBS_OPP_WON
    if popcount(mine | s[STONES + j]) == s[M] * s[N]:
        return OBS_OPP_DREW
    return OBS_OPP_PLACED


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    """Every move: its accept/reject answer depends on marks the actor cannot see."""
    return s[TO_MOVE] >= 0


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    """1 for a win, ½ for a draw, 0 for a loss (and 0 while playing)."""
    r = s[RESULT]
    if r == DRAW:
        return 0.5
    return 1.0 if r == j else 0.0


@njit(cache=True, inline="always")
def random_action(s: np.ndarray, rng: np.ndarray) -> int:
    """A uniformly random legal square for the actor."""
    return legal_action(s, rand_below(rng, n_legal(s)))


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal moves until the game ends (in place)."""
    while s[TO_MOVE] >= 0:
        apply(s, random_action(s, rng))


@njit(cache=True)
def random_games(m: int, n: int, k: int, n_games: int, rng: np.ndarray) -> int:
    """Play ``n_games`` uniformly random games; return player 0's wins (benchmarks)."""
    wins = 0
    for _ in range(n_games):
        s = new_state(m, n, k)
        playout(s, rng)
        wins += s[RESULT] == 0
    return wins


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    """Write player ``j``'s view (layout in the module docstring) into ``v``."""
    v[V_M] = s[M]
    v[V_N] = s[N]
    v[V_K] = s[K]
    v[V_SEAT] = j
    v[V_TO_MOVE] = s[TO_MOVE]
    v[V_RESULT] = s[RESULT]
    v[V_OWN] = s[STONES + j]
    v[V_REFUSED] = s[KNOWN + j]
    v[V_OWN_COUNT] = popcount(s[STONES + j])
    v[V_OPP_COUNT] = popcount(s[STONES + 1 - j])


@njit(cache=True, inline="always")
def _key(j: int, to_move: int, result: int, squares: int, own: int, refused: int) -> int:
    h = ZOBRIST[_Z_SEAT + j] ^ ZOBRIST[_Z_TURN + to_move + 1] ^ ZOBRIST[_Z_RESULT + result + 1]
    for a in range(squares):
        if (own >> a) & 1:
            h ^= ZOBRIST[a]
        elif (refused >> a) & 1:
            h ^= ZOBRIST[MAX_SQUARES + a]
    return h


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """A 63-bit Zobrist hash of ``j``'s view (equal for states ``j`` cannot tell apart)."""
    return _key(j, s[TO_MOVE], s[RESULT], s[M] * s[N], s[STONES + j], s[KNOWN + j])


@njit(cache=True)
def view_key(v: np.ndarray) -> int:
    """:func:`info_key` computed from a view (the same value)."""
    return _key(v[V_SEAT], v[V_TO_MOVE], v[V_RESULT], v[V_M] * v[V_N], v[V_OWN], v[V_REFUSED])


@njit(cache=True, inline="always")
def _choose(free: int, need: int, n_free: int, rng: np.ndarray) -> int:
    """A uniform ``need``-subset of the squares of ``free`` (selection sampling)."""
    out = 0
    x = free
    left = n_free
    while need > 0:
        low = x & -x
        if rand_below(rng, left) < need:
            out |= low
            need -= 1
        left -= 1
        x ^= low
    return out


@njit(cache=True, inline="always")
def _spread(code: int, free: int) -> int:
    """Deposit the low bits of ``code`` onto the set squares of ``free``, in order."""
    out = 0
    x = free
    while code:
        low = x & -x
        if code & 1:
            out |= low
        code >>= 1
        x ^= low
    return out


@njit(cache=True, inline="always")
def _consistent(opp: int, refused: int, result: int, j: int, s: np.ndarray) -> bool:
    """Whether the opponent's marks ``opp`` agree with the game's state of play (``s``
    gives the board's size and line tables)."""
    if result == 1 - j:
        # The opponent won: it has a line, completed by its last mark, which is not one
        # j was refused on (those were placed before).
        if not line_in(opp, s):
            return False
        x = opp & ~refused
        while x:
            low = x & -x
            if not line_in(opp ^ low, s):
                return True
            x ^= low
        return False
    return not line_in(opp, s)


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """Write into ``s`` a state drawn uniformly from those consistent with ``j``'s view.

    Consistent means: the same board size, turn and result; ``j``'s marks and refused
    squares as in ``v``; the opponent has exactly ``OPP_COUNT`` marks, including every
    refused square and none of ``j``'s; no line for the opponent unless the view says
    it won (then a line whose last mark can be one j was not refused on); and the
    opponent's refused squares any subset of ``j``'s marks (each of them could have been
    found on any of its turns, so every subset is possible). The opponent's marks are
    drawn uniformly by rejection (``SAMPLE_TRIES`` draws); if those all fail, the
    consistent placements are counted and one is taken uniformly (when there are at most
    ``ENUMERATE_LIMIT`` candidates; otherwise up to ``SAMPLE_TRIES_LARGE`` draws), so
    the draw is exactly uniform over the consistent states. Returns False only when no
    placement was found (an impossible view, or a huge board with no luck).
    """
    m = v[V_M]
    n = v[V_N]
    k = v[V_K]
    own = v[V_OWN]
    refused = v[V_REFUSED]
    result = v[V_RESULT]
    o = 1 - j
    full = (np.int64(1) << (m * n)) - 1
    free = full & ~(own | refused)
    n_free = popcount(free)
    need = v[V_OPP_COUNT] - popcount(refused)
    if need < 0 or need > n_free or own & refused:
        return False
    s[M] = m
    s[N] = n
    s[K] = k
    set_line_starts(s, m, n, k)
    opp = -1
    for _ in range(SAMPLE_TRIES):
        cand = refused | _choose(free, need, n_free, rng)
        if _consistent(cand, refused, result, j, s):
            opp = cand
            break
    if opp < 0:
        # Count the candidates exactly (all need-subsets of the free squares).
        total = 1
        for i in range(need):
            total = total * (n_free - i) // (i + 1)
            if total > ENUMERATE_LIMIT:
                break
        if total <= ENUMERATE_LIMIT:
            n_ok = 0
            pick = 0
            for rep in range(2):  # count, then take the pick-th consistent placement
                if rep == 1:
                    if n_ok == 0:
                        return False
                    pick = rand_below(rng, n_ok)
                code = (np.int64(1) << need) - 1
                while code < (np.int64(1) << n_free):
                    cand = refused | _spread(code, free)
                    if _consistent(cand, refused, result, j, s):
                        if rep == 0:
                            n_ok += 1
                        elif pick == 0:
                            opp = cand
                            break
                        else:
                            pick -= 1
                    if code == 0:
                        break
                    # Gosper's hack: the next larger integer with as many set bits.
                    low = code & -code
                    ripple = code + low
                    code = ripple | (((ripple ^ code) >> 2) // low)
        else:
            for _ in range(SAMPLE_TRIES_LARGE):
                cand = refused | _choose(free, need, n_free, rng)
                if _consistent(cand, refused, result, j, s):
                    opp = cand
                    break
    if opp < 0:
        return False
    s[TO_MOVE] = v[V_TO_MOVE]
    s[RESULT] = result
    s[STONES + j] = own
    s[KNOWN + j] = refused
    s[STONES + o] = opp
    found = 0
    for a in range(m * n):
        if (own >> a) & 1 and rand_below(rng, 2):
            found |= np.int64(1) << a
    s[KNOWN + o] = found
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
