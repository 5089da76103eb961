"""Mini Dou Di Zhu as a framework game: the 2-player, 18-card game of Whitehouse 2014,
§4.2.2 (rules and every choice in :mod:`spyglass.games.minidoudizhu.kernel`).

The four plain ranks are named ``J Q K A`` (low to high) and the jokers ``B`` (black)
and ``R`` (red). A play is written as its cards (``KK`` is a pair of kings, ``R`` the
red joker); ``pass`` passes.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game
from spyglass.games.minidoudizhu import kernel as K
from spyglass.rng import make_rng

RANK_NAMES = "JQKABR"


def play_text(action: int) -> str:
    """``KK`` for a pair of kings; ``pass``."""
    if action == K.PASS:
        return "pass"
    size, rank = divmod(int(action), K.N_RANKS)
    return RANK_NAMES[rank] * (size + 1)


def counts_text(counts) -> str:
    return " ".join(RANK_NAMES[r] * int(counts[r]) for r in range(K.N_RANKS)
                    if counts[r]) or "-"


class MiniDouDiZhu(Game):
    """Mini Dou Di Zhu: 2 players, 7 cards each from 18, play 1-4 of a kind higher."""

    name = "minidoudizhu"
    episode = "episodes:episode"
    title = "Mini Dou Di Zhu"
    min_players = 2
    max_players = 2
    information = "imperfect"
    has_roles = False
    options = ()

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = K.N_ACTIONS
        # Each play removes at least one of the 14 dealt cards; a pass follows a play.
        self.max_moves = 2 * 2 * K.HAND_SIZE

    def new_state(self, seed: int) -> np.ndarray:
        """A shuffled deal from ``seed``: 7 cards each, 4 hidden."""
        return K.deal(make_rng(self.check_seed(seed)))

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        if not 0 <= action < K.N_ACTIONS:
            raise ValueError(f"{action!r} is not a Mini Dou Di Zhu action (0..24)")
        return play_text(action)

    def view_text(self, view: np.ndarray, seat: int) -> str:
        v = [int(x) for x in view]
        lines = [f"You are player {seat}. Your hand: {counts_text(v[K.V_HAND:K.V_HAND + 6])}",
                 f"Opponent holds {v[K.V_OPP_SIZE]} cards (4 more are hidden from both)."]
        for p in range(2):
            played = v[K.V_PLAYED + 6 * p:K.V_PLAYED + 6 * p + 6]
            lines.append(f"Played by {'you' if p == seat else 'the opponent'}: "
                         f"{counts_text(played)}")
        if v[K.V_WINNER] >= 0:
            lines.append("You won." if v[K.V_WINNER] == seat else "You lost.")
        else:
            if v[K.V_LAST_SIZE]:
                lines.append("To beat: " + RANK_NAMES[v[K.V_LAST_RANK]] * v[K.V_LAST_SIZE])
            lines.append("Your move." if v[K.V_TO_MOVE] == seat else "Opponent's move.")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        a = int(obs) - 1
        if not 0 <= a < K.N_ACTIONS:
            raise ValueError(f"{obs!r} is not a Mini Dou Di Zhu observation key")
        who = "you" if actor == seat else f"player {actor}"
        return f"{who}: {play_text(a)}"

    def state_text(self, state: np.ndarray) -> str:
        s = [int(x) for x in state]
        lines = [f"player {p}: {counts_text(s[K.HAND + 6 * p:K.HAND + 6 * p + 6])}"
                 for p in range(2)]
        lines.append(f"hidden: {counts_text(s[K.HIDDEN:K.HIDDEN + 6])}")
        if s[K.WINNER] >= 0:
            lines.append(f"player {s[K.WINNER]} won")
        return "\n".join(lines)
