"""UCT on one full state (Kocsis & Szepesvári 2006; Whitehouse 2014, §3.2).

The building block of three agents: UCT for perfect-information games (the state is
the game), determinized UCT / PIMC (each tree searches one sampled determinization,
:mod:`.ensemble`) and cheating UCT (the true state, for a player that is explicitly
given it). Every move is visible here, so a node's children are all legal whenever it
is reached and the bandit uses the parent's visits (no availability counts). Edges are
action ids; a node's statistics are those of the player who made the move into it
(maxⁿ). The tree grows by one node per iteration, then a random playout.

The loop is written once, :func:`uct_loop`. With ``compact`` it searches the compact node
pool of The Resistance's enumerated searches (:mod:`spyglass.search.tree`: action
*indices* as edge labels, a playout policy passed in), as the Resistance bots' determinized
and cheating UCT and Marsh's SearchAgent do (:data:`run_compact`,
:mod:`spyglass.search.pimc`). With ``enhanced`` it is UCT with an ICARUS
combination (Whitehouse 2014, ch. 8, Algorithm 8 on a full state), its parts from
:mod:`spyglass.search.icarus.policies`:

* **Policy α.** At selection nodes (all children expanded) the tree policy: the
  baseline's UCB1 (Base-4), RAVE (λ·AMAF ⊕ (1-λ)·baseline, eq. 8.2) or AMAF alone
  (AMAF-4); at an expansion node the baseline draws uniformly among the unexpanded
  actions (their UCB1 value is +∞). A tree *mix* (``mast>...``) uses that mix's policy
  at selection and expansion nodes instead (a chosen action without a child is
  expanded). At simulation nodes the playout mix; a purely random playout that nothing
  captures is the game's own ``playout`` (as in the baseline).
* **Capture ξ and backpropagation ω**, after the playout: the baseline's path
  (Base-6/7); AMAF's children of the path's selection nodes (or, with
  ``amaf_capture=tree``, of every path node with a choice: ``policies.amaf_captures_at``)
  whose action the same player played at that step or later in the iteration (AMAF-6);
  the non-tree records (MAST, LGR/LGRF, NAST, EPIC).

Without ``enhanced`` numba prunes every ICARUS block before typing, so plain UCT
compiles to the unenhanced loop, and ICARUS with no enhancement (Specification 1)
gives the same trees, decisions and random draws as plain UCT (``tests/test_icarus.py``
checks it node by node).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng import rand_below
from spyglass.search import bandits as B
from spyglass.search import tree as T
from spyglass.search.icarus import records as R
from spyglass.search.icarus import spec as S
from spyglass.search.icarus.entry import no_episodes, no_records
from spyglass.search.icarus.policies import (
    ROOT_LABEL,
    amaf_captures_at,
    capture_records,
    epic_alternatives,
    mix_action,
    rave_select,
)
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
    find_child,
)
from spyglass.search.sampled.select import select_child


@njit(cache=True, inline="always")
def _n_children(data: np.ndarray, u: int) -> int:
    """Node ``u``'s number of children in the sampled searches' pool."""
    return data[u, NCHILD]


def uct_loop(enhanced: bool = False, compact: bool = False, jit: bool = True):
    """The UCT loop, with the ICARUS parts when ``enhanced``, over the compact pool of the
    Resistance's enumerated searches when ``compact`` (closure constants: numba prunes the
    other branches before typing): an ``inline="always"`` compiled function inlined into
    each game's cached entry point, or (``jit=False``) plain Python."""
    ICARUS = enhanced
    COMPACT = compact
    # The pool's functions, bound as closure constants (so numba calls them statically).
    if compact:
        n_children, new_child, select = T.n_children, T.add_child, B.select_child
    else:
        n_children, new_child, select = _n_children, add_child, select_child

    # 25 positional parameters: each game's entry point passes its arrays one by one;
    # named workspaces (pool, records, settings) are a later step of issue 26.
    def search(G, episode, playout, state, n_actions, n_players, root, data, fdata, meta, kind,
               c, n_iter, rng, width, pcfg, pw, cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta):
        """Run up to ``n_iter`` UCT iterations from full state ``state`` at tree node ``root``.

        Returns how many ran; stops early when the pool is full (``meta[FULL]``) and at
        once, flagging ``meta[DEPTH]``, on a path longer than ``width`` nodes.
        ``episode``, ``n_players`` and ``cfg`` .. ``hmeta`` are ICARUS's (unread by the
        baseline): ``amaf[node] = (total, visits)``; ``mast``, ``lgr``,
        ``hkeys``/``hstat``/``hmeta``: see :mod:`spyglass.search.icarus.records`.
        ``playout(s, rng, pcfg, pw)`` is the compact variant's playout policy (see
        :func:`run_compact`; the others use ``G.playout``).
        """
        s = np.empty_like(state)
        path = np.empty(width, dtype=np.int64)
        who = np.empty(width, dtype=np.int64)
        seen = np.full(n_actions, -1, dtype=np.int64)
        acts = np.empty(n_actions, dtype=np.int64)
        if ICARUS:
            hist_a = np.empty(width, dtype=np.int64)
            hist_p = np.empty(width, dtype=np.int64)
            vals = np.empty(n_actions, dtype=np.float64)
            mu = np.empty(n_players, dtype=np.float64)
            tree = cfg[S.C_TREE]
            capture = cfg[S.C_CAPTURE_PLAYOUT] != 0
            uses_amaf = cfg[S.C_USES_AMAF] != 0
            uses_epic = cfg[S.C_USES_EPIC] != 0
            n_sim = cfg[S.C_N_SIM]
            plain_playout = not capture and n_sim == 1 and cfg[S.C_SIM_TERMS] == S.RANDOM
            latest_idx = np.zeros(n_players * n_actions if uses_amaf else 1, dtype=np.int64)
            latest_stamp = np.zeros(n_players * n_actions if uses_amaf else 1, dtype=np.int64)
            am_at = np.zeros(width if uses_amaf else 1, dtype=np.bool_)  # path[q] captures
            ep_keys = np.empty(width if uses_epic else 1, dtype=np.uint64)
            ep_alt = np.empty(width * n_actions if uses_epic else 1, dtype=np.int64)
            root_h = R.mix(R.EPIC_SEED, ROOT_LABEL)
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
            in_tree = True
            if ICARUS:
                t = 0
                n_alt = 0
                ep_h = root_h
            while not G.is_terminal(s):
                if not COMPACT:
                    if plen + 1 > width:
                        meta[DEPTH] = 1
                        return done
                if ICARUS:
                    if t + 1 > width:
                        meta[DEPTH] = 1
                        return done
                p = G.actor(s)
                nl = G.n_legal(s)
                if ICARUS and not in_tree:  # simulation: the playout mix
                    a = mix_action(G, s, p, nl, acts, vals, cfg, fcfg, S.C_SIM_TERMS, n_sim,
                                   S.F_SIM_W, n_actions, mast, lgr, hkeys, hstat, hmeta, hist_a,
                                   t, ep_h, rng)
                else:
                    if ICARUS:
                        if uses_amaf:
                            am_at[plen - 1] = amaf_captures_at(cfg, n_children(data, u), nl)
                    if ICARUS and tree == S.TREE_MIX:
                        a = mix_action(G, s, p, nl, acts, vals, cfg, fcfg, S.C_TREE_TERMS,
                                       cfg[S.C_N_TREE], S.F_TREE_W, n_actions, mast, lgr, hkeys,
                                       hstat, hmeta, hist_a, t, ep_h, rng)
                        ch = find_child(data, u, a)
                        if ch < 0:
                            ch = add_child(data, fdata, meta, u, a)
                            if ch < 0:
                                return done
                            in_tree = False
                    elif n_children(data, u) < nl:
                        # Expansion: an unexpanded legal action, uniformly; its edge label
                        # is its action id (its index in the compact pool).
                        step += 1
                        ch = data[u, CHILD]
                        while ch >= 0:
                            seen[data[ch, KEY]] = step
                            ch = data[ch, SIBLING]
                        r = rand_below(rng, nl - n_children(data, u))
                        e = -1
                        if not COMPACT:
                            G.legal_actions(s, acts)
                        for i in range(nl):
                            if COMPACT:
                                b = i
                            else:
                                b = acts[i]
                            if seen[b] != step:
                                if r == 0:
                                    e = b
                                    break
                                r -= 1
                        ch = new_child(data, fdata, meta, u, e)
                        if COMPACT:
                            # A full compact pool finishes the iteration (Python grows it).
                            a = G.legal_action(s, e)
                        else:
                            if ch < 0:
                                return done
                            a = e
                        in_tree = False
                    elif ICARUS and tree != S.TREE_BASE:
                        ch = rave_select(data, fdata, amaf, u, kind, c, fcfg[S.F_RAVE_K],
                                         fcfg[S.F_C_AMAF], tree == S.TREE_AMAF)
                        a = data[ch, KEY]
                    else:
                        ch = select(data, fdata, u, kind, c)
                        if COMPACT:
                            a = G.legal_action(s, data[ch, KEY])
                        else:
                            a = data[ch, KEY]
                    if COMPACT:
                        if ch >= 0 and plen < width:  # (the compact pool truncates the path)
                            path[plen] = ch
                            who[plen] = p
                            plen += 1
                    else:
                        path[plen] = ch
                        who[plen] = p
                        plen += 1
                    u = ch
                if ICARUS:
                    if uses_epic:
                        ck = R.mix(R.mix(ep_h, a + 1), p + 1)
                        ep_keys[t] = ck
                        n_alt = epic_alternatives(G, s, p, nl, a, ep_h, hkeys, hstat, hmeta,
                                                  ep_alt, n_alt, cfg)
                    hist_a[t] = a
                    hist_p[t] = p
                    t += 1
                G.apply(s, a)
                if ICARUS:
                    if uses_epic:
                        lab = episode(s, a)
                        ep_h = R.mix(R.EPIC_SEED, lab + 1) if lab >= 0 else ck
                    if not in_tree and plain_playout:
                        G.playout(s, rng)
                        break
                elif not in_tree:
                    break
            if COMPACT:
                playout(s, rng, pcfg, pw)
                for q in range(plen):
                    T.backpropagate(data, fdata, meta, path[q], G.reward(s, who[q]))
            elif not ICARUS:
                G.playout(s, rng)
                for q in range(plen):
                    v = path[q]
                    r = G.reward(s, who[q])
                    data[v, VISITS] += 1
                    fdata[v, TOTAL] += r
                    fdata[v, SUMSQ] += r * r
            else:
                # Backpropagation (Algorithm 8, lines 16-17).
                for j in range(n_players):
                    mu[j] = G.reward(s, j)
                for q in range(plen):
                    v = path[q]
                    r = mu[who[q]]
                    data[v, VISITS] += 1
                    fdata[v, TOTAL] += r
                    fdata[v, SUMSQ] += r * r
                if uses_amaf:
                    stamp = done + 1
                    # The latest index of each (player, action): a sibling is updated when
                    # its player plays it at or after the choice, even if also earlier.
                    for i in range(t - 1, -1, -1):
                        kk = hist_p[i] * n_actions + hist_a[i]
                        if latest_stamp[kk] != stamp:
                            latest_stamp[kk] = stamp
                            latest_idx[kk] = i
                    for q in range(plen - 1):
                        if not am_at[q]:
                            continue
                        pu = who[q + 1]
                        ch = data[path[q], CHILD]
                        while ch >= 0:
                            kk = pu * n_actions + data[ch, KEY]
                            if latest_stamp[kk] == stamp and latest_idx[kk] >= q:
                                amaf[ch, 0] += mu[pu]
                                amaf[ch, 1] += 1.0
                            ch = data[ch, SIBLING]
                capture_records(cfg, mu, n_players, n_actions, hist_a, hist_p, t, plen - 1,
                                mast, lgr, hkeys, hstat, hmeta, ep_keys, ep_alt, n_alt)
            done += 1
        return done

    return njit(inline="always")(search) if jit else search


@njit(cache=True)
def no_playout(s: np.ndarray, rng: np.ndarray, cfg: np.ndarray, w: np.ndarray) -> None:
    """The playout-policy placeholder of the loops that use the game's own ``playout``."""


def _baseline(loop, jit: bool = True):
    """``loop`` with the unenhanced signature (the ICARUS arguments: placeholders)."""

    def run(G, state, n_actions, root, data, fdata, meta, kind, c, n_iter, rng, width):
        cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta = no_records()
        return loop(G, no_episodes, no_playout, state, n_actions, 1, root, data, fdata, meta,
                    kind, c, n_iter, rng, width, cfg, fcfg, cfg, fcfg, amaf, mast, lgr, hkeys,
                    hstat, hmeta)

    return njit(inline="always")(run) if jit else run


def _enhanced(loop):
    """``loop`` with ICARUS UCT's signature (the compact playout's arguments: placeholders)."""

    @njit(inline="always")
    def run(G, episode, state, n_actions, n_players, root, data, fdata, meta, kind, c, n_iter,
            rng, width, cfg, fcfg, amaf, mast, lgr, hkeys, hstat, hmeta):
        return loop(G, episode, no_playout, state, n_actions, n_players, root, data, fdata,
                    meta, kind, c, n_iter, rng, width, cfg, fcfg, cfg, fcfg, amaf, mast, lgr,
                    hkeys, hstat, hmeta)

    return run


def _compact(loop):
    """``loop`` over the compact pool, with the Resistance searches' signature."""

    @njit(inline="always")
    def run(G, playout, cfg, w, root, root_node, data, fdata, meta, kind, c, n_iter, rng,
            max_actions, max_depth):
        pc, pf, amaf, mast, lgr, hkeys, hstat, hmeta = no_records()
        return loop(G, no_episodes, playout, root, max_actions, 1, root_node, data, fdata, meta,
                    kind, c, n_iter, rng, max_depth + 2, cfg, w, pc, pf, amaf, mast, lgr, hkeys,
                    hstat, hmeta)

    return run


#: UCT's loop, inlined into each game's cached entry point; ``run_plain`` as Python.
run = _baseline(uct_loop())
run_plain = _baseline(uct_loop(jit=False), jit=False)
#: UCT with an ICARUS combination: the same loop with the ICARUS parts.
run_icarus = _enhanced(uct_loop(enhanced=True))
#: The same loop over the compact pool of :mod:`spyglass.search.tree` (20- or 24-byte
#: nodes, action *indices* as edge labels) with a playout policy ``playout(s, rng, cfg,
#: w)`` passed in: determinized and cheating UCT of the Resistance bots
#: (:mod:`spyglass.search.pimc`). A full pool finishes the iteration under way and a path
#: longer than ``max_depth + 2`` nodes is truncated, as that pool's searches do.
run_compact = _compact(uct_loop(compact=True))
