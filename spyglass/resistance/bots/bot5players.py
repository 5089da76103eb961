"""Bot5Players: expert rules and suspicion updates as priority-ordered behaviour lists."""

from __future__ import annotations

import math
from collections.abc import Callable

from spyglass.games.resistance.observation import MissionResult, Proposal
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.beliefs import Belief, ranked
from spyglass.resistance.bots.expert_rules import (
    designated_saboteurs,
    has_enough_spies,
    is_last_attempt,
    must_hold_spy_without,
    spies_on,
    spies_one_mission_from_winning,
)
from spyglass.resistance.bots.registry import register

# A decision behaviour returns its decision, or None to let the next one decide.
VoteBehaviour = Callable[["Bot5Players", tuple], "bool | None"]
SabotageBehaviour = Callable[["Bot5Players"], "bool | None"]
# An update behaviour adjusts suspicion after an event.
MissionUpdate = Callable[["Bot5Players", MissionResult, Proposal], None]


# --- voting, in priority order ----------------------------------------------------------
def approve_last_attempt(bot, team):
    """Rejecting the fifth proposal hands the spies the game: approve it, any role."""
    return True if is_last_attempt(bot.game) else None


def spy_wins_now(bot, team):
    """One more failure wins: approve any team that can deliver it."""
    if bot.spy and spies_one_mission_from_winning(bot.game):
        return True if has_enough_spies(team, bot.spies, bot.game) else None
    return None


def spy_wants_a_spy(bot, team):
    """As a spy, approve exactly the teams with a spy on them."""
    return spies_on(team, bot.spies) >= 1 if bot.spy else None


def reject_team_bound_to_hold_spy(bot, team):
    """A team without me too large to be spy-free (three-man at 5 players)."""
    return False if must_hold_spy_without(team, bot.seat, bot.game.n_players) else None


def reject_known_spy(bot, team):
    """Logic: a seat that is a spy in every configuration still possible."""
    return False if set(team) & set(bot.belief.certain_spies()) else None


def approve_first_proposal(bot, team):
    """Nothing is known before the first mission: no reason to object."""
    return True if bot.game.mission == 1 else None


def reject_suspects(bot, team):
    """Reject a team holding one of the most suspicious players."""
    return False if set(team) & set(bot.suspects()) else None


def approve(bot, team):
    return True


VOTE_BEHAVIOURS: list[VoteBehaviour] = [
    approve_last_attempt,
    spy_wins_now,
    spy_wants_a_spy,
    reject_team_bound_to_hold_spy,
    reject_known_spy,
    approve_first_proposal,
    reject_suspects,
    approve,
]


# --- sabotage, in priority order --------------------------------------------------------
def sabotage_to_win(bot):
    game = bot.game
    if spies_one_mission_from_winning(game) and has_enough_spies(game.team, bot.spies, game):
        return bot.is_designated()
    return None


def only_designated_saboteurs(bot):
    return bot.is_designated()


SABOTAGE_BEHAVIOURS: list[SabotageBehaviour] = [sabotage_to_win, only_designated_saboteurs]


# --- suspicion updates (all applied, in order) ------------------------------------------
def blame_failed_team(bot, result, proposal):
    others = [p for p in result.team if p != bot.seat]
    for p in others:
        bot.score[p] += result.fails / len(others) if result.fails else -0.2


def blame_leader(bot, result, proposal):
    if result.leader != bot.seat:
        bot.score[result.leader] += 0.3 if result.fails else -0.1


def blame_approvers(bot, result, proposal):
    if not result.fails or proposal.votes is None:
        return
    for p, yes in enumerate(proposal.votes):
        if p != bot.seat and p not in result.team and yes:
            bot.score[p] += 0.2


MISSION_UPDATES: list[MissionUpdate] = [blame_failed_team, blame_leader, blame_approvers]


def leader_left_out_self(bot, proposal):
    if proposal.leader != bot.seat and proposal.leader not in proposal.team:
        bot.score[proposal.leader] += 0.2


def rejected_first_proposal(bot, proposal):
    if proposal.mission == 1 and proposal.attempt == 1 and proposal.votes:
        for p, yes in enumerate(proposal.votes):
            if p != bot.seat and not yes:
                bot.score[p] += 0.15


PROPOSAL_UPDATES = [leader_left_out_self, rejected_first_proposal]


@register("bot5players")
class Bot5Players(Bot):
    """Expert rules and suspicion updates held in priority-ordered behaviour lists.

    Taylor 2014, §4.1.11 (dmq.py): expert rules and single-game suspicion tracking, "split
    into numerous behaviour objects, each responding to a particular circumstance",
    stored in lists "sorted by priority" and looped over in order; a decision behaviour
    returns whether to take its decision or try the next one. §4.2: it approves the
    fifth proposal in either role, accepts spied teams as a spy and sabotages when a
    failure would win the game.

    Choices: behaviours are plain functions in the module-level lists
    :data:`VOTE_BEHAVIOURS`, :data:`SABOTAGE_BEHAVIOURS`, :data:`MISSION_UPDATES` and
    :data:`PROPOSAL_UPDATES` (copy and reorder them to experiment: the lists are read
    from the instance, so ``bot.vote_behaviours = [...]`` changes one bot). Suspicion is
    an additive score (fail cards shared among the other members, +0.3 for a failed
    team's leader, +0.2 for approving it from outside, +0.2 for leaving oneself out of
    one's own team, +0.15 for rejecting the very first proposal); seats proved spies by
    the mission results are always rejected. "5 players" generalises through the shared
    expert rules (team size bound, fails needed, leader convention for saboteurs).
    """

    def __init__(self) -> None:
        super().__init__()
        self.vote_behaviours = list(VOTE_BEHAVIOURS)
        self.sabotage_behaviours = list(SABOTAGE_BEHAVIOURS)
        self.mission_updates = list(MISSION_UPDATES)
        self.proposal_updates = list(PROPOSAL_UPDATES)

    def on_game_revealed(self, players, spies):
        self.score = {p: 0.0 for p in players if p != self.seat}
        self.belief = Belief(self.game.n_players, exclude=(self.seat,))

    def on_vote_complete(self, votes):
        for update in self.proposal_updates:
            update(self, self.game.proposals[-1])

    def on_mission_complete(self, fails):
        result = self.game.missions[-1]
        self.belief.observe_fails(result.team, fails)
        for update in self.mission_updates:
            update(self, result, self.game.proposals[-1])

    def suspects(self) -> list[int]:
        """The ``n_spies`` highest scores above zero."""
        order = ranked(self.score, self.rng)[::-1][: self.game.n_spies]
        return [p for p in order if self.score[p] > 0]

    def suspicion(self) -> dict[int, float]:
        certain = set(self.belief.certain_spies())
        return {
            p: 1.0 if p in certain else 1.0 / (1.0 + math.exp(-2.0 * s))
            for p, s in self.score.items()
        }

    def is_designated(self) -> bool:
        game = self.game
        return self.seat in designated_saboteurs(
            game.team, self.spies, game.leader, game.fails_needed, game.n_players
        )

    # --- decisions ------------------------------------------------------------------
    def select(self, players, count):
        if self.spy:
            resistance = {p: self.score[p] for p in self.score if p not in self.spies}
            partners = [s for s in self.spies if s != self.seat]
            team = [self.seat] + partners[: max(self.game.fails_needed - 1, 0)]
            team += ranked(resistance, self.rng)[: count - len(team)]
        else:
            certain = set(self.belief.certain_spies())
            trusted = [p for p in ranked(self.score, self.rng) if p not in certain]
            trusted += sorted(certain)
            team = [self.seat] + trusted[: count - 1]
        return team

    def vote(self, team):
        for behaviour in self.vote_behaviours:
            decision = behaviour(self, team)
            if decision is not None:
                return decision
        return True

    def sabotage(self):
        for behaviour in self.sabotage_behaviours:
            decision = behaviour(self)
            if decision is not None:
                return decision
        return True
