"""SO-ISMCTS over sampled determinizations (Whitehouse 2014, §5.2, Algorithms 2-3), with
partially observable moves (§6.2, SO-ISMCTS+POM) and with ICARUS (ch. 8, Algorithm 8).

One tree, the searcher's, rooted at its current information set. Each iteration draws a
determinization with ``kernel.sample(view, searcher, ...)``, then walks the tree: every
player's move is an edge labelled by its move key (the player and the action id,
:func:`.pool.move_key`), so an edge is the same move under every determinization. Only
children whose action is legal in this determinization are arms; each of them gets one
more availability (eq. 5.1) and the bandit uses availability in place of the parent's
visits. Node statistics are those of the player who made the move into the node (maxⁿ,
§5.2.4).

Conventions (the same in :mod:`.mo`): a move whose own observation reveals other
players' hidden moves (``move_reveals``) is stored as two levels, the choice and then the
revelation (keyed by the actor's observation of its move -- SO treats every move as
visible -- and in POM/MO by the tree owner's), so the choice's statistics do not depend
on what the chooser could not yet see; the tree grows by at most one node per iteration
(descent stops at a new node, then a random playout); EXP3 (§3.2.4, ``exp3=True``)
replaces UCB once every arm has been tried at nodes where the game's ``simultaneous(s)``
predicate holds.

The loop is written once, :func:`single_tree_loop`; its edge key is the variant:

* **SO-ISMCTS** (:data:`run`): move keys for every player's moves.
* **SO-ISMCTS+POM** (``observed``; :mod:`.pom`): another player's move is an edge labelled
  by the searcher's *observation* of it (``kernel.observe(s, a, searcher)``, a 64-bit
  key). At an opponent's node the arms are the observation classes some legal action
  produces in this determinization; the bandit chooses a class (with availability counts)
  and an action of that class is played uniformly at random: the tree cannot tell the
  opponent's moves within a class apart, so it models the opponent as random inside it
  (§6.2). A move the searcher does not perceive at all (``UNSEEN``, e.g. the opponent's
  refused try in Phantom) is no edge: the opponent makes such a move as often as uniform
  play would, and the tree stays where it is. The searcher's own revealing moves get the
  second level (its observation of them).
* **ICARUS SO-ISMCTS** (``enhanced``; :data:`run_icarus`, SO's edges): the ICARUS parts of
  the UCT and multiple-tree loops (:mod:`.uct`, :mod:`.mo`; shared ones in
  :mod:`spyglass.search.icarus.policies`). The one tree holds every player's decisions,
  so AMAF's records (AMAF-1) are its move nodes: ``amaf[node] = (total, visits)``, the
  node's mover's view. AMAF-6 updates, for each node where player p chose during the
  descent, the siblings that were *available* there (the subset-armed arms of eq. 5.1,
  plus the child just expanded) whose action p played at that step or later in the
  iteration, with p's reward, once per iteration; RAVE mixes AMAF-UCB and the
  subset-armed UCB1 (eq. 8.2-8.3). Expansion stays uniform among the unexpanded legal
  actions; a tree mix (``mast>...``) chooses among the legal actions with its playout
  policies (the chosen action's child is followed, or expanded); at EXP3 nodes the
  baseline's EXP3 stays. The playout mix (MAST, LGR/LGRF, NAST, EPIC, random) sees every
  move of the iteration's determinization.

Both switches are closure constants of the loop, so numba prunes the blocks of the other
variants before typing: each variant compiles to its own loop, with no edge function
calls and no arrays handed to hooks (those cost SO+POM 5-10% on The Resistance, see
``docs/search-speed.md``), and ICARUS with no enhancement builds the baseline's tree node
for node (tested on every game).

This is the game-general successor of ``mode="so"``/``"pom"`` in
:mod:`spyglass.search.so_ismcts`, which takes enumerated Resistance determinizations and
action *indices*.
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
from spyglass.search.sampled.pool import (
    CHILD,
    DEPTH,
    FULL,
    KEY,
    SAMPLE_FAILED,
    SIBLING,
    draw_determinization,
    find_child_mtf,
    layout,
)
from spyglass.search.sampled.select import LOG_TABLE, LOG_TABLE_SIZE

__all__ = ["run", "run_icarus", "run_plain", "single_tree_loop", "sorted_position"]


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


@njit(inline="always")
def _next_episode(episode, s, a, ck):
    """EPIC's position after move ``a`` made ``s``: a new episode's start, else ``ck``."""
    lab = episode(s, a)
    return R.mix(R.EPIC_SEED, lab + 1) if lab >= 0 else ck


def single_tree_loop(observed: bool = False, enhanced: bool = False, jit: bool = True,
                     compact: bool = False):
    """The single-tree loop: SO-ISMCTS, with POM's edge keys when ``observed`` (another
    player's move labelled by the searcher's observation of it) and the ICARUS parts when
    ``enhanced`` (SO's edges only); an ``inline="always"`` compiled function inlined into
    each game's cached entry point (see :mod:`.entry`), or (``jit=False``) plain Python.
    ``compact``: the pool is a compact one (:mod:`.pool`: 24-byte nodes, 0/1 rewards).

    The flags are closure constants: numba prunes the other variants' blocks before
    typing (``dead_branch_prune`` folds free-variable conditions), so each variant
    compiles to its own loop, as the separate copies did.
    """
    if observed and enhanced:
        raise ValueError("ICARUS SO-ISMCTS labels every move by its move key; "
                         "there is no ICARUS variant of SO-ISMCTS+POM")
    if compact and enhanced:
        raise ValueError("ICARUS's records are kept for the plain pool, not a compact one")
    POM = observed
    ICARUS = enhanced
    COMPACT = compact
    # The pool layout's columns and node maker (closure constants, like the flags).
    VISITS, AVAIL, TOTAL, SUMSQ, add_child = layout(compact)
    draw = draw_determinization if jit else getattr(draw_determinization, "py_func",
                                                    draw_determinization)

    # 27 positional parameters: each game's entry point passes its arrays one by one;
    # named workspaces (pool, records, settings) are a later step of issue 26.
    def search(G, simultaneous, episode, view, searcher, n_actions, state_size, root, data,
               fdata, meta, xs, kind, c, exp3, n_iter, rng, width, n_players, cfg, fcfg, amaf,
               mast, lgr, hkeys, hstat, hmeta):
        """Run up to ``n_iter`` iterations from tree node ``root``; return how many.

        Stops early (after a whole iteration) when ``meta`` flags the pool full; stops at
        once, flagging ``meta[DEPTH]`` or ``meta[SAMPLE_FAILED]``, on a path longer than
        ``width`` nodes or a sampler that keeps failing. ``episode`` and ``n_players`` ..
        ``hmeta`` are ICARUS's (unread otherwise): ``amaf[node] = (total, visits)`` (as
        long as the pool when AMAF or RAVE is used).
        """
        s = np.empty(state_size, dtype=np.int64)
        path = np.empty(width, dtype=np.int64)
        who = np.empty(width, dtype=np.int64)
        acts = np.empty(n_actions, dtype=np.int64)
        arms = np.empty(n_actions, dtype=np.int64)
        seen = np.full(n_actions, -1, dtype=np.int64)
        if POM:
            # Another player's legal actions' edge labels (okeys), their sorted distinct
            # values (ukeys, indexed by ``seen``) and the actions of the chosen class (keys).
            keys = np.empty(n_actions, dtype=np.int64)
            okeys = np.empty(n_actions, dtype=np.int64)
            ukeys = np.empty(n_actions, dtype=np.int64)
        mark = np.full(n_actions, -1, dtype=np.int64)  # legal here: mark[a] == step
        probs = np.empty(n_actions, dtype=np.float64)
        scores = np.empty(n_actions, dtype=np.float64)
        x_node = np.empty(width, dtype=np.int64)
        x_prob = np.empty(width, dtype=np.float64)
        x_who = np.empty(width, dtype=np.int64)
        if ICARUS:
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
            if not draw(G, view, searcher, rng, s):
                meta[SAMPLE_FAILED] = 1
                return done
            u = root
            path[0] = root
            who[0] = searcher
            plen = 1
            nx = 0
            if ICARUS:
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
                own = p == searcher
                if POM and not own:
                    # Edge labels of the opponent's legal actions: the searcher's
                    # observations of them.
                    for i in range(nl):
                        okeys[i] = G.observe(s, acts[i], searcher)
                        ukeys[i] = okeys[i]
                    # Moves the searcher does not perceive at all (UNSEEN) are no edges of
                    # its tree: the opponent makes one, uniformly, as often as uniform play
                    # would, and the tree stays where it is.
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
                    nd = 0  # the distinct edges (observation classes) legal here
                    for i in range(nl):
                        if ukeys[i] == UNSEEN:
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
                else:
                    step += 1
                    for i in range(nl):
                        mark[acts[i]] = step
                    nd = nl
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
                expanding = n_arms < nd
                if ICARUS and tree == S.TREE_MIX:
                    # A tree mix: its policies choose among the legal actions; the chosen
                    # action's child is followed, or expanded.
                    b = mix_action(G, s, p, nl, acts, vals, cfg, fcfg, S.C_TREE_TERMS,
                                   cfg[S.C_N_TREE], S.F_TREE_W, n_actions, mast, lgr, hkeys,
                                   hstat, hmeta, hist_a, hl, ep_h, rng)
                    chosen = -1
                    for q in range(n_arms):
                        if (-2 - data[arms[q], KEY]) >> 8 == b:
                            chosen = arms[q]
                            break
                    expanding = chosen < 0
                    if expanding:
                        chosen = add_child(data, fdata, meta, u, -2 - ((b << 8) | p))
                        if chosen < 0:
                            return done
                        data[chosen, AVAIL] += 1
                elif expanding:
                    # A new edge, uniformly among those legal here and not yet in the tree.
                    r = rand_below(rng, nd - n_arms)
                    key = -1
                    for i in range(nd):
                        if POM and not own:
                            if seen[i] != step:
                                if r == 0:
                                    key = ukeys[i]
                                    break
                                r -= 1
                        else:
                            # POM takes the searcher's own moves in move-key order
                            # (decreasing id), as when they were sorted like the classes.
                            b = acts[nd - 1 - i] if POM else acts[i]
                            if seen[b] != step:
                                if r == 0:
                                    key = -2 - ((b << 8) | p)
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
                elif ICARUS and tree != S.TREE_BASE:
                    chosen = rave_select_arms(data, fdata, amaf, u, arms, n_arms, kind, c,
                                              k_rave, c_amaf, only_amaf)
                else:
                    # The subset-armed bandit (eq. 5.1), written out here: calling
                    # select.select_available instead was 6-10% slower (MO, Phantom
                    # 4,4,4, CPU time, side by side).
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
                            val = ucb_tuned_value(fdata[chq, TOTAL], fdata[chq, SUMSQ], n_j,
                                                  log_n)
                        if val > best_v:
                            best_v = val
                            chosen = chq
                for q in range(n_arms):
                    data[arms[q], AVAIL] += 1
                key = data[chosen, KEY]
                if POM and not own:
                    # An action of the chosen observation class, uniformly.
                    m = 0
                    for i in range(nl):
                        if okeys[i] == key:
                            keys[m] = acts[i]
                            m += 1
                    a = keys[rand_below(rng, m)]
                else:
                    a = (-2 - key) >> 8
                if ICARUS:
                    if uses_amaf and amaf_captures_at(cfg, n_arms, nd):
                        am_nodes, n_am, n_amn = amaf_note(am_p, am_i, am_start, am_nodes, n_am,
                                                             n_amn, p, hl, arms, n_arms, chosen,
                                                             expanding)
                    if uses_epic:
                        ck = R.mix(R.mix(ep_h, a + 1), p + 1)
                        ep_keys[hl] = ck
                        n_alt = epic_alternatives(G, s, p, nl, a, ep_h, hkeys, hstat, hmeta,
                                                  ep_alt, n_alt, cfg)
                    hist_a[hl] = a
                    hist_p[hl] = p
                    hl += 1
                path[plen] = chosen
                who[plen] = p
                plen += 1
                # Each way on has its own ``apply``, as the separate loops had.
                if expanding:
                    G.apply(s, a)
                    if ICARUS:
                        if uses_epic:
                            ep_h = _next_episode(episode, s, a, ck)
                    break
                # A move that reveals hidden moves: a second level, keyed by the mover's
                # observation (SO treats every move as visible to its mover; POM: the
                # searcher's own moves only).
                if (own or not POM) and G.move_reveals(s):
                    key = G.observe(s, a, p)
                    nxt = find_child_mtf(data, chosen, key)
                    G.apply(s, a)
                    if ICARUS:
                        if uses_epic:
                            ep_h = _next_episode(episode, s, a, ck)
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
                    if ICARUS:
                        if uses_epic:
                            ep_h = _next_episode(episode, s, a, ck)
                    u = chosen
            if not ICARUS:
                G.playout(s, rng)
            else:
                tree_moves = hl
                if plain_playout:
                    G.playout(s, rng)
                else:  # the playout mix (MAST, LGR/LGRF, NAST, EPIC, random)
                    while not G.is_terminal(s):
                        if hl + 1 > width:
                            meta[DEPTH] = 1
                            return done
                        p = G.actor(s)
                        nl = G.n_legal(s)
                        a = mix_action(G, s, p, nl, acts, vals, cfg, fcfg, S.C_SIM_TERMS,
                                       n_sim, S.F_SIM_W, n_actions, mast, lgr, hkeys, hstat,
                                       hmeta, hist_a, hl, ep_h, rng)
                        if uses_epic:
                            ck = R.mix(R.mix(ep_h, a + 1), p + 1)
                            ep_keys[hl] = ck
                            n_alt = epic_alternatives(G, s, p, nl, a, ep_h, hkeys, hstat,
                                                      hmeta, ep_alt, n_alt, cfg)
                        hist_a[hl] = a
                        hist_p[hl] = p
                        hl += 1
                        G.apply(s, a)
                        if uses_epic:
                            ep_h = _next_episode(episode, s, a, ck)
            for q in range(plen):
                v = path[q]
                r = G.reward(s, who[q])
                data[v, VISITS] += 1
                fdata[v, TOTAL] += r
                if not COMPACT:  # compact: SUMSQ is TOTAL (0/1 rewards)
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


def baseline(loop, jit: bool = True):
    """``loop`` (a :func:`single_tree_loop` without ``enhanced``) with the unenhanced
    signature, the ICARUS arguments bound to placeholders (:func:`.icarus.entry.no_records`)."""

    def run(G, simultaneous, view, searcher, n_actions, state_size, root, data, fdata, meta,
            xs, kind, c, exp3, n_iter, rng, width):
        cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta = no_records()
        return loop(G, simultaneous, no_episodes, view, searcher, n_actions, state_size, root,
                    data, fdata, meta, xs, kind, c, exp3, n_iter, rng, width, 0, cfg, fcfg,
                    amaf, mast, lgr, hkeys, hstat, hmeta)

    return njit(inline="always")(run) if jit else run


#: SO-ISMCTS's loop, inlined into each game's cached entry point; ``run_plain`` as Python.
run = baseline(single_tree_loop())
run_plain = baseline(single_tree_loop(jit=False), jit=False)
#: ICARUS SO-ISMCTS (Whitehouse 2014, ch. 8, Algorithm 8): the same loop with the ICARUS parts.
run_icarus = single_tree_loop(enhanced=True)
