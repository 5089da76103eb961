"""What a seat may know of a game of The Resistance: the public record and a read-only view.

The referee keeps one :class:`PublicRecord` per game, built only from public events
(proposals, every individual vote, fail counts). Bots read it through a
:class:`GameView`, which exposes values and immutable tuples only. Nothing here ever
refers to the rules kernel's state array, which holds the spies.
"""

from __future__ import annotations

from dataclasses import dataclass

from spyglass.games.resistance.options import Rules
from spyglass.games.resistance.tables import SPIES_BY_PLAYERS, TEAM_SIZES_BY_PLAYERS, fails_needed

# Public phases, in the order they happen within a proposal.
PHASE_PREPARING, PHASE_SELECTION, PHASE_VOTING, PHASE_MISSION, PHASE_OVER = (
    "preparing",
    "selection",
    "voting",
    "mission",
    "over",
)


@dataclass(frozen=True)
class Proposal:
    """One team proposal: who led it, the team, the votes (None when not voted)."""

    mission: int  # 1-based
    attempt: int  # 1-based
    leader: int
    team: tuple[int, ...]
    votes: tuple[bool, ...] | None
    approved: bool


@dataclass(frozen=True)
class MissionResult:
    """One completed mission: the team, how many fail cards, whether it was sabotaged."""

    mission: int  # 1-based
    leader: int
    team: tuple[int, ...]
    fails: int
    sabotaged: bool


class PublicRecord:
    """The public state of one game, updated by the referee. Not handed to bots directly."""

    __slots__ = (
        "n_players",
        "names",
        "mission",
        "attempt",
        "leader",
        "team",
        "phase",
        "wins",
        "losses",
        "proposals",
        "missions",
        "winner",
        "rules",
    )

    def __init__(
        self, n_players: int, names: tuple[str, ...], rules: Rules | None = None
    ) -> None:
        self.n_players = n_players
        self.names = names
        self.rules = rules if rules is not None else Rules()
        self.mission = 1
        self.attempt = 1
        self.leader = 0
        self.team: tuple[int, ...] | None = None
        self.phase = PHASE_PREPARING
        self.wins = 0
        self.losses = 0
        self.proposals: tuple[Proposal, ...] = ()
        self.missions: tuple[MissionResult, ...] = ()
        self.winner: str | None = None

    # The updates both referees make (the Resistance referee from the true game, the
    # Bot-API adapter of the generic referee from one seat's observations), written once.
    def begin_attempt(self, mission: int, attempt: int, leader: int) -> None:
        """A new proposal is to be made (1-based ``mission`` and ``attempt``)."""
        self.mission, self.attempt, self.leader = mission, attempt, leader
        self.team, self.phase = None, PHASE_SELECTION

    def add_proposal(self, leader: int, team: tuple[int, ...],
                     votes: tuple[bool, ...] | None, approved: bool) -> Proposal:
        """The current attempt's proposal, decided (``votes`` None: forced, not voted)."""
        proposal = Proposal(self.mission, self.attempt, leader, team, votes, approved)
        self.proposals = self.proposals + (proposal,)
        return proposal

    def add_mission(self, leader: int, team: tuple[int, ...], fails: int) -> MissionResult:
        """The current mission, played with ``fails`` fail cards."""
        sabotaged = fails >= fails_needed(self.n_players, self.mission - 1)
        if sabotaged:
            self.losses += 1
        else:
            self.wins += 1
        result = MissionResult(self.mission, leader, team, fails, sabotaged)
        self.missions = self.missions + (result,)
        return result

    def end(self, winner: str) -> None:
        """The game is over: ``"resistance"`` or ``"spies"`` won."""
        self.winner, self.phase = winner, PHASE_OVER


class GameView:
    """A read-only view of the public game, as ``self.game`` inside a bot.

    ``mission`` and ``attempt`` count from 1; seats count from 0. ``wins`` are missions
    won by the resistance, ``losses`` missions won by the spies.
    """

    __slots__ = ("_r",)

    def __init__(self, record: PublicRecord) -> None:
        object.__setattr__(self, "_r", record)

    def __setattr__(self, name, value):  # noqa: D105
        raise AttributeError("the game view is read-only")

    @property
    def mission(self) -> int:
        return self._r.mission

    @property
    def attempt(self) -> int:
        return self._r.attempt

    @property
    def wins(self) -> int:
        return self._r.wins

    @property
    def losses(self) -> int:
        return self._r.losses

    @property
    def leader(self) -> int:
        return self._r.leader

    @property
    def team(self) -> tuple[int, ...] | None:
        return self._r.team

    @property
    def phase(self) -> str:
        return self._r.phase

    @property
    def players(self) -> tuple[int, ...]:
        return tuple(range(self._r.n_players))

    @property
    def n_players(self) -> int:
        return self._r.n_players

    @property
    def n_spies(self) -> int:
        return SPIES_BY_PLAYERS[self._r.n_players]

    @property
    def rules(self) -> Rules:
        """The rule variant in play (public: every player knows the rules)."""
        return self._r.rules

    @property
    def names(self) -> tuple[str, ...]:
        """The name (identity) of the bot in each seat, for cross-game learning."""
        return self._r.names

    @property
    def team_size(self) -> int:
        """Team size of the current mission."""
        return TEAM_SIZES_BY_PLAYERS[self._r.n_players][min(self._r.mission, 5) - 1]

    @property
    def fails_needed(self) -> int:
        """Fail cards that sabotage the current mission."""
        return fails_needed(self._r.n_players, min(self._r.mission, 5) - 1)

    @property
    def proposals(self) -> tuple[Proposal, ...]:
        """Every proposal so far, with every individual vote."""
        return self._r.proposals

    @property
    def missions(self) -> tuple[MissionResult, ...]:
        """Every completed mission with its fail count."""
        return self._r.missions

    @property
    def winner(self) -> str | None:
        """``"resistance"`` or ``"spies"`` once the game is over, else None."""
        return self._r.winner

    def __repr__(self) -> str:
        return (
            f"GameView(mission={self.mission}, attempt={self.attempt}, wins={self.wins}, "
            f"losses={self.losses}, leader={self.leader}, team={self.team})"
        )
