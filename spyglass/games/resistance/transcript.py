"""The Resistance's events in words, printed with rich: one :class:`Transcript` for a game
watched live, a game replayed from its record and the human player's own view.

It lives with the game's rules (below both the bots and the arena) because the human
player (:mod:`spyglass.resistance.bots.human`, a bot) and the arena's transcripts
(:mod:`spyglass.resistance.arena.transcript`) both print with it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.markup import escape

from spyglass.games.resistance.options import Rules
from spyglass.games.resistance.tables import (
    SPIES_BY_PLAYERS,
    TEAM_SIZES_BY_PLAYERS,
    fails_needed,
)

_RULE_TEXT = {
    "spies_win": "five rejected proposals in a mission win for the spies",
    "forced": "the fifth proposal of a mission goes ahead without a vote",
}


def _seat_list(seats: Iterable[int]) -> str:
    return ", ".join(str(s) for s in seats) or "-"


class Transcript:
    """Prints the events of one game; ``you`` marks the seat of a human player."""

    def __init__(self, console: Console, names: Sequence[str], you: int | None = None) -> None:
        self.console = console
        self.names = tuple(names)
        self.you = you
        self._mission = 0

    def seat(self, seat: int) -> str:
        """``"3 magi"`` (markup-safe), or ``"3 (you)"`` for the human's seat."""
        if seat == self.you:
            return f"[bold cyan]{seat} (you)[/]"
        return f"{seat} [dim]{escape(self.names[seat])}[/]"

    def header(
        self,
        rules: Rules | None,
        seed: int | None = None,
        first_leader: int | None = None,
        title: str = "The Resistance",
    ) -> None:
        """The setup: size, rule variant (if given), seed and who sits where."""
        n = len(self.names)
        bits = [f"{n} players", f"{SPIES_BY_PLAYERS[n]} spies"]
        if seed is not None:
            bits.append(f"seed {seed}")
        self.console.rule(f"[bold]{escape(title)}[/] · " + " · ".join(bits))
        seats = "   ".join(self.seat(s) for s in range(n))
        self.console.print(f"Seats: {seats}")
        if rules is not None:
            self.console.print(f"Rules: {_RULE_TEXT[rules.fifth_rejection]}.", style="dim")
        if first_leader is not None:
            self.console.print(f"First leader: {self.seat(first_leader)}")

    def mission_heading(self, mission: int) -> None:
        """A rule line when a new mission starts (printed once per mission)."""
        if mission == self._mission:
            return
        self._mission = mission
        n = len(self.names)
        size = TEAM_SIZES_BY_PLAYERS[n][mission - 1]
        need = fails_needed(n, mission - 1)
        cards = "1 fail card fails it" if need == 1 else f"{need} fail cards fail it"
        self.console.rule(f"Mission {mission} · team of {size} · {cards}", style="blue")

    def proposal(
        self,
        mission: int,
        attempt: int,
        leader: int,
        team: Sequence[int],
        votes: Sequence[bool] | None,
        approved: bool,
    ) -> None:
        """A proposal with every vote and its result."""
        self.team_proposed(mission, attempt, leader, team)
        self.votes(votes, approved)

    def team_proposed(self, mission: int, attempt: int, leader: int, team: Sequence[int]) -> None:
        """The leader's proposed team (attempt ``mission.attempt``)."""
        self.mission_heading(mission)
        self.console.print(
            f"  [bold]{mission}.{attempt}[/] leader {self.seat(leader)} proposes "
            f"[bold]{_seat_list(team)}[/]"
        )

    def votes(self, votes: Sequence[bool] | None, approved: bool) -> None:
        """Who voted for and against, and whether the team goes."""
        if votes is None:
            self.console.print("      no vote: the fifth proposal goes ahead", style="yellow")
            return
        yes = [s for s, v in enumerate(votes) if v]
        no = [s for s, v in enumerate(votes) if not v]
        verdict = "[green]approved[/]" if approved else "[red]rejected[/]"
        self.console.print(
            f"      yes: {_seat_list(yes)}   no: {_seat_list(no)}   "
            f"→ {verdict} {len(yes)}–{len(no)}"
        )

    def mission_result(
        self,
        mission: int,
        team: Sequence[int],
        fails: int,
        sabotaged: bool,
        wins: int,
        losses: int,
        cards: Sequence[bool] | None = None,
    ) -> None:
        """A mission's fail count and the score after it; ``cards`` names who failed it."""
        self.mission_heading(mission)
        outcome = "[bold red]FAILED[/]" if sabotaged else "[bold green]succeeded[/]"
        plural = "" if fails == 1 else "s"
        line = (
            f"  mission {mission} with {_seat_list(team)}: {fails} fail card{plural} → "
            f"{outcome}   [dim](resistance {wins} – spies {losses})[/]"
        )
        if cards is not None and fails:
            failed = [seat for seat, c in zip(team, cards, strict=True) if c]
            line += f"   [red]fail cards from {_seat_list(failed)}[/]"
        self.console.print(line)

    def end(self, winner: str | None, reason: str | None, spies: Sequence[int]) -> None:
        """The result and the roles, revealed."""
        if winner is None:
            self.console.rule("[bold yellow]Game stopped before the end[/]", style="yellow")
        else:
            side = "[bold red]The spies win[/]" if winner == "spies" else (
                "[bold green]The resistance wins[/]"
            )
            self.console.rule(f"{side}: {escape(reason or '')}")
        self.console.print("Spies: " + ", ".join(self.seat(s) for s in spies))

    def error(self, message: str, detail: str = "") -> None:
        """A bot's invalid decision, which ended the game."""
        self.console.print(f"[bold red]Error:[/] {escape(message)}")
        if detail:
            self.console.print(escape(detail), style="dim", highlight=False)
