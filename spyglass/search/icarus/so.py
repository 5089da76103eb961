"""SO-ISMCTS with an ICARUS combination (Whitehouse 2014, ch. 8, Algorithm 8; §5.2).

The loop is :func:`spyglass.search.sampled.so.run` (Algorithms 2-3: one tree, the
searcher's, every player's move an edge keyed by its move key) with the ICARUS parts of
the UCT loop and the multiple-tree loop (:mod:`spyglass.search.sampled.uct`,
:mod:`spyglass.search.sampled.mo`; shared ones in :mod:`.policies`) added and the
baseline's parts unchanged, so the baseline ICARUS (Spec 1) gives the same tree, random draws and
decision as that loop (tested on every game). The playout mix (MAST, LGR/LGRF, NAST,
EPIC, random) chooses at simulation nodes; its records see every move of the
iteration's determinization, as in MO-ISMCTS (:mod:`spyglass.search.sampled.mo`).

**Tree policies.** The one tree holds every player's decisions, so AMAF's records
(AMAF-1) are its move nodes: ``amaf[node] = (total, visits)``, the node's mover's view.
AMAF-6 updates, for each node where player p chose during the descent, the siblings
that were *available* there (p's moves legal in this determinization: the subset-armed
arms of eq. 5.1, plus the child just expanded) whose action p played at that step or
later in the iteration (ξ's 0 ≤ i < j ≤ t), with p's reward, once per iteration. AMAF-4
is UCB1 on those records with the sum of the available siblings' AMAF visits as the
trials; RAVE mixes it with the baseline's subset-armed UCB1 by λ = √(k/(3n+k)), n the
visits of the choosing node (eq. 8.2-8.3) -- :func:`.uct.rave_select_arms`, shared.
Expansion stays uniform among the unexpanded legal actions. A tree mix (``mast>...``)
chooses among the legal actions with its playout policies (the chosen action's child is
followed, or expanded). At EXP3 (simultaneous-move) nodes the baseline's EXP3 stays.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float
from spyglass.search.bandits import UCB1, exp3_probabilities, ucb_tuned_value
from spyglass.search.icarus import records as R
from spyglass.search.icarus import spec as S
from spyglass.search.icarus.policies import (
    ROOT_LABEL,
    capture_records,
    epic_alternatives,
    mix_action,
    rave_select_arms,
)
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


@njit(inline="always")  # inlined into each game's cached entry point (see .entry)
def run(G, simultaneous, episode, view, searcher, n_actions, state_size, root, data, fdata,
        meta, xs, kind, c, exp3, n_iter, rng, width, n_players, cfg, fcfg, amaf, mast, lgr,
        hkeys, hstat, hmeta):
    """Run up to ``n_iter`` ICARUS SO-ISMCTS iterations from tree node ``root``.

    Returns how many ran; stops as :func:`spyglass.search.sampled.so.run` does.
    ``amaf[node] = (total, visits)`` (as long as the pool when AMAF or RAVE is used).
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
    tree = cfg[S.C_TREE]
    uses_amaf = cfg[S.C_USES_AMAF] != 0
    k_rave = fcfg[S.F_RAVE_K]
    c_amaf = fcfg[S.F_C_AMAF]
    only_amaf = tree == S.TREE_AMAF
    # AMAF-6's captures: for the k-th choice of the descent, its player, the index of its
    # move in the iteration, and the available sibling nodes (am_nodes[am_start[k]:...]).
    am_p = np.empty(width + 1 if uses_amaf else 1, dtype=np.int64)
    am_i = np.empty(width + 1 if uses_amaf else 1, dtype=np.int64)
    am_start = np.empty(width + 1 if uses_amaf else 1, dtype=np.int64)
    am_nodes = np.empty(256 if uses_amaf else 1, dtype=np.int64)  # grown as needed
    last_idx = np.zeros(n_players * n_actions if uses_amaf else 1, dtype=np.int64)
    last_stamp = np.zeros(n_players * n_actions if uses_amaf else 1, dtype=np.int64)
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
        hl = 0
        n_alt = 0
        n_am = 0
        n_amn = 0
        ep_h = root_h
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
            if tree == S.TREE_MIX:
                a = mix_action(G, s, p, nl, acts, vals, cfg, fcfg, S.C_TREE_TERMS,
                               cfg[S.C_N_TREE], S.F_TREE_W, n_actions, mast, lgr, hkeys,
                               hstat, hmeta, hist_a, hl, ep_h, rng)
                chosen = -1
                for q in range(n_arms):
                    if (-2 - data[arms[q], KEY]) >> 8 == a:
                        chosen = arms[q]
                        break
                expanding = chosen < 0
                if expanding:
                    chosen = add_child(data, fdata, meta, u, -2 - ((a << 8) | p))
                    if chosen < 0:
                        return done
                    data[chosen, AVAIL] += 1
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
            elif tree != S.TREE_BASE:
                chosen = rave_select_arms(data, fdata, amaf, u, arms, n_arms, kind, c, k_rave,
                                          c_amaf, only_amaf)
                a = (-2 - data[chosen, KEY]) >> 8
            else:
                # The subset-armed bandit (eq. 5.1), written out as in sampled/so.py.
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
            if uses_amaf:
                if n_amn + n_arms + 1 > am_nodes.shape[0]:
                    grown = np.empty(2 * (n_amn + n_arms + 1), dtype=np.int64)
                    grown[:n_amn] = am_nodes[:n_amn]
                    am_nodes = grown
                am_p[n_am] = p
                am_i[n_am] = hl
                am_start[n_am] = n_amn
                for q in range(n_arms):
                    am_nodes[n_amn] = arms[q]
                    n_amn += 1
                if expanding:
                    am_nodes[n_amn] = chosen
                    n_amn += 1
                n_am += 1
            path[plen] = chosen
            who[plen] = p
            plen += 1
            if uses_epic:
                ck = R.mix(R.mix(ep_h, a + 1), p + 1)
                ep_keys[hl] = ck
                n_alt = epic_alternatives(G, s, p, nl, a, ep_h, hkeys, hstat, hmeta, ep_alt,
                                          n_alt)
            hist_a[hl] = a
            hist_p[hl] = p
            hl += 1
            # The revelation level (as in sampled/so.py): keyed by the mover's observation.
            reveals = not expanding and G.move_reveals(s)
            nxt = -1
            if reveals:
                key = G.observe(s, a, p)
                nxt = find_child_mtf(data, chosen, key)
            G.apply(s, a)
            if uses_epic:
                lab = episode(s, a)
                ep_h = R.mix(R.EPIC_SEED, lab + 1) if lab >= 0 else ck
            if expanding:
                break
            if reveals:
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
                u = chosen
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
        for q in range(plen):
            v = path[q]
            r = G.reward(s, who[q])
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
            if uses_amaf:
                # The latest index at which each (player, action) was played: a sibling is
                # updated when its action was played at its node's step or later.
                stamp = done + 1
                for i in range(hl - 1, -1, -1):
                    kk = hist_p[i] * n_actions + hist_a[i]
                    if last_stamp[kk] != stamp:
                        last_stamp[kk] = stamp
                        last_idx[kk] = i
                am_start[n_am] = n_amn
                for k in range(n_am):
                    pk = am_p[k]
                    ik = am_i[k]
                    for j in range(am_start[k], am_start[k + 1]):
                        chq = am_nodes[j]
                        kk = pk * n_actions + ((-2 - data[chq, KEY]) >> 8)
                        if last_stamp[kk] == stamp and last_idx[kk] >= ik:
                            amaf[chq, 0] += mu[pk]
                            amaf[chq, 1] += 1.0
        done += 1
    return done
