"""The game-kernel protocols: what a game must provide for the compiled searches.

:class:`Kernel` is the game-general protocol every game implements (determinizations
are *sampled* from a player's view). :class:`GameKernel` and :class:`SearchSpec` below
are the enumerated-determinization form MT-ISMCTS uses for games whose information sets
are small enough to list (The Resistance's spy configurations), described next.

A game is a :class:`GameKernel`, a named tuple of numba-compiled functions over a compact
integer state (a 1-D ``int64`` array). The search passes the tuple into its compiled
loop as an ordinary argument; numba specialises the loop for each game's functions (and
caches the result), so the core never names a particular game. The Resistance binding
is :mod:`spyglass.games.resistance.search_kernel`.

Functions (``s`` is a state array, ``a`` an action, ``i`` an action index, ``j`` a seat):

``actor(s) -> int``
    The player to act, or -1 when the game is over. Who acts must be public.
``n_legal(s) -> int``
    Number of legal actions of the actor. The actor's legal actions must depend only
    on what the actor knows, so that one tree node can stand for all of its states.
``legal_action(s, i) -> int``
    The ``i``-th legal action, in a fixed order.
``apply(s, a)``
    Play ``a`` in place.
``observe(s, a, j) -> int``
    Player ``j``'s observation key (a non-negative int32) of the actor playing ``a`` in
    ``s`` (called before ``apply``). Equal keys must mean "indistinguishable to ``j``";
    keys of different actions must differ for the actor.
``move_reveals(s) -> bool``
    True when the actor's own observation of its move also reveals others' hidden moves
    (e.g. the last of a round of simultaneous votes). The search then stores the choice
    and the revelation as two levels of the actor's tree, so that the choice's
    statistics do not depend on what the actor could not yet see.
``is_terminal(s) -> bool``
``reward(s, j) -> float``
    Player ``j``'s reward in a finished game, in [0, 1].
``playout(s, rng)``
    Play to the end of the game in place with the default (random) policy, drawing from
    the generator state ``rng`` (:mod:`spyglass.rng`).
``determinize(s, row, rng)``
    Write determinization ``row`` (a row of an ``int64`` table, see
    :class:`SearchSpec`) into ``s``; may draw further hidden details from ``rng``.

The information-set structure is data, not code: a table saying which tree each player
uses under each determinization (:class:`SearchSpec`).

Each game also gives the search a cached compiled entry point, ``SearchSpec.run``: the
core loop bound to its kernel as a global constant, e.g.::

    @njit(cache=True)
    def run_iterations(*args):
        return mtismcts.run_iterations(KERNEL, *args)

(numba cannot cache functions that take compiled functions as arguments, but it caches
this one, and the whole loop with it; see :mod:`spyglass.search.mtismcts`).
"""

from __future__ import annotations

from collections import namedtuple
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from numba import njit

GameKernel = namedtuple(
    "GameKernel",
    [
        "actor",
        "n_legal",
        "legal_action",
        "apply",
        "observe",
        "move_reveals",
        "is_terminal",
        "reward",
        "playout",
        "determinize",
    ],
)
GameKernel.__doc__ = "The compiled functions of one game (see the module docstring)."


#: The observation key of a move the observer does not perceive at all (see ``Kernel``).
UNSEEN = 0

Kernel = namedtuple(
    "Kernel",
    [
        "actor",
        "n_legal",
        "legal_action",
        "legal_actions",
        "apply",
        "observe",
        "move_reveals",
        "is_terminal",
        "reward",
        "playout",
        "view",
        "sample",
        "info_key",
    ],
)
Kernel.__doc__ = """The compiled functions of one game for the game-general searches.

Every game provides this tuple (``spyglass.games.<game>.kernel.KERNEL``). ``s`` is a
full state (1-D ``int64`` array of the game's ``state_size``), ``v`` a player's view
(1-D ``int64`` array of the game's ``view_size``), ``a`` an action *id*: an integer in
``0 .. n_actions - 1`` that names the same move in every state (so a tree edge keyed by
an action id means the same move under every determinization), ``j`` a seat.

``actor(s) -> int``            seat to act; -1 when the game is over. Who acts is public.
``n_legal(s) -> int``          number of legal actions of the actor (0 when over).
``legal_action(s, i) -> int``  the ``i``-th legal action id, in increasing id order.
                               The actor's legal set depends only on what the actor knows.
``legal_actions(s, out) -> int``  write every legal action id into ``out[:n]`` (the same
                               ids, same order as ``legal_action(s, 0..n-1)``) and return
                               ``n``. The searches list a node's actions with it: one pass
                               is cheaper than ``n`` indexed look-ups (7-25 % more
                               iterations/s on Phantom 4,4,4, docs/search-speed.md). A game
                               with nothing faster binds ``legal_actions_from(n_legal,
                               legal_action)``. ``out`` has room for ``n_actions`` ids.
``apply(s, a)``                play ``a`` in place (a legal action). Chance is not a player:
                               random outcomes are part of the state, drawn when it is made
                               (and re-drawn by ``sample``: Whitehouse 2014, §5.2.3).
``observe(s, a, j) -> int64``  the move as player ``j`` sees it (call *before* ``apply``):
                               equal keys mean "indistinguishable to ``j``"; for the actor,
                               keys of different actions differ. Never negative.
                               ``UNSEEN`` (0) means ``j`` does not perceive the move at all
                               (e.g. the opponent's rejected try in Phantom): ``j``'s view
                               is unchanged by it, the referee need not tell ``j``, and
                               ``j``'s tree takes no step for it. Never ``UNSEEN`` for the
                               actor.
``move_reveals(s) -> bool``    the actor's own view of this move also reveals hidden moves of
                               others (e.g. the last of a round of simultaneous votes).
``is_terminal(s) -> bool``
``reward(s, j) -> float``      ``j``'s reward in a finished game, in [0, 1] (maxⁿ vectors).
``playout(s, rng)``            finish the game in place with the default policy.
``view(s, j, v)``              write player ``j``'s information state into ``v``: everything
                               ``j`` knows and nothing else (two states that differ only in
                               what ``j`` cannot know give the same view).
``sample(v, j, rng, s) -> bool``  write into ``s`` a full state drawn from the states
                               consistent with view ``v`` of player ``j`` (hard
                               constraints); False if it failed (e.g. rejection sampling
                               gave up), with ``s`` unspecified.
``info_key(s, j) -> int64``    a 64-bit key of ``j``'s information set at ``s`` (a hash of
                               the view): equal for states ``j`` cannot tell apart.

Searches take the tuple as an argument of an ``inline="always"`` loop and each game binds
it in small cached entry points, so every game gets its own compiled loop and pays
nothing for the generality (see :class:`GameKernel` for why the binding is needed).
"""


def legal_actions_from(n_legal: Callable, legal_action: Callable) -> Callable:
    """A ``Kernel.legal_actions`` built from a game's ``n_legal`` and ``legal_action``.

    For a game with no faster way to list its actions: bind
    ``legal_actions=legal_actions_from(n_legal, legal_action)`` in its ``Kernel``. The
    result is compiled inline into the game's search entry points, like the game's own
    functions, so it costs what the ``n_legal`` + ``legal_action(s, i)`` loop it replaces
    cost.
    """

    @njit(inline="always")
    def legal_actions(s, out):
        n = n_legal(s)
        for i in range(n):
            out[i] = legal_action(s, i)
        return n

    return legal_actions


@dataclass(frozen=True)
class SearchSpec:
    """Everything the search needs to know about a game at a given player count.

    ``dets``: the determinizations, one row each (``int64``, any width).
    ``tree_of[k, j]``: the tree (information set at the root) that player ``j`` uses
    under determinization ``k``; trees are numbered ``0 .. n_trees - 1``.
    ``max_actions``: an upper bound on ``n_legal``; ``max_depth``: an upper bound on the
    number of moves from any root to the end of the game. ``run``: the game's cached
    entry point to :func:`spyglass.search.mtismcts.run_iterations` (all arguments but
    the kernel). ``binary_rewards``: every reward is 0 or 1, so the node pool need not
    keep sums of squares (:mod:`spyglass.search.tree`; checked as the search runs).
    """

    kernel: GameKernel
    run: Callable
    n_players: int
    dets: np.ndarray
    tree_of: np.ndarray
    n_trees: int
    max_actions: int
    max_depth: int
    binary_rewards: bool = False

    def __post_init__(self) -> None:
        from spyglass.search.tree import MAX_ACTIONS

        if not 1 <= self.max_actions <= MAX_ACTIONS:
            raise ValueError(f"max_actions must lie in 1..{MAX_ACTIONS} (the node pool's "
                             f"child count), not {self.max_actions}")
        if not isinstance(self.kernel, GameKernel):
            raise TypeError("kernel must be a GameKernel named tuple")
        if self.dets.ndim != 2 or self.dets.dtype != np.int64:
            raise ValueError("dets must be a 2-D int64 array (one row per determinization)")
        if self.tree_of.shape != (len(self.dets), self.n_players):
            raise ValueError(
                f"tree_of must have shape (determinizations, players) = "
                f"{(len(self.dets), self.n_players)}, not {self.tree_of.shape}"
            )
        if self.tree_of.size and not 0 <= self.tree_of.min() <= self.tree_of.max() < self.n_trees:
            raise ValueError(f"tree_of entries must lie in 0..{self.n_trees - 1}")

    @property
    def n_dets(self) -> int:
        return len(self.dets)

    def trees_of_player(self, j: int) -> np.ndarray:
        """The trees player ``j`` may use (sorted, unique)."""
        return np.unique(self.tree_of[:, j])
