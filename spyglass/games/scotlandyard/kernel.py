"""The rules of Scotland Yard, once, as numba-compiled kernels over a compact int64 state.

Mr X (piece 0) hides on the board of :mod:`spyglass.games.scotlandyard.board`; detectives
1..D hunt him (Whitehouse 2014, §4.2.12; the published rules, Ravensburger 1983). Each move
travels one edge and spends a ticket of its type: taxi, bus or underground; Mr X may
instead spend a black ticket on any edge, ferries included, and a double-move card to move
twice in a round. Detectives' spent tickets go to Mr X. Nobody may end on a detective's
station; a detective ending on Mr X's station captures him. Mr X's moves are seen as their
ticket only, except his moves number 3, 8, 13, 18 and the last (``rounds``, 24 in the
published game), after which he surfaces (his station is shown). The game ends when a
detective captures Mr X, when Mr X cannot move (he loses: the published rules), when no
detective can move (Mr X wins: the thesis), or when the detectives have answered Mr X's
last move (Mr X wins).

Players (seats): seat 0 is Mr X. With two seats, seat 1 plays every detective (the thesis:
the seekers have one information state and one reward, so they are one player); with
``1 + D`` seats, seat ``d`` plays detective ``d``, and coalition reduction may give the
detective who captures Mr X reward 1 and the others ``1 - r`` (Nijssen & Winands 2012, as
the thesis cites it).

How the published turn maps onto the protocol (no chance player):
* A double move is Mr X's action ``DOUBLE`` (public: the card is seen) followed by two
  ordinary moves. Mr X with no legal move has the single action ``PASS``, which ends the
  game (so the detectives learn it from his move, not from their own).
* A detective with no legal move is skipped by :func:`apply`.
* Whether a detective's move captures depends on where Mr X hides, so
  :func:`move_reveals` is True when a detective could reach a station Mr X may be on.

The seekers' knowledge of Mr X is the set ``POSS`` of stations consistent with what they
have seen (Whitehouse 2014, §4.2.12: the constraint set): his last surfacing station (or
the start cards not drawn by detectives), grown along edges of each ticket he shows since,
less the stations detectives stand on when he moves and the stations detectives have
searched since. It is kept in the state (it is public) and :func:`sample` draws Mr X's
station uniformly from it.

Action ids (``N_ACTIONS``): ``ticket * 199 + (station - 1)`` for a move with ticket
``TAXI, BUS, UNDERGROUND`` or ``BLACK`` to ``station``; then ``DOUBLE``, ``PASS``.

State layout (``STATE_SIZE`` int64 values; a view has the same layout plus ``V_SEAT``, and
a seeker's view has ``MRX_POS = 0``): see the field constants below.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.bits import lowest_index, popcount
from spyglass.games.keys import mix_word
from spyglass.games.scotlandyard.board import ADJ, ANY, BITS, DEG, N_STATIONS, NB, WORDS
from spyglass.rng import rand_below
from spyglass.search.cache import flush_stale_caches
from spyglass.search.protocol import Kernel

MAX_DETECTIVES = 5
MAX_ROUNDS = 24
#: Mr X's moves after which he surfaces (and after the last one, whatever ``rounds`` is).
SURFACING = (3, 8, 13, 18)

# Tickets (Mr X holds all five kinds; detectives the first three).
TAXI, BUS, UNDERGROUND, BLACK, DOUBLE_CARD = range(5)
TICKET_NAMES = ("taxi", "bus", "underground", "black")
#: The published starting tickets (Ravensburger 1983): a detective's taxi, bus, underground;
#: Mr X's taxi, bus, underground (black tickets: one per detective; two double-move cards).
DETECTIVE_TICKETS = (10, 8, 4)
MRX_TICKETS = (4, 3, 3)
MRX_DOUBLES = 2

# Action ids.
N_MOVE_IDS = 4 * N_STATIONS
DOUBLE = N_MOVE_IDS
PASS = N_MOVE_IDS + 1
N_ACTIONS = N_MOVE_IDS + 2

# State fields.
ROUNDS = 0          # Mr X's moves in the game (24 published)
N_DET = 1           # detectives
N_SEATS = 2         # 2 (one seeker player) or 1 + N_DET (a seat per detective)
CR = 3              # coalition reduction r, in thousandths
MOVES = 4           # Mr X's moves made (entries in his travel log)
TURN = 5            # piece to move: 0 Mr X, d for detective d; -1 when the game is over
DBL = 6             # moves left of a double move (2, 1) or 0
RESULT = 7          # PLAYING, MRX_WON or SEEKERS_WON
CAPTURER = 8        # the detective who captured Mr X, else 0
MRX_POS = 9         # Mr X's station (0 in a seeker's view)
LAST_SEEN = 10      # where Mr X last surfaced (0: not yet)
LAST_SEEN_MOVE = 11  # after which of his moves
DET_POS = 12        # DET_POS + d - 1: detective d's station
MRX_TK = DET_POS + MAX_DETECTIVES  # Mr X's taxi, bus, underground, black, double cards
DET_TK = MRX_TK + 5  # DET_TK + 3 * (d - 1) + ticket: detective d's tickets
POSS = DET_TK + 3 * MAX_DETECTIVES  # WORDS mask words: stations Mr X may be on (public)
LOG = POSS + WORDS  # 2 words: Mr X's tickets, 4 bits per move (ticket + 1, +8 in a double)
SURFACE = LOG + 2   # bit k: Mr X surfaces after his k-th move
SEEN = SURFACE + 1  # SEEN + i: where Mr X showed himself the (i + 1)-th time (0: not yet)
STATE_SIZE = SEEN + len(SURFACING) + 1
V_SEAT = STATE_SIZE
VIEW_SIZE = STATE_SIZE + 1
LOG_PER_WORD = 12

PLAYING, MRX_WON, SEEKERS_WON = -1, 0, 1

# Observation keys: 1 + action id for a move of Mr X's seen whole; for detective d's move
# 1 + action id + OBS_DETECTIVE * d, + OBS_CAPTURE when it captured Mr X; OBS_HIDDEN +
# ticket for a move of Mr X's that the seekers see as its ticket only.
OBS_CAPTURE = N_ACTIONS
OBS_DETECTIVE = 2 * N_ACTIONS
OBS_HIDDEN = 1 + OBS_DETECTIVE * (MAX_DETECTIVES + 1)

#: At most this many legal actions (Mr X: every ticket to every neighbour, and DOUBLE).
MAX_LEGAL = int(DEG[0].max() + DEG[1].max() + DEG[2].max() + DEG[ANY].max() + 2)

_ONE = np.int64(1)


@njit(cache=True, inline="always")
def _has(s: np.ndarray, base: int, st: int) -> bool:
    """Whether station ``st`` is in the mask at ``s[base:base + WORDS]``."""
    return (s[base + (st - 1) // BITS] >> ((st - 1) % BITS)) & 1 != 0


@njit(cache=True, inline="always")
def _clear(s: np.ndarray, base: int, st: int) -> None:
    s[base + (st - 1) // BITS] &= ~(_ONE << ((st - 1) % BITS))


@njit(cache=True, inline="always")
def _only(s: np.ndarray, base: int, st: int) -> None:
    for w in range(WORDS):
        s[base + w] = 0
    s[base + (st - 1) // BITS] = _ONE << ((st - 1) % BITS)


@njit(cache=True, inline="always")
def _occupied(s: np.ndarray, st: int, skip: int) -> bool:
    """Whether a detective other than ``skip`` stands on ``st``."""
    for d in range(1, s[N_DET] + 1):
        if d != skip and s[DET_POS + d - 1] == st:
            return True
    return False


@njit(cache=True, inline="always")
def _edge_type(ticket: int) -> int:
    return ANY if ticket == BLACK else ticket


@njit(cache=True, inline="always")
def _mrx_can_move(s: np.ndarray, pos: int) -> bool:
    """Whether Mr X at ``pos`` has a ticket and a free station to use it on."""
    for t in range(4):
        if s[MRX_TK + t] > 0:
            typ = _edge_type(t)
            for k in range(DEG[typ, pos]):
                if not _occupied(s, ADJ[typ, pos, k], 0):
                    return True
    return False


@njit(cache=True, inline="always")
def _det_can_move(s: np.ndarray, d: int) -> bool:
    pos = s[DET_POS + d - 1]
    for t in range(3):
        if s[DET_TK + 3 * (d - 1) + t] > 0:
            for k in range(DEG[t, pos]):
                if not _occupied(s, ADJ[t, pos, k], d):
                    return True
    return False


@njit(cache=True, inline="always")
def _legal(s: np.ndarray, out: np.ndarray, write: bool) -> int:
    """Count the actor's legal actions (and write them into ``out`` when ``write``), in
    increasing id order."""
    p = s[TURN]
    if p < 0:
        return 0
    n = 0
    if p == 0:
        pos = s[MRX_POS]
        if not _mrx_can_move(s, pos):
            if write:
                out[0] = PASS
            return 1
        for t in range(4):
            if s[MRX_TK + t] > 0:
                typ = _edge_type(t)
                for k in range(DEG[typ, pos]):
                    st = ADJ[typ, pos, k]
                    if not _occupied(s, st, 0):
                        if write:
                            out[n] = t * N_STATIONS + st - 1
                        n += 1
        if s[MRX_TK + DOUBLE_CARD] > 0 and s[DBL] == 0 and s[MOVES] <= s[ROUNDS] - 2:
            if write:
                out[n] = DOUBLE
            n += 1
        return n
    pos = s[DET_POS + p - 1]
    for t in range(3):
        if s[DET_TK + 3 * (p - 1) + t] > 0:
            for k in range(DEG[t, pos]):
                st = ADJ[t, pos, k]
                if not _occupied(s, st, p):
                    if write:
                        out[n] = t * N_STATIONS + st - 1
                    n += 1
    return n


@njit(cache=True, inline="always")
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the actor's legal action ids into ``out`` in increasing order; return how many."""
    return _legal(s, out, True)


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    return _legal(s, np.empty(0, dtype=np.int64), False)


@njit(cache=True)
def legal_action(s: np.ndarray, i: int) -> int:
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    _legal(s, out, True)
    return out[i]


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    """Seat to act: 0 for Mr X, the seekers' seat for a detective, -1 when over."""
    p = s[TURN]
    if p <= 0:
        return p
    return 1 if s[N_SEATS] == 2 else p


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TURN] < 0


@njit(cache=True, inline="always")
def surfaces_after(s: np.ndarray, move: int) -> bool:
    """Whether Mr X surfaces after his ``move``-th move."""
    return (s[SURFACE] >> move) & 1 != 0


@njit(cache=True, inline="always")
def _spread(s: np.ndarray, typ: int) -> None:
    """``POSS`` := the stations one edge of ``typ`` from ``POSS``, less detectives' stations."""
    n0 = np.int64(0)
    n1 = np.int64(0)
    n2 = np.int64(0)
    n3 = np.int64(0)
    for w in range(WORDS):
        x = s[POSS + w]
        while x:
            low = x & -x
            u = w * BITS + lowest_index(low) + 1
            n0 |= NB[typ, u, 0]
            n1 |= NB[typ, u, 1]
            n2 |= NB[typ, u, 2]
            n3 |= NB[typ, u, 3]
            x ^= low
    s[POSS] = n0
    s[POSS + 1] = n1
    s[POSS + 2] = n2
    s[POSS + 3] = n3
    for d in range(1, s[N_DET] + 1):
        _clear(s, POSS, s[DET_POS + d - 1])


@njit(cache=True, inline="always")
def _keep_movable(s: np.ndarray, movable: bool) -> None:
    """Keep in ``POSS`` the stations from which Mr X can (``movable``) or cannot move."""
    for w in range(WORDS):
        x = s[POSS + w]
        while x:
            low = x & -x
            u = w * BITS + lowest_index(low) + 1
            if _mrx_can_move(s, u) != movable:
                s[POSS + w] &= ~low
            x ^= low


@njit(cache=True, inline="always")
def _next_detective(s: np.ndarray, after: int) -> int:
    """The first detective after ``after`` who can move, or 0."""
    for d in range(after + 1, s[N_DET] + 1):
        if _det_can_move(s, d):
            return d
    return 0


@njit(cache=True, inline="always")
def _end(s: np.ndarray, result: int) -> None:
    s[RESULT] = result
    s[TURN] = -1


@njit(cache=True, inline="always")
def _log(s: np.ndarray, move: int, code: int) -> None:
    i = move - 1
    s[LOG + i // LOG_PER_WORD] |= np.int64(code) << (4 * (i % LOG_PER_WORD))


@njit(cache=True, inline="always")
def log_entry(s: np.ndarray, move: int) -> int:
    """Mr X's ``move``-th log entry: ticket + 1, plus 8 if it was half of a double move."""
    i = move - 1
    return (s[LOG + i // LOG_PER_WORD] >> (4 * (i % LOG_PER_WORD))) & 15


@njit(cache=True)
def apply(s: np.ndarray, a: int) -> None:
    """Play action ``a`` (legal) for the piece to move, in place."""
    p = s[TURN]
    if p == 0:
        if a == PASS:
            _keep_movable(s, False)
            _end(s, SEEKERS_WON)
            return
        if a == DOUBLE:
            s[MRX_TK + DOUBLE_CARD] -= 1
            s[DBL] = 2
            _keep_movable(s, True)
            return
        t = a // N_STATIONS
        st = a - t * N_STATIONS + 1
        s[MRX_TK + t] -= 1
        s[MRX_POS] = st
        m = s[MOVES] + 1
        s[MOVES] = m
        _log(s, m, t + 1 + (8 if s[DBL] > 0 else 0))
        if surfaces_after(s, m):
            _only(s, POSS, st)
            s[LAST_SEEN] = st
            s[LAST_SEEN_MOVE] = m
            s[SEEN + popcount(s[SURFACE] & ((_ONE << m) - 1))] = st
        else:
            _spread(s, _edge_type(t))
        if s[DBL] == 2:
            s[DBL] = 1
            return
        s[DBL] = 0
        d = _next_detective(s, 0)
        if d == 0:
            _end(s, MRX_WON)  # no detective can move
        else:
            s[TURN] = d
        return
    t = a // N_STATIONS
    st = a - t * N_STATIONS + 1
    s[DET_TK + 3 * (p - 1) + t] -= 1
    s[MRX_TK + t] += 1
    s[DET_POS + p - 1] = st
    if st == s[MRX_POS]:
        s[CAPTURER] = p
        _only(s, POSS, st)
        _end(s, SEEKERS_WON)
        return
    _clear(s, POSS, st)
    d = _next_detective(s, p)
    if d != 0:
        s[TURN] = d
    elif s[MOVES] >= s[ROUNDS]:
        _end(s, MRX_WON)  # the detectives have answered his last move
    else:
        s[TURN] = 0


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    """Seat ``j``'s observation key of the piece to move playing ``a`` (before ``apply``)."""
    p = s[TURN]
    if p == 0:
        if j == 0 or a >= N_MOVE_IDS or surfaces_after(s, s[MOVES] + 1):
            return 1 + a
        return OBS_HIDDEN + a // N_STATIONS
    st = a - (a // N_STATIONS) * N_STATIONS + 1
    return 1 + a + OBS_DETECTIVE * p + (OBS_CAPTURE if st == s[MRX_POS] else 0)


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    """A detective's move reveals whether Mr X was there when it can reach a station he
    may be on."""
    p = s[TURN]
    if p <= 0:
        return False
    pos = s[DET_POS + p - 1]
    for t in range(3):
        if s[DET_TK + 3 * (p - 1) + t] > 0:
            for w in range(WORDS):
                if NB[t, pos, w] & s[POSS + w]:
                    return True
    return False


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    """1 to the winning side; with coalition reduction, ``1 - r`` to the detectives who did
    not make the capture."""
    r = s[RESULT]
    if r == PLAYING:
        return 0.0
    if j == 0:
        return 1.0 if r == MRX_WON else 0.0
    if r != SEEKERS_WON:
        return 0.0
    if s[N_SEATS] == 2 or s[CAPTURER] == 0 or s[CAPTURER] == j:
        return 1.0
    return 1.0 - s[CR] / 1000.0


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal moves until the game ends (in place)."""
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    while s[TURN] >= 0:
        n = _legal(s, out, True)
        apply(s, out[rand_below(rng, n)])


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    """Seat ``j``'s view: the whole state, without Mr X's station unless ``j`` is Mr X."""
    for i in range(STATE_SIZE):
        v[i] = s[i]
    if j != 0:
        v[MRX_POS] = 0
    v[V_SEAT] = j


@njit(cache=True, inline="always")
def _hash_view(s: np.ndarray, j: int, hide: bool) -> int:
    h = np.uint64(0x5C07_1A4D_9A4D_0001) ^ np.uint64(j + 1)
    for i in range(STATE_SIZE):
        x = s[i]
        if hide and i == MRX_POS:
            x = 0
        h = mix_word(h, np.uint64(x + 2))
    return np.int64(h >> np.uint64(1))


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """A 63-bit key of seat ``j``'s view (xorshift mixing only: no overflow uncompiled)."""
    return _hash_view(s, j, j != 0)


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """A state consistent with seat ``j``'s view: Mr X's station uniform over ``POSS``."""
    for i in range(STATE_SIZE):
        s[i] = v[i]
    if j == 0:
        return True
    total = 0
    for w in range(WORDS):
        total += popcount(v[POSS + w])
    if total == 0:
        return False
    k = np.int64(rand_below(rng, total))
    for w in range(WORDS):
        x = v[POSS + w]
        c = popcount(x)
        if k < c:
            for _ in range(k):
                x &= x - 1
            s[MRX_POS] = w * BITS + lowest_index(x) + 1
            return True
        k -= c
    return False


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

# numba checks only this file's timestamp; the board's tables come from board.py.
flush_stale_caches((actor, n_legal, legal_action, legal_actions, apply, observe, move_reveals,
                    is_terminal, reward, playout, view, info_key, sample,
                    surfaces_after, log_entry))


def new_state(detectives: int, rounds: int, n_seats: int, coalition: float,
              stations: tuple[int, ...]) -> np.ndarray:
    """The initial state: Mr X on ``stations[0]``, detective d on ``stations[d]``, and the
    seekers' constraint set the start cards the detectives did not draw (plain Python)."""
    from spyglass.games.scotlandyard.board import START_CARDS, station_mask

    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[ROUNDS] = rounds
    s[N_DET] = detectives
    s[N_SEATS] = n_seats
    s[CR] = round(coalition * 1000)
    s[RESULT] = PLAYING
    s[MRX_POS] = stations[0]
    for d in range(1, detectives + 1):
        s[DET_POS + d - 1] = stations[d]
        for t in range(3):
            s[DET_TK + 3 * (d - 1) + t] = DETECTIVE_TICKETS[t]
    for t in range(3):
        s[MRX_TK + t] = MRX_TICKETS[t]
    s[MRX_TK + BLACK] = detectives
    s[MRX_TK + DOUBLE_CARD] = MRX_DOUBLES
    s[POSS:POSS + WORDS] = station_mask(c for c in START_CARDS if c not in stations[1:])
    s[SURFACE] = sum(1 << k for k in (*SURFACING, rounds) if k <= rounds)
    s[TURN] = 0
    return s
