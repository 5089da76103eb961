"""A Python 2 bot file with constructs that cannot run in Python 3 (compat tests)."""

import string
from player import Bot


class Stringly(Bot):
    def select(self, players, count):
        if self.game.turn == 2:
            return string.letters[:count]  # Python 2's string module only
        return players[:count]

    def vote(self, team):
        return True

    def sabotage(self):
        if self.game.turn == 3:
            raise "string exceptions were refused from Python 2.6 on"
        return True
