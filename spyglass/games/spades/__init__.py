"""Spades: four players in two partnerships, bids (nil included), spades trump, bags.

Whitehouse 2014, §4.2.4. Rules: :mod:`.kernel`; the game class: :mod:`.game`.
"""
