"""HumanBot: a person playing at the terminal, shown only their own seat's view."""

from __future__ import annotations

import re
from typing import ClassVar

from rich.console import Console
from rich.markup import escape

from spyglass.games.resistance.transcript import Transcript
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.registry import register

_YES = {"y", "yes", "approve", "a", "1", "true", "t", "ok"}
_NO = {"n", "no", "reject", "r", "0", "false"}
_FAIL = {"f", "fail", "failure", "sabotage", "x"}
_SUCCESS = {"s", "success", "succeed", "pass", "p"}
_QUIT = {"q", "quit", "exit"}
_HELP = {"?", "h", "help", "status"}


class HumanLeft(Exception):
    """The person quit the game or their input ended."""


@register("human")
class HumanBot(Bot):
    """You, at the terminal (needs a terminal or piped input; use `spyglass play`).

    Prompts for a team when leading, a vote on every proposal and, as a spy on a mission,
    the card to play; prints only what this seat may know. Input is read from standard
    input, one answer per line, so answers can be piped in. Type ``?`` for the game so
    far and ``q`` to leave.
    """

    #: Waits for a person: tournaments and bot sweeps should leave it out.
    interactive: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        self.console = Console(highlight=False)
        #: Set by ``spyglass play`` (which prints the header); built on demand otherwise.
        self.transcript: Transcript | None = None
        self._voted = True

    # --- input ---------------------------------------------------------------------
    def _ask(self, prompt: str) -> str:
        """One line of input, lower-cased; handles help and quitting."""
        while True:
            try:
                answer = self.console.input(f"[bold cyan]{escape(prompt)}[/] ").strip()
            except EOFError:
                raise HumanLeft("the input ended") from None
            word = answer.lower()
            if word in _QUIT:
                raise HumanLeft("you left the game")
            if word in _HELP:
                self._status()
                continue
            return answer

    def _choose(self, prompt: str, options: dict[frozenset, bool], hint: str) -> bool:
        while True:
            word = self._ask(prompt).lower()
            for words, value in options.items():
                if word in words:
                    return value
            self.console.print(f"  [yellow]Please answer {hint} (or ? for help).[/]")

    def parse_team(self, text: str, count: int) -> tuple[int, ...] | str:
        """Seats from ``"1 3"``, ``"1,3"`` or names (``me`` is you); else an error message."""
        names = {name.lower(): seat for seat, name in enumerate(self.game.names)}
        names["me"] = names["you"] = self.seat
        seats: list[int] = []
        for token in filter(None, re.split(r"[\s,;]+", text.strip().lower())):
            if token.isdigit():
                seat = int(token)
                if seat >= self.game.n_players:
                    return f"there is no seat {seat}: seats are 0-{self.game.n_players - 1}"
            elif token in names:
                seat = names[token]
            else:
                return f"{token!r} is neither a seat number nor a player's name"
            if seat in seats:
                return f"seat {seat} is named twice"
            seats.append(seat)
        if len(seats) != count:
            return f"the team needs exactly {count} seats, you gave {len(seats)}"
        return tuple(sorted(seats))

    # --- output --------------------------------------------------------------------
    def _t(self) -> Transcript:
        if self.transcript is None:
            self.transcript = Transcript(self.console, self.game.names, you=self.seat)
        return self.transcript

    def _status(self) -> None:
        g = self.game
        role = "a [red]spy[/]" if self.spy else "[green]resistance[/]"
        self.console.print(
            f"  You are seat {self.seat}, {role}. Mission {g.mission}, attempt {g.attempt}; "
            f"resistance {g.wins} – spies {g.losses}."
        )
        if self.spy:
            spies = ", ".join(self._t().seat(s) for s in sorted(self.spies))
            self.console.print(f"  Spies: {spies}")
        for m in g.missions:
            verdict = "failed" if m.sabotaged else "succeeded"
            self.console.print(f"  mission {m.mission}: team {', '.join(map(str, m.team))}, "
                               f"{m.fails} fail card(s), {verdict}")
        self.console.print("  Commands: ? this help · q leave the game")

    def _unvoted(self) -> None:
        # Under the "forced" rule the fifth proposal is not voted on: say so once.
        if not self._voted:
            self._voted = True
            self._t().votes(None, True)

    # --- notifications -------------------------------------------------------------
    def on_game_revealed(self, players: tuple[int, ...], spies: frozenset[int]) -> None:
        if self.transcript is None:  # not started by `spyglass play`: introduce the game
            self._t().header(self.game.rules)
        t = self._t()
        if self.spy:
            others = ", ".join(t.seat(s) for s in sorted(spies) if s != self.seat)
            self.console.print(f"You are a [bold red]SPY[/]. The other spies: {others}.")
            goal = "Fail three missions"
            if self.game.rules.fifth_rejection == "spies_win":
                goal += ", or get five proposals of one mission rejected,"
            self.console.print(f"{goal} without being found out.", style="dim")
        else:
            self.console.print("You are [bold green]RESISTANCE[/]. Find the "
                               f"{self.game.n_spies} spies and keep them off the missions.")
        self.console.print("Seats count from 0. Type ? at any prompt for the game so far.",
                           style="dim")

    def on_mission_attempt(self, mission: int, attempt: int, leader: int) -> None:
        self._t().mission_heading(mission)
        if leader == self.seat:
            self.console.print(f"  [bold]{mission}.{attempt}[/] you lead.")

    def on_team_selected(self, leader: int, team: tuple[int, ...]) -> None:
        self._voted = False
        self._t().team_proposed(self.game.mission, self.game.attempt, leader, team)

    def on_vote_complete(self, votes: tuple[bool, ...]) -> None:
        self._voted = True
        self._t().votes(votes, 2 * sum(votes) > len(votes))

    def on_mission_complete(self, fails: int) -> None:
        self._unvoted()
        m = self.game.missions[-1]
        self._t().mission_result(m.mission, m.team, fails, m.sabotaged, self.game.wins,
                                 self.game.losses)

    def on_game_complete(self, resistance_won: bool, spies: frozenset[int]) -> None:
        g = self.game
        if g.wins == 3:
            reason = "three missions succeeded"
        elif g.losses == 3:
            reason = "three missions failed"
        else:
            reason = "five proposals rejected in one mission"
        self._t().end("resistance" if resistance_won else "spies", reason, sorted(spies))
        won = resistance_won != self.spy
        self.console.print("[bold green]You win![/]" if won else "[bold red]You lose.[/]")

    # --- decisions -----------------------------------------------------------------
    def select(self, players: tuple[int, ...], count: int) -> tuple[int, ...]:
        t = self._t()
        self.console.print("  Seats: " + "   ".join(t.seat(s) for s in players))
        while True:
            answer = self._ask(f"Choose {count} seats for mission {self.game.mission} "
                               "(e.g. 0 2):")
            team = self.parse_team(answer, count)
            if isinstance(team, tuple):
                return team
            self.console.print(f"  [yellow]{team}. Try again.[/]")

    def vote(self, team: tuple[int, ...]) -> bool:
        who = ", ".join(map(str, team))
        return self._choose(f"Approve team {who}? [y/n]",
                            {frozenset(_YES): True, frozenset(_NO): False}, "y or n")

    def sabotage(self) -> bool:
        self._unvoted()
        return self._choose("You are on the mission. Play [f]ail or [s]uccess?",
                            {frozenset(_FAIL): True, frozenset(_SUCCESS): False}, "f or s")
