"""Othello as a framework game: words around the compiled bitboard kernel.

The rules are in :mod:`spyglass.games.othello.kernel`. Squares are named as OpenSpiel
and most Othello literature do: column letter ``a``-``h`` then row ``1``-``8`` from the
top (``d3`` is square 19); a pass is ``pass``. Black (``x``, seat 0) moves first.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game
from spyglass.games.othello import kernel as K


def _bits(x: int) -> int:
    return int(np.int64(x).view(np.uint64))


class Othello(Game):
    """Othello on the standard 8 x 8 board (perfect information, 2 players)."""

    name = "othello"
    episode = "episodes:episode"
    title = "Othello"
    min_players = 2
    max_players = 2
    information = "perfect"
    seat_names = ("Black", "White")
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
        if action == K.PASS:
            return "pass"
        if not 0 <= action < 64:
            raise ValueError(f"{action!r} is not an Othello action (0-63 squares, 64 pass)")
        r, c = divmod(int(action), 8)
        return f"{'abcdefgh'[c]}{r + 1}"

    def view_text(self, view: np.ndarray, seat: int) -> str:
        """The board (``x`` Black, ``o`` White, ``*`` a legal move of the side to move)."""
        black, white, legal = _bits(view[K.BLACK]), _bits(view[K.WHITE]), _bits(view[K.LEGAL])
        to_move, result = int(view[K.TO_MOVE]), int(view[K.RESULT])
        lines = ["  a b c d e f g h"]
        for r in range(8):
            row = []
            for c in range(8):
                a = r * 8 + c
                row.append("x" if (black >> a) & 1 else "o" if (white >> a) & 1
                           else "*" if to_move >= 0 and (legal >> a) & 1 else ".")
            lines.append(f"{r + 1} " + " ".join(row))
        nb, nw = bin(black).count("1"), bin(white).count("1")
        lines.append(f"Black (x) {nb}, White (o) {nw}; you are {'xo'[seat]} (seat {seat})")
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
        if not 1 <= obs <= K.N_ACTIONS:
            raise ValueError(f"{obs!r} is not an Othello observation key")
        who = "you" if actor == seat else f"{'Black' if actor == 0 else 'White'}"
        a = obs - 1
        return f"{who} passed" if a == K.PASS else f"{who} played {self.action_text(a)}"

    def state_text(self, state: np.ndarray) -> str:
        """The board and who is to move or who won (no seat's point of view)."""
        lines = self.view_text(state, 0).split("\n")[:-1]
        lines[-1] = lines[-1].split(";")[0]
        result, to_move = int(state[K.RESULT]), int(state[K.TO_MOVE])
        lines.append("draw" if result == K.DRAW else f"{('Black', 'White')[result]} won"
                     if result >= 0 else f"{('Black', 'White')[to_move]} to move")
        return "\n".join(lines)
