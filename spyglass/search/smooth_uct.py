"""Semi-determinized Smooth-UCT over an abstract information state (SDMCTS).

Bitan & Kraus 2018, §3 (Algorithms 1-2) and §4.6 (Algorithm 3). For each possible hidden
part of the opponent's last action (for Cheat: was its claim true or false), SEARCH
samples full states consistent with the player's view *and* that hypothesis, and runs
ISMCTS simulations in which the hidden actions are treated as public. The root statistics
of each hypothesis are returned separately; the caller combines them with a predictive
model, ``E[u, a] = sum_o P(o | u) Q(u~(o), a)`` (Algorithm 1, GET BEST RESPONSE).

Every player (the opponent too) has its own tree of *abstract* information states: a
game maps a state and a seat to ``N_ATTRS`` small attributes, and a node is found by
those. With ``key_mode`` 0 the attributes are packed into one 32-bit key (the paper's
§4.3.1 encoding; one int compare per probe); with 1 the node stores the attribute row
and a probe compares all of it (the "naive" representation the paper measured against).
Actions in the tree are the game's abstract actions (``N_ABSTRACT``), each mapped to a
concrete move by the game.

Selection is Smooth-UCT as in Algorithm 3 (the paper's §2.4 text states the opposite
assignment of ``eta``; Algorithm 3 and §4.6 agree, and Heinrich & Silver 2015 define it
so): with probability ``eta_k = max(gamma, eta / (1 + d * sqrt(N(u))))`` the UCB1 action
``argmax Q + c sqrt(log N(u) / N(u, a))`` (untried actions first), otherwise an action
drawn from the average policy ``N(u, a) / N(u)``. A player leaving its tree (a new
node) chooses by the game's rollout policy from then on (Algorithm 2). Rewards are
discounted towards ½ by ``discount ** moves`` from the root, so that quicker wins and
slower losses score better (the paper's discount factor, 0.995).

The game provides an :class:`Abstraction` tuple of compiled functions and binds
:func:`run` to it in a cached entry point (as for :mod:`spyglass.search.protocol`).
"""

from __future__ import annotations

from collections import namedtuple

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float

#: Attributes of an abstract information state, and abstract actions (Bitan & Kraus 2018).
N_ATTRS = 16
N_ABSTRACT = 18

Abstraction = namedtuple("Abstraction", ["attrs", "pack", "legal", "concrete", "rollout",
                                         "sample"])
Abstraction.__doc__ = """A game's abstraction for SDMCTS (compiled functions).

``attrs(s, i, out)``            seat ``i``'s abstract information state at full state ``s``
                                (claims public): ``N_ATTRS`` small non-negative ints.
``pack(attrs) -> int``          the attributes packed into 32 bits, without loss.
``legal(s, mask) -> int``       the actor's legal abstract actions (``mask[a]`` 0/1), count.
``concrete(s, a) -> int``       the concrete action id of abstract action ``a``.
``rollout(s, rng) -> int``      the rollout policy's abstract action.
``sample(v, j, rng, s, h) -> bool``  a state consistent with view ``v`` and hypothesis
                                ``h`` about the opponent's last hidden action (-1: none).
"""


@njit(cache=True, inline="always")
def _mix(h: int) -> int:
    """Scramble a non-negative key with shifts and xors only (no overflow uncompiled)."""
    h ^= h >> 16
    h ^= (h << 7) & 0x7FFFFFFFFFFF
    h ^= h >> 13
    return h


@njit(cache=True, inline="always")
def find_node(table, mask, keys, rows, n_nodes, mode, seat, attrs, packed, create):
    """The node of (seat, abstract state), or -1; a new one when ``create`` (returns
    ``-(index) - 2`` for a node just made). Open addressing, linear probing."""
    if mode == 0:
        key = (seat << 32) | packed
        h = _mix(key) & mask
        while True:
            slot = table[h]
            if slot == 0:
                break
            if keys[slot - 1] == key:
                return slot - 1
            h = (h + 1) & mask
    else:
        h = seat
        for i in range(N_ATTRS):
            h = ((h << 5) & 0xFFFFFFFFFFF) ^ (h >> 29) ^ attrs[i]
        h = _mix(h) & mask
        while True:
            slot = table[h]
            if slot == 0:
                break
            n = slot - 1
            same = rows[n, N_ATTRS] == seat
            if same:
                for i in range(N_ATTRS):
                    if rows[n, i] != attrs[i]:
                        same = False
                        break
            if same:
                return n
            h = (h + 1) & mask
    if not create:
        return -1
    n = n_nodes[0]
    n_nodes[0] = n + 1
    table[h] = n + 1
    if mode == 0:
        keys[n] = (seat << 32) | packed
    else:
        for i in range(N_ATTRS):
            rows[n, i] = attrs[i]
        rows[n, N_ATTRS] = seat
    return -n - 2


@njit(cache=True, inline="always")
def smooth_select(node, legal_mask, visits, counts, q, rng, eta, gamma, d, c):
    """Algorithm 3's SELECT among the legal abstract actions of ``node``."""
    nu = visits[node]
    eta_k = eta / (1.0 + d * np.sqrt(nu))
    if eta_k < gamma:
        eta_k = gamma
    if rand_float(rng) < eta_k or nu == 0:
        best = -1
        best_v = -1e300
        log_n = np.log(max(nu, 1))
        for a in range(N_ABSTRACT):
            if legal_mask[a] == 0:
                continue
            na = counts[node, a]
            if na == 0:
                return a  # untried first (UCB1's infinite bonus), lowest index
            val = q[node, a] + c * np.sqrt(log_n / na)
            if val > best_v:
                best_v = val
                best = a
        return best
    total = 0
    for a in range(N_ABSTRACT):
        if legal_mask[a]:
            total += counts[node, a]
    if total == 0:
        for a in range(N_ABSTRACT):
            if legal_mask[a]:
                return a
    x = rand_below(rng, total)
    last = -1
    for a in range(N_ABSTRACT):
        if legal_mask[a]:
            last = a
            if x < counts[node, a]:
                return a
            x -= counts[node, a]
    return last


@njit(cache=True, inline="always")
def run(G, A, view, seat, hyps, n_hyps, n_iter, mode, eta, gamma, d, c, discount,
        state_size, max_moves, rng, root_q, root_n, root_ok):
    """Algorithm 1's SEARCH: ``n_iter`` rounds, each one simulation per hypothesis.

    ``hyps[:n_hyps]``: the hypotheses (e.g. 1 = the opponent's claim was true, 0 = false,
    or just -1). Writes each hypothesis' root statistics to ``root_q[h]``/``root_n[h]``
    (``root_ok[h]`` 1 when it could be sampled). Returns the number of simulations.
    """
    cap = 2 * n_iter * n_hyps + 8
    size = 16
    while size < 2 * cap:
        size *= 2
    mask = size - 1
    table = np.zeros(size, dtype=np.int64)
    keys = np.zeros(cap if mode == 0 else 1, dtype=np.int64)
    rows = np.zeros((cap if mode == 1 else 1, N_ATTRS + 1), dtype=np.int64)
    visits = np.zeros(cap, dtype=np.int64)
    counts = np.zeros((cap, N_ABSTRACT), dtype=np.int64)
    q = np.zeros((cap, N_ABSTRACT), dtype=np.float64)
    n_nodes = np.zeros(1, dtype=np.int64)
    s = np.empty(state_size, dtype=np.int64)
    attrs = np.empty(N_ATTRS, dtype=np.int64)
    lmask = np.empty(N_ABSTRACT, dtype=np.int64)
    path_node = np.empty(max_moves + 2, dtype=np.int64)
    path_act = np.empty(max_moves + 2, dtype=np.int64)
    path_seat = np.empty(max_moves + 2, dtype=np.int64)
    root_node = np.full(n_hyps, -1, dtype=np.int64)
    out = np.zeros(2, dtype=np.bool_)
    sims = 0
    for _ in range(n_iter):
        for hi in range(n_hyps):
            if not A.sample(view, seat, rng, s, hyps[hi]):
                continue
            root_ok[hi] = 1
            out[0] = False
            out[1] = False
            depth = 0
            plen = 0
            while not G.is_terminal(s):
                p = G.actor(s)
                if out[p]:
                    G.apply(s, A.concrete(s, A.rollout(s, rng)))
                    depth += 1
                    continue
                A.attrs(s, p, attrs)
                packed = A.pack(attrs) if mode == 0 else 0
                node = find_node(table, mask, keys, rows, n_nodes, mode, p, attrs, packed,
                                 True)
                if node < -1:
                    node = -node - 2
                    a = A.rollout(s, rng)
                    out[p] = True
                else:
                    A.legal(s, lmask)
                    a = smooth_select(node, lmask, visits, counts, q, rng, eta, gamma, d, c)
                if depth == 0 and p == seat and root_node[hi] < 0:
                    root_node[hi] = node
                path_node[plen] = node
                path_act[plen] = a
                path_seat[plen] = p
                plen += 1
                G.apply(s, A.concrete(s, a))
                depth += 1
            scale = discount ** depth
            for k in range(plen):
                n = path_node[k]
                a = path_act[k]
                r = 0.5 + (G.reward(s, path_seat[k]) - 0.5) * scale
                visits[n] += 1
                counts[n, a] += 1
                q[n, a] += (r - q[n, a]) / counts[n, a]
            sims += 1
    for hi in range(n_hyps):
        n = root_node[hi]
        if n >= 0:
            for a in range(N_ABSTRACT):
                root_q[hi, a] = q[n, a]
                root_n[hi, a] = counts[n, a]
    return sims
