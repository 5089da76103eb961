"""MO-ISMCTS with an ICARUS combination (Whitehouse 2014, ch. 8, Algorithm 8).

The loop is :func:`spyglass.search.sampled.mo.run` (§6.3) with the ICARUS parts of
:mod:`.uct` added and the baseline's parts unchanged, so the baseline ICARUS (Spec 1)
gives the same trees and decisions as that loop (tested). The trees keep the baseline
policy (subset-armed UCB1, eq. 5.1); the playout mix (MAST, LGR/LGRF, NAST, EPIC, random)
chooses at simulation nodes. The records see the moves of the *determinization* (the
actions the search played), as the simulation does: LGR's "previous move" is the
determinized action, not the replier's observation of it (LGR-4 writes [a_t]^ρt).
RAVE, AMAF and tree mixes need per-tree move statistics and are not provided here yet
(a ValueError says so).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float
from spyglass.search.bandits import UCB1, exp3_probabilities, ucb_tuned_value
from spyglass.search.icarus import records as R
from spyglass.search.icarus import spec as S
from spyglass.search.icarus.uct import (
    ROOT_LABEL,
    capture_records,
    epic_alternatives,
    mix_action,
)
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
def run(G, simultaneous, episode, view, searcher, n_actions, state_size, roots, data, fdata,
        meta, xs, kind, c, exp3, n_iter, rng, width, cfg, fcfg, mast, lgr, hkeys, hstat, hmeta):
    """Run up to ``n_iter`` ICARUS MO-ISMCTS iterations; ``roots[j]`` is player ``j``'s tree.

    Returns how many ran; stops as :func:`spyglass.search.sampled.so.run` does.
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
    n_players = n_trees
    hist_a = np.empty(width, dtype=np.int64)
    hist_p = np.empty(width, dtype=np.int64)
    vals = np.empty(n_actions, dtype=np.float64)
    mu = np.empty(n_players, dtype=np.float64)
    capture = cfg[S.C_CAPTURE_PLAYOUT] != 0
    uses_epic = cfg[S.C_USES_EPIC] != 0
    n_sim = cfg[S.C_N_SIM]
    plain_playout = not capture and n_sim == 1 and cfg[S.C_SIM_TERMS] == S.RANDOM
    ep_keys = np.empty(width if uses_epic else 1, dtype=np.uint64)
    ep_alt = np.empty(width * n_actions if uses_epic else 1, dtype=np.int64)
    root_h = R.mix(R.EPIC_SEED, ROOT_LABEL)
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
        hl = 0
        n_alt = 0
        ep_h = root_h
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
            if uses_epic:
                ck = R.mix(R.mix(ep_h, a + 1), p + 1)
                ep_keys[hl] = ck
                n_alt = epic_alternatives(G, s, p, nl, a, ep_h, hkeys, hstat, hmeta, ep_alt,
                                          n_alt)
            hist_a[hl] = a
            hist_p[hl] = p
            hl += 1
            G.apply(s, a)
            if uses_epic:
                lab = episode(s, a)
                ep_h = R.mix(R.EPIC_SEED, lab + 1) if lab >= 0 else ck
            if expanding:
                break
        tree_moves = hl
        if plain_playout:
            G.playout(s, rng)
        else:
            while not G.is_terminal(s):
                if hl + 1 > width:
                    meta[DEPTH] = 1
                    return done
                p = G.actor(s)
                nl = G.n_legal(s)
                a = mix_action(G, s, p, nl, acts, vals, cfg, fcfg, S.C_SIM_TERMS, n_sim,
                               S.F_SIM_W, n_actions, mast, lgr, hkeys, hstat, hmeta, hist_a,
                               hl, ep_h, rng)
                if uses_epic:
                    ck = R.mix(R.mix(ep_h, a + 1), p + 1)
                    ep_keys[hl] = ck
                    n_alt = epic_alternatives(G, s, p, nl, a, ep_h, hkeys, hstat, hmeta,
                                              ep_alt, n_alt)
                hist_a[hl] = a
                hist_p[hl] = p
                hl += 1
                G.apply(s, a)
                if uses_epic:
                    lab = episode(s, a)
                    ep_h = R.mix(R.EPIC_SEED, lab + 1) if lab >= 0 else ck
        for t in range(n_trees):
            r = G.reward(s, t)
            for q in range(plen[t]):
                v = path[t, q]
                data[v, VISITS] += 1
                fdata[v, TOTAL] += r
                fdata[v, SUMSQ] += r * r
        for q in range(nx):
            xs[x_node[q]] += G.reward(s, x_who[q]) / x_prob[q]
        if capture or not plain_playout:
            for j in range(n_players):
                mu[j] = G.reward(s, j)
            capture_records(cfg, mu, n_players, n_actions, hist_a, hist_p, hl, tree_moves, mast,
                            lgr, hkeys, hstat, hmeta, ep_keys, ep_alt, n_alt)
        done += 1
    return done
