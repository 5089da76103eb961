"""What the card games share, compiled: bit tricks on card masks and constrained deals.

Not a game: a helper package of the games layer that each card game's kernel imports
(:mod:`.bits`, :mod:`.deal`), so that no game package imports another's.
"""
