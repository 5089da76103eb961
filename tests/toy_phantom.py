"""Two tiny games for the sampled-search tests, written here so those tests do not depend
on any real game package: phantom tic-tac-toe (hidden stones, refused moves, sampled
determinizations whose opponent legal sets differ) and visible tic-tac-toe (perfect
information, for plain UCT). Each is a :class:`~spyglass.search.protocol.Kernel`, a
:class:`~spyglass.games.base.Game` and a cached :class:`SearchEntry`, as a real game's
package would provide them.

State: TURN (-1 when over), STONES0, STONES1, REF0, REF1 (squares each player was
refused), WINNER (-1 none, 0, 1, 2 draw), INV0, INV1 (refusals so far). View of seat j:
TURN, own stones, own refusals, opponent's stone count, opponent's refusals, WINNER.
The opponent sees only that a move was made and whether it was refused (keys 1 and 2;
key 0 is the protocol's UNSEEN).
"""

from __future__ import annotations

import sys

import numpy as np
from numba import njit

from spyglass.games.base import Game
from spyglass.rng import rand_below
from spyglass.search.protocol import Kernel, legal_actions_from
from spyglass.search.sampled import mo, pom, so, uct
from spyglass.search.sampled.entry import SearchEntry, flush_stale_caches, no_simultaneous

TURN, ST0, ST1, REF0, REF1, WINNER, INV0, INV1 = range(8)
STATE_SIZE = 8
V_TURN, V_OWN, V_REF, V_OPPN, V_OPPINV, V_WINNER = range(6)
VIEW_SIZE = 6
FULL = 0x1FF
LINES = np.array([0x7, 0x38, 0x1C0, 0x49, 0x92, 0x124, 0x111, 0x54], dtype=np.int64)


@njit(cache=True)
def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def nth_bit(m: int, i: int) -> int:
    for b in range(9):
        if (m >> b) & 1:
            if i == 0:
                return b
            i -= 1
    return -1


@njit(cache=True)
def has_line(m: int) -> bool:
    for q in range(LINES.shape[0]):
        if m & LINES[q] == LINES[q]:
            return True
    return False


@njit(cache=True)
def actor(s):
    return s[TURN]


@njit(cache=True)
def legal_mask(s):
    p = s[TURN]
    return FULL & ~(s[ST0 + p] | s[REF0 + p])


@njit(cache=True)
def n_legal(s):
    if s[TURN] < 0:
        return 0
    return popcount(legal_mask(s))


@njit(cache=True)
def legal_action(s, i):
    return nth_bit(legal_mask(s), i)


@njit(cache=True)
def apply(s, a):
    p = s[TURN]
    bit = 1 << a
    if s[ST0 + 1 - p] & bit:
        s[REF0 + p] |= bit
        s[INV0 + p] += 1
        return
    s[ST0 + p] |= bit
    if has_line(s[ST0 + p]):
        s[WINNER] = p
        s[TURN] = -1
    elif (s[ST0] | s[ST1]) == FULL:
        s[WINNER] = 2
        s[TURN] = -1
    else:
        s[TURN] = 1 - p


@njit(cache=True)
def observe(s, a, j):
    p = s[TURN]
    refused = 1 if s[ST0 + 1 - p] & (1 << a) else 0
    if j == p:
        return 2 * a + refused
    return 2 if refused else 1  # the opponent sees that a move was made and its answer


@njit(cache=True)
def move_reveals(s):
    return s[TURN] >= 0  # the actor learns whether its move was accepted


@njit(cache=True)
def is_terminal(s):
    return s[TURN] < 0


@njit(cache=True)
def reward(s, j):
    w = s[WINNER]
    if w == 2:
        return 0.5
    return 1.0 if w == j else 0.0


@njit(cache=True)
def playout(s, rng):
    while s[TURN] >= 0:
        apply(s, legal_action(s, rand_below(rng, n_legal(s))))


@njit(cache=True)
def view(s, j, v):
    v[V_TURN] = s[TURN]
    v[V_OWN] = s[ST0 + j]
    v[V_REF] = s[REF0 + j]
    v[V_OPPN] = popcount(s[ST0 + 1 - j])
    v[V_OPPINV] = s[INV0 + 1 - j]
    v[V_WINNER] = s[WINNER]


@njit(cache=True)
def sample(v, j, rng, s):
    own = v[V_OWN]
    ref = v[V_REF]
    opp = ref
    free = FULL & ~(own | ref)
    for _ in range(v[V_OPPN] - popcount(ref)):
        nf = popcount(free)
        if nf == 0:
            return False
        b = nth_bit(free, rand_below(rng, nf))
        opp |= 1 << b
        free &= ~(1 << b)
    if has_line(opp) and v[V_WINNER] != 1 - j:
        return False
    oref = 0
    pool = own
    for _ in range(v[V_OPPINV]):
        nf = popcount(pool)
        if nf == 0:
            return False
        b = nth_bit(pool, rand_below(rng, nf))
        oref |= 1 << b
        pool &= ~(1 << b)
    s[TURN] = v[V_TURN]
    s[ST0 + j] = own
    s[ST0 + 1 - j] = opp
    s[REF0 + j] = ref
    s[REF0 + 1 - j] = oref
    s[WINNER] = v[V_WINNER]
    s[INV0 + j] = popcount(ref)
    s[INV0 + 1 - j] = v[V_OPPINV]
    return True


@njit(cache=True)
def info_key(s, j):
    h = np.int64(j + 1)
    h = h * 1000003 + s[TURN]
    h = h * 1000003 + s[ST0 + j]
    h = h * 1000003 + s[REF0 + j]
    h = h * 1000003 + popcount(s[ST0 + 1 - j])
    h = h * 1000003 + s[INV0 + 1 - j]
    return h & 0x7FFFFFFFFFFFFFFF


KERNEL = Kernel(actor=actor, n_legal=n_legal, legal_action=legal_action,
                legal_actions=legal_actions_from(n_legal, legal_action), apply=apply,
                observe=observe, move_reveals=move_reveals, is_terminal=is_terminal,
                reward=reward, playout=playout, view=view, sample=sample, info_key=info_key)


@njit(cache=True)
def run_so(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return so.run(KERNEL, no_simultaneous, view, seat, n_act, size, root, data, fdata,
                  meta, xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_pom(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return pom.run(KERNEL, no_simultaneous, view, seat, n_act, size, root, data, fdata,
                  meta, xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_mo(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return mo.run(KERNEL, no_simultaneous, view, seat, n_act, size, root, data, fdata,
                  meta, xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def run_uct(state, n_act, root, data, fdata, meta, kind, c, n, rng, w):
    return uct.run(KERNEL, state, n_act, root, data, fdata, meta, kind, c, n, rng, w)


ENTRY = SearchEntry(so=run_so, pom=run_pom, mo=run_mo, uct=run_uct)
flush_stale_caches(ENTRY, (sys.modules[__name__],))


# --- visible tic-tac-toe: the same board with every stone seen -------------------


@njit(cache=True)
def v_legal_mask(s):
    return FULL & ~(s[ST0] | s[ST1])


@njit(cache=True)
def v_n_legal(s):
    if s[TURN] < 0:
        return 0
    return popcount(v_legal_mask(s))


@njit(cache=True)
def v_legal_action(s, i):
    return nth_bit(v_legal_mask(s), i)


@njit(cache=True)
def v_observe(s, a, j):
    return a


@njit(cache=True)
def v_playout(s, rng):
    while s[TURN] >= 0:
        apply(s, v_legal_action(s, rand_below(rng, v_n_legal(s))))


@njit(cache=True)
def v_move_reveals(s):
    return False


@njit(cache=True)
def v_view(s, j, v):
    v[:] = s


@njit(cache=True)
def v_sample(v, j, rng, s):
    s[:] = v
    return True


@njit(cache=True)
def v_info_key(s, j):
    return (s[ST0] << 9 | s[ST1]) * 3 + s[TURN] + 1


VISIBLE_KERNEL = Kernel(actor=actor, n_legal=v_n_legal, legal_action=v_legal_action,
                        legal_actions=legal_actions_from(v_n_legal, v_legal_action),
                        apply=apply, observe=v_observe, move_reveals=v_move_reveals,
                        is_terminal=is_terminal, reward=reward, playout=v_playout,
                        view=v_view, sample=v_sample, info_key=v_info_key)



@njit(cache=True)
def vis_run_so(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return so.run(VISIBLE_KERNEL, no_simultaneous, view, seat, n_act, size, root, data, fdata,
                  meta, xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def vis_run_pom(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return pom.run(VISIBLE_KERNEL, no_simultaneous, view, seat, n_act, size, root, data, fdata,
                  meta, xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def vis_run_mo(view, seat, n_act, size, root, data, fdata, meta, xs, kind, c, exp3, n, rng, w):
    return mo.run(VISIBLE_KERNEL, no_simultaneous, view, seat, n_act, size, root, data, fdata,
                  meta, xs, kind, c, exp3, n, rng, w)


@njit(cache=True)
def vis_run_uct(state, n_act, root, data, fdata, meta, kind, c, n, rng, w):
    return uct.run(VISIBLE_KERNEL, state, n_act, root, data, fdata, meta, kind, c, n, rng, w)


VISIBLE_ENTRY = SearchEntry(so=vis_run_so, pom=vis_run_pom, mo=vis_run_mo, uct=vis_run_uct)
flush_stale_caches(VISIBLE_ENTRY, (sys.modules[__name__],))


class ToyPhantom(Game):
    """Phantom tic-tac-toe (3,3,3) for tests."""

    name = "toyphantom"
    title = "Toy phantom tic-tac-toe"
    min_players = max_players = 2
    information = "imperfect"
    search_entry = ENTRY

    def __init__(self, n_players=None, **options):
        super().__init__(n_players, **options)
        self.kernel = KERNEL
        self.state_size = STATE_SIZE
        self.view_size = VIEW_SIZE
        self.n_actions = 9
        self.max_moves = 18  # 9 stones + at most 9 refusals

    def new_state(self, seed: int) -> np.ndarray:
        s = np.zeros(STATE_SIZE, dtype=np.int64)
        s[WINNER] = -1
        return s

    def action_text(self, action: int) -> str:
        return "abc"[action % 3] + str(action // 3 + 1)

    def view_text(self, view, seat):
        return str(list(view))

    def observation_text(self, obs, seat, actor):
        return str(obs)


class ToyTicTacToe(ToyPhantom):
    """Tic-tac-toe with every stone visible (perfect information)."""

    name = "toytictactoe"
    title = "Toy tic-tac-toe"
    information = "perfect"
    search_entry = VISIBLE_ENTRY

    def __init__(self, n_players=None, **options):
        super().__init__(n_players, **options)
        self.kernel = VISIBLE_KERNEL
        self.view_size = STATE_SIZE
        self.max_moves = 9
