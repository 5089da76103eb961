"""The rules of Cheat (Bitan & Kraus 2018, §4), once, as numba kernels over an int64 state.

Two players are dealt ``hand_size`` (8) cards each from a 52-card deck. The next card of
the shuffled deck is turned up: its rank is the *reference rank* (the "first claim" of
the paper) and the card stays out of play, face up. On a turn a player either

* **claims**: puts 1-4 of its cards face down on the pile and says they are all of the
  rank one above or one below the reference rank (K->A and A->K wrap); the claimed rank
  becomes the new reference. The claim (direction and count) is public, the cards are
  not: a claim whose cards are not all of the claimed rank is a *false claim* (a lie);
* **takes a card** from the top of the deck (only while the deck is not empty), or
* **calls cheat**, only right after the opponent's claim: the pile is turned up for both
  to see. If the last claim was false, the claimant takes the whole pile; otherwise the
  caller does.

Suits never matter in Cheat, so a card is its rank (0 = A ... 12 = K) and hands are
counts per rank. The first to empty its hand wins; after ``max_rounds`` moves the
player with fewer cards wins (equal counts: a draw, ½ each).

Choices the paper leaves open (documented in :mod:`spyglass.games.cheat.game` too):

* a *round* is one move (a claim, a Take-a-Card or a Call-Cheat);
* calling cheat is the caller's move; who moves next is the option ``after_call``
  (``claimant``: the claimant, so the call replaces the caller's turn (default);
  ``caller``: the caller moves again, so the call does not cost the turn; ``taker``:
  whoever took the pile; ``other``: the one who did not);
* after a call the reference rank stays the last claimed rank;
* Take-a-Card is illegal once the deck is empty (a player can always claim);
* a claim that empties the claimant's hand must be checked: the opponent's only legal
  move is Call-Cheat. A true claim wins; a false one takes the pile back and play goes on;
* the round limit is checked after each move, except that a pending check (above) is
  played first (hence ``max_moves = max_rounds + 1``).

Action ids: ``CALL`` (0), ``TAKE`` (1), and a claim ``2 + (dir * 4 + k - 1) * 13**4 +
code``: ``dir`` 0 = one rank up, 1 = one rank down, ``k`` cards, ``code`` the sorted
ranks placed ``r1 <= ... <= rk`` as base-13 digits, ``r1`` most significant (unused
digits 0). Legal claims are listed in increasing id order by unranking the multisets of
the hand (lexicographic order), so no list is ever built.

State layout (``STATE_SIZE`` int64 values; ``p`` a seat, ``r`` a rank):

===========  ======================================================================
HAND+13p+r   cards of rank r in p's hand
PBY+13p+r    cards of rank r p has put on the pile since the last call
KNOWN+13j+r  what seat j knows of its opponent: at least this many cards of rank r are
             in the opponent's hand or among its pile cards since the last call (the
             cards it took from a revealed pile, less those later revealed again)
LASTC+r      the cards of the last claim (its rank counts)
DECK..       the deck's ranks, top card at DECK + DECK_N - 1
scalars      DECK_N, TO_MOVE, RESULT, ROUND, REF (reference rank), STARTER (the face-up
             card's rank), LAST_K, LAST_BY (-1 when the pile is empty), PREV_KIND (kind
             of the last move: 0 none, 1 claim, 2 take, 3 call), FORCED (a hand-emptying
             claim must be checked), CLAIMED+p (ranks p claimed since the last call, a
             13-bit mask), CAUGHT+p (ranks p was caught lying on), CAUGHT_N+p,
             MAX_ROUNDS, AFTER_CALL, LIES+p / CALLS+p / CALLS_OK+p (statistics for
             reports: false claims, calls, successful calls), REPEAT (the last claim
             named a rank its claimant had already claimed since the last call)
===========  ======================================================================

View layout (seat ``j``'s information state, ``VIEW_SIZE`` values): j's hand (13), j's
pile cards since the last call (13), j's knowledge of the opponent (13), the opponent's
knowledge of j (13, public: it follows from the reveals and j's own moves), j's cards
of the last claim if j made it (13), then SEAT, TO_MOVE, RESULT, ROUND, REF, STARTER,
LAST_K, LAST_BY, PREV_KIND, FORCED, CLAIMED (2), CAUGHT (2), CAUGHT_N (2), MAX_ROUNDS,
AFTER_CALL, DECK_N, the opponent's hand size and pile-card count, CALLS (2), CALLS_OK (2),
j's own LIES and REPEAT. It leaves out exactly what j cannot know: the opponent's cards, the
ranks it put on the pile since the last call, and the order of the deck.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng import rand_below
from spyglass.search.protocol import Kernel

N_RANKS = 13
RANK_NAMES = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
MAX_CLAIM = 4
BLOCK = 13 ** 4  # ids per (direction, count) block
CALL, TAKE, CLAIM0 = 0, 1, 2
N_ACTIONS = CLAIM0 + 8 * BLOCK

# Kinds of the last move.
K_NONE, K_CLAIM, K_TAKE, K_CALL = 0, 1, 2, 3
# Who moves after a call (option ``after_call``).
AFTER_CALL_RULES = ("claimant", "caller", "taker", "other")

# State fields.
HAND, PBY, KNOWN, LASTC, DECK = 0, 26, 52, 78, 91
DECK_N, TO_MOVE, RESULT, ROUND, REF, STARTER, LAST_K, LAST_BY, PREV_KIND, FORCED = range(
    143, 153)
CLAIMED, CAUGHT, CAUGHT_N = 153, 155, 157
MAX_ROUNDS, AFTER_CALL = 159, 160
LIES, CALLS, CALLS_OK = 161, 163, 165
REPEAT = 167
STATE_SIZE = 168

# View fields.
V_HAND, V_PILE, V_KNOWN, V_THEY_KNOW, V_LASTC = 0, 13, 26, 39, 52
(V_SEAT, V_TO_MOVE, V_RESULT, V_ROUND, V_REF, V_STARTER, V_LAST_K, V_LAST_BY, V_PREV_KIND,
 V_FORCED) = range(65, 75)
V_CLAIMED, V_CAUGHT, V_CAUGHT_N = 75, 77, 79
V_MAX_ROUNDS, V_AFTER_CALL, V_DECK_N, V_OPP_HAND, V_OPP_PILE = range(81, 86)
V_CALLS, V_CALLS_OK, V_LIES, V_REPEAT = 86, 88, 90, 91
VIEW_SIZE = 92

PLAYING, DRAW = -1, 2

# Observation keys (never 0 = UNSEEN: every move is seen by both players).
OBS_CLAIM_OWN = 1                  # + action id
OBS_CLAIM_OPP = 1 << 20            # + dir * 4 + k - 1
OBS_TAKE_OWN = 2 << 20             # + rank drawn
OBS_TAKE_OPP = 3 << 20
OBS_CALL = 1 << 56                 # | truth << 52 | pile rank counts, 3 bits a rank


def _hash_table() -> np.ndarray:
    """Fixed random 63-bit keys, two bytes of every view field (XOR-only hashing, so it
    is the same compiled and under ``NUMBA_DISABLE_JIT=1``)."""
    gen = np.random.default_rng(0xC4EA7)
    return gen.integers(1, 1 << 63, size=(VIEW_SIZE, 2, 256), dtype=np.int64)


ZOBRIST = _hash_table()


@njit(cache=True, inline="always")
def hand_size(s: np.ndarray, p: int) -> int:
    t = 0
    for r in range(N_RANKS):
        t += s[HAND + 13 * p + r]
    return t


@njit(cache=True, inline="always")
def pile_size(s: np.ndarray, p: int) -> int:
    t = 0
    for r in range(N_RANKS):
        t += s[PBY + 13 * p + r]
    return t


@njit(cache=True, inline="always")
def claimed_rank(ref: int, direction: int) -> int:
    """The rank a claim in ``direction`` (0 up, 1 down) names after reference ``ref``."""
    return (ref + 1) % N_RANKS if direction == 0 else (ref + N_RANKS - 1) % N_RANKS


@njit(cache=True)
def new_state(seed_order: np.ndarray, hand: int, first: int, max_rounds: int,
              after_call: int) -> np.ndarray:
    """The deal: ``seed_order`` is the shuffled deck (52 ranks, drawn from the top = the
    end); each player gets ``hand`` cards alternately, then the starter card is turned."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    n = 52
    for i in range(2 * hand):
        n -= 1
        s[HAND + 13 * (i % 2) + seed_order[n]] += 1
    n -= 1
    s[STARTER] = seed_order[n]
    s[REF] = seed_order[n]
    for i in range(n):
        s[DECK + i] = seed_order[i]
    s[DECK_N] = n
    s[TO_MOVE] = first
    s[RESULT] = PLAYING
    s[LAST_BY] = -1
    s[MAX_ROUNDS] = max_rounds
    s[AFTER_CALL] = after_call
    return s


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True, inline="always")
def can_call(s: np.ndarray) -> bool:
    p = s[TO_MOVE]
    return p >= 0 and s[PREV_KIND] == K_CLAIM and s[LAST_BY] == 1 - p


@njit(cache=True, inline="always")
def can_take(s: np.ndarray) -> bool:
    return s[TO_MOVE] >= 0 and s[FORCED] == 0 and s[DECK_N] > 0


@njit(cache=True, inline="always")
def _ways(s: np.ndarray, base: int, w: np.ndarray) -> None:
    """``w[r, t]``: multisets of ``t`` cards (t <= 4) from ranks ``r..12`` of the counts
    at ``s[base:base + 13]``."""
    for t in range(MAX_CLAIM + 1):
        w[N_RANKS, t] = 1 if t == 0 else 0
    for r in range(N_RANKS - 1, -1, -1):
        c = s[base + r]
        for t in range(MAX_CLAIM + 1):
            tot = 0
            for m in range(min(c, t) + 1):
                tot += w[r + 1, t - m]
            w[r, t] = tot


@njit(cache=True, inline="always")
def _n_claims(w: np.ndarray) -> int:
    t = 0
    for k in range(1, MAX_CLAIM + 1):
        t += w[0, k]
    return t


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    p = s[TO_MOVE]
    if p < 0:
        return 0
    if s[FORCED]:
        return 1
    w = np.empty((N_RANKS + 1, MAX_CLAIM + 1), dtype=np.int64)
    _ways(s, HAND + 13 * p, w)
    return (1 if can_call(s) else 0) + (1 if can_take(s) else 0) + 2 * _n_claims(w)


@njit(cache=True, inline="always")
def _unrank(s: np.ndarray, base: int, w: np.ndarray, k: int, i: int) -> int:
    """The code (see the module docstring) of the ``i``-th ``k``-multiset of the counts
    at ``s[base:]`` in lexicographic order."""
    code = 0
    pos = 0
    t = k
    for r in range(N_RANKS):
        if t == 0:
            break
        c = s[base + r]
        for m in range(min(c, t), 0, -1):
            cnt = w[r + 1, t - m]
            if i < cnt:
                for _ in range(m):
                    code += r * 13 ** (3 - pos)
                    pos += 1
                t -= m
                break
            i -= cnt
    return code


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    if s[FORCED]:
        return CALL
    if can_call(s):
        if i == 0:
            return CALL
        i -= 1
    if can_take(s):
        if i == 0:
            return TAKE
        i -= 1
    w = np.empty((N_RANKS + 1, MAX_CLAIM + 1), dtype=np.int64)
    base = HAND + 13 * s[TO_MOVE]
    _ways(s, base, w)
    for d in range(2):
        for k in range(1, MAX_CLAIM + 1):
            n = w[0, k]
            if i < n:
                return CLAIM0 + (d * 4 + k - 1) * BLOCK + _unrank(s, base, w, k, i)
            i -= n
    return -1


@njit(cache=True, inline="always")
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal actions into ``out`` in :func:`legal_action`'s order; return how
    many (the claim counts are computed once, not once per action)."""
    p = s[TO_MOVE]
    if p < 0:
        return 0
    if s[FORCED]:
        out[0] = CALL
        return 1
    n = 0
    if can_call(s):
        out[n] = CALL
        n += 1
    if can_take(s):
        out[n] = TAKE
        n += 1
    w = np.empty((N_RANKS + 1, MAX_CLAIM + 1), dtype=np.int64)
    base = HAND + 13 * p
    _ways(s, base, w)
    for d in range(2):
        for k in range(1, MAX_CLAIM + 1):
            for i in range(w[0, k]):
                out[n] = CLAIM0 + (d * 4 + k - 1) * BLOCK + _unrank(s, base, w, k, i)
                n += 1
    return n


@njit(cache=True, inline="always")
def decode_claim(a: int) -> tuple:
    """``(direction, k, code)`` of claim id ``a``."""
    b, code = divmod(a - CLAIM0, BLOCK)
    return b // 4, b % 4 + 1, code


@njit(cache=True, inline="always")
def claim_digit(code: int, pos: int) -> int:
    return (code // 13 ** (3 - pos)) % 13


@njit(cache=True, inline="always")
def _finish_by_count(s: np.ndarray) -> None:
    h0 = hand_size(s, 0)
    h1 = hand_size(s, 1)
    s[RESULT] = 0 if h0 < h1 else 1 if h1 < h0 else DRAW
    s[TO_MOVE] = -1


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """The actor plays ``a`` (a legal action) in place."""
    p = s[TO_MOVE]
    o = 1 - p
    nxt = o
    if a == CALL:
        claimant = s[LAST_BY]
        ref = s[REF]
        truth = s[LASTC + ref] == s[LAST_K]
        taker = p if truth else claimant
        s[CALLS + p] += 1
        if not truth:
            s[CALLS_OK + p] += 1
            s[CAUGHT + claimant] |= np.int64(1) << ref
            s[CAUGHT_N + claimant] += 1
        for j in range(2):
            q = 1 - j
            for r in range(N_RANKS):
                kn = s[KNOWN + 13 * j + r] - s[PBY + 13 * q + r]
                s[KNOWN + 13 * j + r] = kn if kn > 0 else 0
        for r in range(N_RANKS):
            tot = s[PBY + r] + s[PBY + 13 + r]
            s[HAND + 13 * taker + r] += tot
            s[KNOWN + 13 * (1 - taker) + r] += tot
            s[PBY + r] = 0
            s[PBY + 13 + r] = 0
            s[LASTC + r] = 0
        s[LAST_K] = 0
        s[LAST_BY] = -1
        s[CLAIMED] = 0
        s[CLAIMED + 1] = 0
        s[REPEAT] = 0
        s[PREV_KIND] = K_CALL
        forced = s[FORCED]
        s[FORCED] = 0
        s[ROUND] += 1
        if forced and truth:
            s[RESULT] = claimant
            s[TO_MOVE] = -1
            return
        rule = s[AFTER_CALL]
        if rule == 0:
            nxt = claimant
        elif rule == 1:
            nxt = p
        elif rule == 2:
            nxt = taker
        else:
            nxt = 1 - taker
    elif a == TAKE:
        s[DECK_N] -= 1
        s[HAND + 13 * p + s[DECK + s[DECK_N]]] += 1
        s[PREV_KIND] = K_TAKE
        s[ROUND] += 1
    else:
        d, k, code = decode_claim(a)
        ref = claimed_rank(s[REF], d)
        for r in range(N_RANKS):
            s[LASTC + r] = 0
        lie = False
        for pos in range(k):
            r = claim_digit(code, pos)
            s[HAND + 13 * p + r] -= 1
            s[PBY + 13 * p + r] += 1
            s[LASTC + r] += 1
            if r != ref:
                lie = True
        if lie:
            s[LIES + p] += 1
        s[LAST_K] = k
        s[LAST_BY] = p
        s[REF] = ref
        s[REPEAT] = 1 if (s[CLAIMED + p] >> ref) & 1 else 0
        s[CLAIMED + p] |= np.int64(1) << ref
        s[PREV_KIND] = K_CLAIM
        s[ROUND] += 1
        if hand_size(s, p) == 0:
            s[FORCED] = 1
    if s[FORCED] == 0 and s[ROUND] >= s[MAX_ROUNDS]:
        _finish_by_count(s)
        return
    s[TO_MOVE] = nxt


@njit(cache=True, inline="always")
def last_claim_true(s: np.ndarray) -> bool:
    """Whether the cards of the last claim are all of the claimed rank."""
    return s[LAST_K] > 0 and s[LASTC + s[REF]] == s[LAST_K]


@njit(cache=True, inline="always")
def _pile_code(s: np.ndarray) -> int:
    code = 0
    for r in range(N_RANKS):
        code |= (s[PBY + r] + s[PBY + 13 + r]) << (3 * r)
    return code


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    """Seat ``j``'s observation key of the actor playing ``a`` (call before ``apply``):
    a claim's direction and count (and, for the actor, its cards); the card drawn, for
    the one who draws it; a call's outcome and the revealed pile, for both."""
    p = s[TO_MOVE]
    if a == CALL:
        truth = 1 if last_claim_true(s) else 0
        return OBS_CALL | (truth << 52) | _pile_code(s)
    if a == TAKE:
        if j == p:
            return OBS_TAKE_OWN + s[DECK + s[DECK_N] - 1]
        return OBS_TAKE_OPP
    if j == p:
        return OBS_CLAIM_OWN + a
    d, k, _ = decode_claim(a)
    return OBS_CLAIM_OPP + d * 4 + k - 1


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    """A draw shows the actor its card and a call shows the pile, so a search keeps the
    choice and what it revealed as two levels of the actor's tree."""
    return s[TO_MOVE] >= 0


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    r = s[RESULT]
    if r == DRAW:
        return 0.5
    return 1.0 if r == j else 0.0


@njit(cache=True, inline="always")
def random_action(s: np.ndarray, rng: np.ndarray) -> int:
    return legal_action(s, rand_below(rng, n_legal(s)))


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal moves until the game ends (in place)."""
    while s[TO_MOVE] >= 0:
        apply(s, random_action(s, rng))


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    """Write seat ``j``'s view (layout in the module docstring) into ``v``."""
    o = 1 - j
    mine = s[LAST_BY] == j
    for r in range(N_RANKS):
        v[V_HAND + r] = s[HAND + 13 * j + r]
        v[V_PILE + r] = s[PBY + 13 * j + r]
        v[V_KNOWN + r] = s[KNOWN + 13 * j + r]
        v[V_THEY_KNOW + r] = s[KNOWN + 13 * o + r]
        v[V_LASTC + r] = s[LASTC + r] if mine else 0
    v[V_SEAT] = j
    v[V_TO_MOVE] = s[TO_MOVE]
    v[V_RESULT] = s[RESULT]
    v[V_ROUND] = s[ROUND]
    v[V_REF] = s[REF]
    v[V_STARTER] = s[STARTER]
    v[V_LAST_K] = s[LAST_K]
    v[V_LAST_BY] = s[LAST_BY]
    v[V_PREV_KIND] = s[PREV_KIND]
    v[V_FORCED] = s[FORCED]
    for q in range(2):
        v[V_CLAIMED + q] = s[CLAIMED + q]
        v[V_CAUGHT + q] = s[CAUGHT + q]
        v[V_CAUGHT_N + q] = s[CAUGHT_N + q]
        v[V_CALLS + q] = s[CALLS + q]
        v[V_CALLS_OK + q] = s[CALLS_OK + q]
    v[V_MAX_ROUNDS] = s[MAX_ROUNDS]
    v[V_AFTER_CALL] = s[AFTER_CALL]
    v[V_DECK_N] = s[DECK_N]
    v[V_OPP_HAND] = hand_size(s, o)
    v[V_OPP_PILE] = pile_size(s, o)
    v[V_LIES] = s[LIES + j]
    v[V_REPEAT] = s[REPEAT]


@njit(cache=True)
def view_key(v: np.ndarray) -> int:
    """A 63-bit hash of a view (XOR of per-field, per-byte random keys)."""
    h = 0
    for i in range(VIEW_SIZE):
        x = v[i] + 1
        h ^= ZOBRIST[i, 0, x & 255] ^ ZOBRIST[i, 1, (x >> 8) & 255]
    return h


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    v = np.empty(VIEW_SIZE, dtype=np.int64)
    view(s, j, v)
    return view_key(v)


@njit(cache=True, inline="always")
def _draw_from(counts: np.ndarray, total: int, rng: np.ndarray) -> int:
    """Remove one card uniformly from the rank counts (``total`` cards) and return its rank."""
    x = rand_below(rng, total)
    for r in range(N_RANKS):
        if x < counts[r]:
            counts[r] -= 1
            return r
        x -= counts[r]
    return -1


SAMPLE_TRIES = 200


@njit(cache=True)
def sample_claim(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray, truth: int) -> bool:
    """:func:`sample` with the opponent's last claim forced true (``truth`` 1) or false
    (0); -1 leaves it free. Returns False when that is impossible or was not found in
    ``SAMPLE_TRIES`` draws (the semi-determinized states of Bitan & Kraus 2018, §3)."""
    o = 1 - j
    unseen = np.empty(N_RANKS, dtype=np.int64)
    n_unseen = 0
    for r in range(N_RANKS):
        u = 4 - v[V_HAND + r] - v[V_PILE + r] - (1 if v[V_STARTER] == r else 0)
        if u < v[V_KNOWN + r]:
            return False
        unseen[r] = u
        n_unseen += u
    opp_hand = v[V_OPP_HAND]
    opp_pile = v[V_OPP_PILE]
    total = opp_hand + opp_pile
    n_known = 0
    for r in range(N_RANKS):
        n_known += v[V_KNOWN + r]
    if total < n_known or total + v[V_DECK_N] != n_unseen:
        return False
    ref = v[V_REF]
    last_k = v[V_LAST_K]
    theirs = v[V_LAST_BY] == o and last_k > 0
    if not theirs:
        truth = -1
    if truth == 1 and unseen[ref] < last_k:
        return False
    rest = np.empty(N_RANKS, dtype=np.int64)
    comb = np.empty(N_RANKS, dtype=np.int64)
    pick = np.empty(N_RANKS, dtype=np.int64)
    lastc = np.zeros(N_RANKS, dtype=np.int64)
    ok = False
    for _ in range(SAMPLE_TRIES):
        # The opponent's cards (hand and pile since the last call): what j knows they
        # hold, the true claim's cards when forced, then uniform draws from the rest.
        n_rest = 0
        n_comb = 0
        for r in range(N_RANKS):
            c = v[V_KNOWN + r]
            if truth == 1 and r == ref and c < last_k:
                c = last_k
            comb[r] = c
            n_comb += c
            rest[r] = unseen[r] - c
            n_rest += rest[r]
        if n_comb > total:
            return False
        while n_comb < total:
            comb[_draw_from(rest, n_rest, rng)] += 1
            n_rest -= 1
            n_comb += 1
        # The last claim's cards, then the opponent's other pile cards.
        for r in range(N_RANKS):
            lastc[r] = 0
            pick[r] = comb[r]
        left = total
        if theirs:
            if truth == 1:
                lastc[ref] = last_k
                pick[ref] -= last_k
                left -= last_k
            else:
                for _ in range(last_k):
                    lastc[_draw_from(pick, left, rng)] += 1
                    left -= 1
                if truth == 0 and lastc[ref] == last_k:
                    continue
        for r in range(N_RANKS):
            s[PBY + 13 * o + r] = lastc[r]
        for _ in range(opp_pile - (last_k if theirs else 0)):
            s[PBY + 13 * o + _draw_from(pick, left, rng)] += 1
            left -= 1
        for r in range(N_RANKS):
            s[HAND + 13 * o + r] = pick[r]
        ok = True
        break
    if not ok:
        return False
    # The deck: the remaining unseen cards in random order.
    n = 0
    while n_rest > 0:
        s[DECK + n] = _draw_from(rest, n_rest, rng)
        n_rest -= 1
        n += 1
    for i in range(n, 52):
        s[DECK + i] = 0
    for r in range(N_RANKS):
        s[HAND + 13 * j + r] = v[V_HAND + r]
        s[PBY + 13 * j + r] = v[V_PILE + r]
        s[KNOWN + 13 * j + r] = v[V_KNOWN + r]
        s[KNOWN + 13 * o + r] = v[V_THEY_KNOW + r]
        s[LASTC + r] = lastc[r] if theirs else v[V_LASTC + r]
    s[DECK_N] = v[V_DECK_N]
    s[TO_MOVE] = v[V_TO_MOVE]
    s[RESULT] = v[V_RESULT]
    s[ROUND] = v[V_ROUND]
    s[REF] = v[V_REF]
    s[STARTER] = v[V_STARTER]
    s[LAST_K] = v[V_LAST_K]
    s[LAST_BY] = v[V_LAST_BY]
    s[PREV_KIND] = v[V_PREV_KIND]
    s[FORCED] = v[V_FORCED]
    for q in range(2):
        s[CLAIMED + q] = v[V_CLAIMED + q]
        s[CAUGHT + q] = v[V_CAUGHT + q]
        s[CAUGHT_N + q] = v[V_CAUGHT_N + q]
        s[CALLS + q] = v[V_CALLS + q]
        s[CALLS_OK + q] = v[V_CALLS_OK + q]
    s[MAX_ROUNDS] = v[V_MAX_ROUNDS]
    s[AFTER_CALL] = v[V_AFTER_CALL]
    s[LIES + j] = v[V_LIES]
    s[REPEAT] = v[V_REPEAT]
    # The opponent's lie count is hidden; a determinization gives it the claims that
    # are false in the sample so far (statistics only, no rule reads it).
    s[LIES + o] = 1 if theirs and lastc[ref] != last_k else 0
    return True


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """Write into ``s`` a state consistent with seat ``j``'s view ``v``.

    Consistent means: every public field and j's own cards as in ``v``; the opponent
    holds (hand plus its pile cards since the last call) the right number of cards,
    including at least ``KNOWN`` of each rank; the unseen cards (not j's, not the
    starter) are split between the opponent and the deck. The opponent's extra cards
    are drawn uniformly from the unseen ones beyond ``KNOWN``, its pile cards (the last
    claim's first) uniformly from its holding, and the deck is shuffled. (The truth of
    the opponent's claims is left free: lies are legal, so a claim constrains nothing.)
    """
    return sample_claim(v, j, rng, s, -1)


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
