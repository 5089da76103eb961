"""Game-general compiled searches over :class:`~spyglass.search.protocol.Kernel`.

Every search here draws a fresh determinization each iteration with the game's
``kernel.sample`` (no enumeration, no belief vector), labels the searcher's own moves by
action *ids* (the same move under every determinization) and other edges by 64-bit
observation keys, and bounds every path by the game's ``max_moves``. One algorithm per
module:

* :mod:`.pool` -- the node pool (64-byte nodes, int64 keys) all of them share;
* :mod:`.select` -- bandit selection (UCB1, UCB-Tuned; availability counts);
* :mod:`.so` -- the single-tree loop: SO-ISMCTS, SO-ISMCTS+POM (bound in :mod:`.pom`)
  and ICARUS SO-ISMCTS; :mod:`.mo` -- MO-ISMCTS;
* :mod:`.uct` -- plain UCT on one full state (perfect information, a determinization or,
  for a cheating player, the true state);
* :mod:`.ensemble` -- determinized UCT / PIMC and the cheating ensemble (majority vote);
* :mod:`.driver` -- the Python side: budgets, batches, pool growth and clear errors;
* :mod:`.entry` -- how a game binds the loops in its cached ``search_entry`` module.

The older :mod:`spyglass.search.so_ismcts`, :mod:`~spyglass.search.mo_ismcts` and
:mod:`spyglass.search.pimc` search The Resistance through *enumerated* determinizations
(:class:`~spyglass.search.protocol.SearchSpec`) and action *indices* for the Resistance
bots; PIMC's trees there are searched by :mod:`.uct`'s loop over their compact pool
(``run_compact``).
"""
