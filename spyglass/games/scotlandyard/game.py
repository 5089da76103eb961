"""Scotland Yard as a framework game: options, words and the compiled kernel.

The rules are in :mod:`spyglass.games.scotlandyard.kernel` and the board in
:mod:`spyglass.games.scotlandyard.board`. Moves are written ``<ticket> <station>`` (e.g.
``taxi 46``, ``black 115``), plus ``double`` (play a double-move card) and ``pass`` (Mr X
has no move: he loses).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from spyglass.games.base import Game
from spyglass.games.scotlandyard import kernel as K
from spyglass.games.scotlandyard.board import N_STATIONS, START_CARDS, mask_stations
from spyglass.params import Param
from spyglass.rng import make_rng, rand_below

PIECES = ("Mr X", "red", "blue", "green", "yellow", "black")
#: Above this many possible stations a view gives only their number (all: the seekers want them).
LIST_UP_TO = N_STATIONS


class ScotlandYard(Game):
    """Scotland Yard: Mr X against 1-5 detectives on the published London board."""

    name = "scotlandyard"
    title = "Scotland Yard"
    min_players = 2
    max_players = 1 + K.MAX_DETECTIVES
    information = "imperfect"
    has_roles = False
    win_statistic = "1 for each seat of the winning side (Mr X, or every seeker), else 0"
    options = (
        Param("detectives", int, 5, "detectives hunting Mr X (the thesis: 5)",
              low=1, high=K.MAX_DETECTIVES),
        Param("rounds", int, K.MAX_ROUNDS, "Mr X's moves in a game; he surfaces after "
              "moves 3, 8, 13, 18 and the last", low=1, high=K.MAX_ROUNDS),
        Param("coalition_reduction", float, 0.0, "r: with a seat per detective, the others "
              "get 1 - r when one captures Mr X (0: off)", low=0.0, high=0.5),
    )

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        d = self.settings["detectives"]
        if self.n_players not in (2, 1 + d):
            raise ValueError(
                f"game scotlandyard: {self.n_players} players do not fit {d} detectives: "
                f"2 (Mr X and one seeker player) or {1 + d} (a seat per detective)")
        if self.settings["coalition_reduction"] and self.n_players == 2:
            raise ValueError("game scotlandyard: coalition_reduction needs a seat per "
                             f"detective ({1 + d} players)")
        self.detectives = d
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = K.N_ACTIONS
        # Mr X: one move per round, DOUBLE twice, PASS; each detective one move a round.
        self.max_moves = self.settings["rounds"] * (1 + d) + K.MRX_DOUBLES + 1

    def new_state(self, seed: int) -> np.ndarray:
        """Start cards drawn from ``seed``: Mr X first, then each detective (all distinct)."""
        rng = make_rng(self.check_seed(seed))
        deck = list(START_CARDS)
        drawn = [deck.pop(int(rand_below(rng, len(deck)))) for _ in range(1 + self.detectives)]
        return K.new_state(self.detectives, self.settings["rounds"], self.n_players,
                           self.settings["coalition_reduction"], tuple(drawn))

    def win_scores(self, rewards: Sequence[float]) -> list[float]:
        """1 for every seat with a positive reward: the winning side (coalition reduction
        lowers a seeker's reward, not its win)."""
        return [1.0 if r > 0 else 0.0 for r in rewards]

    def seat_name(self, seat: int) -> str:
        if seat == 0:
            return "Mr X"
        return "the seekers" if self.n_players == 2 else f"detective {PIECES[seat]}"

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        a = int(action)
        if a == K.DOUBLE:
            return "double"
        if a == K.PASS:
            return "pass"
        if not 0 <= a < K.N_MOVE_IDS:
            raise ValueError(f"{action!r} is not a Scotland Yard move")
        t, st = divmod(a, N_STATIONS)
        return f"{K.TICKET_NAMES[t]} {st + 1}"

    def parse_action(self, text: str, legal: list[int], view: np.ndarray | None = None) -> int:
        words = text.strip().lower().split()
        if len(words) == 2 and words[0] in ("t", "b", "u", "x") and words[1].isdigit():
            text = f"{dict(t='taxi', b='bus', u='underground', x='black')[words[0]]} {words[1]}"
        return super().parse_action(" ".join(text.split()), legal, view)

    def _log_text(self, v: np.ndarray) -> str:
        parts = []
        for m in range(1, int(v[K.MOVES]) + 1):
            code = int(K.log_entry(v, m))
            word = K.TICKET_NAMES[(code & 7) - 1] + ("*" if code & 8 else "")
            if K.surfaces_after(v, m):
                shown = int(v[K.SEEN + bin(int(v[K.SURFACE]) & ((1 << m) - 1)).count("1")])
                word += f"@{shown}"
            parts.append(f"{m}:{word}")
        return " ".join(parts) or "(no moves yet)"

    def view_text(self, view: np.ndarray, seat: int) -> str:
        """The board as ``seat`` knows it: detectives, tickets, Mr X's log and where he may be."""
        v = view
        lines = [f"you are {self.seat_name(seat)}; Mr X has made {int(v[K.MOVES])} of "
                 f"{int(v[K.ROUNDS])} moves"]
        if seat == 0:
            lines.append(f"Mr X is at {int(v[K.MRX_POS])}")
        tk = [int(v[K.MRX_TK + t]) for t in range(5)]
        lines.append(f"Mr X's tickets: taxi {tk[0]}, bus {tk[1]}, underground {tk[2]}, "
                     f"black {tk[3]}, double {tk[4]}")
        for d in range(1, int(v[K.N_DET]) + 1):
            dt = [int(v[K.DET_TK + 3 * (d - 1) + t]) for t in range(3)]
            lines.append(f"detective {PIECES[d]} at {int(v[K.DET_POS + d - 1])} "
                         f"(taxi {dt[0]}, bus {dt[1]}, underground {dt[2]})")
        lines.append("Mr X's log: " + self._log_text(v))
        where = mask_stations(v[K.POSS:K.POSS + 4])
        listed = ", ".join(map(str, where)) if len(where) <= LIST_UP_TO else "..."
        lines.append(f"Mr X may be at {len(where)} stations: {listed}")
        result, turn = int(v[K.RESULT]), int(v[K.TURN])
        if result == K.MRX_WON:
            lines.append("the game is over: Mr X escaped")
        elif result == K.SEEKERS_WON:
            cap = int(v[K.CAPTURER])
            lines.append("the game is over: " + (
                f"detective {PIECES[cap]} caught Mr X at {int(v[K.DET_POS + cap - 1])}"
                if cap else "Mr X could not move"))
        elif turn == 0:
            lines.append("Mr X to move" + (" (double move)" if int(v[K.DBL]) else ""))
        else:
            lines.append(f"detective {PIECES[turn]} to move")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        if obs >= K.OBS_HIDDEN:
            return f"Mr X moved by {K.TICKET_NAMES[obs - K.OBS_HIDDEN]} (unseen)"
        if not 1 <= obs < K.OBS_HIDDEN:
            raise ValueError(f"{obs!r} is not a Scotland Yard observation key")
        d, rest = divmod(obs - 1, K.OBS_DETECTIVE)
        capture = rest >= K.OBS_CAPTURE
        who = f"detective {PIECES[d]}" if d else "Mr X"
        text = f"{who}: {self.action_text(rest % K.OBS_CAPTURE)}"
        return text + (": Mr X is caught!" if capture else "")

    def state_text(self, state: np.ndarray) -> str:
        """Everything, Mr X's station included (finished games, replays)."""
        v = self.view(state, 0)
        return self.view_text(v, 0).replace("you are Mr X; ", "", 1)
