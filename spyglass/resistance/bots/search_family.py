"""What the ISMCTS-family bots share: parameters, the public game as a kernel state, and a
belief over spy configurations from hard constraints only.

A subclass implements :meth:`FamilySearchBot._decide`, given the state at the start of the
current round (proposal, first vote or first mission card), the number of hidden moves of
the round before its own, and their observation keys; it returns a legal-action index.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from spyglass.games.resistance import kernel as K
from spyglass.games.resistance.knowledge import spy_marginals
from spyglass.games.resistance.public_track import PublicTrack
from spyglass.games.resistance.search_kernel import fails_constraint
from spyglass.games.resistance.tables import mask_to_seats, seats_to_mask, spy_configurations
from spyglass.resistance.bots.base import Bot
from spyglass.rng import make_rng
from spyglass.search.bandits import DEFAULT_BANDIT, DEFAULT_C, bandit_code


def check_positive_int(name: str, value: Any) -> int:
    """``value`` if it is a positive int, else a clear ValueError naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive integer, not {value!r}")
    return value


def check_budget(iterations: Any, seconds: Any, default: int) -> tuple[int | None, float | None]:
    """Validate an iterations-or-seconds budget (iterations ``default`` if neither)."""
    if iterations is not None and seconds is not None:
        raise ValueError("give either iterations or seconds, not both")
    if iterations is None and seconds is None:
        iterations = default
    if iterations is not None:
        check_positive_int("iterations", iterations)
    if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, (int, float))
                                or not math.isfinite(seconds) or seconds <= 0):
        raise ValueError(f"seconds must be a positive number, not {seconds!r}")
    return iterations, seconds


def check_search_params(bandit: Any, c: Any, seed: Any) -> None:
    """Validate the bandit name, exploration constant and seed."""
    bandit_code(bandit)
    if isinstance(c, bool) or not isinstance(c, (int, float)) or not math.isfinite(c) or c < 0:
        raise ValueError(f"the exploration constant c must be a number >= 0, not {c!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
        raise ValueError(f"seed must be an integer, not {seed!r}")


class FamilySearchBot(Bot):
    """Base of the search bots: tracks the public game; hard-constraint belief."""

    def __init__(self, *, bandit: str = DEFAULT_BANDIT, c: float = DEFAULT_C,
                 seed: int | None = None) -> None:
        super().__init__()
        check_search_params(bandit, c, seed)
        self.bandit = str(bandit)
        self.c = float(c)
        self.seed = seed
        self.params = {"bandit": self.bandit, "c": self.c, "seed": seed}

    # --- set-up ------------------------------------------------------------------------
    def known_spies(self) -> frozenset[int] | None:
        """The spies this bot knows (a spy's, or an omniscient bot's), else None."""
        return self.spies if self.spy else None

    def on_game_revealed(self, players: tuple[int, ...], spies: frozenset[int]) -> None:
        n = len(players)
        self.n = n
        self.configs = spy_configurations(n).astype(np.int64)
        known = self.known_spies()
        if known:
            weights = self.configs == seats_to_mask(known)
        else:
            weights = (self.configs >> self.seat) & 1 == 0
        self.weights = weights.astype(np.float64)
        seed = self.seed if self.seed is not None else self.rng.getrandbits(63)
        self.search_rng = make_rng(seed)
        self.track: PublicTrack | None = None
        self.my_card = 0
        self.searches = 0
        self.iterations_done = 0
        self.setup()

    def setup(self) -> None:
        """Per-game set-up of a subclass (after the belief and generator exist)."""

    def on_mission_attempt(self, mission: int, attempt: int, leader: int) -> None:
        if self.track is None:
            self.track = PublicTrack(self.n, self.seat, leader, self.game.rules.flags)
        self.track.check(mission, attempt, leader)

    # --- decisions ---------------------------------------------------------------------
    def _decide(self, root: np.ndarray, pre: int, chain: list[int]) -> int:
        raise NotImplementedError

    def _search(self) -> int:
        assert self.track is not None
        chain = self.track.chain()
        self.searches += 1
        return self._decide(self.track.root(), len(chain), chain)

    def select(self, players: tuple[int, ...], count: int) -> list[int]:
        start = int(K.TEAM_START[self.n, count])
        return list(mask_to_seats(int(K.TEAMS[start + self._search()])))

    def vote(self, team: tuple[int, ...]) -> bool:
        return bool(self._search())

    def sabotage(self) -> bool:
        self.my_card = self._search()
        return bool(self.my_card)

    # --- observations ------------------------------------------------------------------
    def on_team_selected(self, leader: int, team: tuple[int, ...]) -> None:
        self.track.propose(seats_to_mask(team))

    def on_vote_complete(self, votes: tuple[bool, ...]) -> None:
        self.track.votes(votes)

    def on_mission_complete(self, fails: int) -> None:
        team = int(self.track.s[K.TEAM])
        mine = self.my_card if (team >> self.seat) & 1 else 0
        self.observe_mission(team, fails)
        self.track.mission(fails, mine)
        self.my_card = 0

    def observe_mission(self, team: int, fails: int) -> None:
        """A mission result (before the public state moves on): hard constraints."""
        keep = fails_constraint(self.configs, team, fails)
        if np.any(keep & (self.weights > 0)):
            self.weights = self.weights * keep

    def suspicion(self) -> dict[int, float]:
        m = spy_marginals(self.configs, self.n, self.weights / self.weights.sum())
        return {p: float(m[p]) for p in self.others()}

    def record_extra(self) -> dict | None:
        if not hasattr(self, "searches"):
            return None
        return {"searches": self.searches, "iterations": self.iterations_done}
