"""Game-general agents: players of any registered game that see only their own observations.

(The Resistance's 2012-style callback bots live in :mod:`spyglass.resistance.bots`.)
"""
