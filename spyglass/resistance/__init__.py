"""Everything that serves only The Resistance besides its rules, in three layers.

The game's rules are :mod:`spyglass.games.resistance` (a game package like the others).
Around them The Resistance has what no other game has, each part a subpackage at its own
layer (see docs/architecture.md):

* :mod:`spyglass.resistance.bots` -- the 2012 Bot API (:mod:`~spyglass.resistance.bots.base`),
  its registry and the classic bots; below the agents, above the rules.
* :mod:`spyglass.resistance.compat` -- running bot files written for the 2012 competition
  framework, unmodified (Python 2 included); beside the bots.
* :mod:`spyglass.resistance.arena` -- the 2012 referee, competition models, suspicion, the
  2012 columns, transcripts and replay, and its table for the one tournament engine; a
  layer above :mod:`spyglass.arena`.

This file imports nothing, so that a bot's worker process or a lower layer importing
:mod:`spyglass.resistance.bots` does not load the arena parts.
"""
