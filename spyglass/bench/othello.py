"""Speed of Othello beside OpenSpiel's C++ MCTSBot (measured as :mod:`spyglass.bench.board`
describes)."""

from __future__ import annotations

from spyglass.bench import benchmark
from spyglass.bench.board import board_speed


@benchmark("othello", game="othello")
def othello_speed(quick: bool) -> dict[str, float]:
    """Random playouts/s, UCT iterations/s at the opening and OpenSpiel MCTSBot's rate."""
    return board_speed("othello", quick, openspiel_iterations=(1_000, 5_000))
