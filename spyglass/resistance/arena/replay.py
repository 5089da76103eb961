"""Re-run a saved game record through the rules kernel and check it, event by event.

Every recorded decision must be legal where it was made (the right leader, a team of the
right size, a vote from every seat unless the rules skip it, only spies playing fail
cards) and every recorded consequence must be what the rules give (approval, fail count,
sabotage, winner, end reason). The first disagreement raises a :class:`ReplayError` that
names the event.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.options import Rules, check_players
from spyglass.games.resistance.tables import SPIES_BY_PLAYERS, seats_to_mask
from spyglass.resistance.arena.referee import _END_REASONS


class ReplayError(ValueError):
    """A record that the rules do not reproduce; the message names the event."""


@dataclass(frozen=True)
class ReplayCheck:
    """What replaying a record established."""

    n_events: int
    winner: str | None
    reason: str | None
    finished: bool
    state: np.ndarray


def _describe(index: int, event: dict) -> str:
    kind = event.get("type", "?")
    where = f"mission {event.get('mission', '?')}"
    if kind == "proposal":
        where += f" attempt {event.get('attempt', '?')}"
    return f"event {index + 1} ({kind}, {where})"


def _is_seat_list(value, n: int) -> bool:
    return (
        isinstance(value, list)
        and all(type(v) is int and 0 <= v < n for v in value)
        and len(set(value)) == len(value)
    )


def _setup(record: dict) -> tuple[np.ndarray, int]:
    try:
        setup = record["setup"]
        n = check_players(setup["players"])
        rules = Rules.from_dict(setup.get("rules"))
        spies = record["roles"]["spies"]
        leader = setup["first_leader"]
        names = setup["bots"]
    except (KeyError, TypeError) as exc:
        raise ReplayError(f"the record's setup is incomplete: missing {exc}") from None
    except ValueError as exc:
        raise ReplayError(f"the record's setup is invalid: {exc}") from None
    if not _is_seat_list(spies, n) or len(spies) != SPIES_BY_PLAYERS[n]:
        raise ReplayError(
            f"a {n}-player game has {SPIES_BY_PLAYERS[n]} distinct spies in seats 0-{n - 1}; "
            f"the record says {spies!r}"
        )
    if type(leader) is not int or not 0 <= leader < n:
        raise ReplayError(f"first leader {leader!r} is not a seat 0-{n - 1}")
    if len(names) != n:
        raise ReplayError(f"the record names {len(names)} bots for {n} players")
    return K.new_state(n, seats_to_mask(spies), leader, rules.flags), n


def _proposal(s: np.ndarray, n: int, event: dict) -> None:
    if s[K.PHASE] != K.PROPOSE:
        raise ReplayError("a proposal where the rules expect " + _expected(s))
    mission, attempt, leader = int(s[K.MISSION]) + 1, int(s[K.ATTEMPT]) + 1, int(s[K.LEADER])
    for key, want in (("mission", mission), ("attempt", attempt), ("leader", leader)):
        if event.get(key) != want:
            raise ReplayError(f"{key} is {event.get(key)!r}, the rules say {want}")
    team = event.get("team")
    if not _is_seat_list(team, n) or not K.is_legal(s, seats_to_mask(team)):
        raise ReplayError(
            f"team {team!r} is not {int(K.team_size(s))} distinct seats of 0-{n - 1}"
        )
    skipped = bool(K.vote_is_skipped(s))
    K.apply(s, seats_to_mask(team))
    votes = event.get("votes")
    if skipped:
        if votes is not None:
            raise ReplayError(
                f"votes {votes!r} recorded for the fifth proposal, which the rules do not "
                "vote on"
            )
    elif not (isinstance(votes, list) and len(votes) == n and all(type(v) is bool for v in votes)):
        raise ReplayError(f"votes {votes!r} are not {n} true/false values")
    else:
        for v in votes:
            K.apply(s, int(v))
    approved = bool(s[K.PHASE] == K.MISSION_PHASE)
    if event.get("approved") is not approved:
        raise ReplayError(
            f"recorded approved={event.get('approved')!r}, the rules say {approved}"
        )


def _mission(s: np.ndarray, n: int, event: dict) -> None:
    if s[K.PHASE] != K.MISSION_PHASE:
        raise ReplayError("a mission where the rules expect " + _expected(s))
    mission = int(s[K.MISSION]) + 1
    if event.get("mission") != mission:
        raise ReplayError(f"mission is {event.get('mission')!r}, the rules say {mission}")
    team = [seat for seat in range(n) if s[K.TEAM] >> seat & 1]
    if event.get("team") != team:
        raise ReplayError(f"team {event.get('team')!r} is not the approved team {team}")
    fails = event.get("fails")
    cards = event.get("cards")
    if cards is None:
        # A public-only record: any legal assignment of the fail cards gives the same result.
        spies_on_team = [seat for seat in team if s[K.SPIES] >> seat & 1]
        if type(fails) is not int or not 0 <= fails <= len(spies_on_team):
            raise ReplayError(
                f"{fails!r} fail cards, but only {len(spies_on_team)} spies are on the team"
            )
        cards = [seat in spies_on_team[:fails] for seat in team]
    if not (isinstance(cards, list) and len(cards) == len(team)
            and all(type(c) is bool for c in cards)):
        raise ReplayError(f"cards {cards!r} are not one true/false per team member")
    before = int(s[K.SPY_WINS])
    for seat, card in zip(team, cards, strict=True):
        if not K.is_legal(s, int(card)):
            raise ReplayError(f"seat {seat} is resistance and cannot play a fail card")
        K.apply(s, int(card))
    if fails != sum(cards):
        raise ReplayError(f"recorded {fails!r} fail cards, the cards say {sum(cards)}")
    sabotaged = int(s[K.SPY_WINS]) > before
    if event.get("sabotaged") is not sabotaged:
        raise ReplayError(
            f"recorded sabotaged={event.get('sabotaged')!r}, the rules say {sabotaged}"
        )


def _expected(s: np.ndarray) -> str:
    phase = int(s[K.PHASE])
    if phase == K.OVER:
        return "nothing more: the game is over"
    return "a proposal" if phase == K.PROPOSE else "a mission"


def replay_record(record: dict) -> ReplayCheck:
    """Replay ``record`` through the rules; raise :class:`ReplayError` at the first mismatch."""
    s, n = _setup(record)
    events = record.get("events")
    if not isinstance(events, list):
        raise ReplayError("the record has no list of events")
    for i, event in enumerate(events):
        kind = event.get("type") if isinstance(event, dict) else None
        try:
            if kind == "proposal":
                _proposal(s, n, event)
            elif kind == "mission":
                _mission(s, n, event)
            else:
                raise ReplayError(f"unknown event type {kind!r}")
        except ReplayError as exc:
            raise ReplayError(f"{_describe(i, event if kind else {})}: {exc}") from None
    finished = bool(s[K.PHASE] == K.OVER)
    winner = None
    reason = None
    if finished:
        winner = "spies" if s[K.WINNER] == K.SPY_SIDE else "resistance"
        reason = _END_REASONS[int(s[K.END])]
    outcome = record.get("outcome") or {}
    aborted = bool(record.get("error"))
    if not finished and not aborted:
        raise ReplayError(
            f"the record ends after {len(events)} events, but the game is not over: "
            f"the rules expect {_expected(s)}"
        )
    if outcome.get("winner") != winner or outcome.get("reason") != reason:
        raise ReplayError(
            f"recorded outcome {outcome.get('winner')!r} ({outcome.get('reason')!r}), "
            f"the rules give {winner!r} ({reason!r})"
        )
    return ReplayCheck(len(events), winner, reason, finished, s)
