"""2012-framework style bots that break the rules, for the referee's error reports."""

from player import Bot, Player


class Plain(Bot):
    def select(self, players, count):
        return players[:count]

    def vote(self, team):
        return True

    def sabotage(self):
        return True


class Raiser(Plain):
    """Raises while voting on the second mission."""

    def vote(self, team):
        if self.game.turn == 2:
            raise RuntimeError("cannot decide")
        return True


class Oversized(Plain):
    """Returns one player too many."""

    def select(self, players, count):
        return players[: count + 1]


class Stranger(Plain):
    """Returns a Player who is not in the game."""

    def select(self, players, count):
        return [Player("Nobody", 0)] + players[1:count]


class Maybe(Plain):
    """Votes with a string instead of a bool."""

    def vote(self, team):
        return "yes"


class Naysayer(Plain):
    """Rejects every team."""

    def vote(self, team):
        return False
