"""Marsh's opponent model for SearchAgent's playouts (Marsh, §4.2), compiled.

A lightweight Bayesian model of the players, used inside PIMC playouts: spies sabotage
with a per-mission betrayal probability, resistance leaders prefer unsuspicious teams and
resistance voters approve teams that are probably clean; every simulated mission updates
the belief over spy configurations (:func:`mission_update`). It is a bot's model, not a
rule of the game, so it lives in the bots layer (it used to sit in
``spyglass.games.resistance.family_search``; moved unchanged, same results).

:func:`run_searchagent` is its cached entry point: the generic UCT loop
(:data:`spyglass.search.sampled.uct.run_compact`) bound to the Resistance kernel and
:func:`weighted_playout`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.search_kernel import KERNEL, move_reveals
from spyglass.games.resistance.tables import MAX_ATTEMPTS, WINS_NEEDED
from spyglass.resistance.bots.bayesagent import BETRAY_BY_MISSION
from spyglass.rng import rand_float
from spyglass.search.cache import flush_stale_caches
from spyglass.search.sampled import uct

BETRAY = np.array(BETRAY_BY_MISSION, dtype=np.float64)
#: Betrayal probabilities are kept inside [BETRAY_MIN, BETRAY_MAX] in the model, so a
#: playout spy that did not sabotage never makes the model's belief impossible.
BETRAY_MIN, BETRAY_MAX = 0.05, 0.95



@njit(cache=True)
def betrayal(mission: int, spy_wins: int) -> float:
    """The model's chance that a spy on ``mission`` (0-based) sabotages it."""
    b = 1.0 if spy_wins == WINS_NEEDED - 1 else BETRAY[mission]
    return min(max(b, BETRAY_MIN), BETRAY_MAX)


@njit(cache=True)
def mission_update(cfg: np.ndarray, w: np.ndarray, team: int, fails: int, beta: float) -> None:
    """Bayes' rule over spy configurations after ``fails`` fail cards from ``team``.

    Each spy on the team fails independently with probability ``beta``: the likelihood
    of configuration ``c`` is ``C(k, f) β^f (1 − β)^(k − f)`` with ``k`` its spies on the
    team. ``w`` (unnormalised weights) is updated in place and renormalised.
    """
    tot = 0.0
    for i in range(cfg.shape[0]):
        k = K.popcount(cfg[i] & team)
        if fails > k:
            w[i] = 0.0
            continue
        comb = 1.0
        for j in range(fails):
            comb = comb * (k - j) / (j + 1)
        w[i] *= comb * beta ** fails * (1.0 - beta) ** (k - fails)
        tot += w[i]
    if tot > 0:
        for i in range(cfg.shape[0]):
            w[i] /= tot


@njit(cache=True)
def suspicion_of(cfg: np.ndarray, w: np.ndarray, viewer: int, n: int, out: np.ndarray) -> None:
    """Each seat's spy probability as resistance member ``viewer`` sees it (own seat 0)."""
    for m in range(n):
        out[m] = 0.0
    tot = 0.0
    for i in range(cfg.shape[0]):
        c = cfg[i]
        if (c >> viewer) & 1:
            continue
        tot += w[i]
        for m in range(n):
            if (c >> m) & 1:
                out[m] += w[i]
    if tot > 0:
        for m in range(n):
            out[m] /= tot


@njit(cache=True)
def p_clean(cfg: np.ndarray, w: np.ndarray, viewer: int, team: int) -> float:
    """Probability, as ``viewer`` (resistance) sees it, that ``team`` holds no spy."""
    tot = 0.0
    clean = 0.0
    for i in range(cfg.shape[0]):
        c = cfg[i]
        if (c >> viewer) & 1:
            continue
        tot += w[i]
        if c & team == 0:
            clean += w[i]
    return clean / tot if tot > 0 else 1.0


@njit(cache=True)
def weighted_action(s: np.ndarray, rng: np.ndarray, cfg: np.ndarray, w: np.ndarray,
                    marg: np.ndarray) -> int:
    """The opponent model's move for the actor of ``s`` (``marg``: scratch, one per seat).

    Spies move uniformly. A resistance leader ranks the teams by total suspicion (its own
    view: configurations without itself) and picks rank ``r`` of ``R`` with weight
    ``R − r`` (linear in rank, least suspicious first). A resistance voter approves with
    the probability that the team is clean, except on a mission's last attempt, when a
    rejection would lose the game (a choice the seed leaves open). Resistance members
    only have the success card.
    """
    ph = s[K.PHASE]
    p = K.actor(s)
    if K.is_spy(s, p) or ph == K.MISSION_PHASE:
        return K.random_action(s, rng)
    n = s[K.N]
    if ph == K.PROPOSE:
        size = K.team_size(s)
        start = K.TEAM_START[n, size]
        cnt = K.TEAM_COUNT[n, size]
        suspicion_of(cfg, w, p, n, marg)
        score = np.empty(cnt, dtype=np.float64)
        for t in range(cnt):
            team = K.TEAMS[start + t]
            tot = 0.0
            for m in range(n):
                if (team >> m) & 1:
                    tot += marg[m]
            score[t] = tot
        order = np.argsort(score, kind="mergesort")
        x = rand_float(rng) * (cnt * (cnt + 1) / 2.0)
        r = 0
        while r < cnt - 1 and x >= cnt - r:
            x -= cnt - r
            r += 1
        return K.TEAMS[start + order[r]]
    if (s[K.RULES] & K.FORCED_FIFTH) == 0 and s[K.ATTEMPT] == MAX_ATTEMPTS - 1:
        return 1
    return 1 if rand_float(rng) < p_clean(cfg, w, p, s[K.TEAM]) else 0


@njit(cache=True)
def weighted_playout(s: np.ndarray, rng: np.ndarray, cfg: np.ndarray, w0: np.ndarray) -> None:
    """Marsh's playout (Marsh, §4.2): every move from :func:`weighted_action`.

    ``cfg``/``w0``: spy configurations and the public belief over them (updated by the
    model after every real mission); inside the playout the belief is updated after
    every simulated mission too (:func:`mission_update`).
    """
    w = w0.copy()
    marg = np.empty(s[K.N], dtype=np.float64)
    while s[K.PHASE] != K.OVER:
        if s[K.PHASE] == K.MISSION_PHASE and move_reveals(s):
            m = s[K.MISSION]
            team = s[K.TEAM]
            beta = betrayal(m, s[K.SPY_WINS])
            K.apply(s, weighted_action(s, rng, cfg, w, marg))
            mission_update(cfg, w, team, (s[K.HISTORY] >> (4 * m)) & 15, beta)
        else:
            K.apply(s, weighted_action(s, rng, cfg, w, marg))


@njit(cache=True)
def run_searchagent(cfg, w, root, root_node, data, fdata, meta, kind, c, n_iter, rng,
                    max_actions, max_depth):
    """The UCT loop over the compact pool (:data:`spyglass.search.sampled.uct.run_compact`)
    with Marsh's weighted playouts (cached)."""
    return uct.run_compact(KERNEL, weighted_playout, cfg, w, root, root_node, data, fdata, meta,
                           kind, c, n_iter, rng, max_actions, max_depth)


# Numba checks only this file's timestamp; the entry point inlines the rules kernel and the
# UCT loop: flush it when any source reachable by import changes.
flush_stale_caches((run_searchagent,))
