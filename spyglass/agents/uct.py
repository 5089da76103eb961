"""The UCT agents: plain UCT (perfect information), determinized UCT / PIMC, and the two
explicitly privileged cheating baselines (one UCT tree, or an ensemble, on the true state).

The cheating agents say ``omniscient = True``: the referee gives them the full state in
place of their view and records that they cheated.
"""

from __future__ import annotations

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.agents.search_support import (
    BANDIT_PARAMS,
    BUDGET_PARAMS,
    DEPARTURE_PARAMS,
    ENHANCE_PARAM,
    SEED_PARAM,
    agent_rng,
    combination,
    icarus_entry,
    search_entry,
    search_settings,
    shape_of,
)
from spyglass.games.base import Game
from spyglass.params import Param
from spyglass.search.sampled.driver import ISMCTSSearch, UCTSearch
from spyglass.search.sampled.ensemble import ensemble_search
from spyglass.search.sampled.pool import MAX_SAMPLE_TRIES

ENSEMBLE_PARAMS = (
    Param("d", int, 40, "trees (determinizations)", low=1),
    Param("s", int, 250, "iterations per tree", low=1),
)


class _UCTBase(Agent):
    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        self.rng = agent_rng(self.settings, seed)
        its = self.settings["s"] if "s" in self.settings else None
        self.uct = UCTSearch(search_entry(game), shape_of(game),
                             search_settings(self.settings, iterations=its))
        self.last = None

    def _checked(self, action: int, legal: list[int]) -> int:
        if action not in legal:
            raise RuntimeError(f"{self.agent_name} chose {action}, not a legal action {legal}")
        return int(action)


@register("uct")
class UCTAgent(_UCTBase):
    """UCT on the game itself: for perfect-information games only."""

    description = "plain UCT (perfect-information games only); enhance= adds ICARUSes"
    params = BUDGET_PARAMS + BANDIT_PARAMS + (ENHANCE_PARAM, SEED_PARAM) + DEPARTURE_PARAMS

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        self.combo = combination(self.settings)  # a bad enhance= fails here, not mid-game

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        if game.information != "perfect":
            raise ValueError(
                f"uct searches the game itself and needs perfect information; "
                f"{game.title} has {game.information} information (use moismcts, soismcts "
                "or pimc, or cheatinguct for an explicitly cheating baseline)")
        super().start(game, seat, view, seed)
        self.state = np.zeros(game.state_size, dtype=np.int64)
        # Dice not yet rolled are hidden chance (Backgammon): the thesis's UCT fixes them
        # per determinization (Whitehouse 2014, §5.2.3), i.e. searches the public moves
        # with a fresh determinization each iteration and the revealed rolls as chance
        # nodes: an information-set tree, the ISMCTS loop (every move is public, so each
        # player's tree is the same UCT tree). Its ICARUSes: the playout ones.
        self.chance = bool(getattr(game, "hidden_chance", False))
        if self.chance:
            if self.combo.is_baseline:
                self.uct = ISMCTSSearch(search_entry(game), shape_of(game), "mo",
                                        search_settings(self.settings))
            else:
                from spyglass.search.icarus.driver import IcarusMOSearch

                self.uct = IcarusMOSearch(search_entry(game), icarus_entry(game),
                                          shape_of(game), search_settings(self.settings),
                                          self.combo, game.title)
        elif not self.combo.is_baseline:  # the baseline keeps the unchanged loop
            from spyglass.search.icarus.driver import IcarusUCTSearch

            self.uct = IcarusUCTSearch(search_entry(game), icarus_entry(game), shape_of(game),
                                       search_settings(self.settings), self.combo, game.title)

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        if len(legal) == 1:
            return int(legal[0])
        if self.chance:
            self.last = self.uct.search(np.asarray(view, dtype=np.int64), self.seat, self.rng)
            return self._checked(self.last.action, legal)
        # With perfect information the view determines the state.
        if not self.game.kernel.sample(np.asarray(view, dtype=np.int64), self.seat, self.rng,
                                       self.state):
            raise RuntimeError("the game's sampler failed on a perfect-information view")
        self.last = self.uct.search(self.state, self.rng)
        return self._checked(self.last.action, legal)


@register("pimc")
class PIMCAgent(_UCTBase):
    """Determinized UCT: ``d`` sampled determinizations x ``s`` UCT iterations, majority vote."""

    description = "determinized UCT / PIMC: d sampled states x s iterations, majority vote"
    params = ENSEMBLE_PARAMS + BANDIT_PARAMS + (SEED_PARAM,)

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        self.view = np.array(view, dtype=np.int64)

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        self.view = np.array(view, dtype=np.int64)

    def determinizations(self) -> list[np.ndarray]:
        """``d`` states sampled from this seat's view by the game's kernel."""
        k, size = self.game.kernel, self.game.state_size
        out = []
        for _ in range(self.settings["d"]):
            s = np.zeros(size, dtype=np.int64)
            for _t in range(MAX_SAMPLE_TRIES):
                if k.sample(self.view, self.seat, self.rng, s):
                    break
            else:
                raise RuntimeError(f"the game's sampler failed {MAX_SAMPLE_TRIES} times")
            out.append(s)
        return out

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        self.view = np.array(view, dtype=np.int64)
        if len(legal) == 1:
            return int(legal[0])
        self.last = ensemble_search(self.uct, self.determinizations(), self.rng)
        return self._checked(self.last.action, legal)


@register("cheatinguct")
class CheatingUCTAgent(_UCTBase):
    """UCT on the true state (privileged: it is given the full state)."""

    description = "cheating UCT: one tree on the TRUE state (privileged baseline)"
    omniscient = True
    params = BUDGET_PARAMS + BANDIT_PARAMS + (SEED_PARAM,)

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        if len(legal) == 1:
            return int(legal[0])
        self.last = self.uct.search(np.asarray(view, dtype=np.int64), self.rng)
        return self._checked(self.last.action, legal)


@register("cheatingensemble")
class CheatingEnsembleAgent(_UCTBase):
    """``d`` UCT trees of ``s`` iterations on the true state, majority vote (privileged)."""

    description = "cheating ensemble UCT: d trees x s iterations on the TRUE state"
    omniscient = True
    params = ENSEMBLE_PARAMS + BANDIT_PARAMS + (SEED_PARAM,)

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        if len(legal) == 1:
            return int(legal[0])
        state = np.asarray(view, dtype=np.int64)
        self.last = ensemble_search(self.uct, [state] * self.settings["d"], self.rng)
        return self._checked(self.last.action, legal)
