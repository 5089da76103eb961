"""A person playing any game at the terminal, as an ordinary agent.

It is told exactly what any agent in its seat is told (its own view, each move as its
seat saw it), so a person sees nothing a program in that seat could not. Moves are typed
as the game names them (``Game.action_text``, e.g. ``b2``) or by their number in the list
of legal moves (names win, for games whose moves are numbers, and a name the game knows
but that is not legal now is refused, never read as a number); ``?`` shows help, the view
and the legal moves again; ``q`` leaves where it names no move, ``quit`` always (the game
then ends with an error naming this seat, and its record is kept).
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from spyglass.agents.base import Agent
from spyglass.games.base import IllegalMove


class HumanQuit(Exception):  # noqa: N818 — a person leaving is not an error of theirs
    """The person left the game (``q`` or end of input)."""


HELP = (
    "Type a move as shown in the list, or its number. "
    "? shows this help, your view and the legal moves again; quit leaves the game "
    "(q too, where it names no move)."
)


class HumanAgent(Agent):
    """A person at the terminal (``read`` and ``write`` are injectable for tests)."""

    agent_name = "human"
    description = "you, at the terminal"

    def __init__(self, read: Callable[[str], str] = input,
                 write: Callable[[str], None] = print) -> None:
        super().__init__()
        self.read, self.write = read, write

    def start(self, game, seat, view, seed) -> None:
        super().start(game, seat, view, seed)
        self.write(f"{game.title} {game!r}: you are seat {seat}.")

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        who = "You" if actor == self.seat else f"Seat {actor}"
        self.write(f"{who}: {self.game.observation_text(obs, self.seat, actor, view)}")

    def _show(self, view: np.ndarray, legal: list[int]) -> None:
        self.write(self.game.view_text(view, self.seat))
        moves = "  ".join(f"{i + 1}:{self.game.action_text(a, view)}"
                          for i, a in enumerate(legal))
        self.write(f"Legal moves: {moves}")

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        self._show(view, legal)
        while True:
            try:
                text = self.read("Your move (? for help, q to quit): ").strip()
            except EOFError:
                raise HumanQuit("input ended") from None
            if text in ("?", "help", "h"):
                self.write(HELP)
                self._show(view, legal)
                continue
            # The game reads the text first: a move's name (Dou Di Zhu's "Q", a card's
            # value) wins over "q" and over a position in the list.
            try:
                return self.game.parse_action(text, legal, view)
            except IllegalMove as exc:  # a move the game knows, just not legal now
                self.write(str(exc))
                continue
            except ValueError as exc:
                problem = str(exc)
            if text.lower() in ("q", "quit", "exit"):
                raise HumanQuit("you left the game")
            if text.isdigit() and 1 <= int(text) <= len(legal):
                return legal[int(text) - 1]  # its number in the list
            self.write(problem)

    def finish(self, rewards: tuple[float, ...]) -> None:
        mine = rewards[self.seat]
        verdict = "You won." if mine == max(rewards) and rewards.count(mine) == 1 else (
            "A draw." if mine == max(rewards) else "You lost.")
        self.write(f"Game over. Rewards: {', '.join(f'{r:g}' for r in rewards)}. {verdict}")
