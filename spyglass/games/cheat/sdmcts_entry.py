"""Cheat bound to the SDMCTS search (:mod:`spyglass.search.smooth_uct`).

The Smooth-UCT loop is inlined here with Cheat's kernel and abstraction as global
constants, so it is compiled for Cheat alone and cached on disk (see
:mod:`spyglass.search.protocol` for why the binding is needed).
"""

from __future__ import annotations

from numba import njit

from spyglass.games.cheat import abstraction
from spyglass.games.cheat import kernel as K
from spyglass.games.cheat.abstraction import ABSTRACTION
from spyglass.games.cheat.kernel import KERNEL
from spyglass.search import smooth_uct
from spyglass.search.sampled.entry import flush_stale_caches


@njit(cache=True)
def run_sdmcts(view, seat, hyps, n_hyps, n_iter, mode, eta, gamma, d, c, discount,
               state_size, max_moves, rng, root_q, root_n, root_ok):
    return smooth_uct.run(KERNEL, ABSTRACTION, view, seat, hyps, n_hyps, n_iter, mode, eta,
                          gamma, d, c, discount, state_size, max_moves, rng, root_q, root_n,
                          root_ok)


# numba's cache does not see changes to inlined modules: drop it when they change.
flush_stale_caches((run_sdmcts,), (K, abstraction, smooth_uct))
