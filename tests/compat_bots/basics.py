"""2012-framework style bots, written for these tests (Python 3, unmodified imports)."""

import random

from game import State
from player import Bot, Player
from util import Variable

# Games played by Recorders in this process: 2012 bots kept cross-game data in globals.
GAMES_SEEN = Variable()


def snapshot(bot, where):
    g = bot.game
    return {
        "where": where,
        "phase": g.phase,
        "turn": g.turn,
        "tries": g.tries,
        "wins": g.wins,
        "losses": g.losses,
        "leader": None if g.leader is None else g.leader.index,
        "team": None if g.team is None else sorted(p.index for p in g.team),
        "votes": None if g.votes is None else list(g.votes),
        "sabotages": g.sabotages,
    }


class Recorder(Bot):
    """Plays simply and records what self.game holds at every call."""

    def __init__(self, game, index, spy):
        Bot.__init__(self, game, index, spy)
        self.notes = []

    def _note(self, where, **args):
        self.notes.append(dict(snapshot(self, where), **args))

    def onGameRevealed(self, players, spies):
        self._note("onGameRevealed", spies=sorted(p.index for p in spies))

    def onMissionAttempt(self, mission, tries, leader):
        self._note("onMissionAttempt")

    def select(self, players, count):
        self._note("select")
        # A set of Player objects, including this bot itself.
        return set([self] + random.sample(self.others(), count - 1))

    def onTeamSelected(self, leader, team):
        self._note("onTeamSelected")

    def vote(self, team):
        self._note("vote")
        return self.game.tries == 5 or self in team or random.random() < 0.5

    def onVoteComplete(self, votes):
        self._note("onVoteComplete")

    def onMissionFailed(self, leader, team):
        self._note("onMissionFailed")

    def sabotage(self):
        self._note("sabotage")
        return True

    def onMissionComplete(self, sabotaged):
        self._note("onMissionComplete")

    def announce(self):
        self._note("announce")
        return {}

    def onGameComplete(self, win, spies):
        GAMES_SEEN.sample(1)
        self._note("onGameComplete", win=win, spies=sorted(p.index for p in spies))


class Counter(Bot):
    """Keeps a Variable per player: how often their missions failed. Picks the cleanest."""

    def onGameRevealed(self, players, spies):
        self.failed = {p: Variable() for p in players}

    def select(self, players, count):
        # A tuple of Players: self first, then the least suspected others.
        ranked = sorted(self.others(), key=lambda p: self.failed[p].estimate())
        return tuple([self] + ranked[: count - 1])

    def vote(self, team):
        if self.spy:
            return True
        worst = max(self.failed[p] for p in team)
        return self.game.tries == 5 or worst <= 0.5

    def onMissionComplete(self, sabotaged):
        for p in self.game.team:
            self.failed[p] += int(sabotaged > 0)

    def sabotage(self):
        return self.game.losses == 2 or random.random() < 0.7


class Layer1(Bot):
    """First level of a three-level hierarchy; every level records its hooks."""

    def onGameRevealed(self, players, spies):
        self.calls = ["Layer1.onGameRevealed"]

    def onMissionAttempt(self, mission, tries, leader):
        self.calls.append("Layer1.onMissionAttempt")

    def onVoteComplete(self, votes):
        self.calls.append("Layer1.onVoteComplete")

    def onMissionComplete(self, sabotaged):
        self.calls.append("Layer1.onMissionComplete")

    def onGameComplete(self, win, spies):
        self.calls.append("Layer1.onGameComplete")

    def select(self, players, count):
        return random.sample(players, count)

    def vote(self, team):
        return True

    def sabotage(self):
        return False


class Layer2(Layer1):
    def onGameRevealed(self, players, spies):
        self.calls.append("Layer2.onGameRevealed")

    def onMissionAttempt(self, mission, tries, leader):
        self.calls.append("Layer2.onMissionAttempt")

    def onGameComplete(self, win, spies):
        self.calls.append("Layer2.onGameComplete")


class Layer3(Layer2):
    def onGameRevealed(self, players, spies):
        self.calls.append("Layer3.onGameRevealed")

    def onVoteComplete(self, votes):
        self.calls.append("Layer3.onVoteComplete")

    def onGameComplete(self, win, spies):
        self.calls.append("Layer3.onGameComplete")

    def vote(self, team):
        # Uses the State phase constants.
        return self.game.phase == State.PHASE_VOTING


class SetSampler(Bot):
    """Python 2 habits: random.sample from sets, and sets of Players everywhere."""

    def onGameRevealed(self, players, spies):
        self.spies = set(spies)

    def select(self, players, count):
        if self.game.turn % 2:
            return random.sample(set(players) - {self}, count - 1) + [self]
        pool = list(set(players))  # the order of a set of Players
        random.shuffle(pool)
        return pool[:count]

    def vote(self, team):
        return bool(self.spies & set(team)) if self.spy else random.random() < 0.6

    def sabotage(self):
        return random.choice([True, False])

    def announce(self):
        return {p: random.random() for p in random.sample(set(self.others()), 2)}
