"""A Spyglass-native bot file, loaded through the same loader."""

from spyglass.resistance.bots import Bot


class FirstSeats(Bot):
    """Proposes the lowest seats and approves everything."""

    def select(self, players, count):
        return players[:count]

    def vote(self, team):
        return True

    def sabotage(self):
        return True
