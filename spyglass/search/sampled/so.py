"""SO-ISMCTS over sampled determinizations (Whitehouse 2014, §5.2, Algorithms 2-3).

One tree, the searcher's, rooted at its current information set. Each iteration draws a
determinization with ``kernel.sample(view, searcher, ...)``, then walks the tree: every
player's move is an edge labelled by its move key (the player and the action id,
:func:`.pool.move_key`), so an edge is the same move under every determinization. Only
children whose action is legal in this determinization are arms; each of them gets one
more availability (eq. 5.1) and the bandit uses availability in place of the parent's
visits. Node statistics are those of the player who made the move into the node (maxⁿ,
§5.2.4).

Conventions (the same in :mod:`.pom` and :mod:`.mo`): a move whose own observation
reveals other players' hidden moves (``move_reveals``) is stored as two levels, the
choice and then the revelation (keyed by the actor's observation of its move -- SO
treats every move as visible -- and in POM/MO by the tree owner's), so the choice's
statistics do not depend on what the chooser could not yet see; the tree grows by at
most one node per iteration (descent stops at a new node, then a random playout);
EXP3 (§3.2.4, ``exp3=True``) replaces UCB once every arm has been tried at nodes where
the game's ``simultaneous(s)`` predicate holds.

This is the game-general successor of ``mode="so"`` in :mod:`spyglass.search.so_ismcts`,
which takes enumerated Resistance determinizations and action *indices*.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float
from spyglass.search.bandits import UCB1, exp3_probabilities, ucb_tuned_value
from spyglass.search.sampled.pool import (
    AVAIL,
    CHILD,
    DEPTH,
    FULL,
    KEY,
    MAX_SAMPLE_TRIES,
    SAMPLE_FAILED,
    SIBLING,
    SUMSQ,
    TOTAL,
    VISITS,
    add_child,
    find_child_mtf,
)
from spyglass.search.sampled.select import LOG_TABLE, LOG_TABLE_SIZE

__all__ = ["MAX_SAMPLE_TRIES", "run"]


@njit(inline="always")  # inlined into each game's cached entry point (see .entry)
def run(G, simultaneous, view, searcher, n_actions, state_size, root, data, fdata, meta, xs,
        kind, c, exp3, n_iter, rng, width):
    """Run up to ``n_iter`` SO-ISMCTS iterations from tree node ``root``; return how many.

    Stops early (after a whole iteration) when ``meta`` flags the pool full; stops at
    once, flagging ``meta[DEPTH]`` or ``meta[SAMPLE_FAILED]``, on a path longer than
    ``width`` nodes or a sampler that keeps failing.
    """
    s = np.empty(state_size, dtype=np.int64)
    path = np.empty(width, dtype=np.int64)
    who = np.empty(width, dtype=np.int64)
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
        u = root
        path[0] = root
        who[0] = searcher
        plen = 1
        nx = 0
        while not G.is_terminal(s):
            if plen + 2 > width:
                meta[DEPTH] = 1
                return done
            p = G.actor(s)
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
            path[plen] = chosen
            who[plen] = p
            plen += 1
            if expanding:
                G.apply(s, a)
                break
            if G.move_reveals(s):
                key = G.observe(s, a, p)
                nxt = find_child_mtf(data, chosen, key)
                G.apply(s, a)
                if nxt < 0:
                    nxt = add_child(data, fdata, meta, chosen, key)
                    if nxt < 0:
                        return done
                    path[plen] = nxt
                    who[plen] = p
                    plen += 1
                    break
                path[plen] = nxt
                who[plen] = p
                plen += 1
                u = nxt
            else:
                G.apply(s, a)
                u = chosen
        G.playout(s, rng)
        for q in range(plen):
            v = path[q]
            r = G.reward(s, who[q])
            data[v, VISITS] += 1
            fdata[v, TOTAL] += r
            fdata[v, SUMSQ] += r * r
        for q in range(nx):
            xs[x_node[q]] += G.reward(s, x_who[q]) / x_prob[q]
        done += 1
    return done
