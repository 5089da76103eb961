"""Spyglass: AI for hidden-information games, flagship The Resistance.

The rules of each game live once, as numba-compiled kernels (``spyglass.games``);
the referees (``spyglass.arena``, ``spyglass.resistance``) and the tree searches
(``spyglass.search``) all call those kernels. Bots (``spyglass.resistance.bots``) only ever see
their own observation.
"""

__version__ = "0.1.0"
