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

The loop is written once, :func:`multiple_tree_loop`; with ``enhanced`` it is ICARUS
MO-ISMCTS (Whitehouse 2014, ch. 8, Algorithm 8 on §6.3): AMAF's records are the move nodes
of each player's tree (AMAF-1), AMAF-6 updates the siblings available at each node where
player p chose whose action p played at that step or later in the iteration, with p's
reward; RAVE mixes AMAF-UCB and the subset-armed UCB1 (eq. 8.2-8.3); a tree mix chooses
among the legal actions with its playout policies; the playout mix (MAST, LGR/LGRF, NAST,
EPIC, random) sees every move of the determinization. Without ``enhanced`` numba prunes
every ICARUS block, so the baseline compiles to the unenhanced loop, and ICARUS with no
enhancement builds the baseline's tree node for node (tested on every game). With
``particles`` the same loop is MT-ISMCTS over weighted particles (:mod:`.mt`:
one tree per player per root information set, TWOSTEP's frozen trees).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float
from spyglass.search.bandits import UCB1, exp3_probabilities, ucb_tuned_value
from spyglass.search.icarus import records as R
from spyglass.search.icarus import spec as S
from spyglass.search.icarus.entry import no_episodes, no_records
from spyglass.search.icarus.policies import (
    ROOT_LABEL,
    amaf_captures_at,
    amaf_note,
    amaf_update,
    amaf_workspace,
    capture_records,
    epic_alternatives,
    mix_action,
    rave_select_arms,
)
from spyglass.search.protocol import UNSEEN
from spyglass.search.sampled.forest import find_tree, pick_particle, tree_root
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
    draw_determinization,
    find_child,
    find_child_mtf,
)
from spyglass.search.sampled.select import LOG_TABLE, LOG_TABLE_SIZE


def multiple_tree_loop(enhanced: bool = False, particles: bool = False, jit: bool = True):
    """The multiple-tree loop: an ``inline="always"`` compiled function inlined into each
    game's cached entry point, or (``jit=False``) plain Python.

    Its variants are closure constants (numba prunes the other variants' blocks before
    typing): ``enhanced`` adds the ICARUS parts; ``particles`` makes it MT-ISMCTS
    (:mod:`.mt`): ``roots`` is then a :class:`.forest.Forest`, each iteration's
    determinization is a particle drawn by weight and each player's tree is the one for
    its information set in it (``G.info_key``); the ``fixed`` players' trees are frozen
    (TWOSTEP). Without it the roots are fixed, one tree per player, and determinizations
    come from ``G.sample`` (MO-ISMCTS).
    """
    ICARUS = enhanced
    MT = particles
    if ICARUS and MT:
        raise ValueError("the multiple-tree loop has no ICARUS MT-ISMCTS variant")
    draw = draw_determinization if jit else getattr(draw_determinization, "py_func",
                                                    draw_determinization)

    # 26 positional parameters: each game's entry point passes its arrays one by one;
    # named workspaces (pool, records, settings) are a later step of issue 26.
    def search(G, simultaneous, episode, view, searcher, n_actions, state_size, roots, data,
               fdata, meta, xs, kind, c, exp3, n_iter, rng, width, cfg, fcfg, amaf, mast, lgr,
               hkeys, hstat, hmeta):
        """Run up to ``n_iter`` MO-ISMCTS iterations; ``roots[j]`` is player ``j``'s tree
        (MT: ``roots`` is the :class:`.forest.Forest` and ``view`` is unread).

        Returns how many ran; stops as :func:`.so.run` does. ``episode`` .. ``hmeta`` are
        ICARUS's (unread by the baseline): ``amaf[node] = (total, visits)`` (as long as
        the pool when AMAF or RAVE is used).
        """
        if MT:  # unpacked once: the iterations read the arrays
            parts, cumw, fixed, tkeys, troots, tcount, max_trees, fallback = roots
            n_trees = fixed.shape[0]
        else:
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
        if ICARUS:
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
            tree = cfg[S.C_TREE]
            uses_amaf = cfg[S.C_USES_AMAF] != 0
            k_rave = fcfg[S.F_RAVE_K]
            c_amaf = fcfg[S.F_C_AMAF]
            only_amaf = tree == S.TREE_AMAF
            am_p, am_i, am_start, am_nodes, last_idx, last_stamp = amaf_workspace(
                uses_amaf, width, n_players, n_actions)
        step = 0
        done = 0
        for _ in range(n_iter):
            if meta[FULL] != 0:
                break
            if MT:
                s[:] = parts[pick_particle(cumw, rng)]
                for t in range(n_trees):
                    if fixed[t]:  # only looked up: no tree, no part in this iteration
                        r = find_tree(tkeys, troots, tcount, max_trees, fallback, t,
                                      G.info_key(s, t))
                        cur[t] = r
                        path[t, 0] = r
                        plen[t] = 1 if r >= 0 else 0
                        continue
                    r = tree_root(tkeys, troots, tcount, max_trees, fallback, t,
                                  G.info_key(s, t), data, fdata, meta)
                    if r < 0:
                        return done
                    cur[t] = r
                    path[t, 0] = r
                    plen[t] = 1
            else:
                if not draw(G, view, searcher, rng, s):
                    meta[SAMPLE_FAILED] = 1
                    return done
                for t in range(n_trees):
                    cur[t] = roots[t]
                    path[t, 0] = roots[t]
                    plen[t] = 1
            nx = 0
            if ICARUS:
                hl = 0
                n_alt = 0
                n_am = 0
                n_amn = 0
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
                frozen = False
                if MT:
                    frozen = fixed[p] != 0
                if frozen:
                    # TWOSTEP: the frozen player's mixed policy, its visits among legal children
                    expanding = False
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
                elif ICARUS and tree == S.TREE_MIX:
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
                elif ICARUS and tree != S.TREE_BASE:
                    chosen = rave_select_arms(data, fdata, amaf, u, arms, n_arms, kind, c, k_rave,
                                              c_amaf, only_amaf)
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
                if not frozen:
                    for q in range(n_arms):
                        data[arms[q], AVAIL] += 1
                if ICARUS:
                    if uses_amaf and amaf_captures_at(cfg, n_arms, nl):
                        am_nodes, n_am, n_amn = amaf_note(am_p, am_i, am_start, am_nodes, n_am,
                                                             n_amn, p, hl, arms, n_arms, chosen,
                                                             expanding)
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
                        if key == UNSEEN and t != p:
                            continue  # t does not perceive this move: its tree stays put
                        if MT and fixed[t]:  # a frozen tree: looked up as it is, never grown
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
                if ICARUS:
                    if uses_epic:
                        ck = R.mix(R.mix(ep_h, a + 1), p + 1)
                        ep_keys[hl] = ck
                        n_alt = epic_alternatives(G, s, p, nl, a, ep_h, hkeys, hstat, hmeta, ep_alt,
                                                  n_alt, cfg)
                    hist_a[hl] = a
                    hist_p[hl] = p
                    hl += 1
                G.apply(s, a)
                if ICARUS:
                    if uses_epic:
                        lab = episode(s, a)
                        ep_h = R.mix(R.EPIC_SEED, lab + 1) if lab >= 0 else ck
                if expanding:
                    break
            if not ICARUS:
                G.playout(s, rng)
            else:
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
                                                      ep_alt, n_alt, cfg)
                        hist_a[hl] = a
                        hist_p[hl] = p
                        hl += 1
                        G.apply(s, a)
                        if uses_epic:
                            lab = episode(s, a)
                            ep_h = R.mix(R.EPIC_SEED, lab + 1) if lab >= 0 else ck
            for t in range(n_trees):
                if MT and fixed[t]:
                    continue
                r = G.reward(s, t)
                for q in range(plen[t]):
                    v = path[t, q]
                    data[v, VISITS] += 1
                    fdata[v, TOTAL] += r
                    fdata[v, SUMSQ] += r * r
            for q in range(nx):
                xs[x_node[q]] += G.reward(s, x_who[q]) / x_prob[q]
            if ICARUS:
                if capture or not plain_playout:
                    for j in range(n_players):
                        mu[j] = G.reward(s, j)
                    capture_records(cfg, mu, n_players, n_actions, hist_a, hist_p, hl,
                                    tree_moves, mast, lgr, hkeys, hstat, hmeta, ep_keys, ep_alt,
                                    n_alt)
                    if uses_amaf:
                        amaf_update(amaf, data, mu, n_actions, hist_a, hist_p, hl, done + 1,
                                    last_idx, last_stamp, am_p, am_i, am_start, am_nodes, n_am,
                                    n_amn)
            done += 1
        return done

    return njit(inline="always")(search) if jit else search


def _baseline(loop, jit: bool = True):
    """``loop`` with the unenhanced signature (the ICARUS arguments: placeholders)."""

    def run(G, simultaneous, view, searcher, n_actions, state_size, roots, data, fdata, meta,
            xs, kind, c, exp3, n_iter, rng, width):
        cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta = no_records()
        return loop(G, simultaneous, no_episodes, view, searcher, n_actions, state_size, roots,
                    data, fdata, meta, xs, kind, c, exp3, n_iter, rng, width, cfg, fcfg, amaf,
                    mast, lgr, hkeys, hstat, hmeta)

    return njit(inline="always")(run) if jit else run


#: MO-ISMCTS's loop, inlined into each game's cached entry point; ``run_plain`` as Python.
run = _baseline(multiple_tree_loop())
run_plain = _baseline(multiple_tree_loop(jit=False), jit=False)
#: ICARUS MO-ISMCTS: the same loop with the ICARUS parts.
run_icarus = multiple_tree_loop(enhanced=True)
