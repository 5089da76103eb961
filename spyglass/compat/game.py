"""``game`` of the 2012 framework: :class:`State`, the public game state a bot reads.

Each 2012 bot gets its own State as ``self.game``; the adapter updates it between calls
with public facts only (no roles), exactly when the 2012 framework did.
"""

from __future__ import annotations

from typing import Any


class State:
    """The public state of a game, as 2012 bots see it in ``self.game``.

    Fields: ``phase`` (one of the ``PHASE_*`` constants), ``turn`` (mission, 1-5),
    ``tries`` (attempt within the mission, 1-5), ``wins`` / ``losses`` (missions won by
    the resistance / the spies), ``leader`` (Player), ``team`` (list of Players, None
    before the leader chooses), ``players`` (all Players, in seat order), ``votes`` (the
    last vote, bools in seat order; None before it), ``sabotages`` (fail cards of the
    last mission; None before it). ``team``, ``votes`` and ``sabotages`` are reset when a
    new proposal starts; after a mission ``turn`` moves on and ``tries`` restarts at 1.
    """

    PHASE_PREPARING = 0
    PHASE_SELECTION = 1
    PHASE_VOTING = 2
    PHASE_MISSION = 3
    PHASE_ANNOUNCING = 4

    _FIELDS = (
        "phase", "turn", "tries", "wins", "losses", "leader", "team", "players", "votes",
        "sabotages",
    )

    def __init__(self) -> None:
        self.phase = State.PHASE_PREPARING
        self.turn = 1
        self.tries = 1
        self.wins = 0
        self.losses = 0
        self.leader: Any = None
        self.team: list | None = None
        self.players: list | None = None
        self.votes: list[bool] | None = None
        self.sabotages: int | None = None

    def clone(self) -> State:
        """A shallow copy."""
        other = State()
        other.__dict__.update(self.__dict__)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return all(getattr(self, f) == getattr(other, f) for f in self._FIELDS)

    __hash__ = None  # mutable

    def __repr__(self) -> str:
        lines = "".join(f"\t- {k}: {v!r}\n" for k, v in sorted(vars(self).items()))
        return f"<State\n{lines}>"


__all__ = ["State"]
