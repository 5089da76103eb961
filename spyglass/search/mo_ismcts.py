"""MO-ISMCTS over enumerated determinizations (Whitehouse 2014, §6.3, Algorithms 4-5).

The Resistance bots' MO-ISMCTS (``spyglass bots``: ``moismcts``), on the shared node pool
of :mod:`spyglass.search.tree`. One tree per player, whose edges are moves as that player
sees them: the acting player's tree chooses (with availability counts, since one tree
serves all determinizations: the subset-armed bandit of §5.2.1) and every other tree
follows its player's observation. Each tree's nodes hold its owner's reward. The
searcher's decision node is reached through its observations from the start of the
round (as in MT-ISMCTS).

Why MO is not a :class:`~spyglass.search.protocol.SearchSpec` of the MT-ISMCTS core: MO
keeps one tree per player for *every* determinization, so a player's tree spans states
where its legal actions differ (a Resistance player is a spy under some determinizations
and may play a fail card only there). MT-ISMCTS never needs availability (each of its
trees is one information set of its owner), and its loop would select an illegal child
at such a node.

The conventions (two levels for a ``move_reveals`` move, one new node per tree per
iteration, EXP3 at simultaneous-move nodes) and the Python driver
(:class:`~spyglass.search.so_ismcts.ISMCTS` with ``mode="mo"``) are those of
:mod:`spyglass.search.so_ismcts`, whose loop runs SO-ISMCTS and SO-ISMCTS+POM. The two
loops are separate so that each reads as its algorithm; a game binds both in its cached
entry point (:func:`spyglass.games.resistance.family_search.run_ismcts`). The
game-general MO-ISMCTS over sampled determinizations is :mod:`spyglass.search.sampled.mo`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from spyglass.rng import rand_below, rand_float
from spyglass.search.bandits import exp3_probabilities, select_available
from spyglass.search.sampled.forest import pick_particle as sample_index
from spyglass.search.tree import (
    CHILD,
    FULL,
    KEY,
    SIBLING,
    VISIT_MASK,
    VISITS,
    add_child,
    backpropagate,
    find_child_mtf,
)


@njit(inline="always")  # inlined into each game's cached entry point (see mtismcts.py)
def run_iterations(G, simultaneous, root, n_players, dets, cum, searcher, pre, tree_root,
                   data, fdata, meta, xs, avail, kind, c, exp3, n_iter, rng,
                   max_actions, max_depth):
    """Run up to ``n_iter`` MO-ISMCTS iterations; return how many ran.

    ``tree_root[t]``: root node of player ``t``'s tree. ``pre``: moves played uniformly at
    random after determinizing, before the trees are entered (0 for the bots, whose MO
    searches start at the beginning of the round). ``xs``: EXP3's reward sums and
    ``avail``: availability counts, one per node. Stops early (after a whole iteration)
    when the pool fills, so Python can grow it and call again.
    """
    s = np.empty_like(root)
    n_trees = tree_root.shape[0]
    cur = np.empty(n_trees, dtype=np.int32)
    plen = np.empty(n_trees, dtype=np.int32)
    width = 2 * max_depth + 2
    path = np.empty((n_trees, width), dtype=np.int32)
    who = np.empty((n_trees, width), dtype=np.int32)
    arms = np.empty(max_actions, dtype=np.int32)
    probs = np.empty(max_actions, dtype=np.float64)
    scores = np.empty(max_actions, dtype=np.float64)
    tried = np.zeros(max_actions, dtype=np.bool_)
    x_node = np.empty(width, dtype=np.int32)
    x_prob = np.empty(width, dtype=np.float64)
    x_who = np.empty(width, dtype=np.int32)
    done = 0
    for _ in range(n_iter):
        if meta[FULL]:
            break
        k = sample_index(cum, rng)
        s[:] = root
        G.determinize(s, dets[k], rng)
        for _q in range(pre):
            if G.is_terminal(s):
                break
            G.apply(s, G.legal_action(s, rand_below(rng, G.n_legal(s))))
        for t in range(n_trees):
            cur[t] = tree_root[t]
            path[t, 0] = tree_root[t]
            who[t, 0] = t
            plen[t] = 1
        nx = 0

        while not G.is_terminal(s):
            p = G.actor(s)
            t_act = p
            u = cur[t_act]
            if u < 0:
                break
            nl = G.n_legal(s)
            # Gather the children compatible with the determinization.
            n_arms = 0
            nd = nl
            ch = data[u, CHILD]
            while ch >= 0:
                pos = data[ch, KEY] if data[ch, KEY] < nl else -1
                if pos >= 0:
                    tried[pos] = True
                    arms[n_arms] = ch
                    n_arms += 1
                ch = data[ch, SIBLING]
            expanding = n_arms < nd
            chosen = -1
            if expanding:
                r = rand_below(rng, nd - n_arms)
                pick = -1
                for i in range(nd):
                    if not tried[i]:
                        if r == 0:
                            pick = i
                            break
                        r -= 1
            elif exp3 and nd > 1 and simultaneous(s):
                for q in range(n_arms):
                    scores[q] = xs[arms[q]]
                exp3_probabilities(scores, n_arms, max(data[u, VISITS] & VISIT_MASK, 1), probs)
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
            else:
                chosen = select_available(data, fdata, avail, arms, n_arms, kind, c)
            for i in range(nd):
                tried[i] = False
            i_act = pick if expanding else data[chosen, KEY]
            key_act = i_act
            a = G.legal_action(s, i_act)
            reveals = G.move_reveals(s)
            if expanding:
                chosen = add_child(data, fdata, meta, u, key_act)
            # Availability: every compatible child (the chosen one included) was available.
            for q in range(n_arms):
                avail[arms[q]] += 1
            if expanding and chosen >= 0:
                avail[chosen] += 1

            # Descend every tree.
            for t in range(n_trees):
                v = cur[t]
                if v < 0:
                    continue
                owner = t
                if t == t_act:
                    ch = chosen
                    created = expanding
                else:
                    key = G.observe(s, a, t)
                    ch = find_child_mtf(data, v, key)
                    created = ch < 0
                    if created:
                        ch = add_child(data, fdata, meta, v, key)
                if ch >= 0 and not created and t == t_act and reveals:
                    # The choice node exists: descend to what the move revealed.
                    if plen[t] < width:
                        path[t, plen[t]] = ch
                        who[t, plen[t]] = owner
                        plen[t] += 1
                    v = ch
                    key = G.observe(s, a, t)
                    ch = find_child_mtf(data, v, key)
                    created = ch < 0
                    if created:
                        ch = add_child(data, fdata, meta, v, key)
                if ch >= 0 and plen[t] < width:
                    path[t, plen[t]] = ch
                    who[t, plen[t]] = owner
                    plen[t] += 1
                    cur[t] = -1 if created else ch
                else:
                    cur[t] = -1
            G.apply(s, a)
            if expanding:
                break

        G.playout(s, rng)

        for t in range(n_trees):
            for q in range(plen[t]):
                backpropagate(data, fdata, meta, path[t, q], G.reward(s, who[t, q]))
        for q in range(nx):
            xs[x_node[q]] += G.reward(s, x_who[q]) / x_prob[q]
        done += 1
    return done
