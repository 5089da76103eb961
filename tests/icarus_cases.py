"""Positions and enhancement lists shared by the ICARUS tests of MO- and SO-ISMCTS on
every registered game."""

from __future__ import annotations

import numpy as np

from spyglass.games import registry

#: Options that keep a game short (one deal of the card games).
OPTIONS = {"hearts": {"target": 0}, "spades": {"target": 0}}
GAMES = registry.names()
ENHANCEMENTS = ["rave", "amaf", "mast", "mast-egreedy", "mast-roulette", "mast-ucb", "tomast",
                "lgr", "lgrf", "nast1", "nast3", "epic", "mast>epic", "lgrf>mast",
                "0.3*mast+0.7*epic", "ERML", "rave>nast2"]


def decision(game_name: str, seed: int):
    """A game of ``game_name`` advanced at random to a decision with a choice:
    ``(game, state, player, player's view)``."""
    g = registry.make(game_name, **OPTIONS.get(game_name, {}))
    s = g.new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(int(rng.integers(0, 6))):
        legal = g.legal_actions(s)
        g.kernel.apply(s, legal[int(rng.integers(len(legal)))])
    while len(g.legal_actions(s)) < 2:
        g.kernel.apply(s, g.legal_actions(s)[0])
    p = int(g.kernel.actor(s))
    return g, s, p, g.view(s, p)
