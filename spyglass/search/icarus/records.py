"""The ICARUS records that are not tree nodes, compiled: a hash table and the policies.

Whitehouse 2014, §8.2.3: MAST's records are (action, player) pairs and LGR's are
(previous move, replier) pairs, so they are flat arrays indexed by
``player * n_actions + action``. NAST's records (N-grams, any N) and EPIC's
(positions-in-episode, §8.3) are sequences of moves, so they live in one open-addressing
hash table keyed by a 64-bit hash of the sequence (the two are salted apart). The hash
uses xors and shifts only, so it runs the same under ``NUMBA_DISABLE_JIT=1``; two
different sequences share a record only on a 64-bit collision. As in the baseline's
tree, a NAST record is created at its first visit. An EPIC record is created the first
time it is captured, visited (ψvisit) or available (ψavail): EPIC-7's records all start
at (0, 0, 0) and count every availability, so a record that does not exist yet is one
whose information is still (0, 0, 0), and the counts are EPIC-7's exactly while the table
has room. The named departure ``epic_avail=visited`` creates EPIC records at their first
visit only and counts availability from then on (a record first visited late gets a
smaller m, so a smaller exploration term √(log m / n)). When the table is
3/4 full, new records are no longer created (they stay unvisited and uncounted) and
``hmeta[H_FULL]`` is set (``IcarusRecords.table_full``).

Statistics: ``hstat[slot] = (total reward, visits, availability)``; ``mast[k] = (total,
visits)``; ``lgr[k]`` = the last good reply or -1 (⊥).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float

H_COUNT, H_FULL = 0, 1
HMETA_SIZE = 2
NAST_SEED = np.uint64(0x6E617374A5A5A5A5)
EPIC_SEED = np.uint64(0x65706963C3C3C3C3)
_K = np.uint64(0x9E3779B97F4A7C15)
_S13 = np.uint64(13)
_S7 = np.uint64(7)
_S17 = np.uint64(17)
_U1 = np.uint64(1)
_U0 = np.uint64(0)
INF = np.inf


@njit(cache=True, inline="always")
def mix(h: np.uint64, x: int) -> np.uint64:
    """Fold ``x`` (a non-negative int) into hash ``h`` (xorshift64 rounds: no overflow)."""
    h ^= np.uint64(x) ^ _K
    h ^= h << _S13
    h ^= h >> _S7
    h ^= h << _S17
    h ^= h << _S13
    h ^= h >> _S7
    h ^= h << _S17
    return h


@njit(cache=True, inline="always")
def find(hkeys: np.ndarray, hstat: np.ndarray, hmeta: np.ndarray, key: np.uint64,
         insert: bool) -> int:
    """The slot of ``key`` (created if ``insert`` and there is room), or -1."""
    key |= _U1  # 0 marks an empty slot
    mask = hkeys.shape[0] - 1
    i = np.int64(key & np.uint64(mask))
    while True:
        k = hkeys[i]
        if k == key:
            return i
        if k == _U0:
            if not insert:
                return -1
            if hmeta[H_COUNT] * 4 >= hkeys.shape[0] * 3:
                hmeta[H_FULL] = 1
                return -1
            hkeys[i] = key
            hstat[i, 0] = 0.0
            hstat[i, 1] = 0.0
            hstat[i, 2] = 0.0
            hmeta[H_COUNT] += 1
            return i
        i = (i + 1) & mask


@njit(cache=True, inline="always")
def pick_best(vals: np.ndarray, acts: np.ndarray, nl: int, rng: np.ndarray) -> int:
    """U[argmax]: a uniformly random action among those of maximal value."""
    best = -INF
    cnt = 0
    for i in range(nl):
        v = vals[i]
        if v > best:
            best = v
            cnt = 1
        elif v == best:
            cnt += 1
    r = rand_below(rng, cnt) if cnt > 1 else 0
    for i in range(nl):
        if vals[i] == best:
            if r == 0:
                return acts[i]
            r -= 1
    return acts[0]


@njit(cache=True, inline="always")
def pick_weighted(vals: np.ndarray, acts: np.ndarray, nl: int, total: float,
                  rng: np.ndarray) -> int:
    """An action drawn with probability proportional to ``vals`` (uniform if all 0)."""
    if total <= 0.0:
        return acts[rand_below(rng, nl)]
    r = rand_float(rng) * total
    for i in range(nl - 1):
        r -= vals[i]
        if r < 0.0:
            return acts[i]
    return acts[nl - 1]


@njit(cache=True, inline="always")
def mast_action(mast: np.ndarray, p: int, n_actions: int, acts: np.ndarray, nl: int,
                vals: np.ndarray, policy: int, tau: float, eps: float, c: float,
                rng: np.ndarray) -> int:
    """MAST's policy (MAST-4 and its variants): Gibbs, ε-greedy, roulette or UCB1."""
    base = p * n_actions
    if policy == 3:  # UCB1 over the (action, player) averages
        tot_n = 0.0
        for i in range(nl):
            tot_n += mast[base + acts[i], 1]
        log_n = math.log(tot_n) if tot_n > 1.0 else 0.0
        for i in range(nl):
            n = mast[base + acts[i], 1]
            vals[i] = INF if n == 0.0 else (mast[base + acts[i], 0] / n
                                           + c * math.sqrt(log_n / n))
        return pick_best(vals, acts, nl, rng)
    total = 0.0
    for i in range(nl):
        n = mast[base + acts[i], 1]
        v = mast[base + acts[i], 0] / n if n > 0.0 else 1.0
        if policy == 0:
            v = math.exp(v / tau)
        vals[i] = v
        total += v
    if policy == 1:
        if rand_float(rng) < eps:
            return acts[rand_below(rng, nl)]
        return pick_best(vals, acts, nl, rng)
    return pick_weighted(vals, acts, nl, total, rng)


@njit(cache=True, inline="always")
def table_ucb_action(hkeys: np.ndarray, hstat: np.ndarray, hmeta: np.ndarray,
                     prefix: np.uint64, p: int, acts: np.ndarray, nl: int, vals: np.ndarray,
                     c: float, use_avail: bool, rng: np.ndarray) -> int:
    """UCB1 over the hashed records ``prefix + a`` (NAST-4 with Σ visits; EPIC-4 with the
    record's own availability as in the baseline's subset-armed bandit)."""
    tot_n = 0.0
    for i in range(nl):
        slot = find(hkeys, hstat, hmeta, mix(mix(prefix, acts[i] + 1), p + 1), False)
        if slot < 0 or hstat[slot, 1] == 0.0:
            vals[i] = INF
        else:
            vals[i] = -hstat[slot, 0] - 1.0  # placeholder until tot_n is known
            tot_n += hstat[slot, 1]
            if use_avail:
                m = hstat[slot, 2]
                n = hstat[slot, 1]
                vals[i] = hstat[slot, 0] / n + c * math.sqrt(
                    (math.log(m) if m > 1.0 else 0.0) / n)
    if not use_avail:
        log_n = math.log(tot_n) if tot_n > 1.0 else 0.0
        for i in range(nl):
            if vals[i] != INF:
                slot = find(hkeys, hstat, hmeta, mix(mix(prefix, acts[i] + 1), p + 1), False)
                n = hstat[slot, 1]
                vals[i] = hstat[slot, 0] / n + c * math.sqrt(log_n / n)
    return pick_best(vals, acts, nl, rng)
