"""Phantom (m,n,k) as a framework game: options, words and the compiled kernel.

The rules are in :mod:`spyglass.games.phantom.kernel` (Whitehouse 2014, §4.2.7: a move
onto a square the opponent holds is rejected, the player is told and chooses again).
Squares are named like a chess board's, column letter then row number, with row 1 at
the top: ``a1`` is square 0 and ``b2`` is square ``m + 1``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game, IllegalMove
from spyglass.games.phantom import kernel as K
from spyglass.params import Param

MAX_SIDE = 26  # column letters a..z


class Phantom(Game):
    """Phantom (m,n,k): the m,n,k-game where neither player sees the other's marks."""

    name = "phantom"
    title = "Phantom (m,n,k)"
    min_players = 2
    max_players = 2
    information = "imperfect"
    has_roles = False
    options = (
        Param("m", int, 4, "board width (columns)", low=1, high=MAX_SIDE),
        Param("n", int, 4, "board height (rows)", low=1, high=MAX_SIDE),
        Param("k", int, 4, "marks in a row that win", low=1, high=MAX_SIDE),
    )

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        m, n, k = self.settings["m"], self.settings["n"], self.settings["k"]
        if m * n > K.MAX_SQUARES:
            raise ValueError(
                f"game phantom: the board has at most {K.MAX_SQUARES} squares, not {m}x{n}"
            )
        if k > max(m, n):
            raise ValueError(
                f"game phantom: k={k} in a row cannot fit on a {m}x{n} board (k <= {max(m, n)})"
            )
        self.m, self.n, self.k = m, n, k
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = m * n
        # Each player is refused at most once per opponent mark (refused squares are no
        # longer legal) and never on the mark that ends the game: at most m*n placements
        # and m*n - 1 refusals (OpenSpiel's bound for phantom_ttt: 17).
        self.max_moves = 2 * m * n - 1

    def new_state(self, seed: int) -> np.ndarray:
        """The empty board, player 0 to move (nothing is random: ``seed`` is unused)."""
        seed = self.check_seed(seed)
        return K.new_state(self.m, self.n, self.k)

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        if not 0 <= action < self.n_actions:
            raise ValueError(f"{action!r} is not a square of a {self.m}x{self.n} board")
        r, c = divmod(int(action), self.m)
        return f"{chr(ord('a') + c)}{r + 1}"

    def parse_action(self, text: str, legal: list[int], view: np.ndarray | None = None) -> int:
        t = text.strip().lower()
        if len(t) >= 2 and t[0].isalpha() and t[1:].isdigit():
            c, r = ord(t[0]) - ord("a"), int(t[1:]) - 1
            if 0 <= c < self.m and 0 <= r < self.n:
                a = r * self.m + c
                if a in legal:
                    return a
                raise IllegalMove(
                    f"{text.strip()!r} is not a legal move: you already marked it or were "
                    f"refused there; legal: {', '.join(self.action_text(x) for x in legal)}"
                )
        return super().parse_action(text, legal, view)

    def view_text(self, view: np.ndarray, seat: int) -> str:
        """The board as ``seat`` knows it: ``X``/``O`` its own marks (X moves first),
        the other letter where it was refused (known opponent marks), ``.`` unknown."""
        m, n = int(view[K.V_M]), int(view[K.V_N])
        own, refused = int(view[K.V_OWN]), int(view[K.V_REFUSED])
        me, other = ("X", "O") if seat == 0 else ("O", "X")
        lines = ["   " + " ".join(chr(ord("a") + c) for c in range(m))]
        for r in range(n):
            cells = []
            for c in range(m):
                a = r * m + c
                cells.append(me if (own >> a) & 1 else other if (refused >> a) & 1 else ".")
            lines.append(f"{r + 1:>2} " + " ".join(cells))
        opp_count = int(view[K.V_OPP_COUNT])
        hidden = opp_count - bin(refused).count("1")
        lines.append(
            f"you are {me} (seat {seat}); you have {int(view[K.V_OWN_COUNT])} marks, the "
            f"opponent {opp_count} ({hidden} unseen)"
        )
        result, to_move = int(view[K.V_RESULT]), int(view[K.V_TO_MOVE])
        if result == K.DRAW:
            lines.append("the game is over: a draw")
        elif result >= 0:
            lines.append("the game is over: " + ("you won" if result == seat else "you lost"))
        else:
            lines.append("your move" if to_move == seat else "the opponent's move")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        if obs >= K.OBS_OWN:
            a, rejected = divmod(obs - K.OBS_OWN, 2)
            sq = self.action_text(a)
            who = "you" if actor == seat else f"seat {actor}"
            if rejected:
                return f"{who} tried {sq}: refused, the opponent holds it; choose again"
            return f"{who} marked {sq}"
        if obs == K.OBS_OPP_WON:
            return "the opponent moved and completed a line"
        if obs == K.OBS_OPP_DREW:
            return "the opponent moved and filled the board"
        if obs == K.OBS_OPP_PLACED:
            return "the opponent placed a mark (unseen)"
        if obs == K.OBS_UNSEEN:
            return "nothing you can see (the opponent was refused and tries again)"
        raise ValueError(f"{obs!r} is not a Phantom observation key")

    def state_text(self, state: np.ndarray) -> str:
        """The whole board, both players' marks (X moves first)."""
        m, n = self.m, self.n
        x, o = int(state[K.STONES]), int(state[K.STONES + 1])
        lines = ["   " + " ".join(chr(ord("a") + c) for c in range(m))]
        for r in range(n):
            row = []
            for c in range(m):
                a = r * m + c
                row.append("X" if (x >> a) & 1 else "O" if (o >> a) & 1 else ".")
            lines.append(f"{r + 1:>2} " + " ".join(row))
        result = int(state[K.RESULT])
        if result == K.DRAW:
            lines.append("draw")
        elif result >= 0:
            lines.append(f"{'XO'[result]} (seat {result}) won")
        else:
            lines.append(f"{'XO'[int(state[K.TO_MOVE])]} to move")
        return "\n".join(lines)
