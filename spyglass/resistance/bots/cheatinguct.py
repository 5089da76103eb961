"""Cheating UCT (Whitehouse 2014, §5.2.4): the determinized-UCT ensemble on the TRUE spies.

It is a privileged bot for measuring what hidden information is worth: its class sets
``omniscient = True`` and the referee then tells it the true spies (``self.spies``) even
as a resistance member, and lists its seat in the game record's ``setup.omniscient``.
No other bot is ever told. The round's earlier votes or cards are simultaneous in the real
game, so even this bot does not see them; they are drawn at random per tree.

Parameters as ``pimc``: ``d`` trees (default 10) × ``s`` iterations (default 500),
``bandit``, ``c``, ``seed``.
"""

from __future__ import annotations

import numpy as np

from spyglass.games.resistance.tables import seats_to_mask
from spyglass.resistance.bots.pimc import PIMCBot
from spyglass.resistance.bots.registry import register


@register("cheatinguct_ensemble")
class CheatingUCTBot(PIMCBot):
    """UCT ensemble on the true state: every determinization is the real deal."""

    omniscient = True

    def known_spies(self) -> frozenset[int] | None:
        if not self.spies:
            raise RuntimeError("cheatinguct needs the true spies: the referee tells "
                               "omniscient bots, so play it through play_game")
        return self.spies

    def belief_weights(self) -> np.ndarray:
        return (self.configs == seats_to_mask(self.spies)).astype(np.float64)
