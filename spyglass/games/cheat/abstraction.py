"""Cheat's abstractions and rollout policy for SDMCTS (Bitan & Kraus 2018, §4.3-4.5).

**Information state** (§4.3): 16 attributes from seat ``i``'s point of view, computed in
the *semi-determinized* game where claims are public (so the truth of the last claim is
known), packed into 32 bits without loss (§4.3.1, Figure 1):

====  ===============================================================  =====  ====
#     attribute                                                        range  bits
====  ===============================================================  =====  ====
1     the previous move: none, true claim, false claim, take, call     0-4    3
2, 3  can i make a one-card true claim one rank up / down?             0-1    1+1
4     i's card count, psi (x for x <= 4, 5 for 5-8, 6 above)           0-6    3
5     the opponent's card count, psi                                   0-6    3
6     cards on the pile, psi                                           0-6    3
7     the round (moves played, capped at 127)                          0-127  7
8, 9  the opponent's known cards one rank up / down, phi (x <= 2, else 3)  0-3  2+2
10,11 i claimed the rank one up / down since the last call             0-1    1+1
12,13 the opponent claimed the rank one up / down since the last call  0-1    1+1
14,15 i was caught lying on the rank one up / down                     0-1    1+1
16    i was ever caught lying                                          0-1    1
====  ===============================================================  =====  ====

"The estimated number of cards the opponent has" (8, 9) is the kernel's ``KNOWN``: the
cards the opponent took from a revealed pile and has not been seen to play since.

**Actions** (§4.4): 0 Call-Cheat, 1 Take-a-Card, and ``2 + dir * 8 + lie * 4 + k - 1``
for a claim one rank up (``dir`` 0) or down (1), true (``lie`` 0) or false (1), of ``k``
cards. The concrete cards: a true claim places ``k`` cards of the claimed rank; a false
claim places the ``k`` cards whose ranks are farthest (around the circle of ranks) from
the claimed one, which are the cards least likely to be claimable truthfully soon
(ties: the lower rank first), filling up with cards of the claimed rank only if the hand
has fewer than ``k`` others (a false claim needs at least one other card).

**Rollout policy** (§4.5): a fixed probability table over the 18 actions; the mass of
illegal actions is spread evenly over the legal ones (the paper's example: 0.105/17 each
when Call-Cheat is illegal). The paper's table (its Figure 2) is given only as a figure;
ours keeps its Call-Cheat share (0.105) and the human shares the paper reports in §5
(Take-a-Card about 0.22 of moves, about 43 % of claims false), with claims of 1, 2, 3
and 4 cards weighted 0.5, 0.3, 0.15, 0.05 and both directions equal. The heuristics take
precedence: after a false claim the rollout calls cheat when a) the claimant has no
cards, b) more than eight cards are on the pile, c) the claimant was caught more than
eight times, d) the claimant had already claimed that rank since the last call, e) the
caller holds a card of the claimed rank, or f) the claimant was caught lying on that rank.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cheat import kernel as K
from spyglass.rng import rand_float
from spyglass.search.smooth_uct import N_ABSTRACT, N_ATTRS, Abstraction

A_CALL, A_TAKE, A_CLAIM0 = 0, 1, 2
#: Bit widths of the 16 attributes, in order (they sum to 32).
WIDTHS = np.array([3, 1, 1, 3, 3, 3, 7, 2, 2, 1, 1, 1, 1, 1, 1, 1], dtype=np.int64)
assert int(WIDTHS.sum()) == 32 and len(WIDTHS) == N_ATTRS

P_CALL, P_TAKE = 0.105, 0.22
P_LIE = 0.43
P_COUNT = (0.5, 0.3, 0.15, 0.05)


def _rollout_table() -> np.ndarray:
    t = np.zeros(N_ABSTRACT, dtype=np.float64)
    t[A_CALL] = P_CALL
    t[A_TAKE] = P_TAKE
    claims = 1.0 - P_CALL - P_TAKE
    for d in range(2):
        for lie in range(2):
            for k in range(4):
                share = (P_LIE if lie else 1.0 - P_LIE) * P_COUNT[k] / 2
                t[A_CLAIM0 + d * 8 + lie * 4 + k] = claims * share
    return t


ROLLOUT_P = _rollout_table()


def abstract_text(a: int) -> str:
    """Words for an abstract action, e.g. ``"up false 2"``."""
    if a == A_CALL:
        return "call"
    if a == A_TAKE:
        return "take"
    b = a - A_CLAIM0
    return f"{('up', 'down')[b // 8]} {('true', 'false')[(b // 4) % 2]} {b % 4 + 1}"


@njit(cache=True, inline="always")
def _psi(x: int) -> int:
    return x if x <= 4 else 5 if x <= 8 else 6


@njit(cache=True, inline="always")
def _phi(x: int) -> int:
    return x if x <= 2 else 3


@njit(cache=True)
def attrs(s: np.ndarray, i: int, out: np.ndarray) -> None:
    """Seat ``i``'s 16 attributes (the table in the module docstring)."""
    o = 1 - i
    kind = s[K.PREV_KIND]
    if kind == K.K_CLAIM:
        prev = 1 if K.last_claim_true(s) else 2
    elif kind == K.K_TAKE:
        prev = 3
    elif kind == K.K_CALL:
        prev = 4
    else:
        prev = 0
    ref = s[K.REF]
    up = (ref + 1) % 13
    dn = (ref + 12) % 13
    out[0] = prev
    out[1] = 1 if s[K.HAND + 13 * i + up] > 0 else 0
    out[2] = 1 if s[K.HAND + 13 * i + dn] > 0 else 0
    out[3] = _psi(K.hand_size(s, i))
    out[4] = _psi(K.hand_size(s, o))
    out[5] = _psi(K.pile_size(s, 0) + K.pile_size(s, 1))
    out[6] = min(s[K.ROUND], 127)
    out[7] = _phi(s[K.KNOWN + 13 * i + up])
    out[8] = _phi(s[K.KNOWN + 13 * i + dn])
    out[9] = (s[K.CLAIMED + i] >> up) & 1
    out[10] = (s[K.CLAIMED + i] >> dn) & 1
    out[11] = (s[K.CLAIMED + o] >> up) & 1
    out[12] = (s[K.CLAIMED + o] >> dn) & 1
    out[13] = (s[K.CAUGHT + i] >> up) & 1
    out[14] = (s[K.CAUGHT + i] >> dn) & 1
    out[15] = 1 if s[K.CAUGHT_N + i] > 0 else 0


@njit(cache=True)
def pack(a: np.ndarray) -> int:
    """The attributes in one 32-bit key (attribute 1 in the low bits)."""
    key = 0
    shift = 0
    for i in range(N_ATTRS):
        key |= a[i] << shift
        shift += WIDTHS[i]
    return key


@njit(cache=True)
def unpack(key: int, out: np.ndarray) -> None:
    shift = 0
    for i in range(N_ATTRS):
        out[i] = (key >> shift) & ((1 << WIDTHS[i]) - 1)
        shift += WIDTHS[i]


@njit(cache=True, inline="always")
def _claim_ok(hand: np.ndarray, n_hand: int, rank: int, lie: int, k: int) -> bool:
    if k > n_hand:
        return False
    if lie == 0:
        return hand[rank] >= k
    return n_hand - hand[rank] >= 1


@njit(cache=True)
def legal_hand(hand: np.ndarray, ref: int, call: bool, take: bool, forced: bool,
               mask: np.ndarray) -> int:
    """The legal abstract actions for a hand (13 rank counts) and the public facts."""
    n = 0
    for a in range(N_ABSTRACT):
        mask[a] = 0
    if call:
        mask[A_CALL] = 1
        n += 1
    if forced:
        return n
    if take:
        mask[A_TAKE] = 1
        n += 1
    n_hand = 0
    for r in range(13):
        n_hand += hand[r]
    for d in range(2):
        rank = K.claimed_rank(ref, d)
        for lie in range(2):
            for k in range(1, 5):
                if _claim_ok(hand, n_hand, rank, lie, k):
                    mask[A_CLAIM0 + d * 8 + lie * 4 + k - 1] = 1
                    n += 1
    return n


@njit(cache=True)
def legal(s: np.ndarray, mask: np.ndarray) -> int:
    p = s[K.TO_MOVE]
    return legal_hand(s[K.HAND + 13 * p:K.HAND + 13 * p + 13], s[K.REF], K.can_call(s),
                      K.can_take(s), s[K.FORCED] != 0, mask)


@njit(cache=True)
def concrete_hand(hand: np.ndarray, ref: int, a: int) -> int:
    """The concrete action id of abstract action ``a`` for a hand (see the docstring)."""
    if a == A_CALL:
        return K.CALL
    if a == A_TAKE:
        return K.TAKE
    b = a - A_CLAIM0
    d = b // 8
    lie = (b // 4) % 2
    k = b % 4 + 1
    rank = K.claimed_rank(ref, d)
    ranks = np.empty(4, dtype=np.int64)
    n = 0
    if lie == 0:
        for _ in range(k):
            ranks[n] = rank
            n += 1
    else:
        for dist in range(6, 0, -1):  # 13 ranks: two distinct ranks at each distance
            lo = (rank + 13 - dist) % 13
            hi = (rank + dist) % 13
            for r in (min(lo, hi), max(lo, hi)):
                left = hand[r]
                while left > 0 and n < k:
                    ranks[n] = r
                    n += 1
                    left -= 1
            if n == k:
                break
        while n < k:
            ranks[n] = rank
            n += 1
    # Sort the k ranks and encode (kernel's claim id).
    for x in range(k):
        for y in range(x + 1, k):
            if ranks[y] < ranks[x]:
                t = ranks[x]
                ranks[x] = ranks[y]
                ranks[y] = t
    code = 0
    for pos in range(k):
        code += ranks[pos] * 13 ** (3 - pos)
    return K.CLAIM0 + (d * 4 + k - 1) * K.BLOCK + code


@njit(cache=True)
def concrete(s: np.ndarray, a: int) -> int:
    p = s[K.TO_MOVE]
    return concrete_hand(s[K.HAND + 13 * p:K.HAND + 13 * p + 13], s[K.REF], a)


@njit(cache=True)
def heuristic_call(s: np.ndarray) -> bool:
    """§4.5 a-f: after a false claim, call when any of them holds."""
    if not K.can_call(s) or K.last_claim_true(s):
        return False
    p = s[K.TO_MOVE]
    o = 1 - p
    ref = s[K.REF]
    return (K.hand_size(s, o) == 0                                   # a
            or K.pile_size(s, 0) + K.pile_size(s, 1) > 8             # b
            or s[K.CAUGHT_N + o] > 8                                 # c
            or s[K.REPEAT] != 0                                      # d
            or s[K.HAND + 13 * p + ref] > 0                          # e
            or ((s[K.CAUGHT + o] >> ref) & 1) != 0)                  # f


@njit(cache=True)
def rollout(s: np.ndarray, rng: np.ndarray) -> int:
    """The rollout policy's abstract action (heuristics first, then the table)."""
    if heuristic_call(s):
        return A_CALL
    mask = np.empty(N_ABSTRACT, dtype=np.int64)
    n = legal(s, mask)
    spare = 0.0
    for a in range(N_ABSTRACT):
        if mask[a] == 0:
            spare += ROLLOUT_P[a]
    extra = spare / n
    x = rand_float(rng)
    last = -1
    for a in range(N_ABSTRACT):
        if mask[a]:
            last = a
            x -= ROLLOUT_P[a] + extra
            if x < 0.0:
                return a
    return last


@njit(cache=True)
def sample(v: np.ndarray, j: int, rng: np.ndarray, s: np.ndarray, h: int) -> bool:
    return K.sample_claim(v, j, rng, s, h)


ABSTRACTION = Abstraction(attrs=attrs, pack=pack, legal=legal, concrete=concrete,
                          rollout=rollout, sample=sample)
