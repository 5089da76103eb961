"""SO-ISMCTS with partially observable moves (Whitehouse 2014, §6.2, SO-ISMCTS+POM).

As :mod:`.so` (one tree, the searcher's; sampled determinizations; availability counts),
except that another player's move is an edge labelled by the searcher's *observation*
of it (``kernel.observe(s, a, searcher)``, a 64-bit key). At an opponent's node the arms
are the observation classes some legal action produces in this determinization; the
bandit chooses a class (with availability counts) and an action of that class is then
played uniformly at random: the tree cannot tell the opponent's moves within a class
apart, so it models the opponent as random inside it (§6.2: in a phantom game every
opponent move looks alike, the tree has one opponent edge and POM assumes random play).

A move the searcher does not perceive at all (observation key ``UNSEEN``, e.g. the
opponent's refused try in Phantom) is no edge: the opponent makes such a move as often
as uniform play would, and the tree stays where it is.

The searcher's own moves are labelled by move key (:func:`.pool.move_key`); when one
reveals hidden moves of others a second level keyed by its observation follows (see
:mod:`.so`). This is the game-general successor of ``mode="pom"`` in
:mod:`spyglass.search.so_ismcts`. """

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


@njit(cache=True)
def sorted_position(arr: np.ndarray, k: int, key: int) -> int:
    """Index of ``key`` in the sorted ``arr[:k]``, or -1."""
    lo = 0
    hi = k
    while lo < hi:
        mid = (lo + hi) >> 1
        if arr[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    if lo < k and arr[lo] == key:
        return lo
    return -1


@njit(inline="always")  # inlined into each game's cached entry point (see .entry)
def run(G, simultaneous, view, searcher, n_actions, state_size, root, data, fdata, meta, xs,
        kind, c, exp3, n_iter, rng, width):
    """Run up to ``n_iter`` SO-ISMCTS+POM iterations from ``root``; as :func:`.so.run`."""
    s = np.empty(state_size, dtype=np.int64)
    path = np.empty(width, dtype=np.int64)
    who = np.empty(width, dtype=np.int64)
    acts = np.empty(n_actions, dtype=np.int64)
    arms = np.empty(n_actions, dtype=np.int64)
    keys = np.empty(n_actions, dtype=np.int64)
    okeys = np.empty(n_actions, dtype=np.int64)
    ukeys = np.empty(n_actions, dtype=np.int64)
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
            own = p == searcher
            # Edge labels of the legal actions: move keys for the searcher's own, its
            # observations of the opponent's.
            for i in range(nl):
                a = acts[i]
                okeys[i] = -2 - ((a << 8) | p) if own else G.observe(s, a, searcher)
                ukeys[i] = okeys[i]
            if not own:
                # Moves the searcher does not perceive at all (UNSEEN) are no edges of its
                # tree: the opponent makes one, uniformly, as often as uniform play would,
                # and the tree stays where it is.
                n_unseen = 0
                for i in range(nl):
                    if okeys[i] == UNSEEN:
                        n_unseen += 1
                if n_unseen > 0 and rand_below(rng, nl) < n_unseen:
                    r = rand_below(rng, n_unseen)
                    for i in range(nl):
                        if okeys[i] == UNSEEN:
                            if r == 0:
                                a = acts[i]
                                break
                            r -= 1
                    G.apply(s, a)
                    continue
            step += 1
            ukeys[:nl].sort()
            nd = 0
            for i in range(nl):
                if ukeys[i] == UNSEEN and not own:
                    continue
                if nd == 0 or ukeys[i] != ukeys[nd - 1]:
                    ukeys[nd] = ukeys[i]
                    nd += 1
            n_arms = 0
            ch = data[u, CHILD]
            while ch >= 0:
                pos = sorted_position(ukeys, nd, data[ch, KEY])
                if pos >= 0:
                    arms[n_arms] = ch
                    n_arms += 1
                    seen[pos] = step
                ch = data[ch, SIBLING]
            expanding = n_arms < nd
            if expanding:
                r = rand_below(rng, nd - n_arms)
                key = -1
                for i in range(nd):
                    if seen[i] != step:
                        if r == 0:
                            key = ukeys[i]
                            break
                        r -= 1
                chosen = add_child(data, fdata, meta, u, key)
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
                key = data[chosen, KEY]
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
                key = data[chosen, KEY]
            for q in range(n_arms):
                data[arms[q], AVAIL] += 1
            if own:
                a = (-2 - key) >> 8
            else:
                # An action of the chosen observation class, uniformly.
                m = 0
                for i in range(nl):
                    if okeys[i] == key:
                        keys[m] = acts[i]
                        m += 1
                a = keys[rand_below(rng, m)]
            path[plen] = chosen
            who[plen] = p
            plen += 1
            if expanding:
                G.apply(s, a)
                break
            if own and G.move_reveals(s):
                key = G.observe(s, a, searcher)
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
