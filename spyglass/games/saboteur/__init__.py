"""Saboteur: gold-diggers and hidden saboteurs dig for gold (one round).

Whitehouse 2014, §4.2.13 and §7.5.5; the published card game (Moyersoen 2004).
Rules: :mod:`.kernel`; the game class: :mod:`.game`.
"""
