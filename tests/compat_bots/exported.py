"""A 2012 bot file with __all__: only Shown is offered."""

from player import Bot

__all__ = ["Shown"]


class Shown(Bot):
    def select(self, players, count):
        return players[:count]

    def vote(self, team):
        return True

    def sabotage(self):
        return False


class Hidden(Shown):
    pass
