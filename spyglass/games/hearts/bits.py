"""Moved to :mod:`spyglass.games.cards.bits` (shared by the card games); this name stays
so that code written against the old path still imports."""

from spyglass.games.cards.bits import highest_index, lowest_index, popcount

__all__ = ["highest_index", "lowest_index", "popcount"]
