"""Dealing the cards a player has not seen, consistently with what it has seen.

A determinization of a trick-taking game (Whitehouse 2014, §5.1 and §5.2.1) deals the
cards the viewer has not seen to the other players, so that each holds its public number
of cards and none holds a card it is known not to hold: a void shown by failing to
follow suit, or what the rules let everyone infer from a move. Cards fall into *groups*
(the suits; Hearts also sets Q♠ apart) and a player either may or may not hold each
group. :func:`deal_three` draws such a deal of three hidden hands exactly uniformly:
up to ``tries`` uniform proposals (a shuffle of the unseen cards dealt by hand size),
the first that respects every player's allowed cards kept; if none does,
:func:`deal_exact` counts the completions group by group and draws from those counts.
Hearts and Spades deal this way; the small helpers (:func:`rand_small`,
:func:`choose_subset`, :func:`nth_bit`) are the draws their kernels make elsewhere too.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.cards.bits import lowest_index, popcount
from spyglass.rng import next_u64

N_CARDS = 52


@njit(cache=True, inline="always")
def bit(c: int) -> int:
    """The mask of card ``c``."""
    return np.int64(1) << c


@njit(cache=True, inline="always")
def nth_bit(x: int, i: int) -> int:
    """Index of the ``i``-th lowest set bit of ``x``."""
    for _ in range(i):
        x &= x - 1
    return lowest_index(x)


@njit(cache=True, inline="always")
def rand_small(rng: np.ndarray, n: int) -> int:
    """A uniform integer in ``[0, n)`` for ``n <= 52``: 24 random bits scaled by a
    multiply and a shift instead of a division (bias below n / 2**24)."""
    return int(((next_u64(rng) >> np.uint64(40)) * np.uint64(n)) >> np.uint64(24))


@njit(cache=True, inline="always")
def choose_subset(pool: int, k: int, rng: np.ndarray) -> int:
    """A uniform ``k``-subset of the set bits of ``pool`` (selection sampling)."""
    out = 0
    left = popcount(pool)
    x = pool
    while k > 0:
        low = x & -x
        if rand_small(rng, left) < k:
            out |= low
            k -= 1
        left -= 1
        x ^= low
    return out


@njit(cache=True)
def binom(n: int, k: int) -> float:
    """The binomial coefficient as a float (0 outside ``0 <= k <= n``)."""
    if k < 0 or k > n:
        return 0.0
    r = 1.0
    for i in range(k):
        r = r * (n - i) / (i + 1)
    return r


@njit(cache=True, inline="always")
def _splits(f: np.ndarray, ok: np.ndarray, g: int, n: int, a: int, b: int, rem2: int,
            select: bool, x: float) -> tuple[float, int, int]:
    """The ways to split group ``g``'s ``n`` unknown cards ``k0 / k1 / k2`` among the
    three players (``a`` and ``b`` cards left for players 0 and 1, ``rem2`` for player
    2), each weighted by the completions of the later groups (``f[g + 1]``).

    Counting (``select`` False): ``(total weight, last split)``. Drawing: subtract the
    weights from ``x`` (uniform in ``[0, total)``) and stop at the split where it turns
    negative: ``(x left, k0, k1)``. The split ``-1, -1`` means there is none."""
    tot = 0.0
    pick0, pick1 = -1, -1
    for k0 in range(min(a, n) + 1):
        if k0 and not ok[0, g]:
            break
        for k1 in range(min(b, n - k0) + 1):
            if k1 and not ok[1, g]:
                break
            k2 = n - k0 - k1
            if k2 > rem2 or (k2 and not ok[2, g]):
                continue
            w = f[g + 1, a - k0, b - k1]
            if w <= 0.0:
                continue
            w = binom(n, k0) * binom(n - k0, k1) * w
            pick0, pick1 = k0, k1
            if select:
                x -= w
                if x < 0.0:
                    return x, pick0, pick1
            else:
                tot += w
    return (x if select else tot), pick0, pick1


@njit(cache=True, inline="always")
def _completions(unknown: int, c0: int, c1: int, a0: int, a1: int, a2: int,
                 groups: np.ndarray) -> tuple:
    """``(f, n_g, ok, rest)``: ``f[g, a, b]`` the ways to deal groups ``g..`` with ``a``
    and ``b`` cards left for players 0 and 1 (see :func:`deal_exact`)."""
    n_groups = groups.shape[0]
    allowed = (a0, a1, a2)
    n_g = np.zeros(n_groups, dtype=np.int64)
    ok = np.zeros((3, n_groups), dtype=np.bool_)
    for g in range(n_groups):
        n_g[g] = popcount(unknown & groups[g])
        for i in range(3):
            ok[i, g] = (allowed[i] & groups[g]) == groups[g] or \
                (unknown & groups[g] & ~allowed[i]) == 0
    rest = np.zeros(n_groups + 1, dtype=np.int64)
    for g in range(n_groups - 1, -1, -1):
        rest[g] = rest[g + 1] + n_g[g]
    f = np.zeros((n_groups + 1, c0 + 1, c1 + 1))
    f[n_groups, 0, 0] = 1.0
    for g in range(n_groups - 1, -1, -1):
        n = n_g[g]
        for a in range(c0 + 1):
            for b in range(c1 + 1):
                rem2 = rest[g] - a - b
                if rem2 < 0:
                    continue
                f[g, a, b] = _splits(f, ok, g, n, a, b, rem2, False, 0.0)[0]
    return f, n_g, ok, rest


@njit(cache=True)
def count_deals(unknown: int, c0: int, c1: int, c2: int, a0: int, a1: int, a2: int,
                groups: np.ndarray) -> float:
    """How many deals of ``unknown`` to three players (``c0``, ``c1``, ``c2`` cards)
    respect the allowed masks ``a0``, ``a1``, ``a2`` (unions of ``groups``), as a float."""
    if c0 < 0 or c1 < 0 or c2 < 0 or c0 + c1 + c2 != popcount(unknown):
        return 0.0
    f = _completions(unknown, c0, c1, a0, a1, a2, groups)[0]
    return f[0, c0, c1]


@njit(cache=True)
def deal_exact(unknown: int, c0: int, c1: int, c2: int, a0: int, a1: int, a2: int,
               groups: np.ndarray, rng: np.ndarray) -> tuple[bool, int, int, int]:
    """Deal ``unknown`` to three players (``c0``, ``c1``, ``c2`` cards; allowed masks
    ``a0``, ``a1``, ``a2``) exactly uniformly; ``(ok, hand0, hand1, hand2)``.

    Each player either may hold a whole group of ``groups`` (disjoint masks covering
    ``unknown``) or none of its unknown cards. Counts the completions group by group
    (``f[g, a, b]``: ways to deal groups ``g..`` with ``a`` and ``b`` cards left for
    players 0 and 1), draws how many cards of each group each player gets from those
    totals, then the cards within each group uniformly. ``ok`` is False when no deal
    exists."""
    n_groups = groups.shape[0]
    caps = (c0, c1, c2)
    f, n_g, ok, rest = _completions(unknown, c0, c1, a0, a1, a2, groups)
    if caps[0] + caps[1] + caps[2] != rest[0] or f[0, c0, c1] <= 0.0:
        return False, 0, 0, 0
    a, b = c0, c1
    h0 = h1 = h2 = 0
    for g in range(n_groups):
        n = n_g[g]
        rem2 = rest[g] - a - b
        x = f[g, a, b] * (float(next_u64(rng) >> np.uint64(11)) * (1.0 / 9007199254740992.0))
        _, pick0, pick1 = _splits(f, ok, g, n, a, b, rem2, True, x)
        if pick0 < 0:
            return False, 0, 0, 0
        pool = unknown & groups[g]
        s0 = choose_subset(pool, pick0, rng)
        pool &= ~s0
        s1 = choose_subset(pool, pick1, rng)
        h0 |= s0
        h1 |= s1
        h2 |= pool & ~s1
        a -= pick0
        b -= pick1
    return True, h0, h1, h2


@njit(cache=True, inline="always")
def _take(cards: np.ndarray, start: int, count: int) -> int:
    m = 0
    for i in range(start, start + count):
        m |= bit(cards[i])
    return m


@njit(cache=True)
def deal_three(unknown: int, c0: int, c1: int, c2: int, a0: int, a1: int, a2: int,
               groups: np.ndarray, tries: int, rng: np.ndarray) -> tuple[bool, int, int, int]:
    """Deal ``unknown`` (``c0 + c1 + c2`` cards) to three players with allowed masks
    ``a0``, ``a1``, ``a2``, uniformly among the deals that respect them;
    ``(ok, hand0, hand1, hand2)``, ``ok`` False when there is none.

    Up to ``tries`` proposals: the unseen cards, in increasing order, shuffled
    (Fisher-Yates, each shuffle continuing from the last) and dealt ``c0``, ``c1``,
    ``c2`` in turn; the first proposal that respects the allowed masks is a uniform draw
    from the consistent deals. If none does, :func:`deal_exact`. Hands are scalars, so
    the only allocation is the shuffled list."""
    cards = np.empty(N_CARDS, dtype=np.int64)
    n_u = 0
    x = unknown
    while x:
        cards[n_u] = lowest_index(x)
        n_u += 1
        x &= x - 1
    for _ in range(tries):
        for i in range(n_u - 1, 0, -1):
            r = rand_small(rng, i + 1)
            t = cards[i]
            cards[i] = cards[r]
            cards[r] = t
        h0 = _take(cards, 0, c0)
        if h0 & ~a0:
            continue
        h1 = _take(cards, c0, c1)
        if h1 & ~a1:
            continue
        h2 = _take(cards, c0 + c1, c2)
        if h2 & ~a2:
            continue
        return True, h0, h1, h2
    return deal_exact(unknown, c0, c1, c2, a0, a1, a2, groups, rng)
