"""What one record of The Resistance's 2012 referee counts for: each seat's role and
reward, the bot it plays for, and the 2012 behaviour columns.

Win rates (overall and by role) are counted for every game alike by
:mod:`spyglass.arena.game_stats` from a record's rewards and roles (:func:`rewards`,
:func:`roles` of a 2012 record's spies and winner). What only The Resistance's events can say is
counted here, per seat, as integers (:func:`seat_counts`), so that workers can count a
chunk and the parent only adds arrays.

Behaviour columns (Taylor 2014, §5.1, "Reading Competition Output"):

* as spy, *voted*: share of resistance members' votes on teams with the bot on them
  that were positive; *selected*: share of teams put forward by resistance leaders that
  included the bot;
* as resistance, share of spy-free teams the bot approved, share of teams with spies it
  rejected, and share of its own proposals that were spy-free.

This module imports no statistics (:mod:`spyglass.arena.stats` re-exports
:func:`seat_counts` for the chunk workers, so it must not import that module back).
"""

from __future__ import annotations

import re

import numpy as np

SPY, RESISTANCE = "spy", "resistance"

FIELDS = (
    "errors",  # games ended by an error of this seat's bot
    "spy_votes", "spy_votes_for",  # resistance votes on teams with this spy / positive
    "spy_res_teams", "spy_res_teams_on",  # teams led by resistance / including this spy
    "res_clean_votes", "res_clean_approved",  # own votes on spy-free teams / approvals
    "res_spied_votes", "res_spied_rejected",  # own votes on teams with spies / rejections
    "res_proposals", "res_proposals_clean",  # own proposals as resistance / spy-free
)
F = {name: i for i, name in enumerate(FIELDS)}
K = len(FIELDS)

BEHAVIOUR = {
    # column: (numerator, denominator, what it means)
    "spy_voted": ("spy_votes_for", "spy_votes",
                  "as spy: share of resistance votes on its teams that approved"),
    "spy_selected": ("spy_res_teams_on", "spy_res_teams",
                     "as spy: share of resistance leaders' teams it was on"),
    "res_approve_clean": ("res_clean_approved", "res_clean_votes",
                          "as resistance: share of spy-free teams it approved"),
    "res_reject_spied": ("res_spied_rejected", "res_spied_votes",
                         "as resistance: share of teams with spies it rejected"),
    "res_select_clean": ("res_proposals_clean", "res_proposals",
                         "as resistance: share of its own proposals that were spy-free"),
}

_DUP_SUFFIX = re.compile(r"#\d+$")


def seat_labels(record: dict) -> list[str]:
    """The bot each seat counts for: the tournament's pool label, else the seat name."""
    players = record.get("tournament", {}).get("players")
    if players:
        return list(players)
    return [_DUP_SUFFIX.sub("", name) for name in record["setup"]["bots"]]


def game_ok(record: dict) -> bool:
    """Whether a game counts: it finished with a winner and no error."""
    return record.get("error") is None and record["outcome"]["winner"] is not None


def error_seat(record: dict) -> int | None:
    """The seat whose bot ended the game by an error, if a seat did."""
    err = record.get("error")
    seat = err.get("seat") if isinstance(err, dict) else None
    n = record["setup"]["players"]
    return seat if isinstance(seat, int) and 0 <= seat < n else None


def roles(players: int, spies: tuple[int, ...] | list[int]) -> list[str]:
    """Each seat's role, ``"spy"`` or ``"resistance"``."""
    return [SPY if s in spies else RESISTANCE for s in range(players)]


def rewards(players: int, spies: tuple[int, ...] | list[int], spies_won: bool) -> list[float]:
    """Each seat's reward: 1 for the winning side, 0 for the other (as the framework's
    Resistance kernel)."""
    return [float((s in spies) == spies_won) for s in range(players)]


def seat_counts(record: dict) -> np.ndarray:
    """Per-seat counts (rows: seats, columns: :data:`FIELDS`) of one game record: the
    erring seat, and for a counted game the behaviour columns."""
    n = record["setup"]["players"]
    rows = [[0] * K for _ in range(n)]
    if record.get("error") is not None:
        seat = error_seat(record)
        if seat is not None:
            rows[seat][F["errors"]] = 1
        return np.array(rows, dtype=np.int64)
    if not game_ok(record):
        return np.array(rows, dtype=np.int64)
    spies = frozenset(record["roles"]["spies"])
    resistance = [s for s in range(n) if s not in spies]
    for ev in record["events"]:
        if ev["type"] != "proposal":
            continue
        team, leader, votes = ev["team"], ev["leader"], ev["votes"]
        on_team = [s for s in team if s in spies]
        if leader not in spies:
            lead = rows[leader]
            lead[F["res_proposals"]] += 1
            lead[F["res_proposals_clean"]] += not on_team
            for s in spies:
                rows[s][F["spy_res_teams"]] += 1
            for s in on_team:
                rows[s][F["spy_res_teams_on"]] += 1
        if votes is None:  # a forced fifth proposal: nobody voted
            continue
        if on_team:
            yes = sum(1 for r in resistance if votes[r])
            for s in on_team:
                rows[s][F["spy_votes"]] += len(resistance)
                rows[s][F["spy_votes_for"]] += yes
            for r in resistance:
                rows[r][F["res_spied_votes"]] += 1
                rows[r][F["res_spied_rejected"]] += not votes[r]
        else:
            for r in resistance:
                rows[r][F["res_clean_votes"]] += 1
                rows[r][F["res_clean_approved"]] += bool(votes[r])
    return np.array(rows, dtype=np.int64)
