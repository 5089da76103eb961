"""Rule options for The Resistance."""

from __future__ import annotations

from dataclasses import asdict, dataclass

from spyglass.games.resistance.tables import FORCED_FIFTH, MAX_PLAYERS, MIN_PLAYERS

FIFTH_REJECTION_CHOICES = ("spies_win", "forced")


@dataclass(frozen=True)
class Rules:
    """Rule variants of The Resistance.

    ``fifth_rejection``: ``"spies_win"`` (official rules and the 2012 competition: a
    fifth rejected proposal in one mission wins the game for the spies) or ``"forced"``
    (Cowling et al. 2015 and Whitehouse 2014: the fifth proposal of a mission goes ahead
    without a vote).
    """

    fifth_rejection: str = "spies_win"

    def __post_init__(self) -> None:
        if self.fifth_rejection not in FIFTH_REJECTION_CHOICES:
            raise ValueError(
                f"unknown fifth_rejection rule {self.fifth_rejection!r}; "
                f"choose one of {', '.join(FIFTH_REJECTION_CHOICES)}"
            )

    @property
    def flags(self) -> int:
        """The kernel's integer rule flags."""
        return FORCED_FIFTH if self.fifth_rejection == "forced" else 0

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, d: dict | None) -> Rules:
        return cls(**(d or {}))


def check_players(n_players: int) -> int:
    """Validate a player count, with a clear message when it is out of range."""
    if not isinstance(n_players, int) or not MIN_PLAYERS <= n_players <= MAX_PLAYERS:
        raise ValueError(
            f"The Resistance is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, "
            f"not {n_players!r}"
        )
    return n_players
