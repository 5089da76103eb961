"""Speed of Checkers beside OpenSpiel's C++ MCTSBot (measured as :mod:`spyglass.bench.board`
describes; both count one action per jump of a chained capture)."""

from __future__ import annotations

from spyglass.bench import benchmark
from spyglass.bench.board import board_speed


@benchmark("checkers", game="checkers")
def checkers_speed(quick: bool) -> dict[str, float]:
    """Random playouts/s, UCT iterations/s at the opening and OpenSpiel MCTSBot's rate."""
    return board_speed("checkers", quick, openspiel_iterations=(500, 2_000))
