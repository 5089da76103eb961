"""The information-set search agents: SO-ISMCTS, SO-ISMCTS+POM and MO-ISMCTS.

Each keeps its latest view (from ``start``/``observe``), and at each decision searches
from it with determinizations sampled by the game's kernel (see
:mod:`spyglass.search.sampled`); a fresh tree per decision, as in Whitehouse 2014.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.agents.search_support import (
    BANDIT_PARAMS,
    BUDGET_PARAMS,
    DEPARTURE_PARAMS,
    ENHANCE_PARAM,
    EXP3_PARAM,
    SEED_PARAM,
    agent_rng,
    combination,
    icarus_entry,
    search_entry,
    search_settings,
    shape_of,
)
from spyglass.games.base import Game
from spyglass.search.sampled.driver import ISMCTSSearch, SearchResult


class ISMCTSAgent(Agent):
    """An ISMCTS agent; subclasses set ``algorithm`` ("so", "pom" or "mo")."""

    algorithm: ClassVar[str] = "so"
    params = BUDGET_PARAMS + BANDIT_PARAMS + (EXP3_PARAM, SEED_PARAM)

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        self.view = np.array(view, dtype=np.int64)
        self.rng = agent_rng(self.settings, seed)
        self.search = ISMCTSSearch(search_entry(game), shape_of(game), self.algorithm,
                                   search_settings(self.settings))
        self.last: SearchResult | None = None

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        self.view = np.array(view, dtype=np.int64)

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        self.view = np.array(view, dtype=np.int64)
        if len(legal) == 1:
            return int(legal[0])
        self.last = self.search.search(self.view, self.seat, self.rng)
        action = self.last.action
        if action not in legal:
            raise RuntimeError(f"{self.agent_name} chose {action}, not a legal action {legal}: "
                               "the game's legal actions depend on hidden information")
        return int(action)


class _EnhancedAgent(ISMCTSAgent):
    """An ISMCTS agent that takes ``enhance=`` (ICARUS, Whitehouse 2014 ch. 8): without
    it (or with the baseline) the unchanged loop runs; otherwise ``icarus_search``."""

    params = (BUDGET_PARAMS + BANDIT_PARAMS + (EXP3_PARAM, ENHANCE_PARAM, SEED_PARAM)
              + DEPARTURE_PARAMS)

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        self.combo = combination(self.settings)  # a bad enhance= fails here, not mid-game

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        if not self.combo.is_baseline:  # the baseline keeps the unchanged loop
            self.search = self.icarus_search()(search_entry(game), icarus_entry(game),
                                               shape_of(game), search_settings(self.settings),
                                               self.combo, game.title)

    def icarus_search(self) -> type:
        raise NotImplementedError


@register("soismcts")
class SOISMCTSAgent(_EnhancedAgent):
    description = ("SO-ISMCTS: one tree, every move by action (Whitehouse 2014, §5.2); "
                   "enhance= adds ICARUSes")
    algorithm = "so"

    def icarus_search(self) -> type:
        from spyglass.search.icarus.driver import IcarusSOSearch

        return IcarusSOSearch


@register("soismcts_pom")
class POMAgent(ISMCTSAgent):
    description = "SO-ISMCTS+POM: opponents' moves as this seat sees them (§6.2)"
    algorithm = "pom"


@register("moismcts")
class MOISMCTSAgent(_EnhancedAgent):
    description = ("MO-ISMCTS: one tree per player, moves as each sees them (§6.3); "
                   "enhance= adds ICARUSes")
    algorithm = "mo"

    def icarus_search(self) -> type:
        from spyglass.search.icarus.driver import IcarusMOSearch

        return IcarusMOSearch
