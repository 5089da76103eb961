"""The rules of Saboteur (one round), once, as numba-compiled kernels over an int64 state.

Saboteur (Moyersoen 2004; Whitehouse 2014, §4.2.13) for 3-10 players. Each seat is dealt
a role card, gold-digger or saboteur, from a role deck with one card more than there are
players (the spare stays face down, so nobody knows how many saboteurs play): 1/3, 1/4,
2/4, 2/5, 3/5, 3/6, 3/7, 4/7 saboteurs/diggers for 3..10 players (:data:`SABOTEURS`,
:data:`DIGGERS`). Saboteurs do not know each other. The 40 tunnel cards and 27 action
cards are shuffled into one deck; each seat gets 6, 6, 6, 5, 5, 4, 4, 4 cards (3..10
players, :data:`HAND_SIZES`); the rest is the stock. Card counts (:data:`COUNTS`):

* tunnel cards whose openings all join (passages): vertical straight ×4, horizontal
  straight ×3, curve N-E ×5, curve N-W ×4, T N-E-W ×5, T N-E-S ×5, crossroads ×5;
* dead ends (openings that join nothing), one each: N, E, N+E, N+S, N+W, E+W, N+E+S,
  N+E+W, all four;
* broken pick, lantern, cart ×3 each; repair pick, lantern, cart ×2 each; double repairs
  pick/lantern, pick/cart, lantern/cart ×1 each (mend one of the two); rockfall ×3;
  map ×6.

The board: the start card (a crossroads) and three face-down goal cards seven card
spaces to its right (the middle one in the start's row, the others two rows above and
below, one space between them); one goal is gold (a crossroads), two are stone (curves
N-E and N-W). The published table is unbounded; here the grid is the 5×9 layout with a
one-card margin all round (7 rows × 11 columns, :data:`ROWS`, :data:`COLS`) -- a named
departure that keeps the board a fixed-size array.

A turn (seat 0 first, then in seat order, skipping seats with no cards): play one card
or discard one face down (a pass), then draw one from the stock while it lasts.

* A tunnel card goes upright or turned 180° on an empty cell next to a placed card, its
  edges matching every placed neighbour (opening to opening, rock to rock; face-down
  goals impose nothing), and joined through an opening to a passage connected to the
  start. A seat with any broken tool may not play tunnel cards.
* When a passage connected to the start opens onto a face-down goal, the goal is turned
  up. Gold ends the round: the diggers win. A stone goal stays, turned so that it opens
  towards the tunnel that reached it, and becomes part of the tunnel.
* Broken tool: on any seat whose tool of that kind is whole. Repair: on a seat with that
  tool broken (a double repair mends either of its two). Rockfall: removes one tunnel
  card (never the start or a goal). Map: look at one face-down goal, privately.
* The round ends when gold is reached or when every hand is empty (stock exhausted):
  then the saboteurs win.

Rewards: one round, as the thesis's experiments (§7.5.5) count it: 1 to every member of
the winning team, 0 to the rest (no gold nuggets; a 3- or 4-player round may have no
saboteur, and then an unfound gold wins for nobody).

Hidden information: the roles, every hand but one's own, the stock's order, face-down
discards, which goal is gold (and which stone is where), and other seats' map peeks.
What is public: the board, broken tools, every card played face up (kept in ``GONE``),
hand and discard-pile sizes, the stock's size, which goal each seat looked at.

State layout (int64): see the ``*`` field offsets below. View layout: ``V_*``.
Action ids (:data:`N_ACTIONS`): tunnel placements ``t * 2 * CELLS + rot * CELLS + cell``
(t the tunnel type 0..15), then broken tools ``BREAK + tool * 10 + seat``, single repairs
``REPAIR + tool * 10 + seat``, double repairs ``REPAIR2 + (card * 2 + which) * 10 +
seat``, rockfall ``ROCKFALL + cell``, map ``MAP + goal``, discard ``DISCARD + card``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng import rand_below
from spyglass.search.protocol import Kernel

# --- cards --------------------------------------------------------------------------
N_, E_, S_, W_ = 1, 2, 4, 8  # edge bits: north, east, south, west
N_TUNNEL = 16  # tunnel types 0..6 passages, 7..15 dead ends
N_PASSAGE = 7
BREAK_PICK, BREAK_LANTERN, BREAK_CART = 16, 17, 18
REPAIR_PICK, REPAIR_LANTERN, REPAIR_CART = 19, 20, 21
REPAIR_PL, REPAIR_PC, REPAIR_LC = 22, 23, 24
ROCKFALL_CARD, MAP_CARD = 25, 26
N_TYPES = 27
TOOL_NAMES = ("pick", "lantern", "cart")

#: The upright edges of each tunnel type.
TUNNEL_EDGES = np.array([N_ | S_, E_ | W_, N_ | E_, N_ | W_, N_ | E_ | W_, N_ | E_ | S_,
                         N_ | E_ | S_ | W_,
                         N_, E_, N_ | E_, N_ | S_, N_ | W_, E_ | W_, N_ | E_ | S_,
                         N_ | E_ | W_, N_ | E_ | S_ | W_], dtype=np.int64)
#: How many of each card the deck holds (tunnel types, then action cards).
COUNTS = np.array([4, 3, 5, 4, 5, 5, 5, 1, 1, 1, 1, 1, 1, 1, 1, 1,
                   3, 3, 3, 2, 2, 2, 1, 1, 1, 3, 6], dtype=np.int64)
DECK_SIZE = 67
#: The two tools each double repair card mends.
DOUBLE_TOOLS = np.array([[0, 1], [0, 2], [1, 2]], dtype=np.int64)

#: Goal cards: 0 gold (crossroads), 1 stone curve N-E, 2 stone curve N-W.
GOLD, STONE_NE, STONE_NW = 0, 1, 2
GOAL_EDGES = np.array([N_ | E_ | S_ | W_, N_ | E_, N_ | W_], dtype=np.int64)

MIN_PLAYERS, MAX_PLAYERS = 3, 10
SABOTEURS = np.array([0, 0, 0, 1, 1, 2, 2, 3, 3, 3, 4], dtype=np.int64)
DIGGERS = np.array([0, 0, 0, 3, 4, 4, 5, 5, 6, 7, 7], dtype=np.int64)
HAND_SIZES = np.array([0, 0, 0, 6, 6, 6, 5, 5, 4, 4, 4], dtype=np.int64)

# --- the board ----------------------------------------------------------------------
ROWS, COLS = 7, 11
CELLS = ROWS * COLS
START_CELL = 3 * COLS + 1
GOAL_CELLS = np.array([1 * COLS + 9, 3 * COLS + 9, 5 * COLS + 9], dtype=np.int64)
#: Cell contents: EMPTY; a tunnel card ``1 + 2 * type + rot``; START; goal ``GOAL0 + g``.
EMPTY, START, GOAL0 = 0, 33, 34


def _neighbours() -> np.ndarray:
    nb = np.full((CELLS, 4), -1, dtype=np.int64)
    for c in range(CELLS):
        r, k = divmod(c, COLS)
        if r > 0:
            nb[c, 0] = c - COLS
        if k < COLS - 1:
            nb[c, 1] = c + 1
        if r < ROWS - 1:
            nb[c, 2] = c + COLS
        if k > 0:
            nb[c, 3] = c - 1
    return nb


#: NEIGHBOUR[cell, d]: the cell across edge d (0 N, 1 E, 2 S, 3 W), -1 off the grid.
NEIGHBOUR = _neighbours()

# --- state fields -------------------------------------------------------------------
NP, TO_MOVE, RESULT, STOCK_N = 0, 1, 2, 3
GOAL_CARD = 4  # + g: which goal card lies at goal position g (hidden)
GOAL_REV = 7  # + g: 0 face down, 1 turned up upright, 2 turned up rotated (public)
ROLE = 10  # + seat: 1 saboteur, 0 gold-digger (hidden)
BROKEN = 20  # + seat: bitmask of broken tools (public)
PEEKED = 30  # + seat: bitmask of the goals the seat looked at (public; results hidden)
HAND_N = 40  # + seat: cards in hand (public)
DISC_N = 50  # + seat: cards it discarded face down (public)
GONE = 60  # + card type: cards played face up (public)
HAND = GONE + N_TYPES  # + seat * N_TYPES + type: hands (hidden)
DISC = HAND + MAX_PLAYERS * N_TYPES  # + seat * N_TYPES + type: face-down discards
STOCK = DISC + MAX_PLAYERS * N_TYPES  # + i: the stock, drawn from index STOCK_N - 1
CELL = STOCK + DECK_SIZE  # + cell: board contents
REACH = CELL + CELLS  # + cell: 1 for a passage connected to the start
STATE_SIZE = REACH + CELLS

PLAYING, SABOTEURS_WIN, DIGGERS_WIN = -1, 0, 1

# --- view fields --------------------------------------------------------------------
V_SEAT, V_NP, V_TO_MOVE, V_RESULT, V_STOCK_N, V_ROLE = range(6)
V_GOAL_REV = 6  # + g
V_GOAL_KNOWN = 9  # + g: the goal card there if the seat knows it, else -1
V_BROKEN = 12  # + seat
V_PEEKED = 22
V_HAND_N = 32
V_DISC_N = 42
V_GONE = 52  # + type
V_HAND = V_GONE + N_TYPES  # + type: own hand
V_DISC = V_HAND + N_TYPES  # + type: own face-down discards
V_CELL = V_DISC + N_TYPES
V_REACH = V_CELL + CELLS
VIEW_SIZE = V_REACH + CELLS

# --- actions ------------------------------------------------------------------------
PLACE_N = N_TUNNEL * 2 * CELLS
BREAK = PLACE_N
REPAIR = BREAK + 3 * MAX_PLAYERS
REPAIR2 = REPAIR + 3 * MAX_PLAYERS
ROCKFALL = REPAIR2 + 6 * MAX_PLAYERS
MAP = ROCKFALL + CELLS
DISCARD = MAP + 3
N_ACTIONS = DISCARD + N_TYPES
#: The id others see for any face-down discard (never a legal action).
HIDDEN_DISCARD = N_ACTIONS

#: An upper bound on the moves of a round: every move spends one of the 67 cards.
MAX_MOVES = DECK_SIZE

# Observation keys: 1 + a + (N_ACTIONS + 1) * (reveal + 64 * (peek + 4 * drawn)), where
# reveal holds, per goal, 3 (not turned up by this move) or the card turned up (base 4),
# peek the card a map showed (3: none), drawn the card the actor drew (27: none).
OBS_SPAN = N_ACTIONS + 1
NO_REVEAL = 63
NO_PEEK = 3
NO_DRAW = N_TYPES


@njit(cache=True, inline="always")
def rotate(edges: int) -> int:
    """The edges of a card turned 180° (north <-> south, east <-> west)."""
    return ((edges << 2) | (edges >> 2)) & 15


@njit(cache=True, inline="always")
def symmetric(t: int) -> bool:
    """A tunnel type that looks the same turned 180° (only its upright placement is a move)."""
    e = TUNNEL_EDGES[t]
    return rotate(e) == e


@njit(cache=True, inline="always")
def _cell_edges(s: np.ndarray, c: int) -> int:
    """The openings of the card on cell ``c``; -1 for an empty cell or a face-down goal."""
    v = s[CELL + c]
    if v == EMPTY:
        return -1
    if v < START:
        e = TUNNEL_EDGES[(v - 1) >> 1]
        return rotate(e) if (v - 1) & 1 else e
    if v == START:
        return 15
    g = v - GOAL0
    rev = s[GOAL_REV + g]
    if rev == 0:
        return -1
    e = GOAL_EDGES[s[GOAL_CARD + g]]
    return rotate(e) if rev == 2 else e


@njit(cache=True, inline="always")
def _is_passage(s: np.ndarray, c: int) -> bool:
    """Whether the card on ``c`` joins its openings (start, passages, turned-up goals)."""
    v = s[CELL + c]
    if v == EMPTY:
        return False
    if v < START:
        return ((v - 1) >> 1) < N_PASSAGE
    if v == START:
        return True
    return s[GOAL_REV + v - GOAL0] != 0


@njit(cache=True)
def compute_reach(s: np.ndarray) -> None:
    """Mark in ``REACH`` every passage joined to the start through matching openings."""
    for c in range(CELLS):
        s[REACH + c] = 0
    stack = np.empty(CELLS, dtype=np.int64)
    stack[0] = START_CELL
    n = 1
    s[REACH + START_CELL] = 1
    while n > 0:
        n -= 1
        c = stack[n]
        e = _cell_edges(s, c)
        for d in range(4):
            if not (e >> d) & 1:
                continue
            nb = NEIGHBOUR[c, d]
            if nb < 0 or s[REACH + nb] or not _is_passage(s, nb):
                continue
            if (_cell_edges(s, nb) >> ((d + 2) & 3)) & 1:
                s[REACH + nb] = 1
                stack[n] = nb
                n += 1


@njit(cache=True, inline="always")
def fits(s: np.ndarray, edges: int, c: int) -> bool:
    """Whether a tunnel card with ``edges`` may go on cell ``c`` (see the module docstring)."""
    if s[CELL + c] != EMPTY:
        return False
    joined = False
    for d in range(4):
        nb = NEIGHBOUR[c, d]
        if nb < 0:
            continue
        ne = _cell_edges(s, nb)
        if ne < 0:
            continue
        mine = (edges >> d) & 1
        theirs = (ne >> ((d + 2) & 3)) & 1
        if mine != theirs:
            return False
        if mine and s[REACH + nb]:
            joined = True
    return joined


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True)
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the actor's legal action ids into ``out`` in increasing order; return how many."""
    p = s[TO_MOVE]
    if p < 0:
        return 0
    n_players = s[NP]
    h = HAND + p * N_TYPES
    n = 0
    if s[BROKEN + p] == 0:
        for t in range(N_TUNNEL):
            if s[h + t] == 0:
                continue
            e = TUNNEL_EDGES[t]
            for rot in range(2):
                if rot == 1:
                    if symmetric(t):
                        break
                    e = rotate(e)
                base = (t * 2 + rot) * CELLS
                for c in range(CELLS):
                    if fits(s, e, c):
                        out[n] = base + c
                        n += 1
    for tool in range(3):
        if s[h + BREAK_PICK + tool]:
            for q in range(n_players):
                if not (s[BROKEN + q] >> tool) & 1:
                    out[n] = BREAK + tool * MAX_PLAYERS + q
                    n += 1
    for tool in range(3):
        if s[h + REPAIR_PICK + tool]:
            for q in range(n_players):
                if (s[BROKEN + q] >> tool) & 1:
                    out[n] = REPAIR + tool * MAX_PLAYERS + q
                    n += 1
    for k in range(3):
        if s[h + REPAIR_PL + k]:
            for w in range(2):
                tool = DOUBLE_TOOLS[k, w]
                for q in range(n_players):
                    if (s[BROKEN + q] >> tool) & 1:
                        out[n] = REPAIR2 + (k * 2 + w) * MAX_PLAYERS + q
                        n += 1
    if s[h + ROCKFALL_CARD]:
        for c in range(CELLS):
            v = s[CELL + c]
            if EMPTY < v < START:
                out[n] = ROCKFALL + c
                n += 1
    if s[h + MAP_CARD]:
        for g in range(3):
            if s[GOAL_REV + g] == 0:
                out[n] = MAP + g
                n += 1
    for t in range(N_TYPES):
        if s[h + t]:
            out[n] = DISCARD + t
            n += 1
    return n


@njit(cache=True)
def n_legal(s: np.ndarray) -> int:
    out = np.empty(N_ACTIONS, dtype=np.int64)
    return legal_actions(s, out)


@njit(cache=True)
def legal_action(s: np.ndarray, i: int) -> int:
    out = np.empty(N_ACTIONS, dtype=np.int64)
    legal_actions(s, out)
    return out[i]


@njit(cache=True, inline="always")
def card_of(a: int) -> int:
    """The card type an action spends."""
    if a < PLACE_N:
        return a // (2 * CELLS)
    if a < REPAIR:
        return BREAK_PICK + (a - BREAK) // MAX_PLAYERS
    if a < REPAIR2:
        return REPAIR_PICK + (a - REPAIR) // MAX_PLAYERS
    if a < ROCKFALL:
        return REPAIR_PL + (a - REPAIR2) // (2 * MAX_PLAYERS)
    if a < MAP:
        return ROCKFALL_CARD
    if a < DISCARD:
        return MAP_CARD
    return a - DISCARD


@njit(cache=True)
def _turn_up_goals(s: np.ndarray) -> None:
    """Turn up every face-down goal a connected passage opens onto (repeating, since a
    turned-up stone extends the tunnel); gold ends the round for the diggers."""
    changed = True
    while changed:
        changed = False
        for g in range(3):
            if s[GOAL_REV + g] != 0:
                continue
            gc = GOAL_CELLS[g]
            sides = 0
            for d in range(4):
                nb = NEIGHBOUR[gc, d]
                if nb >= 0 and s[REACH + nb] and (_cell_edges(s, nb) >> ((d + 2) & 3)) & 1:
                    sides |= 1 << d
            if sides == 0:
                continue
            card = s[GOAL_CARD + g]
            upright = (GOAL_EDGES[card] & sides) != 0 or card == GOLD
            s[GOAL_REV + g] = 1 if upright else 2
            compute_reach(s)
            if card == GOLD:
                s[RESULT] = DIGGERS_WIN
                return
            changed = True


@njit(cache=True)
def apply(s: np.ndarray, a: int) -> None:
    """The actor plays action ``a`` (legal), draws, and the turn passes."""
    p = s[TO_MOVE]
    t = card_of(a)
    s[HAND + p * N_TYPES + t] -= 1
    s[HAND_N + p] -= 1
    if a < PLACE_N:
        s[CELL + a % CELLS] = 1 + a // CELLS
        compute_reach(s)
        _turn_up_goals(s)
    elif a < DISCARD:
        s[GONE + t] += 1
        if a < REPAIR:
            q = (a - BREAK) % MAX_PLAYERS
            s[BROKEN + q] |= 1 << ((a - BREAK) // MAX_PLAYERS)
        elif a < REPAIR2:
            q = (a - REPAIR) % MAX_PLAYERS
            s[BROKEN + q] &= ~(1 << ((a - REPAIR) // MAX_PLAYERS))
        elif a < ROCKFALL:
            q = (a - REPAIR2) % MAX_PLAYERS
            kw = (a - REPAIR2) // MAX_PLAYERS
            s[BROKEN + q] &= ~(1 << DOUBLE_TOOLS[kw >> 1, kw & 1])
        elif a < MAP:
            c = a - ROCKFALL
            s[GONE + (s[CELL + c] - 1) // 2] += 1
            s[CELL + c] = EMPTY
            compute_reach(s)
        else:
            s[PEEKED + p] |= 1 << (a - MAP)
    else:
        s[DISC + p * N_TYPES + t] += 1
        s[DISC_N + p] += 1
    if s[STOCK_N] > 0:
        s[STOCK_N] -= 1
        s[HAND + p * N_TYPES + s[STOCK + s[STOCK_N]]] += 1
        s[HAND_N + p] += 1
    if s[RESULT] != PLAYING:
        s[TO_MOVE] = -1
        return
    n_players = s[NP]
    for i in range(1, n_players + 1):
        q = (p + i) % n_players
        if s[HAND_N + q] > 0:
            s[TO_MOVE] = q
            return
    s[RESULT] = SABOTEURS_WIN
    s[TO_MOVE] = -1


@njit(cache=True)
def observe(s: np.ndarray, a: int, j: int) -> int:
    """Seat ``j``'s observation key of the actor playing ``a`` (call before ``apply``).

    Everyone sees the card played and where, and any goal it turns up; the actor also
    sees what a map shows and the card it draws. A face-down discard is the same key for
    every card to the others.
    """
    p = s[TO_MOVE]
    reveal = NO_REVEAL
    if a < PLACE_N:
        t = s.copy()
        apply(t, a)
        reveal = 0
        for g in range(2, -1, -1):
            digit = 3
            if s[GOAL_REV + g] == 0 and t[GOAL_REV + g] != 0:
                digit = s[GOAL_CARD + g]
            reveal = reveal * 4 + digit
    if j != p:
        shown = HIDDEN_DISCARD if a >= DISCARD else a
        return 1 + shown + OBS_SPAN * (reveal + 64 * (NO_PEEK + 4 * NO_DRAW))
    peek = NO_PEEK
    if MAP <= a < DISCARD:
        peek = s[GOAL_CARD + a - MAP]
    drawn = NO_DRAW
    if s[STOCK_N] > 0:
        drawn = s[STOCK + s[STOCK_N] - 1]
    return 1 + a + OBS_SPAN * (reveal + 64 * (peek + 4 * drawn))


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    """Every move: the actor's own observation carries the card it draws and what a map
    or a reached goal shows, all hidden before the move."""
    return s[TO_MOVE] >= 0


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    """1 for each member of the winning team, else 0 (0 while playing)."""
    r = s[RESULT]
    if r == PLAYING:
        return 0.0
    if r == DIGGERS_WIN:
        return 1.0 if s[ROLE + j] == 0 else 0.0
    return 1.0 if s[ROLE + j] == 1 else 0.0


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal moves until the round ends (in place)."""
    out = np.empty(N_ACTIONS, dtype=np.int64)
    while s[TO_MOVE] >= 0:
        n = legal_actions(s, out)
        apply(s, out[rand_below(rng, n)])


@njit(cache=True)
def new_state(n_players: int, roles: np.ndarray, goals: np.ndarray, deck: np.ndarray) -> np.ndarray:
    """The round dealt: ``roles`` (1 saboteur) per seat, ``goals`` the goal card at each
    position, ``deck`` the 67 shuffled cards (hands dealt from the end, the rest the
    stock, drawn from its end)."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[NP] = n_players
    s[TO_MOVE] = 0
    s[RESULT] = PLAYING
    for g in range(3):
        s[GOAL_CARD + g] = goals[g]
        s[CELL + GOAL_CELLS[g]] = GOAL0 + g
    s[CELL + START_CELL] = START
    for q in range(n_players):
        s[ROLE + q] = roles[q]
    k = DECK_SIZE
    hs = HAND_SIZES[n_players]
    for q in range(n_players):
        for _ in range(hs):
            k -= 1
            s[HAND + q * N_TYPES + deck[k]] += 1
        s[HAND_N + q] = hs
    for i in range(k):
        s[STOCK + i] = deck[i]
    s[STOCK_N] = k
    compute_reach(s)
    return s


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    """Write seat ``j``'s view (layout ``V_*``) into ``v``."""
    v[:] = 0
    n_players = s[NP]
    v[V_SEAT] = j
    v[V_NP] = n_players
    v[V_TO_MOVE] = s[TO_MOVE]
    v[V_RESULT] = s[RESULT]
    v[V_STOCK_N] = s[STOCK_N]
    v[V_ROLE] = s[ROLE + j]
    for g in range(3):
        v[V_GOAL_REV + g] = s[GOAL_REV + g]
        known = s[GOAL_REV + g] != 0 or ((s[PEEKED + j] >> g) & 1) != 0
        v[V_GOAL_KNOWN + g] = s[GOAL_CARD + g] if known else -1
    for q in range(n_players):
        v[V_BROKEN + q] = s[BROKEN + q]
        v[V_PEEKED + q] = s[PEEKED + q]
        v[V_HAND_N + q] = s[HAND_N + q]
        v[V_DISC_N + q] = s[DISC_N + q]
    for t in range(N_TYPES):
        v[V_GONE + t] = s[GONE + t]
        v[V_HAND + t] = s[HAND + j * N_TYPES + t]
        v[V_DISC + t] = s[DISC + j * N_TYPES + t]
    for c in range(CELLS):
        v[V_CELL + c] = s[CELL + c]
        v[V_REACH + c] = s[REACH + c]


def _zobrist_table() -> np.ndarray:
    """Fixed random 63-bit keys, one per (view field, value + 1 < 128): XOR-only hashing
    (Zobrist 1970) behaves the same compiled and under ``NUMBA_DISABLE_JIT=1``."""
    gen = np.random.default_rng(0x5AB0_7E0E)
    return gen.integers(1, 1 << 63, size=VIEW_SIZE * 128, dtype=np.int64)


ZOBRIST = _zobrist_table()


@njit(cache=True)
def view_key(v: np.ndarray) -> int:
    """A 63-bit Zobrist hash of a view (every field's value lies in -1..126)."""
    h = 0
    for i in range(VIEW_SIZE):
        h ^= ZOBRIST[i * 128 + v[i] + 1]
    return h


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """:func:`view_key` of ``j``'s view: equal for states ``j`` cannot tell apart."""
    v = np.empty(VIEW_SIZE, dtype=np.int64)
    view(s, j, v)
    return view_key(v)


#: The six orders of the three goal cards.
GOAL_ORDERS = np.array([[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]],
                       dtype=np.int64)


@njit(cache=True)
def draw_goal_order(need: np.ndarray, rng: np.ndarray, s: np.ndarray) -> bool:
    """Write into ``s`` a goal order drawn uniformly among those with card ``need[g]`` at
    every goal ``g`` where ``need[g] >= 0``; False when no order has them."""
    fits_need = np.empty(6, dtype=np.int64)
    n_ok = 0
    for o in range(6):
        ok = True
        for g in range(3):
            if need[g] >= 0 and GOAL_ORDERS[o, g] != need[g]:
                ok = False
        if ok:
            fits_need[n_ok] = o
            n_ok += 1
    if n_ok == 0:
        return False
    o = fits_need[rand_below(rng, n_ok)]
    for g in range(3):
        s[GOAL_CARD + g] = GOAL_ORDERS[o, g]
    return True


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """Write into ``s`` a state drawn uniformly from those consistent with ``j``'s view.

    The other seats' roles are the role deck less ``j``'s card, shuffled and dealt (the
    spare unseen); the goal cards an order consistent with every goal ``j`` has seen
    (turned up, or through its own maps); every card ``j`` has not seen (not on the
    board, not played face up, not in its hand or its discards) shuffled into the other
    hands, the other seats' face-down discards and the stock, by their public sizes.
    Nothing else is known of them, so the draw is exactly uniform. (Views do not show
    the roles or the goals turned up at the round's end: no move is left to choose.)
    """
    n_players = v[V_NP]
    s[:] = 0
    s[NP] = n_players
    s[TO_MOVE] = v[V_TO_MOVE]
    s[RESULT] = v[V_RESULT]
    s[STOCK_N] = v[V_STOCK_N]
    # Roles.
    n_sab = SABOTEURS[n_players] - v[V_ROLE]
    n_cards = n_players  # the role deck less j's card
    for q in range(n_players):
        if q == j:
            s[ROLE + q] = v[V_ROLE]
            continue
        sab = 1 if rand_below(rng, n_cards) < n_sab else 0
        s[ROLE + q] = sab
        n_sab -= sab
        n_cards -= 1
    # Goals.
    if not draw_goal_order(v[V_GOAL_KNOWN:V_GOAL_KNOWN + 3], rng, s):
        return False
    for g in range(3):
        s[GOAL_REV + g] = v[V_GOAL_REV + g]
    # Public fields and j's own cards.
    for q in range(n_players):
        s[BROKEN + q] = v[V_BROKEN + q]
        s[PEEKED + q] = v[V_PEEKED + q]
        s[HAND_N + q] = v[V_HAND_N + q]
        s[DISC_N + q] = v[V_DISC_N + q]
    unseen = COUNTS.copy()
    for t in range(N_TYPES):
        s[GONE + t] = v[V_GONE + t]
        s[HAND + j * N_TYPES + t] = v[V_HAND + t]
        s[DISC + j * N_TYPES + t] = v[V_DISC + t]
        unseen[t] -= v[V_GONE + t] + v[V_HAND + t] + v[V_DISC + t]
    for c in range(CELLS):
        x = v[V_CELL + c]
        s[CELL + c] = x
        s[REACH + c] = v[V_REACH + c]
        if EMPTY < x < START:
            unseen[(x - 1) >> 1] -= 1
    # Deal the unseen cards.
    pool = np.empty(DECK_SIZE, dtype=np.int64)
    m = 0
    for t in range(N_TYPES):
        if unseen[t] < 0:
            return False
        for _ in range(unseen[t]):
            pool[m] = t
            m += 1
    need = v[V_STOCK_N]
    for q in range(n_players):
        if q != j:
            need += v[V_HAND_N + q] + v[V_DISC_N + q]
    if need != m:
        return False
    for i in range(m - 1, 0, -1):
        k = rand_below(rng, i + 1)
        x = pool[i]
        pool[i] = pool[k]
        pool[k] = x
    m = 0
    for i in range(v[V_STOCK_N]):
        s[STOCK + i] = pool[m]
        m += 1
    for q in range(n_players):
        if q == j:
            continue
        for _ in range(v[V_HAND_N + q]):
            s[HAND + q * N_TYPES + pool[m]] += 1
            m += 1
        for _ in range(v[V_DISC_N + q]):
            s[DISC + q * N_TYPES + pool[m]] += 1
            m += 1
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
