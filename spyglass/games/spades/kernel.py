"""The rules of Spades, once, as numba-compiled kernels over a small int64 state.

Whitehouse 2014, §4.2.4: four players, North-South (seats 0, 2) against East-West
(1, 3), 13 cards each. Cards are numbered as in OpenSpiel's ``spades``: ``card = suit
* 13 + rank`` (suits clubs, diamonds, hearts, spades; ranks 2..A), and a bid of ``b``
tricks is action ``BID + b`` (``b = 0`` is nil), so ``n_actions = 66``.

Rules (the thesis's, with OpenSpiel's where the thesis is silent):

* **Bidding.** Each player bids 0 (nil) to 13 in turn, starting with the round's first
  player; partners' bids together may not exceed 13 (OpenSpiel).
* **Play.** The first player of the round leads (the role rotates: seat ``r % 4`` in
  round ``r``; OpenSpiel's one round starts with seat 0). Players must follow suit;
  spades trump. Spades may not be led until broken (a spade has been played) unless
  the leader holds only spades. OpenSpiel 2.0.2 never marks spades broken (a spade
  can then be led only from a hand of spades): ``F_NEVER_BREAK`` reproduces that for
  the cross-check; it is off by default.
* **Scoring** (thesis §4.2.4, as OpenSpiel scores it): a partnership that bid ``b`` in
  all and took ``t >= b`` tricks scores ``10 b`` plus one point per overtrick (bag),
  else ``-10 b``; each nil bid scores +100 if that player took no trick, else -100;
  every 10 bags accumulated cost 100 points (and are removed). Bags are kept apart
  from the score (``BAGS``).
* **Game.** ``target`` > 0: rounds until a partnership exceeds ``target`` (thesis: 500)
  at the end of a round and the scores differ; with ``F_MERCY`` (OpenSpiel's mercy
  rule, on by default) also when a side falls below ``MERCY_THRESHOLD`` (-350);
  ``MAX_ROUNDS`` ends a game that never gets there. ``target`` = 0: one round. New
  hands come from a generator kept in the state (as in Hearts; ``sample`` redraws it).
* **Reward.** 1 to each player of the partnership with the higher score, 0 to the
  other, ½ each on a tie. ``F_ROUND_VALUE`` (the thesis's search-time evaluation, eq.
  4.1): the game ends with the current round and each player scores
  ``(1 + clip(((s - 10 b) - (s' - 10 b')) / 200, -1, 1)) / 2`` for its partnership's
  score ``s`` and bags ``b`` against the other's ``s'``, ``b'``.

A player sees its hand, every bid and card played and the public tallies. Failing to
follow shows a void; leading a spade before they are broken shows a hand of spades
only; ``sample`` deals the unseen cards uniformly under those constraints (the same
method as Hearts: uniform proposals, then exact counting suit by suit).

State layout: ``TO_MOVE``, ``PHASE`` (BIDDING, PLAYING, OVER), ``ROUND_NO``,
``N_PLAYED``, ``LEADER``, ``BROKEN``, ``FIRST`` (the round's first player),
``FORBID`` (bit ``4 p + suit``: p holds no card of that suit), ``FLAGS``, ``TARGET``,
``RNG_HI``/``RNG_LO``, then blocks of 4: ``HAND``, ``PLAYED``, ``TRICK`` (card in the
current trick, -1), ``BIDS`` (-1 until made), ``TRICKS``; and of 2 (partnerships):
``SCORE``, ``BAGS``. The view is the public scalars, ``V_SEAT``, ``V_HAND`` and the
public blocks. Observation keys: ``OBS_CARD + card`` or ``OBS_BID + bid`` for everyone;
the last card of a round that does not end the game reveals the new hand:
``REVEAL_DEAL | (card << 53) | new hand``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.bits import lowest_index, popcount
from spyglass.games.cards.deal import bit, deal_three, nth_bit
from spyglass.games.cards.deal import rand_small as _rand_small
from spyglass.rng import next_u64, rand_below
from spyglass.search.protocol import Kernel

N_CARDS, N_PLAYERS = 52, 4
BID = 52
N_ACTIONS = 66
ALL_CARDS = (1 << 52) - 1
SUIT_BITS = (1 << 13) - 1
SPADES = 3
SPADE_MASK = SUIT_BITS << 39
SUIT_MASKS = np.array([SUIT_BITS << (13 * s) for s in range(4)], dtype=np.int64)
MAX_ROUNDS = 100

F_NEVER_BREAK = 1
F_ROUND_VALUE = 2
F_MERCY = 4
MERCY_THRESHOLD = -350

BIDDING, PLAYING, OVER = 0, 1, 2

TO_MOVE, PHASE, ROUND_NO, N_PLAYED, LEADER, BROKEN, FIRST, FORBID = range(8)
FLAGS, TARGET, RNG_HI, RNG_LO = range(8, 12)
HAND, PLAYED, TRICK, BIDS, TRICKS, SCORE, BAGS = 12, 16, 20, 24, 28, 32, 34
STATE_SIZE = 36
N_PUBLIC = 10  # TO_MOVE .. TARGET
V_SEAT, V_HAND = 10, 11
V_PLAYED, V_TRICK, V_BIDS, V_TRICKS, V_SCORE, V_BAGS = 12, 16, 20, 24, 28, 30
VIEW_SIZE = 32

OBS_BID = 1
OBS_CARD = 64
REVEAL_DEAL = 1 << 61
CARD_SHIFT = 53
SAMPLE_TRIES = 24


@njit(cache=True, inline="always")
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal bids or cards into ``out`` in increasing order; return how many."""
    if s[TO_MOVE] < 0:
        return 0
    if s[PHASE] == BIDDING:
        n = _max_bid(s) + 1
        for i in range(n):
            out[i] = BID + i
        return n
    x = legal_mask(s)
    n = 0
    while x:
        out[n] = lowest_index(x)
        n += 1
        x &= x - 1
    return n


@njit(cache=True, inline="always")
def _rng_of(s: np.ndarray) -> np.ndarray:
    r = np.empty(1, dtype=np.uint64)
    r[0] = (np.uint64(s[RNG_HI]) << np.uint64(32)) | np.uint64(s[RNG_LO])
    return r


@njit(cache=True, inline="always")
def _store_rng(s: np.ndarray, r: np.ndarray) -> None:
    s[RNG_HI] = np.int64(r[0] >> np.uint64(32))
    s[RNG_LO] = np.int64(r[0] & np.uint64(0xFFFFFFFF))


@njit(cache=True)
def start_round(s: np.ndarray) -> None:
    """Deal new hands from the state's generator; the round's first player bids."""
    r = _rng_of(s)
    deck = np.arange(N_CARDS)
    for i in range(N_CARDS - 1, 0, -1):
        k = rand_below(r, i + 1)
        t = deck[i]
        deck[i] = deck[k]
        deck[k] = t
    _store_rng(s, r)
    for p in range(N_PLAYERS):
        h = 0
        for i in range(13 * p, 13 * p + 13):
            h |= bit(deck[i])
        s[HAND + p] = h
        s[PLAYED + p] = 0
        s[TRICK + p] = -1
        s[BIDS + p] = -1
        s[TRICKS + p] = 0
    first = s[ROUND_NO] % 4
    s[FIRST] = first
    s[TO_MOVE] = first
    s[LEADER] = first
    s[PHASE] = BIDDING
    s[N_PLAYED] = 0
    s[BROKEN] = 0
    s[FORBID] = 0


@njit(cache=True)
def new_state(seed_rng: np.ndarray, flags: int, target: int) -> np.ndarray:
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[FLAGS] = flags
    s[TARGET] = target
    _store_rng(s, seed_rng)
    start_round(s)
    return s


@njit(cache=True, inline="always")
def actor(s: np.ndarray) -> int:
    return s[TO_MOVE]


@njit(cache=True, inline="always")
def is_terminal(s: np.ndarray) -> bool:
    return s[TO_MOVE] < 0


@njit(cache=True, inline="always")
def _max_bid(s: np.ndarray) -> int:
    partner = s[BIDS + (s[TO_MOVE] + 2) % 4]
    return 13 - partner if partner >= 0 else 13


@njit(cache=True, inline="always")
def legal_mask(s: np.ndarray) -> int:
    """The actor's legal cards (play phase) as a mask."""
    p = s[TO_MOVE]
    hand = s[HAND + p]
    if s[N_PLAYED] % 4:
        follow = hand & SUIT_MASKS[s[TRICK + s[LEADER]] // 13]
        if follow:
            return follow
        return hand
    if not s[BROKEN]:
        other = hand & ~SPADE_MASK
        if other:
            return other
    return hand


@njit(cache=True, inline="always")
def n_legal(s: np.ndarray) -> int:
    if s[TO_MOVE] < 0:
        return 0
    if s[PHASE] == BIDDING:
        return _max_bid(s) + 1
    return popcount(legal_mask(s))


@njit(cache=True, inline="always")
def legal_action(s: np.ndarray, i: int) -> int:
    if s[PHASE] == BIDDING:
        return BID + i
    return nth_bit(legal_mask(s), i)


@njit(cache=True, inline="always")
def _winner(s: np.ndarray) -> int:
    lead = s[LEADER]
    best = lead
    c0 = s[TRICK + lead]
    best_trump = c0 // 13 == SPADES
    best_suit = c0 // 13
    best_rank = c0 % 13
    for q in range(N_PLAYERS):
        c = s[TRICK + q]
        suit = c // 13
        rank = c % 13
        if suit == SPADES and not best_trump:
            best, best_trump, best_suit, best_rank = q, True, SPADES, rank
        elif suit == best_suit and rank > best_rank:
            best, best_rank = q, rank
    return best


@njit(cache=True)
def _end_round(s: np.ndarray) -> None:
    """Score the round; end the game or deal the next round."""
    for k in range(2):
        bid = s[BIDS + k] + s[BIDS + k + 2]
        took = s[TRICKS + k] + s[TRICKS + k + 2]
        pts = 0
        for p in (k, k + 2):
            if s[BIDS + p] == 0:
                pts += -100 if s[TRICKS + p] > 0 else 100
        if took < bid:
            pts -= 10 * bid
        else:
            over = took - bid
            pts += 10 * bid + over
            bags = s[BAGS + k] + over
            if bags >= 10:
                pts -= 100 * (bags // 10)
                bags %= 10
            s[BAGS + k] = bags
        s[SCORE + k] += pts
    s[ROUND_NO] += 1
    t = s[TARGET]
    done = False
    if t <= 0 or (s[FLAGS] & F_ROUND_VALUE) != 0 or s[ROUND_NO] >= MAX_ROUNDS:
        done = True
    elif max(s[SCORE], s[SCORE + 1]) > t and s[SCORE] != s[SCORE + 1]:
        done = True
    elif (s[FLAGS] & F_MERCY) != 0 and min(s[SCORE], s[SCORE + 1]) < MERCY_THRESHOLD:
        done = True
    if done:
        s[PHASE] = OVER
        s[TO_MOVE] = -1
        return
    start_round(s)


@njit(cache=True, inline="always")
def _play(s: np.ndarray, a: int, infer: bool) -> None:
    p = s[TO_MOVE]
    n = s[N_PLAYED]
    suit = a // 13
    if infer:
        if n % 4 == 0:
            if suit == SPADES and not s[BROKEN]:
                s[FORBID] |= 7 << (4 * p)  # held only spades
        else:
            led = s[TRICK + s[LEADER]] // 13
            if suit != led:
                s[FORBID] |= 1 << (4 * p + led)
        s[PLAYED + p] |= bit(a)
    if n % 4 == 0:
        s[LEADER] = p
    s[HAND + p] &= ~bit(a)
    s[TRICK + p] = a
    if suit == SPADES and not s[FLAGS] & F_NEVER_BREAK:
        s[BROKEN] = 1
    n += 1
    s[N_PLAYED] = n
    if n % 4:
        s[TO_MOVE] = (p + 1) % 4
        return
    w = _winner(s)
    s[TRICKS + w] += 1
    s[LEADER] = w
    s[TO_MOVE] = w
    if n == N_CARDS:
        _end_round(s)


@njit(cache=True, inline="always")
def apply(s: np.ndarray, a: int) -> None:
    """The actor bids or plays ``a`` (a legal action) in place."""
    p = s[TO_MOVE]
    if s[PHASE] == BIDDING:
        s[BIDS + p] = a - BID
        nxt = (p + 1) % 4
        if nxt == s[FIRST]:
            s[PHASE] = PLAYING
        s[TO_MOVE] = nxt
        return
    if s[N_PLAYED] % 4 == 0:
        for q in range(N_PLAYERS):
            s[TRICK + q] = -1
    _play(s, a, True)


@njit(cache=True)
def _continues(s: np.ndarray) -> bool:
    t = s.copy()
    apply(t, legal_action(s, 0))
    return t[TO_MOVE] >= 0


@njit(cache=True, inline="always")
def observe(s: np.ndarray, a: int, j: int) -> int:
    if s[PHASE] == BIDDING:
        return OBS_BID + (a - BID)
    if s[N_PLAYED] == N_CARDS - 1 and _continues(s):
        t = s.copy()
        apply(t, a)
        return REVEAL_DEAL | (np.int64(a) << CARD_SHIFT) | t[HAND + j]
    return OBS_CARD + a


@njit(cache=True, inline="always")
def move_reveals(s: np.ndarray) -> bool:
    return s[TO_MOVE] >= 0 and s[PHASE] == PLAYING and s[N_PLAYED] == N_CARDS - 1


@njit(cache=True, inline="always")
def reward(s: np.ndarray, j: int) -> float:
    if s[TO_MOVE] >= 0:
        return 0.0
    k = j & 1
    if s[FLAGS] & F_ROUND_VALUE:
        v = ((s[SCORE + k] - 10 * s[BAGS + k]) - (s[SCORE + 1 - k] - 10 * s[BAGS + 1 - k])) / 200.0
        return (1.0 + min(1.0, max(-1.0, v))) / 2.0
    d = s[SCORE + k] - s[SCORE + 1 - k]
    return 1.0 if d > 0 else (0.0 if d < 0 else 0.5)


@njit(cache=True)
def playout(s: np.ndarray, rng: np.ndarray) -> None:
    """Uniformly random legal bids and cards until the game ends (in place)."""
    while s[TO_MOVE] >= 0:
        if s[PHASE] == BIDDING:
            apply(s, BID + _rand_small(rng, _max_bid(s) + 1))
            continue
        if s[N_PLAYED] % 4 == 0:
            for q in range(N_PLAYERS):
                s[TRICK + q] = -1
        m = legal_mask(s)
        _play(s, nth_bit(m, _rand_small(rng, popcount(m))), False)


@njit(cache=True)
def random_games(n_games: int, flags: int, target: int, rng: np.ndarray) -> int:
    """``n_games`` uniformly random games; returns North-South's wins (benchmarks)."""
    wins = 0
    for _ in range(n_games):
        r = np.empty(1, dtype=np.uint64)
        r[0] = next_u64(rng) | np.uint64(1)
        s = new_state(r, flags, target)
        playout(s, rng)
        wins += s[SCORE] > s[SCORE + 1]
    return wins


@njit(cache=True)
def view(s: np.ndarray, j: int, v: np.ndarray) -> None:
    for i in range(N_PUBLIC):
        v[i] = s[i]
    v[V_SEAT] = j
    v[V_HAND] = s[HAND + j]
    for p in range(N_PLAYERS):
        v[V_PLAYED + p] = s[PLAYED + p]
        v[V_TRICK + p] = s[TRICK + p]
        v[V_BIDS + p] = s[BIDS + p]
        v[V_TRICKS + p] = s[TRICKS + p]
    for k in range(2):
        v[V_SCORE + k] = s[SCORE + k]
        v[V_BAGS + k] = s[BAGS + k]


@njit(cache=True, inline="always")
def _mix(h: int, x: int) -> int:
    if x < 0:
        x = (1 << 61) - x
    for _ in range(3):
        h = ((h ^ (x & 0x3FFFFFF)) * 1000003 + 12345) & 0x7FFFFFFF
        x >>= 26
    return h


@njit(cache=True)
def info_key(s: np.ndarray, j: int) -> int:
    """A 62-bit hash of ``j``'s view (two 31-bit folds; no overflow uncompiled)."""
    v = np.zeros(VIEW_SIZE, dtype=np.int64)
    view(s, j, v)
    a = 0x1234567
    b = 0x7654321
    for i in range(VIEW_SIZE):
        a = _mix(a, v[i])
        b = _mix(b, v[VIEW_SIZE - 1 - i] + i)
    return (np.int64(a) << 31) | b


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray) -> bool:
    """A state drawn uniformly from those consistent with ``j``'s view: the public
    fields and ``j``'s hand as in the view, each other player holding ``13 - played``
    cards of none of the suits it is known not to hold; the unseen cards are dealt by
    :func:`spyglass.games.cards.deal.deal_three` (up to ``SAMPLE_TRIES`` uniform
    proposals, then exactly by counting). The generator of future rounds is redrawn."""
    for i in range(N_PUBLIC):
        s[i] = v[i]
    x = next_u64(rng)
    s[RNG_HI] = np.int64(x >> np.uint64(32))
    s[RNG_LO] = np.int64(x & np.uint64(0xFFFFFFFF)) | 1
    played = 0
    for p in range(N_PLAYERS):
        s[PLAYED + p] = v[V_PLAYED + p]
        s[TRICK + p] = v[V_TRICK + p]
        s[BIDS + p] = v[V_BIDS + p]
        s[TRICKS + p] = v[V_TRICKS + p]
        played |= v[V_PLAYED + p]
    for k in range(2):
        s[SCORE + k] = v[V_SCORE + k]
        s[BAGS + k] = v[V_BAGS + k]
    hand = v[V_HAND]
    s[HAND + j] = hand
    unknown = ALL_CARDS & ~(hand | played)
    forbid = v[FORBID]
    c0 = c1 = c2 = 0
    a0 = a1 = a2 = 0
    for k in range(3):
        p = k + (k >= j)  # the k-th other seat
        cap = 13 - popcount(v[V_PLAYED + p])
        m = ALL_CARDS
        for g in range(4):
            if (forbid >> (4 * p + g)) & 1:
                m &= ~SUIT_MASKS[g]
        if k == 0:
            c0, a0 = cap, m
        elif k == 1:
            c1, a1 = cap, m
        else:
            c2, a2 = cap, m
    if c0 + c1 + c2 != popcount(unknown):
        return False
    ok, h0, h1, h2 = deal_three(unknown, c0, c1, c2, a0, a1, a2, SUIT_MASKS, SAMPLE_TRIES, rng)
    if not ok:
        return False
    s[HAND + (0 + (0 >= j))] = h0
    s[HAND + (1 + (1 >= j))] = h1
    s[HAND + (2 + (2 >= j))] = h2
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
