"""ICARUS: MCTS enhancements written as information capture and reuse strategies.

Whitehouse 2014, ch. 8: an enhancement is a tuple (records, information, initial
information, policy α used in selection *and* simulation, capture ξ, backpropagation ω)
and enhancements combine sequentially, linearly and maxilinearly. :mod:`.spec` reads a
combination from text (the agents' ``enhance=`` parameter), :mod:`.records` holds the
compiled records and policies, :mod:`.policies` the captures and policies every loop
shares; UCT, SO- and MO-ISMCTS with ICARUS are the UCT loop, the single-tree loop and the
multiple-tree loop themselves (:mod:`spyglass.search.sampled.uct`,
:mod:`spyglass.search.sampled.so`, :mod:`spyglass.search.sampled.mo`, ``run_icarus``),
:mod:`.entry` the per-game binding and :mod:`.driver` the Python side.
"""
