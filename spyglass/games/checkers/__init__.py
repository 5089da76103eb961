"""Checkers (English draughts): a perfect-information board game (Whitehouse 2014, §4.2.8)."""
