"""Readable transcripts of games of The Resistance, printed with rich.

One :class:`Transcript` formats every kind of event, so that a game watched live, a game
replayed from its record and the human player's own view all read the same way:

* :class:`LiveTranscript` is a referee observer: it sees public events only (proposals,
  every vote, fail counts) and the roles once the game is over;
* :func:`render_record` prints a saved record, revealing the roles at the end and, when
  the record is complete, which seats played the fail cards.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from rich.console import Console
from rich.markup import escape

from spyglass.games.resistance.observation import GameView
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


class LiveTranscript:
    """A referee observer that prints a game as it happens, from public events only.

    Use as ``play_game(..., observers=[LiveTranscript(console, rules, seed)])`` and call
    :meth:`finish` with the result to report an error that ended the game early.
    """

    def __init__(self, console: Console, rules: Rules, seed: int | None = None) -> None:
        self.console = console
        self.rules = rules
        self.seed = seed
        self.transcript: Transcript | None = None

    def _start(self, names: Sequence[str], first_leader: int | None) -> Transcript:
        if self.transcript is None:
            self.transcript = Transcript(self.console, names)
            self.transcript.header(self.rules, self.seed, first_leader)
        return self.transcript

    def __call__(self, event: dict, view: GameView) -> None:
        kind = event["type"]
        t = self._start(view.names, event.get("leader"))
        if kind == "proposal":
            t.proposal(event["mission"], event["attempt"], event["leader"], event["team"],
                       event["votes"], event["approved"])
        elif kind == "mission":
            t.mission_result(event["mission"], event["team"], event["fails"],
                             event["sabotaged"], view.wins, view.losses)
        elif kind == "end":
            t.end(event["winner"], event["reason"], event["spies"])

    def finish(self, result) -> None:
        """Report how a game ended early (``result`` is a :class:`GameResult`)."""
        t = self._start(result.names, result.first_leader)
        if result.error is not None:
            if result.winner is None:
                t.end(None, None, result.spies)
            t.error(str(result.error))


def render_record(record: dict, console: Console, title: str = "The Resistance") -> None:
    """Print a saved game record as a transcript, roles and fail cards revealed at the end."""
    setup = record["setup"]
    names = setup["bots"]
    rules = Rules.from_dict(setup.get("rules"))
    t = Transcript(console, names)
    t.header(rules, setup.get("seed"), setup.get("first_leader"), title=title)
    wins = losses = 0
    for event in record["events"]:
        if event["type"] == "proposal":
            t.proposal(event["mission"], event["attempt"], event["leader"], event["team"],
                       event["votes"], event["approved"])
        elif event["type"] == "mission":
            if event["sabotaged"]:
                losses += 1
            else:
                wins += 1
            t.mission_result(event["mission"], event["team"], event["fails"],
                             event["sabotaged"], wins, losses, event.get("cards"))
    outcome = record.get("outcome", {})
    t.end(outcome.get("winner"), outcome.get("reason"), record["roles"]["spies"])
    if record.get("error"):
        t.error(record["error"]["message"])
