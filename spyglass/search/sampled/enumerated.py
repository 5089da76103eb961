"""Enumerated beliefs on the sampled loops: a :class:`~spyglass.search.protocol.GameKernel`
game run by the single- and multiple-tree loops (:mod:`.so`, :mod:`.pom`, :mod:`.mo`).

A game whose determinizations can be listed (The Resistance's spy configurations) keeps
its belief as a weight per determinization; the searches over it (the Resistance bots'
SO-ISMCTS, SO-ISMCTS+POM and MO-ISMCTS) differ from the game-general ones only in where
an iteration's state comes from and in how actions are named. :func:`enumerated_kernel`
turns the game's :class:`GameKernel` into a :class:`~spyglass.search.protocol.Kernel`
that the shared loops run unchanged:

* **the root sampler** (``sample``): the "view" is an :class:`EnumeratedBelief`; each
  iteration draws determinization ``k`` with probability proportional to its weight
  (``cum`` is the cumulative weights), copies ``root``, writes ``dets[k]`` into it
  (``determinize``) and plays ``pre`` uniformly random legal moves (the hidden earlier
  moves of the searcher's round, which in SO/POM trees belong to the determinization);
* **actions are action indices**: the kernel's ``i``-th legal action is id ``i``
  (``apply``/``observe`` translate with the game's ``legal_action``). Such a game's index
  means the same action in every determinization and the legal actions are the first
  ``n_legal`` indices (true of The Resistance), which is what the loops need of an id;
  the trees' move keys then name action indices, as the Resistance searches always did.

``view`` and ``info_key`` are not used by SO, POM or MO and raise if called.

The loops over such a game's *compact* pool (:mod:`.pool`: 24-byte nodes, 0/1 rewards,
32-bit keys) are :data:`run_so` and :data:`run_pom`: the single-tree loop with
``compact=True``, inlined into the game's cached entry points
(The Resistance: :mod:`spyglass.games.resistance.family_search`).
"""

from __future__ import annotations

from collections import namedtuple

from numba import njit

from spyglass.rng import rand_below
from spyglass.search.protocol import GameKernel, Kernel
from spyglass.search.sampled import so
from spyglass.search.sampled.forest import pick_particle as sample_index

__all__ = ["EnumeratedBelief", "enumerated_kernel", "run_pom", "run_so"]

#: SO-ISMCTS and SO-ISMCTS+POM over a compact pool (the unenhanced signature).
run_so = so.baseline(so.single_tree_loop(compact=True))
run_pom = so.baseline(so.single_tree_loop(observed=True, compact=True))

EnumeratedBelief = namedtuple("EnumeratedBelief", ["root", "dets", "cum", "pre"])
EnumeratedBelief.__doc__ = """What an enumerated search samples from (the loops' ``view``).

``root``: the state to determinize (int64); ``dets``: the determinizations, one row each
(int64, as ``GameKernel.determinize`` takes them); ``cum``: cumulative weights (float64,
last entry positive); ``pre``: random moves to play after determinizing (int)."""


def enumerated_kernel(gk: GameKernel) -> Kernel:
    """The :class:`Kernel` of ``gk`` over enumerated beliefs (see the module docstring)."""
    actor = gk.actor
    n_legal = gk.n_legal
    legal_action = gk.legal_action
    game_apply = gk.apply
    game_observe = gk.observe
    is_terminal = gk.is_terminal
    determinize = gk.determinize

    @njit(inline="always")
    def index(s, i):
        return i

    @njit(inline="always")
    def indices(s, out):
        n = n_legal(s)
        for i in range(n):
            out[i] = i
        return n

    @njit(inline="always")
    def apply(s, i):
        game_apply(s, legal_action(s, i))

    @njit(inline="always")
    def observe(s, i, j):
        return game_observe(s, legal_action(s, i), j)

    @njit(inline="always")
    def sample(belief, j, rng, s):
        root, dets, cum, pre = belief
        k = sample_index(cum, rng)
        s[:] = root
        determinize(s, dets[k], rng)
        for _ in range(pre):
            if is_terminal(s):
                break
            game_apply(s, legal_action(s, rand_below(rng, n_legal(s))))
        return True

    @njit
    def no_view(s, j, v):
        raise NotImplementedError("an enumerated belief has no views")

    @njit
    def no_info_key(s, j):
        raise NotImplementedError("an enumerated belief has no information keys")

    return Kernel(actor=actor, n_legal=n_legal, legal_action=index, legal_actions=indices,
                  apply=apply, observe=observe, move_reveals=gk.move_reveals,
                  is_terminal=is_terminal, reward=gk.reward, playout=gk.playout, view=no_view,
                  sample=sample, info_key=no_info_key)
