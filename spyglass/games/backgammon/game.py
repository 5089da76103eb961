"""Backgammon as a framework game: words around the compiled kernel.

The rules are in :mod:`spyglass.games.backgammon.kernel`. A checker move is written as
the mover's own point numbers, as Backgammon players write them: ``13/10`` (from its
13-point by a 3), ``bar/22`` (entering), ``4/off`` (bearing off with the exact number)
and ``4/off(6)`` (bearing off the highest checker with a larger die); ``pass`` when no
die can be played. Seat 0 is ``x``, seat 1 ``o``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.backgammon import kernel as K
from spyglass.games.base import Game
from spyglass.params import Param
from spyglass.rng import make_rng

SCORINGS = ("winloss", "gammons", "full")


class Backgammon(Game):
    """Backgammon without the doubling cube (2 players; dice are chance)."""

    name = "backgammon"
    episode = "episodes:episode"
    title = "Backgammon"
    min_players = 2
    max_players = 2
    # Nothing is hidden from one player but visible to the other (Whitehouse 2014,
    # §4.2.10); the future dice are chance, hidden from both (see the kernel).
    information = "perfect"
    #: Views do not fix the future dice: a search determinizes them (``uct`` searches
    #: with determinized chance, Whitehouse 2014 §5.2.3; see agents/uct.py).
    hidden_chance = True
    has_roles = False
    options = (
        Param("scoring", str, "winloss", "winloss (win 1, as the thesis), gammons "
              "(a gammon 2) or full (also a backgammon 3), scaled into [0, 1]", choices=SCORINGS),
        Param("max_turns", int, K.DEFAULT_MAX_TURNS, "rolls before the game is a draw",
              low=2, high=100_000),
    )

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = K.N_ACTIONS
        self.max_moves = 4 * self.settings["max_turns"]

    def new_state(self, seed: int) -> np.ndarray:
        """The opening position; who starts, the opening roll and the later dice from
        ``seed``."""
        seed = self.check_seed(seed)
        return K.new_state(make_rng(seed), SCORINGS.index(self.settings["scoring"]),
                           self.settings["max_turns"])

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        if action == K.PASS:
            return "pass"
        if isinstance(action, bool) or not 0 <= int(action) < K.PASS:
            raise ValueError(f"{action!r} is not a Backgammon action (0-149 moves, 150 pass)")
        q, v = divmod(int(action), 6)
        q, v = q + 1, v + 1
        src = "bar" if q == K.BAR_Q else str(q)
        if q - v > 0:
            return f"{src}/{q - v}"
        return f"{src}/off" if q == v else f"{src}/off({v})"

    def view_text(self, view: np.ndarray, seat: int) -> str:
        """The board from ``seat``'s side (its points numbered 1-24), dice and whose turn."""
        v = [int(x) for x in view]
        mine = "x" if seat == 0 else "o"
        theirs = "o" if seat == 0 else "x"
        sign = 1 if seat == 0 else -1

        def cell(q: int) -> str:
            n = v[K.index_of(seat, q)] * sign
            return "." if n == 0 else f"{n}{mine}" if n > 0 else f"{-n}{theirs}"

        top = list(range(13, 25))
        bottom = list(range(12, 0, -1))
        lines = [" ".join(f"{q:>3}" for q in top),
                 " ".join(f"{cell(q):>3}" for q in top),
                 " ".join(f"{cell(q):>3}" for q in bottom),
                 " ".join(f"{q:>3}" for q in bottom)]
        lines.append(f"bar: you {v[K.BAR0 + seat]}, opponent {v[K.BAR0 + 1 - seat]}; "
                     f"off: you {v[K.OFF0 + seat]}, opponent {v[K.OFF0 + 1 - seat]}; "
                     f"you are {mine} (seat {seat}), moving from 24 down to 1")
        result, to_move = v[K.RESULT], v[K.TO_MOVE]
        if result == K.DRAW:
            lines.append("the game is over: a draw (turn limit)")
        elif result >= 0:
            lines.append("the game is over: " + ("you won" if result == seat else "you lost"))
        else:
            dice = f"{v[K.HI]}-{v[K.LO]}"
            left = v[K.LEFT]
            who = "your move" if to_move == seat else "the opponent's move"
            lines.append(f"{who}: dice {dice}, {left} checker move{'s' * (left != 1)} left")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        a, roll = (obs - 1) % 152, (obs - 1) // 152
        if obs < 1 or a >= K.N_ACTIONS or roll > 36:
            raise ValueError(f"{obs!r} is not a Backgammon observation key")
        who = "you" if actor == seat else "xo"[actor]
        text = f"{who} passed" if a == K.PASS else f"{who} played {self.action_text(a)}"
        if roll:
            hi, lo = divmod(roll - 1, 6)
            text += f"; {'xo'[1 - actor]} rolled {hi + 1}-{lo + 1}"
        return text

    def state_text(self, state: np.ndarray) -> str:
        """The board from x's side, and who is to move or who won."""
        lines = self.view_text(state, 0).split("\n")[:4]
        s = [int(x) for x in state]
        lines.append(f"bar: x {s[K.BAR0]}, o {s[K.BAR1]}; off: x {s[K.OFF0]}, o {s[K.OFF1]}")
        if s[K.RESULT] == K.DRAW:
            lines.append("draw (turn limit)")
        elif s[K.RESULT] >= 0:
            lines.append(f"{'xo'[s[K.RESULT]]} won ({int(K.points(state))} point(s))")
        else:
            lines.append(f"{'xo'[s[K.TO_MOVE]]} to move, dice {s[K.HI]}-{s[K.LO]}")
        return "\n".join(lines)
