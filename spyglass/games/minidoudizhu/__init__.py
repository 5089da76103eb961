"""Mini Dou Di Zhu: the 2-player, 18-card Dou Di Zhu of Whitehouse 2014, §4.2.2.

Rules: :mod:`.kernel`; the game class: :mod:`.game`.
"""
