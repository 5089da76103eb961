"""MO-ISMCTS over sampled determinizations (Whitehouse 2014, §6.3, Algorithms 4-5).

One tree per player; tree ``j``'s edges are moves *as player j sees them*: its own moves
by move key (the action id, :func:`.pool.move_key`), everyone else's by
``kernel.observe(s, a, j)`` (64-bit keys). Each iteration samples a determinization from
the searcher's view and descends all trees together: the acting player's tree chooses
among the children legal in this determinization (availability counts, eq. 5.1: one tree
serves every determinization), and every other tree follows its owner's observation of
the chosen move. Tree ``j``'s nodes hold ``j``'s rewards. The searcher's root is its
current information set; the opponents' roots stand for whatever they hold in the
sampled states (the thesis's "multiple observers").

Growth and the two-level ``move_reveals`` convention are those of :mod:`.so`: each tree
stops descending where it created a node, selection ends when the actor's tree has
stopped, and a random playout finishes the game. A move that a player does not perceive
at all (observation key ``UNSEEN``, e.g. the opponent's refused try in Phantom) moves
nothing in that player's tree. This is the game-general successor of
:mod:`spyglass.search.mo_ismcts`.
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
    SAMPLE_FAILED,
    SIBLING,
    SUMSQ,
    TOTAL,
    VISITS,
    add_child,
    find_child_mtf,
)
from spyglass.search.sampled.select import LOG_TABLE, LOG_TABLE_SIZE
from spyglass.search.sampled.so import MAX_SAMPLE_TRIES


@njit(inline="always")  # inlined into each game's cached entry point (see .entry)
def run(G, simultaneous, view, searcher, n_actions, state_size, roots, data, fdata, meta, xs,
        kind, c, exp3, n_iter, rng, width):
    """Run up to ``n_iter`` MO-ISMCTS iterations; ``roots[j]`` is player ``j``'s tree.

    Returns how many ran; stops as :func:`.so.run` does.
    """
    n_trees = roots.shape[0]
    s = np.empty(state_size, dtype=np.int64)
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
        ok = False
        for _t in range(MAX_SAMPLE_TRIES):
            if G.sample(view, searcher, rng, s):
                ok = True
                break
        if not ok:
            meta[SAMPLE_FAILED] = 1
            return done
        for t in range(n_trees):
            cur[t] = roots[t]
            path[t, 0] = roots[t]
            plen[t] = 1
        nx = 0
        while not G.is_terminal(s):
            p = G.actor(s)
            u = cur[p]
            if u < 0:
                break
            nl = G.legal_actions(s, acts)
            step += 1
            for i in range(nl):
                mark[acts[i]] = step
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
            expanding = n_arms < nl
            if expanding:
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
                if t == p:
                    ch = chosen
                    created = expanding
                    if reveals and not created:
                        path[t, plen[t]] = ch
                        plen[t] += 1
                        v = ch
                        key = G.observe(s, a, t)
                        ch = find_child_mtf(data, v, key)
                        created = ch < 0
                        if created:
                            ch = add_child(data, fdata, meta, v, key)
                else:
                    key = G.observe(s, a, t)
                    if key == UNSEEN:
                        continue  # t does not perceive this move: its tree stays put
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
