"""Backgammon: a board game with dice, the thesis's chance domain (Whitehouse 2014, §4.2.10)."""
