"""A hand-driven game around one bot, for scripted tests of the bot zoo.

:class:`Table` seats one bot and plays every other seat by decree, calling the bot's
callbacks in the referee's order on a hand-built :class:`PublicRecord`, so that every
situation a test sets up is exact.
"""

from __future__ import annotations

import random

from spyglass.games.resistance.observation import GameView, MissionResult, Proposal, PublicRecord
from spyglass.games.resistance.tables import fails_needed


class Table:
    """One bot at a table whose other seats the test plays by hand."""

    def __init__(self, bot, n=5, seat=0, spies=(), memory=None, names=None, seed=0):
        self.bot, self.n = bot, n
        self.rec = PublicRecord(n, tuple(names or (f"p{i}" for i in range(n))))
        spy = seat in spies
        bot._seat(seat, spy, GameView(self.rec), random.Random(seed),
                  {} if memory is None else memory, "me")
        if spy:
            bot.spies = frozenset(spies)
        bot.on_game_revealed(tuple(range(n)), frozenset(spies) if spy else frozenset())

    def start(self, leader, attempt=None, mission=None):
        """A new proposal led by ``leader`` (optionally jumping to a mission/attempt)."""
        if mission is not None:
            self.rec.mission = mission
        if attempt is not None:
            self.rec.attempt = attempt
        self.rec.leader, self.rec.team = leader, None
        self.bot.on_mission_attempt(self.rec.mission, self.rec.attempt, leader)

    def select(self, team):
        """The current leader proposes ``team``."""
        self.rec.team = tuple(sorted(team))
        self.bot.on_team_selected(self.rec.leader, self.rec.team)

    def propose(self, leader, team):
        """A new proposal: ``leader`` proposes ``team``."""
        self.start(leader)
        self.select(team)

    def ask_vote(self, leader, team, attempt=None, mission=None):
        """Set up a proposal and return the bot's vote on it."""
        self.start(leader, attempt, mission)
        self.select(team)
        return self.bot.vote(self.rec.team)

    def votes(self, votes):
        """Everyone's votes on the current proposal; returns whether it was approved."""
        r = self.rec
        votes = tuple(bool(v) for v in votes)
        approved = 2 * sum(votes) > self.n
        r.proposals += (Proposal(r.mission, r.attempt, r.leader, r.team, votes, approved),)
        self.bot.on_vote_complete(votes)
        if not approved:
            r.attempt += 1
        return approved

    def mission(self, fails):
        """The approved team plays ``fails`` fail cards."""
        r = self.rec
        sabotaged = fails >= fails_needed(self.n, r.mission - 1)
        r.missions += (MissionResult(r.mission, r.leader, r.team, fails, sabotaged),)
        r.losses += sabotaged
        r.wins += not sabotaged
        self.bot.on_mission_complete(fails)
        r.mission, r.attempt = r.mission + 1, 1

    def play(self, leader, team, votes=None, fails=0):
        """One whole proposal: selection, votes (all yes by default), and the mission."""
        self.propose(leader, team)
        if self.votes(votes if votes is not None else [True] * self.n):
            self.mission(fails)

    def end(self, spies):
        self.bot.on_game_complete(self.rec.losses < 3, frozenset(spies))
