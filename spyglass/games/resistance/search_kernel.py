"""The Resistance bound to the search protocol (:mod:`spyglass.search.protocol`).

The rules are the kernel's (:mod:`spyglass.games.resistance.kernel`); this module only
adds what the search needs around them:

* determinizations are the spy configurations, in the canonical order of
  :func:`~spyglass.games.resistance.tables.spy_configurations`; applying one sets SPIES;
* the information set of player ``j`` under configuration ``d`` is "resistance" if
  ``j`` is not in ``d`` and "spy, the spies are ``d``" otherwise, so each player has one
  resistance tree plus one spy tree per configuration containing it;
* a move "reveals" when it is the last vote of a round or the last mission card: the
  actor then also learns the others' hidden votes / the fail count.

Following a real game's public events for a search bot (inference, tree reuse) is
:mod:`spyglass.games.resistance.public_track`.
"""

from __future__ import annotations

from functools import cache
from math import comb

import numpy as np
from numba import njit

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.rule_playout import rule_playout
from spyglass.games.resistance.tables import (
    MAX_ATTEMPTS,
    MAX_PLAYERS,
    N_MISSIONS,
    SPIES_BY_PLAYERS,
    spy_configurations,
)
from spyglass.search import mtismcts
from spyglass.search.cache import flush_stale_caches
from spyglass.search.protocol import GameKernel, SearchSpec


@njit(cache=True)
def move_reveals(s: np.ndarray) -> bool:
    """True for the last vote of a round and the last mission card (they reveal all)."""
    ph = s[K.PHASE]
    if ph == K.VOTE:
        return s[K.CURSOR] == s[K.N] - 1
    if ph == K.MISSION_PHASE:
        return (s[K.TEAM] >> (s[K.CURSOR] + 1)) == 0
    return False


@njit(cache=True)
def determinize(s: np.ndarray, row: np.ndarray, rng: np.ndarray) -> None:
    """Make ``row[0]`` (a spy bitmask) the spies of ``s``."""
    s[K.SPIES] = row[0]


KERNEL = GameKernel(
    actor=K.actor,
    n_legal=K.n_legal,
    legal_action=K.legal_action,
    apply=K.apply,
    observe=K.observe,
    move_reveals=move_reveals,
    is_terminal=K.is_terminal,
    reward=K.reward,
    playout=K.playout,
    determinize=determinize,
)
#: The same rules with the rule-based playout policy (:mod:`.rule_playout`).
KERNEL_RULES = KERNEL._replace(playout=rule_playout)


@njit(cache=True, nogil=True)  # nogil: root-parallel workers search in threads
def run_iterations(root, n_players, dets, cum, tree_of, tree_root, tree_update, tree_policy,
                   data, fdata, meta, index, searcher, dec_tree, dec_nodes, det_slot, count_phi,
                   psi_col, slot_keys, slot_vals, smeta, counts, kind, c, n_iter, rng,
                   max_actions, max_depth):
    """:func:`spyglass.search.mtismcts.run_iterations` for The Resistance (cached)."""
    return mtismcts.run_iterations(
        KERNEL, root, n_players, dets, cum, tree_of, tree_root, tree_update, tree_policy,
        data, fdata, meta, index, searcher, dec_tree, dec_nodes, det_slot, count_phi, psi_col,
        slot_keys, slot_vals, smeta, counts, kind, c, n_iter, rng, max_actions, max_depth,
    )


@njit(cache=True, nogil=True)
def run_iterations_rules(root, n_players, dets, cum, tree_of, tree_root, tree_update,
                         tree_policy, data, fdata, meta, index, searcher, dec_tree, dec_nodes,
                         det_slot, count_phi, psi_col, slot_keys, slot_vals, smeta, counts,
                         kind, c, n_iter, rng, max_actions, max_depth):
    """The same loop with :data:`KERNEL_RULES` (the rule-based playout; cached)."""
    return mtismcts.run_iterations(
        KERNEL_RULES, root, n_players, dets, cum, tree_of, tree_root, tree_update,
        tree_policy, data, fdata, meta, index, searcher, dec_tree, dec_nodes, det_slot,
        count_phi, psi_col, slot_keys, slot_vals, smeta, counts, kind, c, n_iter, rng,
        max_actions, max_depth,
    )


#: Playout policies of the search (:func:`search_spec`'s ``playout``): the kernel's
#: uniformly random one (Cowling et al. 2015) and the rule-based one (issue 31).
PLAYOUTS = {"random": (KERNEL, run_iterations), "rules": (KERNEL_RULES, run_iterations_rules)}


def check_playout(playout: object) -> str:
    """``playout`` if it names a playout policy of :data:`PLAYOUTS`; else a ValueError."""
    if not isinstance(playout, str) or playout not in PLAYOUTS:
        raise ValueError(f"playout must be one of {', '.join(PLAYOUTS)}, not {playout!r}")
    return playout


# Numba checks only this file's timestamp; these entry points inline the rules kernel and
# the search loops: flush them when any source reachable by import changes.
flush_stale_caches((run_iterations, run_iterations_rules))


MAX_DEPTH = N_MISSIONS * (MAX_ATTEMPTS * (1 + 10) + 5)  # proposals, votes and cards
RESISTANCE_TREE = 0


def trees_per_player(n_players: int) -> int:
    """1 resistance tree + one spy tree per configuration containing the player."""
    return 1 + comb(n_players - 1, SPIES_BY_PLAYERS[n_players] - 1)


def info_set_table(n_players: int) -> tuple[np.ndarray, int]:
    """``tree_of[k, j]`` for configuration ``k`` and seat ``j``, and the number of trees.

    Player ``j``'s trees are ``j*T .. j*T + T-1`` (``T = trees_per_player``): first its
    resistance tree, then its spy trees in canonical configuration order.
    """
    configs = spy_configurations(n_players)
    per = trees_per_player(n_players)
    tree_of = np.zeros((len(configs), n_players), dtype=np.int32)
    for j in range(n_players):
        rank = 0
        for k, d in enumerate(configs.tolist()):
            if (d >> j) & 1:
                rank += 1
                tree_of[k, j] = j * per + rank
            else:
                tree_of[k, j] = j * per + RESISTANCE_TREE
    return tree_of, per * n_players


@cache
def search_spec(n_players: int, playout: str = "random") -> SearchSpec:
    """The :class:`SearchSpec` of The Resistance for ``n_players`` (5-10), its playouts
    by the policy ``playout`` (:data:`PLAYOUTS`)."""
    kernel, run = PLAYOUTS[check_playout(playout)]
    configs = spy_configurations(n_players)
    tree_of, n_trees = info_set_table(n_players)
    return SearchSpec(
        kernel=kernel,
        run=run,
        n_players=n_players,
        dets=configs.reshape(-1, 1).astype(np.int64),
        tree_of=tree_of,
        n_trees=n_trees,
        max_actions=K.MAX_ACTIONS,
        max_depth=MAX_DEPTH,
        binary_rewards=True,  # kernel.reward: 1.0 for the winning side, else 0.0
    )


def fails_constraint(configs: np.ndarray, team_mask: int, fails: int) -> np.ndarray:
    """Which configurations put at least ``fails`` spies on the team (Cowling et al. 2015, §V)."""
    on_team = configs & team_mask
    counts = np.zeros(len(configs), dtype=np.int64)
    for seat in range(MAX_PLAYERS):
        counts += (on_team >> seat) & 1
    return counts >= fails
