"""The common expert rules of Taylor 2014, §4.2, as small functions any bot may combine.

Each rule is stated for the 5-player game in the seed; the functions generalise it the
way its reasoning implies, for 5 to 10 players:

* "reject a three-man team not featuring yourself" is really "reject a team without you
  that is bound to hold a spy": it is bound to when it is larger than the number of
  other resistance members (:func:`must_hold_spy_without`). At 5 players that is
  exactly the three-man teams.
* "a spy needs only one spy on a team" becomes "as many spies as the mission needs fail
  cards" (:func:`spies_needed`): two on mission 4 at 7+ players.
* "only one of two spies on a team should sabotage" becomes "only as many as are needed,
  chosen by a convention every spy can compute" (:func:`designated_saboteurs`).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from spyglass.games.resistance.observation import GameView
from spyglass.games.resistance.tables import MAX_ATTEMPTS, SPIES_BY_PLAYERS, WINS_NEEDED


def spies_on(team: Iterable[int], spies: Iterable[int]) -> int:
    """How many of ``spies`` are on ``team``."""
    spy_set = set(spies)
    return sum(1 for p in team if p in spy_set)


def is_last_attempt(game: GameView) -> bool:
    """The fifth proposal of a mission: rejecting it hands the game to the spies.

    A resistance member never gains by rejecting it, so many bots approve it whatever
    their role (§4.2). Under the ``forced`` rule bots are not asked to vote on it at all.
    """
    return game.attempt >= MAX_ATTEMPTS


def is_first_mission(game: GameView) -> bool:
    """Nothing is known yet on the first mission, so rejecting it gains nothing (§4.2)."""
    return game.mission == 1


def spies_one_mission_from_winning(game: GameView) -> bool:
    """The spies have failed two missions: one more sabotage wins them the game."""
    return game.losses == WINS_NEEDED - 1


def resistance_one_mission_from_winning(game: GameView) -> bool:
    """The resistance has won two missions."""
    return game.wins == WINS_NEEDED - 1


def must_hold_spy_without(team: Sequence[int], seat: int, n_players: int) -> bool:
    """True when ``team`` leaves ``seat`` out and is bound to contain a spy from its view.

    A resistance member knows every other seat but ``n - spies - 1`` could be a spy; a
    team of more than that many others must include one (§4.2: at 5 players, every
    three-man team without you). At 10 players no legal team qualifies.
    """
    if seat in team:
        return False
    other_resistance = n_players - SPIES_BY_PLAYERS[n_players] - 1
    return len(team) > other_resistance


def spies_needed(game: GameView) -> int:
    """Spies a team must hold to be sabotaged this mission (fail cards needed)."""
    return game.fails_needed


def has_enough_spies(team: Sequence[int], spies: Iterable[int], game: GameView) -> bool:
    """The team holds enough spies to fail the current mission."""
    return spies_on(team, spies) >= game.fails_needed


def has_surplus_spies(team: Sequence[int], spies: Iterable[int], game: GameView) -> bool:
    """More spies on the team than the mission needs: a double sabotage would expose them.

    At 5 players this is "both spies on the team" (§4.1.1 Deceiver, §4.2).
    """
    return spies_on(team, spies) > game.fails_needed


def all_spies(team: Sequence[int], spies: Iterable[int]) -> bool:
    """Every member of the team is a spy."""
    return spies_on(team, spies) == len(team)


def seats_from(start: int, n_players: int) -> list[int]:
    """Seats in table order starting at ``start`` (the order leadership passes)."""
    return [(start + i) % n_players for i in range(n_players)]


def designated_saboteurs(
    team: Sequence[int], spies: Iterable[int], leader: int, needed: int, n_players: int
) -> tuple[int, ...]:
    """The spies on ``team`` who should play fail cards under the leader convention.

    §4.2 prefers "sabotage based on who is the leader": the saboteur then changes from
    mission to mission, yet every spy can work it out. Generalised: walk the table from
    the leader and take the first ``needed`` spies on the team.
    """
    spy_set = set(spies)
    on_team = set(team)
    order = [p for p in seats_from(leader, n_players) if p in spy_set and p in on_team]
    return tuple(order[:needed])


def fill_team(
    rng: random.Random,
    count: int,
    must: Sequence[int],
    preferred: Iterable[int],
    fallback: Iterable[int] = (),
) -> list[int]:
    """``must`` first, then a random sample of ``preferred``, then of ``fallback``.

    Used by every bot that builds "myself plus some others I trust": the result always
    has ``count`` distinct seats as long as enough seats are given.
    """
    team = list(dict.fromkeys(must))[:count]
    for pool in (preferred, fallback):
        if len(team) >= count:
            break
        candidates = [p for p in dict.fromkeys(pool) if p not in team]
        take = min(count - len(team), len(candidates))
        team += rng.sample(candidates, take)
    if len(team) < count:
        raise ValueError(f"cannot build a team of {count} from the seats given")
    return team


def spy_team(
    rng: random.Random,
    seat: int,
    spies: Iterable[int],
    players: Sequence[int],
    count: int,
    n_spies: int = 1,
) -> list[int]:
    """A spy leader's team: itself plus ``n_spies - 1`` partners, the rest resistance.

    §4.2: spies avoid being paired on a team, so a spy leader picks itself and
    resistance members only; on a mission needing two fails it brings one partner.
    """
    partners = [s for s in spies if s != seat]
    must = [seat] + rng.sample(partners, min(max(n_spies - 1, 0), len(partners)))
    resistance = [p for p in players if p not in set(spies)]
    return fill_team(rng, count, must, resistance, players)


__all__ = [
    "all_spies",
    "designated_saboteurs",
    "fill_team",
    "has_enough_spies",
    "has_surplus_spies",
    "is_first_mission",
    "is_last_attempt",
    "must_hold_spy_without",
    "resistance_one_mission_from_winning",
    "seats_from",
    "spies_needed",
    "spies_on",
    "spies_one_mission_from_winning",
    "spy_team",
]
