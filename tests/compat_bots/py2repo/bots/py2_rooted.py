"""A 2012 bot file in a sub-folder that imports a package kept at the repository root."""

from player import Bot
from mods import suspicion_order


class Rooted(Bot):
    def onGameRevealed(self, players, spies):
        self.counts = dict([(p, 0) for p in players])

    def onMissionComplete(self, sabotaged):
        for p in self.game.team:
            self.counts[p] += sabotaged

    def select(self, players, count):
        order = suspicion_order(self.counts)
        return [self] + [p for p in order if p != self][:count - 1]

    def vote(self, team):
        return self.game.tries == 5 or max([self.counts[p] for p in team]) == 0

    def sabotage(self):
        return True
