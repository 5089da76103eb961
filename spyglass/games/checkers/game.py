"""Checkers (English draughts) as a framework game: words around the compiled kernel.

The rules are in :mod:`spyglass.games.checkers.kernel`. Squares are named as OpenSpiel
and draughts diagrams do: column letter ``a``-``h`` then row ``1``-``8`` from the bottom;
an action is its from and to squares, e.g. ``c3d4`` (a step) or ``c3e5`` (one jump of
a capture; a chained capture is one such action per jump). Seat 0 is Black (``b``, kings
``B``) and moves first from rows 1-3, as in English draughts; seat 1 is White (``w``,
kings ``W``). (OpenSpiel calls the first player "White", drawn ``o``.)
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game
from spyglass.games.checkers import kernel as K

SIDES = ("Black", "White")


def _bits(x: int) -> int:
    return int(np.int64(x).view(np.uint64))


def square_name(sq: int) -> str:
    """``sq`` (row 0 at the top) as ``a1``-``h8`` (row 1 at the bottom)."""
    r, c = divmod(int(sq), 8)
    return f"{'abcdefgh'[c]}{8 - r}"


class Checkers(Game):
    """English draughts on the 8 x 8 board (perfect information, 2 players)."""

    name = "checkers"
    episode = "episodes:episode"
    title = "Checkers"
    min_players = 2
    max_players = 2
    information = "perfect"
    seat_names = SIDES
    has_roles = False
    options = ()

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = K.N_ACTIONS
        self.max_moves = K.MAX_MOVES

    def new_state(self, seed: int) -> np.ndarray:
        """The opening position (nothing is random: ``seed`` is unused)."""
        self.check_seed(seed)
        return K.new_state()

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        if isinstance(action, bool) or not isinstance(action, (int, np.integer)) \
                or not 0 <= action < K.N_ACTIONS:
            raise ValueError(f"{action!r} is not a Checkers action (0-{K.N_ACTIONS - 1})")
        sq, d, jump = int(action) >> 3, (int(action) >> 1) & 3, int(action) & 1
        r, c = divmod(sq, 8)
        dr, dc = (-1, -1, 1, 1)[d], (-1, 1, 1, -1)[d]
        k = 2 if jump else 1
        r2, c2 = r + k * dr, c + k * dc
        if not (0 <= r2 < 8 and 0 <= c2 < 8):
            raise ValueError(f"{action!r} is not a Checkers action (it leaves the board)")
        return square_name(sq) + square_name(r2 * 8 + c2)

    def view_text(self, view: np.ndarray, seat: int) -> str:
        """The board (``b``/``B`` Black men/kings, ``w``/``W`` White's), then whose move."""
        black, white = _bits(view[K.P0]), _bits(view[K.P1])
        kings = _bits(view[K.KINGS])
        to_move, result = int(view[K.TO_MOVE]), int(view[K.RESULT])
        lines = []
        for r in range(8):
            row = []
            for c in range(8):
                b = 1 << (r * 8 + c)
                ch = "b" if black & b else "w" if white & b else "." if (r + c) % 2 else " "
                row.append(ch.upper() if kings & b else ch)
            lines.append(f"{8 - r} " + " ".join(row))
        lines.append("  a b c d e f g h")
        nb, nw = bin(black).count("1"), bin(white).count("1")
        lines.append(f"Black (b) {nb}, White (w) {nw}; you are {SIDES[seat]} "
                     f"({'bw'[seat]}, seat {seat})")
        if result == K.DRAW:
            lines.append(f"the game is over: a draw ({K.QUIET_LIMIT} moves without a capture)")
        elif result >= 0:
            lines.append("the game is over: " + ("you won" if result == seat else "you lost"))
        elif to_move == seat:
            chain = int(view[K.CHAIN])
            lines.append(f"your move: continue the capture with {square_name(chain)}"
                         if chain >= 0 else "your move")
        else:
            lines.append("the opponent's move")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        if not 1 <= obs <= K.N_ACTIONS:
            raise ValueError(f"{obs!r} is not a Checkers observation key")
        who = "you" if actor == seat else SIDES[actor]
        a = obs - 1
        verb = "captured" if a & 1 else "moved"
        return f"{who} {verb} {self.action_text(a)}"

    def state_text(self, state: np.ndarray) -> str:
        """The board and who is to move or who won (no seat's point of view)."""
        lines = self.view_text(state, 0).split("\n")[:-1]
        lines[-1] = lines[-1].split(";")[0]
        result, to_move = int(state[K.RESULT]), int(state[K.TO_MOVE])
        lines.append("draw" if result == K.DRAW else f"{SIDES[result]} won"
                     if result >= 0 else f"{SIDES[to_move]} to move")
        return "\n".join(lines)
