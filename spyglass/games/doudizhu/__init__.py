"""Dou Di Zhu: the 3-player, 54-card ladder game of Whitehouse 2014, §4.2.1.

Rules: :mod:`.kernel` (action ids: :mod:`.tables`); the game class: :mod:`.game`.
"""
