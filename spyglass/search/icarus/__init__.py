"""ICARUS: MCTS enhancements written as information capture and reuse strategies.

Whitehouse 2014, ch. 8: an enhancement is a tuple (records, information, initial
information, policy α used in selection *and* simulation, capture ξ, backpropagation ω)
and enhancements combine sequentially, linearly and maxilinearly. :mod:`.spec` reads a
combination from text (the agents' ``enhance=`` parameter), :mod:`.records` holds the
compiled records and policies, :mod:`.uct` is UCT with the ICARUS parts (and the captures
and policies every loop shares), :mod:`.so` SO-ISMCTS with them; MO-ISMCTS with ICARUS is
the multiple-tree loop itself (:mod:`spyglass.search.sampled.mo`, ``run_icarus``),
:mod:`.entry` the per-game binding and :mod:`.driver` the Python side.
"""
