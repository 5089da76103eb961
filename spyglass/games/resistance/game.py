"""The Resistance as a framework game: options, the deal, words, and the protocol kernel.

The rules are the compiled kernel's (:mod:`spyglass.games.resistance.kernel`), bound to
the game-general protocol in :mod:`spyglass.games.resistance.protocol`. Seats are
numbered from 0, as everywhere in Spyglass.

Action ids: a proposal is the team's bitmask of seats (at least two seats, so at least
3); a vote is 1 (approve) or 0 (reject); a mission card is 1 (fail) or 0 (success).
Whether 0/1 is a vote or a card depends on the phase, which is public, so the words for
an action or an observation take the seat's view when they have it.
"""

from __future__ import annotations

import random
import re
from typing import Any

import numpy as np

from spyglass.games.base import Game, IllegalMove, top_or_tied
from spyglass.games.resistance import kernel as K
from spyglass.games.resistance import protocol as P
from spyglass.games.resistance.options import FIFTH_REJECTION_CHOICES, Rules
from spyglass.games.resistance.search_kernel import MAX_DEPTH
from spyglass.games.resistance.tables import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    N_MISSIONS,
    mask_to_seats,
    spy_configurations,
)
from spyglass.params import Param
from spyglass.rng import derive_seed

_YES = {"approve", "yes", "y", "a"}
_NO = {"reject", "no", "n", "r"}
_FAIL = {"fail", "f", "sabotage"}
_SUCCESS = {"success", "s", "pass"}


def deal_seed(seed: int) -> int:
    """The seed of the deal's generator for game seed ``seed``.

    :func:`spyglass.rng.derive_seed` ``(seed, 0x5EA7)``, as in the Resistance referee, so a
    seed below 2**63 deals the same spies and first leader here as there.
    """
    return derive_seed(int(seed) & (2**63 - 1), 0x5EA7)


def deal_roles(n_players: int, deal: random.Random, spies: int | None = None,
               leader: int | None = None) -> tuple[int, int]:
    """The spies' bitmask and the first leader, each drawn from ``deal`` unless given.

    A spy configuration by ``randrange`` over :func:`spy_configurations` (canonical
    order), then the leader by ``randrange(n_players)``: the one deal of this game and of
    the Resistance referee (which may fix either, e.g. a tournament's role balance).
    """
    if spies is None:
        configs = spy_configurations(n_players)
        spies = int(configs[deal.randrange(len(configs))])
    if leader is None:
        leader = deal.randrange(n_players)
    return spies, leader


def _seats(mask: int) -> str:
    return ",".join(str(s) for s in mask_to_seats(int(mask))) or "-"


class Resistance(Game):
    """The Resistance (5-10 players; hidden roles: the spies know each other)."""

    name = "resistance"
    search_kernel = "protocol:KERNEL"
    simultaneous = "protocol:simultaneous"
    episode = "episodes:episode"
    title = "The Resistance"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    information = "hidden roles"
    has_roles = True
    win_statistic = ("1 for each member of the winning side (spies or resistance), as the "
                     "2012 competition counted wins (Taylor 2014, §5)")
    options = (
        Param(
            "fifth_rejection",
            str,
            "spies_win",
            "a fifth rejected proposal wins for the spies (official), or is forced through",
            choices=FIFTH_REJECTION_CHOICES,
        ),
    )

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        self.rules = Rules(self.settings["fifth_rejection"])
        self.kernel = P.KERNEL
        self.state_size = P.STATE_SIZE
        self.view_size = P.VIEW_SIZE
        self.n_actions = 1 << self.n_players
        self.max_moves = MAX_DEPTH

    def new_state(self, seed: int) -> np.ndarray:
        """Deal the spies and the first leader from ``seed``.

        ``random.Random(deal_seed(seed))`` picks a spy configuration (``randrange`` over
        :func:`~spyglass.games.resistance.tables.spy_configurations`, canonical order)
        and then the first leader (``randrange(players)``): the referee's deal.
        """
        seed = self.check_seed(seed)
        spies, leader = deal_roles(self.n_players, random.Random(deal_seed(seed)))
        return P.new_state(self.n_players, spies, leader, self.rules.flags)

    def spies(self, state: np.ndarray) -> tuple[int, ...]:
        """The spy seats of a full state."""
        return mask_to_seats(int(state[K.SPIES]))

    def win_scores(self, rewards) -> list[float]:
        """A team game: every seat of the winning side (reward 1) wins, so an agent's win
        rate is its side's share of wins, the 2012 figure."""
        return top_or_tied(rewards)

    def roles(self, state: np.ndarray) -> tuple[str, ...]:
        """``"spy"`` or ``"resistance"`` for each seat."""
        spies = int(state[K.SPIES])
        return tuple("spy" if (spies >> j) & 1 else "resistance" for j in range(self.n_players))

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        a = int(action)
        if not 0 <= a < self.n_actions:
            raise ValueError(f"{action!r} is not an action of a {self.n_players}-player game")
        if a >= 2:
            return "team " + _seats(a)
        phase = None if view is None else int(view[K.PHASE])
        if phase == K.VOTE:
            return "approve" if a else "reject"
        if phase == K.MISSION_PHASE:
            return "fail" if a else "success"
        return "approve/fail" if a else "reject/success"

    def parse_action(self, text: str, legal: list[int], view: np.ndarray | None = None) -> int:
        t = text.strip().lower()
        if any(a >= 2 for a in legal):
            body = t[4:] if t.startswith("team") else t
            seats = [int(x) for x in re.findall(r"\d+", body)]
            if seats and not re.sub(r"[\d,\s;+]", "", body):
                mask = 0
                for s in seats:
                    mask |= 1 << s if 0 <= s < self.n_players else 0
                if mask in legal and len(set(seats)) == len(seats):
                    return mask
            sizes = {bin(a).count("1") for a in legal}
            raise IllegalMove(
                f"{text!r} is not a legal team: name {'/'.join(map(str, sorted(sizes)))} "
                f"different seats 0-{self.n_players - 1}, e.g. 'team 0,2'"
            )
        words = {1: _YES | _FAIL | {"1"}, 0: _NO | _SUCCESS | {"0"}}
        if view is not None and int(view[K.PHASE]) == K.VOTE:
            words = {1: _YES | {"1"}, 0: _NO | {"0"}}
        elif view is not None and int(view[K.PHASE]) == K.MISSION_PHASE:
            words = {1: _FAIL | {"1"}, 0: _SUCCESS | {"0"}}
        for a in legal:
            if t in words[a]:
                return a
        choices = ", ".join(self.action_text(a, view) for a in legal)
        raise ValueError(f"{text!r} is not a legal move here; legal: {choices}")

    def view_text(self, view: np.ndarray, seat: int) -> str:
        v = [int(x) for x in view]
        n = v[K.N]
        lines = []
        if v[K.SPIES] == P.UNKNOWN_SPIES:
            lines.append(f"you are seat {seat}, resistance; the spies are unknown")
        else:
            others = _seats(v[K.SPIES] & ~(1 << seat))
            lines.append(f"you are seat {seat}, a SPY; the other spies: {others}")
        track = []
        for m in range(N_MISSIONS):
            team = v[P.TEAMS_DONE + m]
            if team:
                fails = (v[K.HISTORY] >> (4 * m)) & 15
                track.append(f"mission {m + 1}: team {_seats(team)}, {fails} fail(s)")
        lines += track or ["no mission played yet"]
        lines.append(f"resistance {v[K.RES_WINS]} - spies {v[K.SPY_WINS]}")
        ph = v[K.PHASE]
        where = f"mission {v[K.MISSION] + 1}, proposal {v[K.ATTEMPT] + 1}, leader {v[K.LEADER]}"
        if ph == K.OVER:
            lines.append(
                "game over: " + ("the resistance won" if v[K.WINNER] == K.RESISTANCE
                                 else "the spies won")
            )
        elif ph == K.PROPOSE:
            lines.append(f"{where}: the leader is choosing a team")
        elif ph == K.VOTE:
            mine = ""
            if v[K.CURSOR] > seat:
                mine = "; you voted " + ("approve" if (v[K.VOTES] >> seat) & 1 else "reject")
            lines.append(f"{where}: voting on team {_seats(v[K.TEAM])}{mine}")
        else:
            mine = ""
            if (v[K.TEAM] >> seat) & 1 and v[K.CURSOR] > seat:
                mine = "; you played " + ("fail" if v[K.FAILS] else "success")
            lines.append(f"{where}: team {_seats(v[K.TEAM])} is on the mission{mine}")
        del n
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        """``view``: the seat's view after the move (it tells a vote from a card)."""
        obs = int(obs)
        tag, low = obs & ~((1 << 20) - 1), obs & ((1 << 20) - 1)
        who = "you" if actor == seat else f"seat {actor}"
        if tag == K.OBS_TEAM:
            return f"{who} proposed team {_seats(low)}"
        if tag == K.OBS_VOTES:
            return f"votes: approved by {_seats(low)}"
        if tag == K.OBS_FAILS:
            return f"mission cards revealed: {low} fail(s)"
        phase = None if view is None else int(view[K.PHASE])
        if tag == K.OBS_OWN:
            if phase == K.VOTE:
                return f"you voted {'approve' if low else 'reject'}"
            if phase == K.MISSION_PHASE:
                return f"you played {'fail' if low else 'success'}"
            return f"you chose {'approve/fail' if low else 'reject/success'}"
        if tag == K.OBS_HIDDEN:
            if phase == K.VOTE:
                return f"{who} voted (hidden until all have voted)"
            if phase == K.MISSION_PHASE:
                return f"{who} played a mission card (hidden)"
            return f"{who} made a hidden choice"
        raise ValueError(f"{obs!r} is not a Resistance observation key")

    def state_text(self, state: np.ndarray) -> str:
        """The public track and the spies (everything revealed)."""
        spies = int(state[K.SPIES])
        v = self.view(state, int(mask_to_seats(spies)[0]))
        body = self.view_text(v, int(mask_to_seats(spies)[0])).splitlines()[1:]
        return "\n".join([f"spies: {_seats(spies)}", *body])
