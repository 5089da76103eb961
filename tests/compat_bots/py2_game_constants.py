"""A Python 2 bot that reads the 2012 framework's Game class constants (compat tests).

Behaviour-tree bots of 2012 compared the state with ``Game.NUM_LOSSES - 1`` or
``Game.MAX_TURNS``, with Game from ``from game import *``.
"""

import random
from player import Bot
from game import *


class Constants(Bot):
    """Plays by the framework's constants and checks them at the start of every game."""

    def onGameRevealed(self, players, spies):
        found = (Game.MAX_TURNS, Game.MAX_TRIES, Game.NUM_WINS, Game.NUM_LOSSES)
        if found != (5, 5, 3, 3):
            raise AssertionError("Game constants %r" % (found,))

    def select(self, players, count):
        return [self] + random.sample(self.others(), count - 1)

    def vote(self, team):
        if self.game.tries == Game.MAX_TRIES:
            return True
        return self.game.losses < Game.NUM_LOSSES - 1 or self in team

    def sabotage(self):
        return self.game.wins < Game.NUM_WINS - 1 or self.game.turn == Game.MAX_TURNS
