"""Readable transcripts of games of The Resistance, printed with rich.

The words are :class:`~spyglass.games.resistance.transcript.Transcript` (shared with the
human player); this module adds the arena's two uses of it:

* :class:`LiveTranscript` is a referee observer: it sees public events only (proposals,
  every vote, fail counts) and the roles once the game is over;
* :func:`render_record` prints a saved record, revealing the roles at the end and, when
  the record is complete, which seats played the fail cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.console import Console

from spyglass.games.resistance.observation import GameView
from spyglass.games.resistance.options import Rules
from spyglass.games.resistance.transcript import Transcript

__all__ = ["LiveTranscript", "Transcript", "render_record"]


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
