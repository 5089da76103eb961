"""ICARUS: MCTS enhancements written as information capture and reuse strategies.

Whitehouse 2014, ch. 8: an enhancement is a tuple (records, information, initial
information, policy α used in selection *and* simulation, capture ξ, backpropagation ω)
and enhancements combine sequentially, linearly and maxilinearly. :mod:`.spec` reads a
combination from text (the agents' ``enhance=`` parameter), :mod:`.records` holds the
compiled records and policies, :mod:`.uct`, :mod:`.mo` and :mod:`.so` are the search loops
with the ICARUS parts, :mod:`.entry` the per-game binding and :mod:`.driver` the Python side.
"""
