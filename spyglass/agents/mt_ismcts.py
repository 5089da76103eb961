"""MT-ISMCTS with particle-filter inference and self-determinization, for any game.

The agent keeps a :class:`~spyglass.search.particles.ParticleFilter` (its belief: full
states consistent with its observations, weighted by how likely an opponent model makes
the opponents' observed moves) and at each decision runs MT-ISMCTS
(:mod:`spyglass.search.sampled.mt`: one tree per player per root information set) with
determinizations drawn from the weighted particles.

``bluff`` picks the self-determinization variant (Cowling, Whitehouse & Powley 2015, §VI;
Whitehouse 2014, §7.4; :mod:`spyglass.search.selfdet`, the same phase planning and eq. 3
the Resistance's ``mtismcts`` bot uses): ``trueonly`` (default: no self-determinization),
``pure``, ``split``, ``twostep`` or ``bluff``. All but the first keep a second particle
set ψ (:class:`~spyglass.search.particles.PublicParticleFilter`): states consistent with
the public history only, drawn from the opponents' views of the agent's own particles
and reweighted by the same opponent model as φ, the agent's own moves included. ``t1``:
the share of the budget in the self-determinizing first phase (SPLIT, TWOSTEP, BLUFF;
the paper's ``t1`` as a share of the iterations, default half).
Named ``mtismcts_pf`` because ``mtismcts`` is The Resistance's enumerating bot
(:mod:`spyglass.resistance.bots.mtismcts`). See docs/inference.md.
"""

from __future__ import annotations

import importlib

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.agents.search_support import (
    BANDIT_PARAMS,
    BUDGET_PARAMS,
    EXP3_PARAM,
    SEED_PARAM,
    agent_rng,
    search_entry,
    search_settings,
    shape_of,
)
from spyglass.games.base import Game
from spyglass.params import Param
from spyglass.search.particles import (
    MODELS,
    ParticleFilter,
    PublicParticleFilter,
    search_policy,
)
from spyglass.search.sampled.driver import ISMCTSSearch, SearchResult, SearchSettings
from spyglass.search.sampled.mt_driver import MTSearch
from spyglass.search.selfdet import VARIANTS, bluff_choice, plan_phases

#: The variants that spend a first phase on ψ and so take ``t1``.
_SPLITTING = ("split", "twostep", "bluff")
#: ``model=none`` is no inference (Whitehouse 2014, §7.5.1's non-inference player): each
#: decision's particles are drawn afresh from the seat's view, as the game's sampler
#: draws determinizations, with equal weights, and no move reweights them.
INFERENCE_MODELS = (*MODELS, "none")

PF_PARAMS = (
    Param("particles", int, 32, "particles of the belief (full states)", low=1, high=4096),
    Param("model", str, "search", "opponent model of the inference (none: no inference, "
          "determinizations drawn afresh from the view at each decision)",
          choices=INFERENCE_MODELS),
    Param("model_iterations", int, 64, "SO-ISMCTS iterations of the search opponent model",
          low=1),
    Param("epsilon", float, 0.1, "uniform share mixed into the opponent model", low=0.0,
          high=1.0),
    Param("resample_below", float, 0.5, "resample when ESS < this x particles", low=0.0,
          high=1.0),
    Param("fresh", float, 0.1, "share of particles redrawn from the view at a resampling",
          low=0.0, high=1.0),
    Param("bluff", str, "trueonly", "self-determinization variant (Cowling et al. 2015, "
          "§VI)", choices=VARIANTS),
    Param("t1", float, 0.5, "share of the budget in the self-determinizing first phase "
          "(split, twostep, bluff)", low=0.0, high=1.0),
    Param("repair", bool, True, "let the game repair a particle a revealed card or chance "
          "outcome contradicts (games with a repair hook), instead of ruling it out"),
    Param("max_trees", int, 256, "trees per player (more information sets share one)",
          low=1, high=1 << 16),
)


def mt_entry(game: Game):
    """``game``'s compiled MT-ISMCTS entry point; a ValueError if it has none."""
    entry = getattr(game, "mt_entry", None)
    if entry is not None:
        return entry
    module = f"{type(game).package()}.mt_entry"
    try:
        return importlib.import_module(module).MT
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise ValueError(f"game {game.name!r} has no MT-ISMCTS entry point ({module}); see "
                         "spyglass.search.sampled.mt") from None


def particle_repair(game: Game):
    """``game``'s particle repair (its class's ``particle_repair`` capability, see
    :data:`spyglass.search.particles.Repair`), or None: the filter then rules out a
    particle an observation contradicts (the generic fallback)."""
    return type(game).capability("particle_repair")


@register("mtismcts_pf")
class MTISMCTSPFAgent(Agent):
    description = ("MT-ISMCTS with particle-filter inference and self-determinization "
                   "(Cowling, Whitehouse & Powley 2015), any game")
    params = BUDGET_PARAMS + BANDIT_PARAMS + (EXP3_PARAM,) + PF_PARAMS + (SEED_PARAM,)

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        # a t1 other than the default means a split was wanted (a full settings dict,
        # defaults included, as a replay passes it, is fine)
        t1_default = next(p.default for p in self.params if p.name == "t1")
        if self.settings["t1"] != t1_default and self.settings["bluff"] not in _SPLITTING:
            raise ValueError(f"mtismcts_pf: t1 is for bluff={'|'.join(_SPLITTING)}, not "
                             f"bluff={self.settings['bluff']}")
        if self.settings["model"] == "none" and self.settings["bluff"] != "trueonly":
            # ψ is the opponents' inference as this agent models it: with no model there
            # is nothing to self-determinize against
            raise ValueError(f"mtismcts_pf: bluff={self.settings['bluff']} needs an opponent "
                             f"model (model={'|'.join(MODELS)}), not model=none")

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        st = self.settings
        self.rng = agent_rng(st, seed)
        shape = shape_of(game)
        self.search = MTSearch(mt_entry(game), shape, search_settings(st),
                               max_trees=st["max_trees"])
        policy = None
        if st["model"] == "search":
            model = ISMCTSSearch(search_entry(game), shape, "so",
                                 SearchSettings(iterations=st["model_iterations"],
                                                bandit=st["bandit"], c=st["c"],
                                                max_nodes=1 << 22))
            policy = search_policy(model, game.view_size, st["epsilon"], self.rng,
                                   game.kernel)
        self.belief = ParticleFilter(game.kernel, game.state_size, game.view_size, seat,
                                     st["particles"], self.rng, policy,
                                     st["resample_below"], st["fresh"],
                                     particle_repair(game) if st["repair"] else None)
        self.belief.reset(view)
        # ψ: the opponents' inference about this agent, from the public history only
        self.psi = None
        if st["bluff"] != "trueonly":
            self.psi = PublicParticleFilter(self.belief, game.n_players, st["particles"],
                                            self.rng, policy, st["resample_below"],
                                            st["fresh"], self.belief.repair)
            self.psi.reset(view)
        self.last: SearchResult | None = None

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        if self.settings["model"] == "none":
            return  # no inference: act() draws the belief afresh from the view
        self.belief.update(int(obs), int(actor), view)
        if self.psi is not None:  # after φ: it reads how the others saw an own move
            self.psi.update(int(obs), int(actor), view)

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        if len(legal) == 1:
            return int(legal[0])
        b, st, variant = self.belief, self.search.settings, self.settings["bluff"]
        if self.settings["model"] == "none":
            b.reset(view)
        phases = plan_phases(variant, None, None if self.psi is None else self.psi.belief,
                             iterations=st.iterations, seconds=st.seconds,
                             share=self.settings["t1"])
        self.last = self.search.search(b.particles, b.weights, self.seat, self.rng, phases)
        action = self.last.action
        if variant == "bluff":
            action = bluff_choice(self.last.bluff_stats(), self.last.merged_visits)
        if action not in legal:
            raise RuntimeError(f"{self.agent_name} chose {action}, not a legal action {legal}")
        return int(action)

    def record_extra(self) -> dict | None:
        b = getattr(self, "belief", None)
        if b is None:
            return None
        out = {"resamples": b.resamples, "collapses": b.collapses, "repairs": b.repairs}
        if getattr(self, "psi", None) is not None:
            out["psi"] = {"resamples": self.psi.resamples, "collapses": self.psi.collapses}
        return out


def role_deals(game: Game):
    """``game``'s role deals (its class's ``role_deals`` capability: the states a seat
    that sees everything but the other roles considers), or None."""
    return type(game).capability("role_deals")


class _GamesWith:
    """An agent's ``plays``, derived from the game registry: the games whose class
    declares the capability ``attr`` (so a game declares it once, in its class)."""

    def __init__(self, attr: str) -> None:
        self.attr = attr
        self.names: tuple[str, ...] | None = None

    def __get__(self, obj, owner=None) -> tuple[str, ...]:
        if self.names is None:
            from spyglass.games import registry

            self.names = tuple(n for n in registry.names()
                               if getattr(registry.game_class(n), self.attr) is not None)
        return self.names


@register("mtismcts_cardcheat")
class MTISMCTSCardCheatAgent(Agent):
    """MT-ISMCTS that sees all hidden information except the other players' roles: its
    determinizations are the true state with each role assignment its own role leaves
    possible, weighted by the deal (the game's ``role_deals``). Whitehouse (2014, §7.5.5)
    tested such players in Saboteur ("ISMCTS players which 'cheat' (have access to all
    hidden information except the other players' roles)") and found no significant
    advantage. No inference: the roles are drawn from the deal alone, as the
    ``mtismcts_pf:model=none`` players it is compared with draw everything hidden."""

    description = ("MT-ISMCTS that sees every hidden card but not the other players' roles "
                   "(Whitehouse 2014, §7.5.5's card-cheating Saboteur player)")
    omniscient = True  # given the full state; it hides the roles from itself
    plays = _GamesWith("role_deals")
    params = BUDGET_PARAMS + BANDIT_PARAMS + (EXP3_PARAM,) + tuple(
        p for p in PF_PARAMS if p.name == "max_trees") + (SEED_PARAM,)

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        st = self.settings
        self.rng = agent_rng(st, seed)
        self.deals = role_deals(game)
        self.search = MTSearch(mt_entry(game), shape_of(game), search_settings(st),
                               max_trees=st["max_trees"])
        self.last: SearchResult | None = None

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        if len(legal) == 1:
            return int(legal[0])
        states, weights = self.deals(np.asarray(view, dtype=np.int64), self.seat)
        self.last = self.search.search(states, weights, self.seat, self.rng)
        action = self.last.action
        if action not in legal:
            raise RuntimeError(f"{self.agent_name} chose {action}, not a legal action {legal}")
        return int(action)
