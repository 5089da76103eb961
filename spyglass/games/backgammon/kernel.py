"""The rules of Backgammon, once, as numba-compiled kernels over a 72-value int state.

Standard Backgammon without the doubling cube (Whitehouse 2014, §4.2.10): 15 checkers
each, the usual start; a turn is the dice roll and then one checker move per die (four
of the same number on doubles). A checker may not land on a point held by two or more
opponent checkers; landing on a single one (a blot) hits it to the bar, and a player with
checkers on the bar must enter them before moving any other. With all checkers in the
home board a player bears off: with the exact number, or from the highest occupied point
with a larger one. A player must use as many of the dice as the position allows, and the
larger die when only one of two can be used. The first to bear off all 15 wins.

**One action is one checker move** (the thesis's moves: "two or four moves" per roll,
§8.3.2), so a search tree has a level per checker move. The maximal-use rule is enforced
move by move: at the roll the kernel finds how many dice can be played (``LEFT``, a small
depth-first search) and a checker move is legal only if the rest of the turn can still
play ``LEFT - 1`` more; when only one of two different dice can be used, the smaller is
struck off if the larger can be played. A player who can use no die has the single
action ``PASS``.

**Dice are chance, not a player.** As the protocol asks (:mod:`spyglass.search.protocol`),
chance outcomes are part of the state: the future rolls come from a xorshift64 generator
whose state sits in the hidden slot ``DRNG``, seeded by :func:`new_state` from the game's
seed. A view is the state with ``DRNG`` cleared (the board, the current dice and the
turn are public), and :func:`sample` draws a fresh generator state, i.e. a fresh sequence
of future rolls: future dice are hidden information fixed per determinization, exactly as
Whitehouse 2014 (§5.2.3, the note before it) treats Backgammon ("expressed through a
seeded random number generator, so that the same rolls occur on the same
determinization"). The move that ends a turn reveals the next roll: its observation key
carries the dice and ``move_reveals`` is true there, so ISMCTS trees store the choice and
then the roll (a chance node per turn).

Coordinates. Points are absolute indices 0-23 as in OpenSpiel's ``backgammon``: seat 0
(``x``) starts with two checkers on 0 and moves up, bearing off past 23; seat 1 (``o``)
moves down and bears off below 0. A player's *own* point number is ``q`` in 1-24 (the pips
to bear off; 25 is the bar): seat 0's point ``q`` is index ``24 - q``, seat 1's is
``q - 1``. An action is ``(q - 1) * 6 + (die - 1)`` (0-149: move the checker on own point
``q`` by ``die``), or ``PASS`` = 150; so ids mean the same move for either seat.

Scoring (``SCORING``): ``WINLOSS`` (default; the thesis's "win 1", §8.5, and OpenSpiel's
default ``winloss_scoring``): the winner gets 1, the loser 0. ``GAMMONS`` (OpenSpiel's
``enable_gammons``): a gammon (the loser bore off nothing) scores 2. ``FULL`` (its
``full_scoring``): also a backgammon (a gammon with a loser's checker still on the bar or
in the winner's home board) scores 3. With ``most`` = 2 or 3 points the reward is
``(1 + points / most) / 2`` for the winner and ``(1 - points / most) / 2`` for the
loser, so it stays in [0, 1]. A game that
reaches ``MAX_TURNS`` rolls ends at the end of that turn as a draw (½ each): Backgammon
has no bound of its own on its length.

State layout (``STATE_SIZE`` int64 values):

==========  ===============================================================
0-23        points: +n seat 0's checkers, -n seat 1's
BAR0/BAR1   checkers on the bar; OFF0/OFF1 checkers borne off
TO_MOVE     seat to act, -1 when the game is over
RESULT      -1 while playing, the winner, or DRAW
HI, LO      the current roll (HI >= LO); NHI, NLO: uses of each left
            (doubles: HI = LO, NHI = 4, NLO = 0)
LEFT        checker moves still to be played this turn (the maximal use)
TURN        rolls so far; SCORING, MAX_TURNS: the options
MOVED       checker moves played in this turn so far (0 just after a roll)
DRNG        the dice generator (hidden: future rolls); 0 in a view
NLEG, LEG   the actor's legal actions, cached by every ``apply``
==========  ===============================================================
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.keys import mix_word
from spyglass.rng import rand_below
from spyglass.rng_compiled import xorshift_step
from spyglass.search.protocol import Kernel, legal_actions_from

BAR0, BAR1, OFF0, OFF1 = 24, 25, 26, 27
TO_MOVE, RESULT, HI, LO, NHI, NLO, LEFT, TURN, SCORING, MAX_TURNS, DRNG, MOVED = range(28, 40)
NLEG, LEG = 40, 41
MAX_LEGAL = 32
STATE_SIZE = LEG + MAX_LEGAL
VIEW_SIZE = STATE_SIZE
PLAYING, DRAW = -1, 2
WINLOSS, GAMMONS, FULL = 0, 1, 2
PASS = 150
N_ACTIONS = 151
BAR_Q = 25
N_CHECKERS = 15
DEFAULT_MAX_TURNS = 500

_S11 = np.uint64(11)
_SIX = np.uint64(6)


@njit(cache=True, inline="always")
def _die(x: np.uint64) -> int:
    return int((x >> _S11) % _SIX) + 1


@njit(cache=True, inline="always")
def index_of(p: int, q: int) -> int:
    """The absolute point index of seat ``p``'s own point ``q`` (1-24)."""
    return 24 - q if p == 0 else q - 1


@njit(cache=True, inline="always")
def _relative(s: np.ndarray, p: int, own: np.ndarray, opp: np.ndarray) -> None:
    """``own[q]``: ``p``'s checkers on its point ``q`` (``own[25]`` its bar);
    ``opp[q]``: the opponent's checkers there (what blocks ``p``)."""
    sign = 1 if p == 0 else -1
    for q in range(1, 25):
        n = s[index_of(p, q)] * sign
        if n > 0:
            own[q] = n
            opp[q] = 0
        else:
            own[q] = 0
            opp[q] = -n
    own[0] = 0
    opp[0] = 0
    own[BAR_Q] = s[BAR0 + p]
    opp[BAR_Q] = 0


@njit(cache=True, inline="always")
def _can_move(own: np.ndarray, opp: np.ndarray, q: int, v: int) -> bool:
    """Whether the checker on own point ``q`` may move ``v`` pips (one move, no dice rule)."""
    if own[q] == 0:
        return False
    if own[BAR_Q] > 0 and q != BAR_Q:
        return False
    d = q - v
    if d >= 1:
        return opp[d] < 2
    for r in range(7, BAR_Q + 1):  # bearing off: every checker home
        if own[r] > 0:
            return False
    if d == 0:
        return True
    for r in range(q + 1, 7):  # a larger die bears off from the highest point only
        if own[r] > 0:
            return False
    return True


@njit(cache=True)
def _max_moves(own: np.ndarray, opp: np.ndarray, hi: int, nhi: int, lo: int, nlo: int,
               limit: int) -> int:
    """How many of the dice (``nhi`` x ``hi``, ``nlo`` x ``lo``) can be played in sequence,
    at most ``limit`` (depth-first, stops as soon as ``limit`` is reached)."""
    if limit <= 0:
        return 0
    if limit == 1:  # the common question (is there a second move?): no stack needed
        for q in range(1, BAR_Q + 1):
            if (nhi > 0 and _can_move(own, opp, q, hi)) or (
                    nlo > 0 and _can_move(own, opp, q, lo)):
                return 1
        return 0
    st = np.empty((5, BAR_Q + 1), dtype=np.int64)
    nh = np.empty(5, dtype=np.int64)
    nl = np.empty(5, dtype=np.int64)
    cur = np.zeros(5, dtype=np.int64)
    st[0, :] = own
    nh[0] = nhi
    nl[0] = nlo
    best = 0
    level = 0
    while level >= 0:
        c = cur[level]
        advanced = False
        while c < 50:
            k = c // 25
            q = c % 25 + 1
            c += 1
            if k == 0:
                if nh[level] == 0:
                    c = 25
                    continue
                v = hi
            else:
                if nl[level] == 0:
                    break
                v = lo
            if _can_move(st[level], opp, q, v):
                cur[level] = c
                st[level + 1, :] = st[level, :]
                st[level + 1, q] -= 1
                if q - v >= 1:
                    st[level + 1, q - v] += 1
                nh[level + 1] = nh[level] - (1 if k == 0 else 0)
                nl[level + 1] = nl[level] - (1 if k == 1 else 0)
                level += 1
                if level > best:
                    best = level
                    if best >= limit:
                        return best
                cur[level] = 0
                advanced = True
                break
        if not advanced:
            level -= 1
    return best


@njit(cache=True)
def _list_legal(s: np.ndarray) -> None:
    """Cache the actor's legal actions (increasing ids) in ``NLEG``/``LEG``."""
    p = s[TO_MOVE]
    left = s[LEFT]
    if left == 0:
        s[NLEG] = 1
        s[LEG] = PASS
        return
    own = np.empty(BAR_Q + 1, dtype=np.int64)
    opp = np.empty(BAR_Q + 1, dtype=np.int64)
    _relative(s, p, own, opp)
    hi, lo, nhi, nlo = s[HI], s[LO], s[NHI], s[NLO]
    after = np.empty(BAR_Q + 1, dtype=np.int64)
    n = 0
    for q in range(1, BAR_Q + 1):
        for k in range(2):
            # ascending die value, so ids increase: lo (k = 0) then hi
            if k == 0:
                if nlo == 0 or lo == hi:
                    continue
                v = lo
            else:
                if nhi == 0:
                    continue
                v = hi
            if not _can_move(own, opp, q, v):
                continue
            if left > 1:
                after[:] = own
                after[q] -= 1
                if q - v >= 1:
                    after[q - v] += 1
                if _max_moves(after, opp, hi, nhi - k, lo, nlo - (1 - k), left - 1) < left - 1:
                    continue
            s[LEG + n] = (q - 1) * 6 + v - 1
            n += 1
    s[NLEG] = n


@njit(cache=True)
def _start_turn(s: np.ndarray, p: int, d1: int, d2: int) -> None:
    """Seat ``p`` has rolled ``d1``, ``d2``: set the dice, the maximal use, the legal moves."""
    s[TO_MOVE] = p
    s[TURN] += 1
    s[MOVED] = 0
    hi = max(d1, d2)
    lo = min(d1, d2)
    s[HI] = hi
    s[LO] = lo
    own = np.empty(BAR_Q + 1, dtype=np.int64)
    opp = np.empty(BAR_Q + 1, dtype=np.int64)
    _relative(s, p, own, opp)
    if hi == lo:
        s[NHI] = 4
        s[NLO] = 0
        s[LEFT] = _max_moves(own, opp, hi, 4, lo, 0, 4)
    else:
        s[NHI] = 1
        s[NLO] = 1
        m = _max_moves(own, opp, hi, 1, lo, 1, 2)
        s[LEFT] = m
        if m == 1:  # only one die can be played: the larger if it can
            can_hi = False
            for q in range(1, BAR_Q + 1):
                if _can_move(own, opp, q, hi):
                    can_hi = True
                    break
            if can_hi:
                s[NLO] = 0
            else:
                s[NHI] = 0
    _list_legal(s)


@njit(cache=True, inline="always")
def _next_roll(s: np.ndarray) -> tuple:
    """Advance the hidden dice generator and return the next roll."""
    u = s.view(np.uint64)
    x = xorshift_step(u[DRNG])
    d1 = _die(x)
    x = xorshift_step(x)
    d2 = _die(x)
    u[DRNG] = x
    return d1, d2


@njit(cache=True)
def new_state(seed_rng: np.ndarray, scoring: int, max_turns: int) -> np.ndarray:
    """The opening: who starts and the opening roll (never a double: each player rolls
    one die, the higher starts with both) drawn from ``seed_rng``, which also seeds the
    dice generator of the later rolls."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[0] = 2
    s[11] = 5
    s[16] = 3
    s[18] = 5
    s[23] = -2
    s[12] = -5
    s[7] = -3
    s[5] = -5
    s[RESULT] = PLAYING
    s[SCORING] = scoring
    s[MAX_TURNS] = max_turns
    first = rand_below(seed_rng, 2)
    pair = rand_below(seed_rng, 15)  # the 15 unordered non-double rolls
    d1 = 1
    d2 = 2
    for a in range(1, 7):
        for b in range(a + 1, 7):
            if pair == 0:
                d1 = a
                d2 = b
            pair -= 1
    s[DRNG] = rand_below(seed_rng, 1 << 62) + 1  # never 0: xorshift's fixed point
    _start_turn(s, first, d1, d2)
    return s


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    if s[TO_MOVE] < 0:
        return 0
    return s[NLEG]


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    return s[LEG + i]


@njit(cache=True, inline="always")
def _end_turn(s: np.ndarray, p: int) -> None:
    if s[TURN] >= s[MAX_TURNS]:
        s[TO_MOVE] = -1
        s[RESULT] = DRAW
        s[NLEG] = 0
        return
    d1, d2 = _next_roll(s)
    _start_turn(s, 1 - p, d1, d2)


@njit(cache=True)
def apply(s: np.ndarray, a: int) -> None:
    """Play checker move ``a`` (or ``PASS``) for the actor, in place; at the end of the
    turn the other seat rolls (from the hidden generator) or the game ends."""
    p = s[TO_MOVE]
    if a == PASS:
        _end_turn(s, p)
        return
    q = a // 6 + 1
    v = a % 6 + 1
    sign = 1 if p == 0 else -1
    if q == BAR_Q:
        s[BAR0 + p] -= 1
    else:
        s[index_of(p, q)] -= sign
    d = q - v
    if d <= 0:
        s[OFF0 + p] += 1
    else:
        i = index_of(p, d)
        if s[i] * sign == -1:  # a blot: hit it
            s[i] = 0
            s[BAR0 + 1 - p] += 1
        s[i] += sign
    if v == s[HI] and s[NHI] > 0:
        s[NHI] -= 1
    else:
        s[NLO] -= 1
    s[LEFT] -= 1
    s[MOVED] += 1
    if s[OFF0 + p] == N_CHECKERS:
        s[TO_MOVE] = -1
        s[RESULT] = p
        s[NLEG] = 0
    elif s[LEFT] == 0:
        _end_turn(s, p)
    else:
        _list_legal(s)


@njit(cache=True, inline="always")
def _ends_turn_with_roll(s: np.ndarray, a: int) -> bool:
    """Whether playing ``a`` ends the turn with a roll (not with the end of the game)."""
    if a == PASS:
        return s[TURN] < s[MAX_TURNS]
    if s[LEFT] != 1 or s[TURN] >= s[MAX_TURNS]:
        return False
    p = s[TO_MOVE]
    bears_off = a // 6 + 1 - (a % 6 + 1) <= 0
    return not (bears_off and s[OFF0 + p] == N_CHECKERS - 1)


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    """Everyone sees every move and every roll: ``a + 1``, plus ``152 x`` the roll the move
    reveals when it ends the turn (``1 + (hi - 1) * 6 + (lo - 1)``)."""
    key = a + 1
    if _ends_turn_with_roll(s, a):
        x = xorshift_step(s.view(np.uint64)[DRNG])
        d1 = _die(x)
        d2 = _die(xorshift_step(x))
        key += 152 * (1 + (max(d1, d2) - 1) * 6 + min(d1, d2) - 1)
    return key


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    """The last checker move of a turn (or a pass) reveals the next roll: a chance node."""
    return s[TO_MOVE] >= 0 and s[LEFT] <= 1


@njit(cache=True, inline="always")
def points(s: np.ndarray) -> int:
    """The winner's points: 1; with ``GAMMONS`` 2 for a gammon; with ``FULL`` also 3 for
    a backgammon."""
    w = s[RESULT]
    if w < 0 or w == DRAW or s[SCORING] == WINLOSS:
        return 1
    loser = 1 - w
    if s[OFF0 + loser] > 0:
        return 1
    if s[SCORING] == GAMMONS:
        return 2
    if s[BAR0 + loser] > 0:
        return 3
    sign = 1 if loser == 0 else -1
    for q in range(1, 7):  # the winner's home board
        if s[index_of(w, q)] * sign > 0:
            return 3
    return 2


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    """1 / 0 for a win / loss, ½ for a draw; with gammons ``(1 ± points / most) / 2``
    (``most`` = 2 or 3 points)."""
    r = s[RESULT]
    if r == DRAW:
        return 0.5
    if r < 0:
        return 0.0
    if s[SCORING] == WINLOSS:
        return 1.0 if r == j else 0.0
    pts = points(s) / (1.0 + s[SCORING])
    return (1.0 + pts) / 2.0 if r == j else (1.0 - pts) / 2.0


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal checker moves until the game ends (in place)."""
    while s[TO_MOVE] >= 0:
        apply(s, s[LEG + rand_below(rng, s[NLEG])])


@njit(cache=True)
def random_games(n_games: int, rng: np.ndarray) -> int:
    """Play ``n_games`` uniformly random games; return seat 0's wins (benchmarks)."""
    wins = 0
    for _ in range(n_games):
        s = new_state(rng, WINLOSS, DEFAULT_MAX_TURNS)
        playout(s, rng)
        wins += s[RESULT] == 0
    return wins


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    """Everything but the future dice (the generator state)."""
    v[:] = s
    v[DRNG] = 0


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """The view with a fresh dice generator: one sequence of future rolls."""
    s[:] = v
    s[DRNG] = rand_below(rng, 1 << 62) + 1
    return True


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """A 63-bit key of the view (every slot but ``DRNG`` and the cached legal list, which
    the others determine), mixed with xorshift steps only (no overflow uncompiled)."""
    h = np.uint64(0x2545F4914F6CDD1D)
    for i in range(NLEG):
        if i == DRNG:
            continue
        h = mix_word(h, np.uint64(s[i] + 64))
    return np.int64(h >> np.uint64(1))


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
