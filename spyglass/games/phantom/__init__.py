"""Phantom (m,n,k): the m,n,k-game where neither player sees the other's marks.

Whitehouse 2014, §4.2.7. Rules: :mod:`.kernel`; the game class: :mod:`.game`.
"""
