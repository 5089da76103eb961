"""Othello: a perfect-information board game (Whitehouse 2014, §4.2.9)."""
