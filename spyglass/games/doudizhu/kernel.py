"""The rules of Dou Di Zhu, once, as numba-compiled kernels over a small int64 state.

Whitehouse 2014, §4.2.1 and Table 4.1, with OpenSpiel's ``dou_dizhu`` (Lanctot et al.
2019) where the thesis leaves a rule open. Every choice:

* **Cards.** 54: four each of 3 4 5 6 7 8 9 T J Q K A 2 (low to high) and a black and a
  red joker (above the 2, black below red). Suits never matter, so a hand is a count per
  rank (ranks 0..14, ``tables.RANK_CHARS``).
* **Deal.** A shuffle: 17 cards to each seat and 3 to the kitty. Without the auction
  (``F_BIDDING`` off, the thesis's setting: "the bidding phase is omitted ... assigning
  an arbitrary player as the Landlord") seat 0 is the landlord, takes the kitty (20
  cards) and leads; the kitty's three cards are shown to everyone (as in the standard
  game and OpenSpiel). The thesis's determinizations reassign "all hidden cards" among
  the opponents, which does not say whether the kitty is known; showing it is the
  standard rule.
* **Auction** (``F_BIDDING`` on; OpenSpiel's): the deal also turns one of the 51 dealt
  cards face up, uniformly; its holder bids first and its rank is public. In turn each
  player passes or bids higher than the bid so far (1, 2, 3). A bid of 3, or two passes
  after a bid, ends the auction: the last bidder is the landlord, takes the (now shown)
  kitty and leads. Three passes with no bid end the game with no landlord (no redeal,
  as in OpenSpiel): everyone's reward is ½.
* **Moves** (Table 4.1): solo; pair; trio; trio + a solo or a pair kicker; chains of 5+
  solos, 3+ pairs, 2+ trios ("airplanes"; 2s and jokers never in a chain), airplanes with
  one solo kicker per trio or one pair kicker per trio; four of a kind with two solo or
  two pair kickers (the thesis's "quadplex"; ``F_FOUR_WITH_TWO``, OpenSpiel has no such
  category); bomb (four of a kind); rocket (both jokers, the thesis's "nuke"). Kickers
  never share a rank with the trios/quad they ride on. Solo kickers of an airplane may
  repeat a rank up to three times (OpenSpiel's rule); a quadplex's two kickers differ
  in rank (the thesis: "two kickers of differing rank"), as do pair kickers; the two
  jokers are never kickers together. A trio, bomb or quad's cards may come from a rank
  of four (breaking a bomb is allowed).
* **Following.** The leader of a round plays any move. Each next player passes or plays
  the same category (same chain length, same kicker kind and count) with a higher
  lowest rank; a bomb beats any non-bomb and a lower bomb; the rocket beats everything.
  When the two others pass in a row, the last player to play leads a new round. The
  first player out of cards wins; the two peasants win or lose together.
* **Base move, then kickers** (thesis §4.2.1, after Childs et al.): a move with kickers
  is chosen as a base move (``TRIO_SOLO`` "333 + a solo", ...) and then one kicker per
  action (``KICK_SOLO``/``KICK_PAIR``) by the same player, in non-decreasing rank order
  (increasing where ranks must differ) so each kicker set has exactly one order; a base
  move or kicker is legal only if the move can still be completed. The ids are in
  :mod:`.tables`. OpenSpiel's flat actions are complete moves; the two agree move for
  move (``tests/test_doudizhu_openspiel.py``) except that OpenSpiel never offers a chain
  whose lowest rank the player holds four of (we do: it is a legal play), and OpenSpiel
  lets a bomb follow the rocket (we do not: "no move can follow a Nuke", thesis §4.2.1).
* **Reward.** 1 for each player of the winning side, 0 for the others; ½ each when an
  auction ends with no landlord. OpenSpiel's stake returns (bid × 2^(bombs + spring))
  are ``DouDiZhu.stake_returns`` (records and the cross-check), not the search reward.

State layout (``STATE_SIZE`` int64 values): the public scalars ``TO_MOVE`` (-1 when
over) .. ``PLAYS + 2``, then ``HAND + 15 p + r`` (p's count of rank r), ``PLAYED + 15 p
+ r`` (what p has played), ``KITTY + r`` (hidden until the landlord is known), then
the actor's legal actions once computed (``CACHE_N``, ``CACHE``; never part of a view). The
round: ``LAST_ACTION`` (base id of the play to beat, -1 when leading), ``LAST_PLAYER``,
``N_PASSES``. Kickers due: ``K_LEFT``, ``K_ACTION`` (their base move), ``K_LAST`` (rank
of the last kicker, -1), ``K_LASTN`` (how many of it). The auction: ``BID``,
``FIRST_BIDDER``, ``FACEUP`` (-1 without the auction). The stake: ``BOMBS`` (bombs and
rockets played), ``PLAYS + p`` (moves p has played).

View: the public scalars at the same indices, then ``V_SEAT``, ``V_SIZE + p`` (hand
sizes), ``V_HAND + r`` (own hand), ``V_PLAYED + 15 p + r``, ``V_KITTY + r`` (zeros until
shown). Every move is public: the observation key is ``1 + action``, and the move that
ends the auction also shows the kitty (``+ N_ACTIONS * (1 + kitty code)``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.doudizhu.tables import (
    A_CAT,
    A_HEAD,
    A_KCAP,
    A_KKIND,
    A_LEN,
    A_NK,
    A_WIDTH,
    BID1,
    BLACK_JOKER,
    BOMB,
    FIRST,
    K_PAIR,
    KICK_PAIR0,
    KICK_SOLO,
    KICK_SOLO0,
    LIMIT,
    N_ACTIONS,
    N_BASE,
    N_RANKS,
    PASS,
    QUAD_SOLO,
    RED_JOKER,
    ROCKET,
    TWO,
)
from spyglass.rng import next_u64, rand_below

N_PLAYERS = 3
N_CARDS = 54
BIDDING, PLAYING, OVER = 0, 1, 2
F_BIDDING = 1
F_FOUR_WITH_TWO = 2

(TO_MOVE, PHASE, LANDLORD, WINNER, LAST_ACTION, LAST_PLAYER, N_PASSES, K_LEFT, K_ACTION,
 K_LAST, K_LASTN, BID, FIRST_BIDDER, FACEUP, BOMBS, FLAGS, PLAYS) = range(17)
N_PUBLIC = PLAYS + 3
HAND = N_PUBLIC
PLAYED = HAND + 3 * N_RANKS
KITTY = PLAYED + 3 * N_RANKS
#: The actor's legal actions, computed once per state (searches ask for them one by
#: one): ``CACHE_N`` is 1 + their number, 0 when stale; the ids follow from ``CACHE``.
CACHE_N = KITTY + N_RANKS
CACHE = CACHE_N + 1
MAX_LEGAL = N_BASE + 1
#: The categories of base moves (solo .. four with two pairs), in id order.
N_BASE_CATS = KICK_SOLO
STATE_SIZE = CACHE + MAX_LEGAL

V_SEAT = N_PUBLIC
V_SIZE = V_SEAT + 1
V_HAND = V_SIZE + 3
V_PLAYED = V_HAND + N_RANKS
V_KITTY = V_PLAYED + 3 * N_RANKS
VIEW_SIZE = V_KITTY + N_RANKS

#: Uniform deals ``sample`` tries before it draws exactly by counting.
SAMPLE_TRIES = 24


# --- dealing --------------------------------------------------------------------------


@njit(cache=True)
def new_state(rng: np.ndarray, flags: int) -> np.ndarray:
    """A shuffled deal (17 each, 3 in the kitty) and, with the auction, a face-up card."""
    deck = np.empty(N_CARDS, dtype=np.int64)
    i = 0
    for r in range(N_RANKS):
        for _ in range(LIMIT[r]):
            deck[i] = r
            i += 1
    for i in range(N_CARDS - 1, 0, -1):
        k = rand_below(rng, i + 1)
        t = deck[i]
        deck[i] = deck[k]
        deck[k] = t
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    for i in range(51):
        s[HAND + N_RANKS * (i % 3) + deck[i]] += 1
    for i in range(51, N_CARDS):
        s[KITTY + deck[i]] += 1
    s[FLAGS] = flags
    s[WINNER] = -1
    s[LAST_ACTION] = -1
    s[LAST_PLAYER] = -1
    s[K_LAST] = -1
    if flags & F_BIDDING:
        pos = rand_below(rng, 51)
        s[FIRST_BIDDER] = pos % 3
        s[FACEUP] = deck[pos]
        s[PHASE] = BIDDING
        s[LANDLORD] = -1
        s[TO_MOVE] = pos % 3
    else:
        s[FIRST_BIDDER] = -1
        s[FACEUP] = -1
        _start_play(s, 0)
    return s


@njit(cache=True)
def from_hands(hands: np.ndarray, kitty: np.ndarray, flags: int, first_bidder: int,
               faceup: int) -> np.ndarray:
    """The starting state of a given deal (``hands[p, r]``: 17 cards each before the
    kitty; ``kitty[r]``); with the auction, its first bidder and face-up rank."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    for p in range(N_PLAYERS):
        for r in range(N_RANKS):
            s[HAND + N_RANKS * p + r] = hands[p, r]
    for r in range(N_RANKS):
        s[KITTY + r] = kitty[r]
    s[FLAGS] = flags
    s[WINNER] = -1
    s[LAST_ACTION] = -1
    s[LAST_PLAYER] = -1
    s[K_LAST] = -1
    if flags & F_BIDDING:
        s[FIRST_BIDDER] = first_bidder
        s[FACEUP] = faceup
        s[PHASE] = BIDDING
        s[LANDLORD] = -1
        s[TO_MOVE] = first_bidder
    else:
        s[FIRST_BIDDER] = -1
        s[FACEUP] = -1
        _start_play(s, 0)
    return s


@njit(cache=True, inline="always")
def _start_play(s: np.ndarray, landlord: int) -> None:
    for r in range(N_RANKS):
        s[HAND + N_RANKS * landlord + r] += s[KITTY + r]
    s[LANDLORD] = landlord
    s[PHASE] = PLAYING
    s[TO_MOVE] = landlord
    s[LAST_ACTION] = -1
    s[N_PASSES] = 0


# --- legal moves ----------------------------------------------------------------------


@njit(cache=True, inline="always")
def _kick_supply(s: np.ndarray, h0: int, base: int, start: int, used: int) -> int:
    """How many more kickers of ``base``'s kind can be chosen from ranks >= ``start``
    (``used``: kickers already taken of rank ``start``)."""
    lo = A_HEAD[base]
    hi = lo + A_LEN[base] - 1
    n = 0
    if A_KKIND[base] == K_PAIR:
        for r in range(start, TWO + 1):
            if (r < lo or r > hi) and s[h0 + r] >= 2:
                n += 1
        return n
    cap = A_KCAP[base]
    for r in range(start, TWO + 1):
        if lo <= r <= hi:
            continue
        c = s[h0 + r]
        lim = cap - used if r == start else cap
        n += c if c < lim else lim
    if start <= BLACK_JOKER and s[h0 + BLACK_JOKER] > 0:
        n += 1
    elif start <= RED_JOKER and s[h0 + RED_JOKER] > 0:
        n += 1
    return n


@njit(cache=True, inline="always")
def _has_base(s: np.ndarray, h0: int, a: int) -> bool:
    """The actor (hand at ``h0``) holds base move ``a`` and can complete its kickers."""
    c = A_CAT[a]
    if c == ROCKET:
        return s[h0 + BLACK_JOKER] > 0 and s[h0 + RED_JOKER] > 0
    head = A_HEAD[a]
    w = A_WIDTH[a]
    for r in range(head, head + A_LEN[a]):
        if s[h0 + r] < w:
            return False
    nk = A_NK[a]
    if nk == 0:
        return True
    if c >= QUAD_SOLO and not s[FLAGS] & F_FOUR_WITH_TWO:
        return False
    return _kick_supply(s, h0, a, 0, 0) >= nk


@njit(cache=True, inline="always")
def _kicker_ok(s: np.ndarray, h0: int, a: int) -> bool:
    """Kicker action ``a`` is legal: allowed rank, in order, and the move can finish."""
    base = s[K_ACTION]
    lo = A_HEAD[base]
    hi = lo + A_LEN[base] - 1
    last = s[K_LAST]
    pair = A_KKIND[base] == K_PAIR
    if pair:
        if a < KICK_PAIR0:
            return False
        r = a - KICK_PAIR0
        if r <= last or (lo <= r <= hi) or s[h0 + r] < 2:
            return False
        return _kick_supply(s, h0, base, r + 1, 0) >= s[K_LEFT] - 1
    if a >= KICK_PAIR0:
        return False
    r = a - KICK_SOLO0
    if r < last or (lo <= r <= hi) or s[h0 + r] < 1:
        return False
    if r >= BLACK_JOKER and last >= BLACK_JOKER:
        return False  # never both jokers
    cap = A_KCAP[base]
    used = s[K_LASTN] if r == last else 0
    if used >= cap:
        return False
    if s[K_LEFT] == 1:
        return True
    s[h0 + r] -= 1
    if cap > 1:
        more = _kick_supply(s, h0, base, r, used + 1)
    else:
        more = _kick_supply(s, h0, base, r + 1, 0)
    if r >= BLACK_JOKER:
        more = 0
    s[h0 + r] += 1
    return more >= s[K_LEFT] - 1


@njit(cache=True, inline="always")
def _gen_lead(s: np.ndarray, h0: int, out: np.ndarray) -> int:
    """Every base move the leader holds, in id order; whole category blocks are skipped
    when the hand lacks the group size they need, and chains are read off run lengths."""
    top = 0
    for r in range(TWO + 1):
        if s[h0 + r] > top:
            top = s[h0 + r]
    # run[w - 1, r]: consecutive chain ranks from r holding at least w cards each.
    run = np.zeros((3, TWO + 1), dtype=np.int64)
    for w in range(1, 4):
        for r in range(TWO - 1, -1, -1):
            if s[h0 + r] >= w:
                run[w - 1, r] = run[w - 1, r + 1] + 1
    n = 0
    for a in range(FIRST[ROCKET + 1]):
        if _has_base(s, h0, a):
            out[n] = a
            n += 1
    for c in range(ROCKET + 1, N_BASE_CATS):
        w = A_WIDTH[FIRST[c]]
        if w > top:
            continue
        if A_NK[FIRST[c]] == 0:  # a plain chain: its run decides
            for a in range(FIRST[c], FIRST[c + 1]):
                if run[w - 1, A_HEAD[a]] >= A_LEN[a]:
                    out[n] = a
                    n += 1
            continue
        for a in range(FIRST[c], FIRST[c + 1]):
            if A_LEN[a] > 1 and run[w - 1, A_HEAD[a]] < A_LEN[a]:
                continue
            if _has_base(s, h0, a):
                out[n] = a
                n += 1
    return n


@njit(cache=True)
def gen(s: np.ndarray, out: np.ndarray) -> int:
    """Write the actor's legal action ids into ``out`` in increasing order; their count."""
    p = s[TO_MOVE]
    if p < 0:
        return 0
    n = 0
    if s[PHASE] == BIDDING:
        out[0] = PASS
        n = 1
        for b in range(s[BID] + 1, 4):
            out[n] = BID1 + b - 1
            n += 1
        return n
    h0 = HAND + N_RANKS * p
    if s[K_LEFT] > 0:
        first = KICK_PAIR0 if A_KKIND[s[K_ACTION]] == K_PAIR else KICK_SOLO0
        last = KICK_PAIR0 + 13 if first == KICK_PAIR0 else KICK_PAIR0
        for a in range(first, last):
            if _kicker_ok(s, h0, a):
                out[n] = a
                n += 1
        return n
    prev = s[LAST_ACTION]
    if prev < 0:
        return _gen_lead(s, h0, out)
    pc = A_CAT[prev]
    if pc == ROCKET:
        out[0] = PASS
        return 1
    if pc == BOMB:
        for a in range(prev + 1, FIRST[BOMB + 1]):
            if s[h0 + A_HEAD[a]] == 4:
                out[n] = a
                n += 1
    else:
        for a in range(FIRST[BOMB], FIRST[BOMB + 1]):
            if s[h0 + A_HEAD[a]] == 4:
                out[n] = a
                n += 1
    if s[h0 + BLACK_JOKER] > 0 and s[h0 + RED_JOKER] > 0:
        out[n] = FIRST[ROCKET]
        n += 1
    if pc != BOMB:
        plen = A_LEN[prev]
        # Same category and length, higher lowest rank (ids of one length go by head).
        for a in range(prev + 1, FIRST[pc + 1]):
            if A_LEN[a] != plen:
                break
            if _has_base(s, h0, a):
                out[n] = a
                n += 1
    out[n] = PASS
    n += 1
    _sort_small(out, n)
    return n


@njit(cache=True, inline="always")
def _sort_small(out: np.ndarray, n: int) -> None:
    for i in range(1, n):
        x = out[i]
        k = i - 1
        while k >= 0 and out[k] > x:
            out[k + 1] = out[k]
            k -= 1
        out[k + 1] = x


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    if s[CACHE_N] == 0:
        s[CACHE_N] = 1 + gen(s, s[CACHE:])
    return s[CACHE_N] - 1


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    n = n_legal(s)
    return s[CACHE + i] if 0 <= i < n else -1


# --- moves ----------------------------------------------------------------------------


@njit(cache=True, inline="always")
def _take(s: np.ndarray, p: int, r: int, k: int) -> None:
    s[HAND + N_RANKS * p + r] -= k
    s[PLAYED + N_RANKS * p + r] += k


@njit(cache=True, inline="always")
def _finish_move(s: np.ndarray, p: int) -> None:
    left = 0
    for r in range(N_RANKS):
        left += s[HAND + N_RANKS * p + r]
    if left == 0:
        s[WINNER] = p
        s[TO_MOVE] = -1
        s[PHASE] = OVER
    else:
        s[TO_MOVE] = (p + 1) % 3


@njit(cache=True, inline="always")
def _auction_ends(s: np.ndarray, a: int) -> int:
    """1 if bid/pass ``a`` ends the auction with a landlord, -1 with none, else 0."""
    if a == PASS:
        if s[N_PASSES] == 1 and s[BID] > 0:
            return 1
        if s[N_PASSES] == 2 and s[BID] == 0:
            return -1
        return 0
    return 1 if a - BID1 + 1 == 3 else 0


@njit(cache=True)
def apply(s: np.ndarray, a: int) -> None:
    """The actor plays ``a`` (a legal action) in place."""
    s[CACHE_N] = 0
    p = s[TO_MOVE]
    if s[PHASE] == BIDDING:
        end = _auction_ends(s, a)
        if a == PASS:
            s[N_PASSES] += 1
        else:
            s[N_PASSES] = 0
            s[BID] = a - BID1 + 1
            s[LANDLORD] = p
        if end > 0:
            _start_play(s, s[LANDLORD])
        elif end < 0:
            s[TO_MOVE] = -1
            s[PHASE] = OVER
        else:
            s[TO_MOVE] = (p + 1) % 3
        return
    if a == PASS:
        s[N_PASSES] += 1
        if s[N_PASSES] == 2:
            s[N_PASSES] = 0
            s[LAST_ACTION] = -1
            s[TO_MOVE] = s[LAST_PLAYER]
        else:
            s[TO_MOVE] = (p + 1) % 3
        return
    if a >= KICK_SOLO0:
        if a >= KICK_PAIR0:
            r = a - KICK_PAIR0
            _take(s, p, r, 2)
        else:
            r = a - KICK_SOLO0
            _take(s, p, r, 1)
        if r == s[K_LAST]:
            s[K_LASTN] += 1
        else:
            s[K_LAST] = r
            s[K_LASTN] = 1
        s[K_LEFT] -= 1
        if s[K_LEFT] == 0:
            s[K_LAST] = -1
            s[K_LASTN] = 0
            s[K_ACTION] = 0
            _finish_move(s, p)
        return
    c = A_CAT[a]
    if c == ROCKET:
        _take(s, p, BLACK_JOKER, 1)
        _take(s, p, RED_JOKER, 1)
    else:
        w = A_WIDTH[a]
        for r in range(A_HEAD[a], A_HEAD[a] + A_LEN[a]):
            _take(s, p, r, w)
    if c == BOMB or c == ROCKET:
        s[BOMBS] += 1
    s[PLAYS + p] += 1
    s[LAST_ACTION] = a
    s[LAST_PLAYER] = p
    s[N_PASSES] = 0
    if A_NK[a] > 0:
        s[K_LEFT] = A_NK[a]
        s[K_ACTION] = a
        s[K_LAST] = -1
        s[K_LASTN] = 0
        return
    _finish_move(s, p)


@njit(cache=True, inline="always")
def kitty_code(s: np.ndarray) -> int:
    """The kitty's three ranks as one number in ``0 .. 15**3 - 1`` (lowest rank first)."""
    code = 0
    for r in range(N_RANKS):
        for _ in range(s[KITTY + r]):
            code = code * N_RANKS + r
    return code


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    """Every move is public; the end of the auction also shows the kitty to everyone."""
    if s[PHASE] == BIDDING and _auction_ends(s, a) > 0:
        return 1 + a + N_ACTIONS * (1 + kitty_code(s))
    return 1 + a


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    """In the auction a bid or pass may end it and show the kitty."""
    return s[PHASE] == BIDDING and s[TO_MOVE] >= 0


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    if s[TO_MOVE] >= 0:
        return 0.0
    w = s[WINNER]
    if w < 0:
        return 0.5
    lord = s[LANDLORD]
    return 1.0 if (j == lord) == (w == lord) else 0.0


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal actions (base moves, kickers, bids) until the game ends."""
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    while s[TO_MOVE] >= 0:
        n = gen(s, out)
        apply(s, out[rand_below(rng, n)])


@njit(cache=True)
def random_games(n_games: int, flags: int, rng: np.ndarray) -> int:
    """Play ``n_games`` uniformly random deals; return the landlord's wins (benchmarks)."""
    wins = 0
    for _ in range(n_games):
        s = new_state(rng, flags)
        playout(s, rng)
        if s[WINNER] >= 0 and s[WINNER] == s[LANDLORD]:
            wins += 1
    return wins


# --- views, keys, determinizations ----------------------------------------------------


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    """Write player ``j``'s view (layout in the module docstring) into ``v``."""
    for i in range(N_PUBLIC):
        v[i] = s[i]
    v[V_SEAT] = j
    for p in range(N_PLAYERS):
        size = 0
        for r in range(N_RANKS):
            size += s[HAND + N_RANKS * p + r]
            v[V_PLAYED + N_RANKS * p + r] = s[PLAYED + N_RANKS * p + r]
        v[V_SIZE + p] = size
    shown = s[LANDLORD] >= 0 and s[PHASE] != BIDDING
    for r in range(N_RANKS):
        v[V_HAND + r] = s[HAND + N_RANKS * j + r]
        v[V_KITTY + r] = s[KITTY + r] if shown else 0


@njit(cache=True, inline="always")
def _mix(h: int, x: int) -> int:
    """Fold ``x`` (0 <= x < 2**62) into a 31-bit hash ``h`` without overflowing."""
    for _ in range(3):
        h = ((h ^ (x & 0x3FFFFFF)) * 1000003 + 12345) & 0x7FFFFFFF
        x >>= 26
    return h


@njit(cache=True)
def view_key(v: np.ndarray) -> int:
    """A 62-bit hash of a view (two independent 31-bit folds)."""
    a = 0x1234567
    b = 0x7654321
    for i in range(VIEW_SIZE):
        a = _mix(a, v[i] + 2)
        b = _mix(b, v[VIEW_SIZE - 1 - i] + 2 + i)
    return (np.int64(a) << 31) | b


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    v = np.zeros(VIEW_SIZE, dtype=np.int64)
    view(s, j, v)
    return view_key(v)


@njit(cache=True)
def _binom(n: int, k: int) -> float:
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@njit(cache=True)
def deal_exact(unseen: np.ndarray, sizes: np.ndarray, low: np.ndarray, rng: np.ndarray,
               out: np.ndarray) -> bool:
    """Deal the ``unseen`` cards (count per rank) to three holders of ``sizes`` with at
    least ``low[i, r]`` of rank r each, uniformly over the physical cards: count the
    completions rank by rank (weights are binomials), then draw the split of each rank."""
    a0, b0 = sizes[0], sizes[1]
    rest = np.zeros(N_RANKS + 1, dtype=np.int64)
    for r in range(N_RANKS - 1, -1, -1):
        rest[r] = rest[r + 1] + unseen[r]
    if rest[0] != sizes[0] + sizes[1] + sizes[2]:
        return False
    f = np.zeros((N_RANKS + 1, a0 + 1, b0 + 1))
    f[N_RANKS, 0, 0] = 1.0
    for r in range(N_RANKS - 1, -1, -1):
        u = unseen[r]
        for a in range(a0 + 1):
            for b in range(b0 + 1):
                c = rest[r] - a - b
                if c < 0:
                    continue
                tot = 0.0
                for x in range(low[0, r], min(a, u) + 1):
                    for y in range(low[1, r], min(b, u - x) + 1):
                        z = u - x - y
                        if z < low[2, r] or z > c:
                            continue
                        w = f[r + 1, a - x, b - y]
                        if w > 0.0:
                            tot += _binom(u, x) * _binom(u - x, y) * w
                f[r, a, b] = tot
    if f[0, a0, b0] <= 0.0:
        return False
    a, b = a0, b0
    for r in range(N_RANKS):
        u = unseen[r]
        c = rest[r] - a - b
        x_draw = f[r, a, b] * (float(next_u64(rng) >> np.uint64(11)) *
                               (1.0 / 9007199254740992.0))
        px, py = -1, -1
        for x in range(low[0, r], min(a, u) + 1):
            for y in range(low[1, r], min(b, u - x) + 1):
                z = u - x - y
                if z < low[2, r] or z > c:
                    continue
                w = _binom(u, x) * _binom(u - x, y) * f[r + 1, a - x, b - y]
                if w <= 0.0:
                    continue
                px, py = x, y
                x_draw -= w
                if x_draw < 0.0:
                    break
            if x_draw < 0.0:
                break
        if px < 0:
            return False
        out[0, r] = px
        out[1, r] = py
        out[2, r] = u - px - py
        a -= px
        b -= py
    return True


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """Write into ``s`` a state drawn uniformly from those consistent with ``j``'s view.

    The cards ``j`` has not seen (not in its hand, not played, not the shown kitty's
    cards still in the landlord's hand) go to the other two players (their public hand
    sizes) and, before the kitty is shown, to the kitty. Hard constraints: the landlord
    still holds the kitty's cards it has not played; the first bidder was dealt a card
    of the face-up rank. Up to ``SAMPLE_TRIES`` uniform deals are tried and the first
    that meets them is kept, else one is drawn exactly (:func:`deal_exact`): either way
    the draw is uniform over the physical cards.
    """
    for i in range(N_PUBLIC):
        s[i] = v[i]
    s[CACHE_N] = 0
    lord = v[LANDLORD]
    shown = lord >= 0 and v[PHASE] != BIDDING
    unseen = np.zeros(N_RANKS, dtype=np.int64)
    for r in range(N_RANKS):
        u = LIMIT[r] - v[V_HAND + r]
        for p in range(N_PLAYERS):
            x = v[V_PLAYED + N_RANKS * p + r]
            s[PLAYED + N_RANKS * p + r] = x
            u -= x
            s[HAND + N_RANKS * p + r] = 0
        if u < 0:
            return False
        unseen[r] = u
        s[HAND + N_RANKS * j + r] = v[V_HAND + r]
        s[KITTY + r] = v[V_KITTY + r] if shown else 0
    holders = np.zeros(3, dtype=np.int64)  # seats of holders 0 and 1; holder 2: kitty
    sizes = np.zeros(3, dtype=np.int64)
    low = np.zeros((3, N_RANKS), dtype=np.int64)
    k = 0
    for p in range(N_PLAYERS):
        if p != j:
            holders[k] = p
            sizes[k] = v[V_SIZE + p]
            if shown and p == lord:
                for r in range(N_RANKS):
                    need = v[V_KITTY + r] - v[V_PLAYED + N_RANKS * p + r]
                    if need > 0:
                        low[k, r] = need
            fb = v[FIRST_BIDDER]
            if p == fb and fb >= 0:
                r = v[FACEUP]
                need = 1 - v[V_PLAYED + N_RANKS * p + r]
                if shown and p == lord:
                    need += v[V_KITTY + r]
                if need > low[k, r]:
                    low[k, r] = need
            k += 1
    sizes[2] = 0 if shown else 3
    total = 0
    for r in range(N_RANKS):
        total += unseen[r]
    if total != sizes[0] + sizes[1] + sizes[2]:
        return False
    out = np.zeros((3, N_RANKS), dtype=np.int64)
    cards = np.empty(N_CARDS, dtype=np.int64)
    n = 0
    for r in range(N_RANKS):
        for _ in range(unseen[r]):
            cards[n] = r
            n += 1
    done = False
    for _ in range(SAMPLE_TRIES):
        for i in range(n - 1, 0, -1):
            t = rand_below(rng, i + 1)
            x = cards[i]
            cards[i] = cards[t]
            cards[t] = x
        for i in range(3):
            for r in range(N_RANKS):
                out[i, r] = 0
        pos = 0
        for i in range(3):
            for _c in range(sizes[i]):
                out[i, cards[pos]] += 1
                pos += 1
        good = True
        for i in range(3):
            for r in range(N_RANKS):
                if out[i, r] < low[i, r]:
                    good = False
        if good:
            done = True
            break
    if not done and not deal_exact(unseen, sizes, low, rng, out):
        return False
    for i in range(2):
        p = holders[i]
        for r in range(N_RANKS):
            s[HAND + N_RANKS * p + r] = out[i, r]
    if not shown:
        for r in range(N_RANKS):
            s[KITTY + r] = out[2, r]
    return True


# The protocol tuple (imported last so the functions above are defined).
from spyglass.search.protocol import Kernel, legal_actions_from  # noqa: E402

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
