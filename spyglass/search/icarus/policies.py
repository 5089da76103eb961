"""ICARUS's parts shared by every loop (Whitehouse 2014, ch. 8): selection, the mix policy,
capture ξ and backpropagation ω of the non-tree records.

The UCT loop (:mod:`spyglass.search.sampled.uct`), the multiple-tree loop
(:mod:`spyglass.search.sampled.mo`) and the single-tree loop (ICARUS SO-ISMCTS,
:mod:`spyglass.search.sampled.so`) inline these, each written once.

The larger ones (:func:`mix_action`, :func:`epic_alternatives`, :func:`capture_records`,
:func:`rave_select`, :func:`rave_select_arms`, :func:`amaf_update`) are inlined by LLVM,
not by numba: ``forceinline=True`` compiles each once per process (shared by every ICARUS
loop and call site) and marks it ``alwaysinline``, so LLVM puts its body into each loop
when it optimises the entry point's module. ``inline="always"`` instead copies the
function's IR into every call site, and numba types and lowers each copy inside one
ever larger function, which cost 2-4x more compile (Phantom's three ICARUS entry points:
51 s -> 24 s of CPU; iterations/s unchanged, docs/search-speed.md). A plain call (no
inlining) was 5-18% slower; ``forceinline`` on ``records.mast_action`` and
``table_ucb_action`` alone 4-6% slower, so they stay numba-inlined inside
:func:`mix_action`.

* **Policy α.** RAVE's selection, λ·AMAF ⊕ (1-λ)·baseline (eq. 8.2) or AMAF alone
  (AMAF-4), over all children (:func:`rave_select`) or the available ones
  (:func:`rave_select_arms`); a linear mix of playout policies (:func:`mix_action`: one
  component drawn by weight, COMB+-4, which then chooses: MAST, LGR/LGRF, NAST, EPIC or
  uniform random).
* **AMAF-6's captures**: which tree nodes capture (:func:`amaf_captures_at`: the
  selection nodes, or with the named departure ``amaf_capture=tree`` every node where a
  choice was made; all three loops); in the single- and multiple-tree loops the workspace
  (:func:`amaf_workspace`), each capturing choice's available siblings noted during the
  descent (:func:`amaf_note`) and their AMAF values updated after the playout
  (:func:`amaf_update`).
* **Capture ξ and backpropagation ω** after the playout (:func:`capture_records`):
  MAST's (action, player) of every move (MAST-6), or of tree moves only for TO-MAST;
  LGR's (previous move, replier) pairs (LGR-6/7, LGRF-7); NAST's N-grams (NAST-6);
  EPIC's positions-in-episode with ψvisit and ψavail (EPIC-6, :func:`epic_alternatives`;
  availability from the search's start as EPIC-7, or with ``epic_avail=visited``, a
  named departure, for records already visited only).

**"A win" for LGR/LGRF** (LGR-7 says µρ > 0, which with fractional rewards would call a
draw or a third place good): a reply is good when its player's reward is the maximum
of the reward vector and not everyone's reward is equal -- first or equal first place,
as §8.5 counts a win in Hearts; a two-player draw is not a win. With 0/1 rewards this
is exactly µρ > 0.

**Episodes (EPIC).** ``episode(s, a)`` is the game's episode function evaluated at the
state ``s`` reached by move ``a``: a label >= 0 starts a new episode there, -1 continues
the current one. The search does not know the game's history before its root, so the
episode in progress at the root gets its own label (``ROOT_LABEL``), and
positions-in-episode are relative to it (§8.3 takes them from the initial state).
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float
from spyglass.search.bandits import UCB1, ucb1_value, ucb_tuned_value
from spyglass.search.icarus import records as R
from spyglass.search.icarus import spec as S
from spyglass.search.sampled.pool import AVAIL, CHILD, KEY, SIBLING, SUMSQ, TOTAL, VISITS
from spyglass.search.sampled.select import LOG_TABLE, LOG_TABLE_SIZE

ROOT_LABEL = 1 << 20


@njit(cache=True, forceinline=True)
def rave_select(data, fdata, amaf, u, kind, c, k_rave, c_amaf, only_amaf):
    """The child of ``u`` maximising λ·AMAF-UCB + (1-λ)·UCB (eq. 8.2; λ = 1: AMAF-4)."""
    n = data[u, VISITS]
    log_n = LOG_TABLE[n] if n < LOG_TABLE_SIZE else math.log(n)
    lam = 1.0 if only_amaf else math.sqrt(k_rave / (3.0 * n + k_rave))
    sum_a = 0.0
    ch = data[u, CHILD]
    while ch >= 0:
        sum_a += amaf[ch, 1]
        ch = data[ch, SIBLING]
    log_a = math.log(sum_a) if sum_a > 1.0 else 0.0
    best = -1
    best_v = -np.inf
    ch = data[u, CHILD]
    while ch >= 0:
        n_j = data[ch, VISITS]
        if n_j == 0:
            return ch
        na = amaf[ch, 1]
        if na == 0.0:
            if lam > 0.0:
                return ch
            am = 0.0
        else:
            am = amaf[ch, 0] / na + c_amaf * math.sqrt(log_a / na)
        if kind == UCB1:
            b = ucb1_value(fdata[ch, TOTAL], n_j, log_n, c)
        else:
            b = ucb_tuned_value(fdata[ch, TOTAL], fdata[ch, SUMSQ], n_j, log_n)
        v = lam * am + (1.0 - lam) * b
        if v > best_v:
            best_v = v
            best = ch
        ch = data[ch, SIBLING]
    return best


@njit(cache=True, forceinline=True)
def rave_select_arms(data, fdata, amaf, u, arms, n_arms, kind, c, k_rave, c_amaf, only_amaf):
    """The available child (``arms``) of ``u`` maximising λ·AMAF-UCB + (1-λ)·UCB, both
    subset-armed: AMAF's trials are the available siblings' AMAF visits (AMAF-4), the
    baseline's a child's availability (eq. 5.1); λ = √(k/(3n+k)) (eq. 8.3), 1 for AMAF."""
    n = data[u, VISITS]
    lam = 1.0 if only_amaf else math.sqrt(k_rave / (3.0 * n + k_rave))
    sum_a = 0.0
    for q in range(n_arms):
        sum_a += amaf[arms[q], 1]
    log_a = math.log(sum_a) if sum_a > 1.0 else 0.0
    best = -1
    best_v = -np.inf
    for q in range(n_arms):
        ch = arms[q]
        n_j = data[ch, VISITS]
        if n_j == 0:
            return ch
        na = amaf[ch, 1]
        if na == 0.0:
            if lam > 0.0:
                return ch
            am = 0.0
        else:
            am = amaf[ch, 0] / na + c_amaf * math.sqrt(log_a / na)
        av = data[ch, AVAIL]
        log_n = LOG_TABLE[av] if av < LOG_TABLE_SIZE else math.log(av)
        if kind == UCB1:
            b = fdata[ch, TOTAL] / n_j + c * math.sqrt(log_n / n_j)
        else:
            b = ucb_tuned_value(fdata[ch, TOTAL], fdata[ch, SUMSQ], n_j, log_n)
        v = lam * am + (1.0 - lam) * b
        if v > best_v:
            best_v = v
            best = ch
    return best


@njit(forceinline=True)
def epic_alternatives(G, s, p, nl, a, ep_h, hkeys, hstat, hmeta, ep_alt, n_alt, cfg):
    """EPIC-6's ψavail records: the positions-in-episode of the actions not taken (their
    slots appended to ``ep_alt``), made here if new (EPIC-7: every record counts its
    availability from the start) or, with the named departure ``epic_avail=visited``
    (cfg[C_EPIC_AVAIL]), only those that exist; returns the new count."""
    make = cfg[S.C_EPIC_AVAIL] == S.EPIC_AVAIL_ALL
    for i in range(nl):
        b = G.legal_action(s, i)
        if b != a:
            key = R.mix(R.mix(ep_h, b + 1), p + 1)
            # find's ``insert`` as a literal in each branch: each inlined copy is pruned
            # to its own path (a run-time ``insert`` cost ``visited`` 3-4%).
            if make:
                slot = R.find(hkeys, hstat, hmeta, key, True)
            else:
                slot = R.find(hkeys, hstat, hmeta, key, False)
            if slot >= 0:
                ep_alt[n_alt] = slot
                n_alt += 1
    return n_alt


@njit(cache=True, forceinline=True)
def capture_records(cfg, mu, n_players, n_actions, hist_a, hist_p, t, tree_moves, mast, lgr,
                    hkeys, hstat, hmeta, ep_keys, ep_alt, n_alt):
    """ξ and ω of the non-tree records for one finished playout of ``t`` moves (the first
    ``tree_moves`` of them in the tree): MAST/TO-MAST, LGR/LGRF, NAST, EPIC."""
    if cfg[S.C_USES_MAST] != 0:
        upto = tree_moves if cfg[S.C_TO_MAST] else t
        for i in range(upto):
            kk = hist_p[i] * n_actions + hist_a[i]
            mast[kk, 0] += mu[hist_p[i]]
            mast[kk, 1] += 1.0
    if cfg[S.C_USES_LGR] != 0:
        top = mu[0]
        low = mu[0]
        for j in range(1, n_players):
            top = max(top, mu[j])
            low = min(low, mu[j])
        forget = cfg[S.C_LGR_FORGET] != 0
        for i in range(t - 1):
            rp = hist_p[i + 1]
            kk = rp * n_actions + hist_a[i]
            if mu[rp] == top and top > low:
                lgr[kk] = hist_a[i + 1]
            elif forget and lgr[kk] == hist_a[i + 1]:
                lgr[kk] = -1
    if cfg[S.C_USES_NAST] != 0:
        nn = cfg[S.C_NAST_N]
        for i in range(nn - 1, t):
            h = R.NAST_SEED
            for j in range(i - nn + 1, i):
                h = R.mix(h, hist_a[j] + 1)
            slot = R.find(hkeys, hstat, hmeta, R.mix(R.mix(h, hist_a[i] + 1), hist_p[i] + 1),
                          True)
            if slot >= 0:
                hstat[slot, 0] += mu[hist_p[i]]
                hstat[slot, 1] += 1.0
    if cfg[S.C_USES_EPIC] != 0:
        for i in range(t):
            slot = R.find(hkeys, hstat, hmeta, ep_keys[i], True)
            if slot >= 0:
                hstat[slot, 0] += mu[hist_p[i]]
                hstat[slot, 1] += 1.0
                hstat[slot, 2] += 1.0
        for i in range(n_alt):
            hstat[ep_alt[i], 2] += 1.0


@njit(forceinline=True)
def mix_action(G, s, p, nl, acts, vals, cfg, fcfg, first, n_terms, wbase, n_actions,
               mast, lgr, hkeys, hstat, hmeta, hist_a, t, ep_h, rng):
    """One action by a linear mix of policies (cfg[first:first+n_terms], weights at
    fcfg[wbase:]): a component drawn by weight, which then chooses."""
    q = 0
    if n_terms > 1:
        tot = 0.0
        for i in range(n_terms):
            tot += fcfg[wbase + i]
        r = rand_float(rng) * tot
        while q < n_terms - 1 and r >= fcfg[wbase + q]:
            r -= fcfg[wbase + q]
            q += 1
    kind = cfg[first + q]
    if kind == S.RANDOM:
        return G.legal_action(s, np.int64(rand_below(rng, nl)))
    G.legal_actions(s, acts)
    if kind == S.MAST:
        return R.mast_action(mast, p, n_actions, acts, nl, vals, cfg[S.C_MAST_POLICY],
                             fcfg[S.F_TAU], fcfg[S.F_EPS], fcfg[S.F_C_MAST], rng)
    if kind == S.LGR:
        if t > 0:
            reply = lgr[p * n_actions + hist_a[t - 1]]
            if reply >= 0:
                for i in range(nl):
                    if acts[i] == reply:
                        return reply
        return acts[rand_below(rng, nl)]
    if kind == S.NAST:
        nn = cfg[S.C_NAST_N]
        if t < nn - 1:
            return acts[rand_below(rng, nl)]
        h = R.NAST_SEED
        for j in range(t - nn + 1, t):
            h = R.mix(h, hist_a[j] + 1)
        c_table, avail = fcfg[S.F_C_NAST], False
    else:  # EPIC
        h, c_table, avail = ep_h, fcfg[S.F_C_EPIC], True
    # one inlined copy of the table policy for NAST and EPIC (half the compile of two)
    return R.table_ucb_action(hkeys, hstat, hmeta, h, p, acts, nl, vals, c_table, avail, rng)


@njit(cache=True, inline="always")
def amaf_workspace(uses_amaf, width, n_players, n_actions):
    """AMAF-6's per-search arrays (size 1 when RAVE is off): for the k-th choice of a
    descent its player ``am_p``, the index of its move in the iteration ``am_i`` and its
    available sibling nodes ``am_nodes[am_start[k]:am_start[k + 1]]``; per (player, action)
    the latest index it was played at (``last_idx``, valid where ``last_stamp`` is the
    iteration's stamp)."""
    m = width + 1 if uses_amaf else 1
    pa = n_players * n_actions if uses_amaf else 1
    return (np.empty(m, dtype=np.int64), np.empty(m, dtype=np.int64),
            np.empty(m, dtype=np.int64), np.empty(256 if uses_amaf else 1, dtype=np.int64),
            np.zeros(pa, dtype=np.int64), np.zeros(pa, dtype=np.int64))


@njit(cache=True, inline="always")
def amaf_captures_at(cfg, n_arms, n_legal):
    """Whether AMAF-6 captures under a node where ``n_arms`` of the ``n_legal`` legal
    actions (edges) had a child when the choice was made there: only at a *selection
    node*, where all had one (Whitehouse 2014, AMAF-6 with §8.2.2's definition), or, with
    the named departure ``amaf_capture=tree`` (cfg[C_AMAF_CAPTURE]), at every choice in the
    tree, the expansion node's included."""
    return n_arms >= n_legal or cfg[S.C_AMAF_CAPTURE] == S.AMAF_TREE


@njit(cache=True, inline="always")
def amaf_note(am_p, am_i, am_start, am_nodes, n_am, n_amn, p, hl, arms, n_arms, chosen,
              expanding):
    """Note a tree choice of player ``p`` at move index ``hl`` where AMAF-6 captures
    (:func:`amaf_captures_at`, checked by the caller): its available arms (and the child
    just expanded). Returns ``am_nodes`` (grown when full) and the new counts."""
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
    return am_nodes, n_am + 1, n_amn


@njit(cache=True, forceinline=True)
def amaf_update(amaf, data, mu, n_actions, hist_a, hist_p, hl, stamp, last_idx, last_stamp,
                am_p, am_i, am_start, am_nodes, n_am, n_amn):
    """After a playout of ``hl`` moves with rewards ``mu``: a noted sibling gains the reward
    of its player when that player played the sibling's action at the sibling's step or
    later (the latest index of each (player, action) is what is compared)."""
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
