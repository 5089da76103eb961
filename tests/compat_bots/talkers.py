"""2012-framework style bots that announce, talk and record what they are told."""

from player import Bot

HEARD = []  # (listener seat, listener is spy, kind, source index, payload)
SEEN = []  # (seat, spy, spies given, state field names, player attribute names)


class Snoop(Bot):
    """Records everything it is given; votes yes, picks the first players."""

    def onGameRevealed(self, players, spies):
        SEEN.append((self.index, self.spy, {p.index for p in spies}, sorted(vars(self.game)),
                     sorted({k for p in players for k in vars(p)})))

    def select(self, players, count):
        return players[:count]

    def vote(self, team):
        return True

    def sabotage(self):
        self.say("I sabotage")  # must never reach the others
        return True

    def onAnnouncement(self, source, announcement):
        HEARD.append((self.index, self.spy, "announcement", source.index,
                      {p.index: v for p, v in announcement.items()}, type(next(iter(announcement))).__name__))

    def onMessage(self, source, message):
        HEARD.append((self.index, self.spy, "message", source.index, message, type(message).__name__))


class Herald(Snoop):
    """Announces after every proposal and says something when its mission is known."""

    def announce(self):
        return {p: 0.25 for p in self.others()[:2]}

    def onMissionComplete(self, sabotaged):
        self.say("mission %d had %d fails" % (self.game.turn, sabotaged))


class BadHerald(Snoop):
    def announce(self):
        return {"not a player": 1.0}
