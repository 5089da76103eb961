"""Python 2 bots that depend on the 2012 framework's table conventions (compat tests)."""

import random
from player import Bot, Player
from game import Game, State


class Copycat(Bot):
    """Names itself after its class, as many 2012 bots did, and checks the leader order.

    The 2012 framework's first leader was Player 0 and the lead moved one seat on after
    every proposal; several Copycats play in one game.
    """

    def __init__(self, game, index, spy):
        Player.__init__(self, self.__class__.__name__, index)
        self.game = game
        self.spy = spy
        self.proposals = 0

    def onMissionAttempt(self, mission, tries, leader):
        n = len(self.game.players)
        if leader.index != self.proposals % n:
            raise AssertionError("leader %r, expected Player %d" % (leader, self.proposals % n))
        self.proposals += 1

    def select(self, players, count):
        if self not in players:
            raise AssertionError("%r is not among the players" % (self,))
        return [self] + random.sample(self.others(), count - 1)

    def vote(self, team):
        return self in team or self.game.tries == 5 or random.random() < 0.5

    def sabotage(self):
        return True


class Simulator(Copycat):
    """Imports game.Game and plays a practice game of Copycats before every real one."""

    def onGameRevealed(self, players, spies):
        practice = Game([Copycat] * len(players))
        practice.run()
        if not (practice.won or practice.lost):
            raise AssertionError("the practice game did not finish")
        if practice.state.phase != State.PHASE_ANNOUNCING:
            raise AssertionError("practice game ended in phase %r" % practice.state.phase)
