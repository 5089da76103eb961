"""Plain UCT on one full state (Kocsis & Szepesvári 2006; Whitehouse 2014, §3.2).

The building block of three agents: UCT for perfect-information games (the state is
the game), determinized UCT / PIMC (each tree searches one sampled determinization,
:mod:`.ensemble`) and cheating UCT (the true state, for a player that is explicitly
given it). Every move is visible here, so a node's children are all legal whenever it
is reached and the bandit uses the parent's visits (no availability counts). Edges are
action ids; a node's statistics are those of the player who made the move into it
(maxⁿ). The tree grows by one node per iteration, then a random playout.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng import rand_below
from spyglass.search.sampled.pool import (
    CHILD,
    DEPTH,
    FULL,
    KEY,
    NCHILD,
    SIBLING,
    SUMSQ,
    TOTAL,
    VISITS,
    add_child,
)
from spyglass.search.sampled.select import select_child


@njit(inline="always")  # inlined into each game's cached entry point (see .entry)
def run(G, state, n_actions, root, data, fdata, meta, kind, c, n_iter, rng, width):
    """Run up to ``n_iter`` UCT iterations from full state ``state`` at tree node ``root``.

    Returns how many ran; stops early when the pool is full (``meta[FULL]``) and at once,
    flagging ``meta[DEPTH]``, on a path longer than ``width`` nodes.
    """
    s = np.empty_like(state)
    path = np.empty(width, dtype=np.int64)
    who = np.empty(width, dtype=np.int64)
    seen = np.full(n_actions, -1, dtype=np.int64)
    acts = np.empty(n_actions, dtype=np.int64)
    step = 0
    done = 0
    for _ in range(n_iter):
        if meta[FULL] != 0:
            break
        s[:] = state
        u = root
        path[0] = root
        who[0] = 0
        plen = 1
        while not G.is_terminal(s):
            if plen + 1 > width:
                meta[DEPTH] = 1
                return done
            p = G.actor(s)
            nl = G.n_legal(s)
            if data[u, NCHILD] < nl:
                step += 1
                ch = data[u, CHILD]
                while ch >= 0:
                    seen[data[ch, KEY]] = step
                    ch = data[ch, SIBLING]
                r = rand_below(rng, nl - data[u, NCHILD])
                a = -1
                G.legal_actions(s, acts)
                for i in range(nl):
                    b = acts[i]
                    if seen[b] != step:
                        if r == 0:
                            a = b
                            break
                        r -= 1
                ch = add_child(data, fdata, meta, u, a)
                if ch < 0:
                    return done
                G.apply(s, a)
                path[plen] = ch
                who[plen] = p
                plen += 1
                break
            ch = select_child(data, fdata, u, kind, c)
            G.apply(s, data[ch, KEY])
            path[plen] = ch
            who[plen] = p
            plen += 1
            u = ch
        G.playout(s, rng)
        for q in range(plen):
            v = path[q]
            r = G.reward(s, who[q])
            data[v, VISITS] += 1
            fdata[v, TOTAL] += r
            fdata[v, SUMSQ] += r * r
        done += 1
    return done
