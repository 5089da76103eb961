"""Hearts: four players, pass three, follow suit, avoid hearts and Q♠ or shoot the moon.

Whitehouse 2014, §4.2.3. Rules: :mod:`.kernel`; the game class: :mod:`.game`.
"""
