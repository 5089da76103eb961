"""The Resistance bound to the ISMCTS-family searches (SO/POM/MO-ISMCTS, PIMC, SearchAgent).

The rules are the kernel's and the game binding is :data:`search_kernel.KERNEL`; this
module adds only what these searches need besides it:

* :func:`simultaneous` — votes and mission cards are simultaneous moves (EXP3 nodes);
* the cached entry points (the generic loops bound to the kernel, as in
  :mod:`spyglass.search.mtismcts`): :func:`run_ismcts`, :func:`run_pimc` (uniform random
  playouts) and :func:`run_searchagent` (Marsh's suspicion-weighted playouts);
* :func:`weighted_playout` and :func:`mission_update`: the lightweight Bayesian opponent
  model of seed 004 §4.2 (see there).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
from numba import njit

from spyglass.bots.bayesagent import BETRAY_BY_MISSION
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.search_kernel import KERNEL, move_reveals
from spyglass.games.resistance.tables import MAX_ATTEMPTS, WINS_NEEDED
from spyglass.rng import rand_below, rand_float
from spyglass.search import pimc, so_ismcts

BETRAY = np.array(BETRAY_BY_MISSION, dtype=np.float64)
#: Betrayal probabilities are kept inside [BETRAY_MIN, BETRAY_MAX] in the model, so a
#: playout spy that did not sabotage never makes the model's belief impossible.
BETRAY_MIN, BETRAY_MAX = 0.05, 0.95


@njit(cache=True)
def simultaneous(s: np.ndarray) -> bool:
    """Votes and mission cards are simultaneous in the real game."""
    return s[K.PHASE] == K.VOTE or s[K.PHASE] == K.MISSION_PHASE


@njit(cache=True)
def random_playout(s: np.ndarray, rng: np.ndarray, cfg: np.ndarray, w: np.ndarray) -> None:
    """The kernel's uniform playout, in the signature the UCT loop takes."""
    K.playout(s, rng)


@njit(cache=True)
def advance_random(s: np.ndarray, moves: int, rng: np.ndarray) -> None:
    """Play ``moves`` uniformly random legal moves (hidden earlier moves of a round)."""
    for _ in range(moves):
        if K.is_terminal(s):
            return
        K.apply(s, K.legal_action(s, rand_below(rng, K.n_legal(s))))


# --- Marsh's opponent model -----------------------------------------------------------


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
    """Marsh's playout (seed 004 §4.2): every move from :func:`weighted_action`.

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


# --- cached entry points --------------------------------------------------------------


@njit(cache=True)
def run_ismcts(root, n_players, dets, cum, mode, searcher, pre, tree_root, data, fdata, meta,
               xs, avail, kind, c, exp3, n_iter, rng, max_actions, max_depth):
    """:func:`spyglass.search.so_ismcts.run_iterations` for The Resistance (cached)."""
    return so_ismcts.run_iterations(
        KERNEL, simultaneous, root, n_players, dets, cum, mode, searcher, pre, tree_root,
        data, fdata, meta, xs, avail, kind, c, exp3, n_iter, rng, max_actions, max_depth,
    )


@njit(cache=True)
def run_pimc(cfg, w, root, root_node, data, fdata, meta, kind, c, n_iter, rng, max_actions,
             max_depth):
    """:func:`spyglass.search.pimc.run_uct` with uniform playouts (cached)."""
    return pimc.run_uct(KERNEL, random_playout, cfg, w, root, root_node, data, fdata, meta,
                        kind, c, n_iter, rng, max_actions, max_depth)


@njit(cache=True)
def run_searchagent(cfg, w, root, root_node, data, fdata, meta, kind, c, n_iter, rng,
                    max_actions, max_depth):
    """:func:`spyglass.search.pimc.run_uct` with Marsh's weighted playouts (cached)."""
    return pimc.run_uct(KERNEL, weighted_playout, cfg, w, root, root_node, data, fdata, meta,
                        kind, c, n_iter, rng, max_actions, max_depth)


def _flush_stale_cache() -> None:
    """Drop the cached entry points if a module inlined into them changed since.

    Numba only checks the defining file's timestamp; these entry points inline the rules
    kernel and the generic loops (same lesson as ``search_kernel._flush_stale_cache``).
    """
    from spyglass import rng as _rng
    from spyglass.games.resistance import search_kernel as _sk
    from spyglass.games.resistance import tables as _tables
    from spyglass.search import bandits as _bandits
    from spyglass.search import mtismcts as _mt
    from spyglass.search import tree as _tree

    digest = hashlib.sha256()
    for mod in (K, _tables, _rng, _sk, _mt, _tree, _bandits, so_ismcts, pimc):
        digest.update(Path(mod.__file__).read_bytes())
    for fn in (run_ismcts, run_pimc, run_searchagent):
        cache = getattr(fn, "_cache", None)
        if cache is None or not hasattr(cache, "flush"):  # NUMBA_DISABLE_JIT=1
            return
        try:
            marker = Path(cache.cache_path) / f"family_search.{fn.__name__}.deps"
            if not marker.exists() or marker.read_text() != digest.hexdigest():
                cache.flush()
                marker.write_text(digest.hexdigest())
        except OSError:
            pass


_flush_stale_cache()
