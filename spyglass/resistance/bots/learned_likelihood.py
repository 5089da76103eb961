"""Per-opponent behaviour rates learned across games, as likelihoods over spy configurations.

MT-ISMCTS's inference (Cowling et al. 2015, §V, eq. 2) weighs a spy configuration by how
likely the opponents' observed moves are *if each opponent were the searcher's own
MT-ISMCTS*. Against bots that play otherwise (the 2012 competition's, issue 31) that
model is wrong. The 2012 learners instead count, per opponent and per role, how often
the opponent did something when it had the chance (Taylor 2014, §3.6 and §4.1: Magi,
ScepticBot, Clymily, Statistician), and the 2012 competition model lets a bot keep those
counts across the games of a run (``Bot.memory``, keyed by opponent name, §4.4).

:class:`LearnedLikelihood` keeps such counts (:class:`~spyglass.resistance.bots.opponent_model.
BehaviourStats`: each opponent smoothed towards the pool of all opponents met, the pool
towards :data:`DEFAULTS`) and turns each public event into a likelihood over the spy
configurations, for a Bayes update of φ:

* a **proposal**: does the team hold a spy other than its leader (``select_spied``);
* each **vote** (not on a mission's last attempt, which nearly everyone approves): the
  voter approved, given whether the team holds a spy and whether the voter is on it
  (``approve_spied_on``, ``approve_spied_off``, ``approve_clean_on``, ``approve_clean_off``);
* a **mission**: the probability of exactly the fail cards seen from the spies on the
  team (each fails with its own ``sabotage`` rate; this bot's own card is known).

It learns at the end of each game, when the spies are revealed, from the public record
(and this bot's own mission cards). Contexts a configuration decides (is the team spied,
is the voter a spy) are evaluated under each configuration, so nothing hidden is read.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from spyglass.games.resistance.observation import GameView
from spyglass.games.resistance.tables import MAX_ATTEMPTS, seats_to_mask
from spyglass.resistance.bots.opponent_model import BehaviourStats

#: Behaviour -> assumed (as-spy, as-resistance) frequency of an opponent never seen.
DEFAULTS = {
    "select_spied": (0.25, 0.55),  # lead a team holding a spy other than oneself
    "approve_spied_on": (0.95, 0.75),  # approve a team holding a spy, being on it
    "approve_spied_off": (0.85, 0.45),  # ... not being on it
    "approve_clean_on": (0.50, 0.90),  # approve a spy-free team, being on it (spy: never)
    "approve_clean_off": (0.35, 0.65),  # ... not being on it
    "sabotage": (0.85, 0.0),  # play a fail card on a mission, as a spy
}
#: The ``Bot.memory`` key of the counts.
MEMORY_KEY = "mtismcts_learned"


def _vote_behaviour(spied: bool, on: bool) -> str:
    return f"approve_{'spied' if spied else 'clean'}_{'on' if on else 'off'}"


class LearnedLikelihood:
    """Likelihoods of public events over ``configs`` (spy bitmasks) for the bot in
    ``seat``, from per-opponent rates kept in ``memory``."""

    def __init__(self, memory: dict, configs: np.ndarray, names: Sequence[str],
                 seat: int) -> None:
        self.stats = BehaviourStats(memory, DEFAULTS, key=MEMORY_KEY)
        self.configs = np.asarray(configs, dtype=np.int64)
        self.names = tuple(names)
        self.seat = seat
        n = len(self.names)
        self.is_spy = ((self.configs[:, None] >> np.arange(n)) & 1).astype(bool)
        # Rates are read once per game: they change only when a game ends.
        self.rates = {b: self.stats.rates(self.names, b) for b in DEFAULTS}
        self.my_cards: list[int] = []  # this bot's card on each mission (0 if not on it)

    def _rate(self, behaviour: str, seat: int) -> np.ndarray:
        """Per configuration: ``seat``'s rate of ``behaviour`` in its role there."""
        spy, res = self.rates[behaviour]
        return np.where(self.is_spy[:, seat], spy[seat], res[seat])

    def proposal(self, leader: int, team: Sequence[int]) -> np.ndarray:
        """Likelihood of ``leader`` proposing ``team``."""
        if leader == self.seat:
            return np.ones(len(self.configs))
        spied = (self.configs & (seats_to_mask(team) & ~(1 << leader))) != 0
        r = self._rate("select_spied", leader)
        return np.where(spied, r, 1.0 - r)

    def votes(self, team: Sequence[int], votes: Sequence[bool], attempt: int) -> np.ndarray:
        """Likelihood of the individual ``votes`` on ``team`` (``attempt`` 1-based)."""
        like = np.ones(len(self.configs))
        if attempt >= MAX_ATTEMPTS:
            return like
        spied = (self.configs & seats_to_mask(team)) != 0
        for p, yes in enumerate(votes):
            if p == self.seat:
                continue
            on = p in team
            r = np.where(spied, self._rate(_vote_behaviour(True, on), p),
                         self._rate(_vote_behaviour(False, on), p))
            like *= r if yes else 1.0 - r
        return like

    def mission(self, team: Sequence[int], fails: int, my_card: int) -> np.ndarray:
        """Likelihood of ``fails`` fail cards from ``team`` (this bot played ``my_card``)."""
        self.my_cards.append(my_card)
        others = [p for p in team if p != self.seat]
        want = fails - my_card
        # dist[c, k]: probability, under configuration c, of k fails from the others.
        dist = np.zeros((len(self.configs), len(others) + 1))
        dist[:, 0] = 1.0
        for p in others:
            q = np.where(self.is_spy[:, p], self.rates["sabotage"][0][p], 0.0)
            nxt = dist * (1.0 - q)[:, None]
            nxt[:, 1:] += dist[:, :-1] * q[:, None]
            dist = nxt
        if not 0 <= want <= len(others):
            return np.zeros(len(self.configs))
        return dist[:, want]

    def learn(self, game: GameView, spies: frozenset[int]) -> None:
        """Count every opponent's behaviours of the finished ``game`` (roles revealed)."""
        spy_mask = seats_to_mask(spies)
        for prop in game.proposals:
            team = seats_to_mask(prop.team)
            if prop.leader != self.seat:
                self.stats.record(self.names[prop.leader], prop.leader in spies,
                                  "select_spied", float(team & spy_mask & ~(1 << prop.leader)
                                                        != 0))
            if prop.votes is None or prop.attempt >= MAX_ATTEMPTS:
                continue
            spied = team & spy_mask != 0
            for p, yes in enumerate(prop.votes):
                if p != self.seat:
                    self.stats.record(self.names[p], p in spies,
                                      _vote_behaviour(spied, p in prop.team), float(yes))
        for result, mine in zip(game.missions, self.my_cards, strict=False):
            others = [p for p in result.team if p != self.seat and p in spies]
            if len(others) == 1:  # the one other spy's card is then known
                self.stats.record(self.names[others[0]], True, "sabotage",
                                  float(result.fails - mine))
