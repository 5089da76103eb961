"""MT-ISMCTS over weighted particles (Cowling, Whitehouse & Powley 2015, §IV, Algorithm 1).

Many-tree ISMCTS keeps, for every player, *one tree per information set that player may
hold at the root*: each iteration takes a determinization ``d`` and, for each player
``i``, the tree whose root is ``[d]^i`` (looked up by ``kernel.info_key(d, i)`` in a
small open-addressed table per player, :func:`tree_root`). Below the roots it is
MO-ISMCTS (:mod:`.mo`; Whitehouse 2014, §6.3): tree ``i``'s edges are moves as ``i``
sees them (its own moves by move key, the others' by ``kernel.observe``), the acting
player's tree selects among the children legal in ``d`` (availability counts, eq. 5.1),
every other tree follows its owner's observation, each tree grows by at most one node
per iteration and holds its owner's rewards. So an opponent's decisions may depend on
what it knows at the root and the searcher does not (its hand, its role), which MO's
one tree per player cannot express (Cowling et al. 2015, §IV).

Where determinizations come from is the caller's choice (:class:`.mt_driver.MTSearch`):
weighted particles, full states (``cumw`` is their cumulative normalised weight). For
φ they are the particle-filter belief of :mod:`spyglass.search.particles` (states
consistent with the searcher's observations); for a self-determinizing phase (Cowling
et al. 2015, §VI; :mod:`spyglass.search.selfdet`) they are ψ, states consistent with the
public history only, so many lie outside the searcher's information set: such an
iteration reaches another of the searcher's trees and leaves the decision tree alone,
while the opponents' trees learn how they would play against each possible searcher
(the opponent model that bluffing exploits).

``fixed[p] = 1`` (TWOSTEP's second phase) freezes player ``p``'s trees: they are neither
updated nor grown (looked up without move-to-front, and a tree missing for an
information set is not made), and at ``p``'s nodes a child legal in the determinization
is drawn with probability proportional to its visits (its mixed policy from the first
phase); where ``p`` has no such child, or no tree, the iteration goes on to its playout.

The number of trees per player is capped (``max_trees``): an information set first met
when the cap is reached shares the player's *fallback* tree, MO-style (the paper's
"bucketing" for games whose information sets are too many, §IV). With particles the
opponents' root information sets are at most as many as the particles.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float
from spyglass.search.bandits import UCB1, exp3_probabilities, ucb_tuned_value
from spyglass.search.protocol import UNSEEN
from spyglass.search.sampled.pool import (
    AVAIL,
    CHILD,
    DEPTH,
    FULL,
    KEY,
    SIBLING,
    SUMSQ,
    TOTAL,
    VISITS,
    add_child,
    find_child,
    find_child_mtf,
    new_node,
)
from spyglass.search.sampled.select import LOG_TABLE, LOG_TABLE_SIZE


@njit(cache=True)
def tree_slot(tkeys: np.ndarray, troots: np.ndarray, p: int, key: int) -> int:
    """The slot of player ``p``'s table holding information-set ``key``, or the free
    slot where it would go (``troots[p, slot] < 0``).

    ``tkeys``/``troots`` are ``(players, cap)`` open-addressed tables, ``cap`` a power of
    two larger than ``max_trees`` (so a free slot always ends a probe).
    """
    mask = tkeys.shape[1] - 1
    i = (key ^ (key >> 17) ^ (key >> 41)) & mask
    while troots[p, i] >= 0 and tkeys[p, i] != key:
        i = (i + 1) & mask
    return i


@njit(cache=True)
def tree_root(tkeys: np.ndarray, troots: np.ndarray, tcount: np.ndarray, max_trees: int,
              fallback: np.ndarray, p: int, key: int, data: np.ndarray, fdata: np.ndarray,
              meta: np.ndarray) -> int:
    """Player ``p``'s tree for information-set ``key`` (made on first use); the fallback
    tree once ``p`` has ``max_trees`` trees; -1 when the pool is full."""
    i = tree_slot(tkeys, troots, p, key)
    if troots[p, i] >= 0:
        return troots[p, i]
    if tcount[p] >= max_trees:
        return fallback[p]
    r = new_node(data, fdata, meta, -1)
    if r < 0:
        return -1
    tkeys[p, i] = key
    troots[p, i] = r
    tcount[p] += 1
    return r


@njit(cache=True)
def find_tree(tkeys: np.ndarray, troots: np.ndarray, tcount: np.ndarray, max_trees: int,
              fallback: np.ndarray, p: int, key: int) -> int:
    """Player ``p``'s existing tree for information-set ``key`` (as :func:`tree_root`,
    never making one): -1 when ``p`` has none for it."""
    i = tree_slot(tkeys, troots, p, key)
    if troots[p, i] >= 0:
        return troots[p, i]
    return fallback[p] if tcount[p] >= max_trees else -1


@njit(cache=True)
def pick_particle(cumw: np.ndarray, rng: np.ndarray) -> int:
    """A particle index drawn with probability proportional to its weight."""
    x = rand_float(rng) * cumw[cumw.shape[0] - 1]
    lo, hi = 0, cumw.shape[0] - 1
    while lo < hi:
        mid = (lo + hi) >> 1
        if cumw[mid] > x:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(inline="always")  # inlined into each game's cached entry point (see .entry)
def run(G, simultaneous, searcher, n_players, n_actions, state_size, particles, cumw, fixed,
        tkeys, troots, tcount, max_trees, fallback, data, fdata, meta, xs, kind, c, exp3,
        n_iter, rng, width):
    """Run up to ``n_iter`` MT-ISMCTS iterations; return how many ran.

    ``particles``: ``(N, state_size)`` full states, drawn by ``cumw``; ``fixed``: per
    player, 1 to freeze its trees (module docstring); the tree tables as in
    :func:`tree_root`.
    Stops as :func:`.so.run` does (``meta`` flags).
    """
    n_trees = n_players
    s = np.empty(state_size, dtype=np.int64)
    roots = np.empty(n_trees, dtype=np.int64)
    cur = np.empty(n_trees, dtype=np.int64)
    plen = np.empty(n_trees, dtype=np.int64)
    path = np.empty((n_trees, width), dtype=np.int64)
    acts = np.empty(n_actions, dtype=np.int64)
    arms = np.empty(n_actions, dtype=np.int64)
    mark = np.full(n_actions, -1, dtype=np.int64)
    seen = np.full(n_actions, -1, dtype=np.int64)
    probs = np.empty(n_actions, dtype=np.float64)
    scores = np.empty(n_actions, dtype=np.float64)
    x_node = np.empty(width, dtype=np.int64)
    x_prob = np.empty(width, dtype=np.float64)
    x_who = np.empty(width, dtype=np.int64)
    step = 0
    done = 0
    for _ in range(n_iter):
        if meta[FULL] != 0:
            break
        d = pick_particle(cumw, rng)
        s[:] = particles[d]
        for t in range(n_trees):
            if fixed[t]:
                r = find_tree(tkeys, troots, tcount, max_trees, fallback, t,
                              G.info_key(s, t))
                roots[t] = r
                cur[t] = r
                path[t, 0] = r
                plen[t] = 1 if r >= 0 else 0
                continue
            r = tree_root(tkeys, troots, tcount, max_trees, fallback, t, G.info_key(s, t),
                          data, fdata, meta)
            if r < 0:
                return done
            roots[t] = r
            cur[t] = r
            path[t, 0] = r
            plen[t] = 1
        nx = 0
        while not G.is_terminal(s):
            p = G.actor(s)
            u = cur[p]
            if u < 0:
                break
            nl = G.n_legal(s)
            step += 1
            for i in range(nl):
                a = G.legal_action(s, i)
                acts[i] = a
                mark[a] = step
            n_arms = 0
            ch = data[u, CHILD]
            while ch >= 0:
                k = data[ch, KEY]
                if k < -1:  # a move key (pool.move_key): is it p's, and legal here?
                    z = -2 - k
                    b = z >> 8
                    if (z & 255) == p and mark[b] == step:
                        arms[n_arms] = ch
                        n_arms += 1
                        seen[b] = step
                ch = data[ch, SIBLING]
            expanding = n_arms < nl and not fixed[p]
            if fixed[p]:
                # TWOSTEP: the frozen player's mixed policy, its visits among legal children
                total = 0
                for q in range(n_arms):
                    total += data[arms[q], VISITS]
                if total == 0:
                    break
                r = rand_below(rng, total)
                chosen = arms[n_arms - 1]
                for q in range(n_arms):
                    r -= data[arms[q], VISITS]
                    if r < 0:
                        chosen = arms[q]
                        break
                a = (-2 - data[chosen, KEY]) >> 8
            elif expanding:
                r = rand_below(rng, nl - n_arms)
                a = -1
                for i in range(nl):
                    if seen[acts[i]] != step:
                        if r == 0:
                            a = acts[i]
                            break
                        r -= 1
                chosen = add_child(data, fdata, meta, u, -2 - ((a << 8) | p))
                if chosen < 0:
                    return done
                data[chosen, AVAIL] += 1
            elif exp3 and n_arms > 1 and simultaneous(s):
                for q in range(n_arms):
                    scores[q] = xs[arms[q]]
                exp3_probabilities(scores, n_arms, max(data[u, VISITS], 1), probs)
                r = rand_float(rng)
                q = 0
                while q < n_arms - 1 and r >= probs[q]:
                    r -= probs[q]
                    q += 1
                chosen = arms[q]
                x_node[nx] = chosen
                x_prob[nx] = probs[q]
                x_who[nx] = p
                nx += 1
                a = (-2 - data[chosen, KEY]) >> 8
            else:
                # The subset-armed bandit (eq. 5.1), written out here: calling
                # select.select_available instead was 6-10% slower (MO, Phantom 4,4,4,
                # CPU time, side by side).
                chosen = -1
                best_v = -np.inf
                for q in range(n_arms):
                    chq = arms[q]
                    n_j = data[chq, VISITS]
                    if n_j == 0:
                        chosen = chq
                        break
                    av = data[chq, AVAIL]
                    log_n = LOG_TABLE[av] if av < LOG_TABLE_SIZE else math.log(av)
                    inv = 1.0 / n_j
                    if kind == UCB1:
                        val = fdata[chq, TOTAL] * inv + c * math.sqrt(log_n * inv)
                    else:
                        val = ucb_tuned_value(fdata[chq, TOTAL], fdata[chq, SUMSQ], n_j, log_n)
                    if val > best_v:
                        best_v = val
                        chosen = chq
                a = (-2 - data[chosen, KEY]) >> 8
            if not fixed[p]:
                for q in range(n_arms):
                    data[arms[q], AVAIL] += 1
            reveals = G.move_reveals(s)
            for t in range(n_trees):
                v = cur[t]
                if v < 0:
                    continue
                if plen[t] + 2 > width:
                    meta[DEPTH] = 1
                    return done
                observed = t != p
                if not observed:
                    ch = chosen
                    created = expanding
                    if reveals and not created:
                        # the choice node exists: step on to what the move revealed
                        path[t, plen[t]] = ch
                        plen[t] += 1
                        v = ch
                        observed = True
                if observed:
                    key = G.observe(s, a, t)
                    if key == UNSEEN:
                        continue  # t does not perceive this move: its tree stays put
                    if fixed[t]:  # a frozen tree: looked up as it is, never grown
                        ch = find_child(data, v, key)
                        if ch < 0:
                            cur[t] = -1
                            continue
                    else:
                        ch = find_child_mtf(data, v, key)
                    created = ch < 0
                    if created:
                        ch = add_child(data, fdata, meta, v, key)
                if ch < 0:
                    return done
                path[t, plen[t]] = ch
                plen[t] += 1
                cur[t] = -1 if created else ch
            G.apply(s, a)
            if expanding:
                break
        G.playout(s, rng)
        for t in range(n_trees):
            if fixed[t]:
                continue
            r = G.reward(s, t)
            for q in range(plen[t]):
                v = path[t, q]
                data[v, VISITS] += 1
                fdata[v, TOTAL] += r
                fdata[v, SUMSQ] += r * r
        for q in range(nx):
            xs[x_node[q]] += G.reward(s, x_who[q]) / x_prob[q]
        done += 1
    return done
