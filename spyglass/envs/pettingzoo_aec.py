"""Every Spyglass game as a PettingZoo AEC environment (the ``envs`` extra).

``pettingzoo_env("phantom")`` is a :class:`pettingzoo.AECEnv` whose agents are the seats
``"player_0" .. "player_{n-1}"``. What each seat gets is what Spyglass's referee
(:mod:`spyglass.arena.match`) gives an agent, and nothing more:

* observation: ``{"observation": the seat's view (int64, the game's fixed view_size),
  "action_mask": 1 for each legal action id (int8, n_actions)}``; the mask is all zeros
  when the seat is not to act. The view is the game's own information state: everything
  the seat knows and nothing else.
* ``infos[agent]``: ``"text"``: the view in the game's words (``Game.view_text``);
  ``"legal"``: the legal action ids (empty when not to act); ``"moves"``: the moves the
  seat saw since it last acted, as ``(observation key, actor, view after)`` triples, in
  order (what :meth:`Agent.observe <spyglass.agents.base.Agent.observe>` receives), so that a
  Spyglass agent can play inside the environment (:class:`~spyglass.envs.policy.AgentPolicy`).
* rewards: 0 during play; each seat's reward in the finished game (``Game.rewards``, in
  [0, 1]) at the end. Games always end, so nothing is ever truncated.
* actions: the game's action ids (``Discrete(n_actions)``); an illegal one is a ValueError.

Seeds: ``reset(seed=s)`` deals ``game.new_state(s)`` (every chance outcome drawn from
``s``, as the referee does); ``options={"deal": d}`` deals from ``d`` while ``s`` still
names the game (a tournament's duplicate deals). :meth:`SpyglassAEC.agent_seed` is the
seed the referee would give the agent in a seat, so a game played here with Spyglass
agents is move for move the game ``play_match`` (and ``spyglass tournament``) plays.
"""

from __future__ import annotations

import secrets
from typing import Any

import gymnasium
import numpy as np
from pettingzoo import AECEnv
from pettingzoo.utils import AgentSelector

from spyglass.envs.sources import Game, agent_seed, make_game

INT64 = np.iinfo(np.int64)


def seat_name(seat: int) -> str:
    """The PettingZoo agent name of a seat."""
    return f"player_{seat}"


class SpyglassAEC(AECEnv):
    """One Spyglass game as a PettingZoo AEC environment (see the module docstring)."""

    metadata = {"name": "spyglass", "render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(self, game: Game, render_mode: str | None = None) -> None:
        super().__init__()
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}, "
                             f"not {render_mode!r}")
        self.game = game
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"spyglass_{game.name}"}
        self.possible_agents = [seat_name(j) for j in range(game.n_players)]
        self._seat = {a: j for j, a in enumerate(self.possible_agents)}
        view = gymnasium.spaces.Box(INT64.min, INT64.max, (game.view_size,), np.int64)
        mask = gymnasium.spaces.Box(0, 1, (game.n_actions,), np.int8)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({"observation": view, "action_mask": mask})
            for a in self.possible_agents}
        self.action_spaces = {a: gymnasium.spaces.Discrete(game.n_actions)
                              for a in self.possible_agents}
        self._state: np.ndarray | None = None
        self._moves: list[tuple[int, int]] = []
        self.seed: int | None = None
        #: how many games this environment has begun (``reset`` calls)
        self.episode = 0

    def observation_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> gymnasium.spaces.Space:
        return self.action_spaces[agent]

    # --- the game -----------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game from ``seed`` (a fresh one when None); ``options={"deal": d}`` deals
        from ``d`` instead (see the module docstring)."""
        if seed is None:
            seed = secrets.randbelow(2**63)
        deal = (options or {}).get("deal", seed)
        for what, value in (("seed", seed), ("deal", deal)):
            if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value < 0:
                raise ValueError(f"{what} must be a non-negative int, not {value!r}")
        self.seed = int(seed)
        self.episode += 1
        self._state = np.array(self.game.new_state(int(deal)), dtype=np.int64)
        self._moves = []
        self._initial = [self.game.view(self._state, j) for j in range(self.game.n_players)]
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._seen: dict[str, list] = {a: [] for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._select()

    def agent_seed(self, agent: str) -> int:
        """The seed Spyglass's referee gives the agent in this seat for this game."""
        if self.seed is None:
            raise RuntimeError("reset the environment first")
        return agent_seed(self.seed, self._seat[agent])

    # --- the referee's side: hidden information, for checks and replays, never for a seat

    def full_state(self) -> np.ndarray:
        """A copy of the full state (every hidden card): for checks, replays and
        spectators, never for a seat's policy."""
        if self._state is None:
            raise RuntimeError("reset the environment first")
        return self._state.copy()

    def referee_moves(self) -> list[tuple[int, int]]:
        """Every ``(actor, action)`` played so far, hidden moves included (the game
        record's ``actions``): for checks and replays, never for a seat's policy."""
        return list(self._moves)

    def initial_view(self, agent: str) -> np.ndarray:
        """The seat's view at the start of this game (what ``Agent.start`` is given)."""
        return self._initial[self._seat[agent]].copy()

    def _actor(self) -> int:
        return int(self.game.kernel.actor(self._state))

    def _select(self) -> None:
        """Point ``agent_selection`` at the seat to act (or finish the game) and refresh the
        infos."""
        actor = self._actor()
        if actor < 0:
            rewards = self.game.rewards(self._state)
            for a in self.agents:
                self.rewards[a] = float(rewards[self._seat[a]])
                self.terminations[a] = True
            self._accumulate_rewards()
            # every seat is told the end once more (an AEC convention), from seat 0 on
            self._agent_selector = AgentSelector(self.agents)
            self.agent_selection = self._agent_selector.reset()
        else:
            self.agent_selection = seat_name(actor)
        legal = self.game.legal_actions(self._state) if actor >= 0 else []
        for a in self.agents:
            j = self._seat[a]
            view = self.game.view(self._state, j)
            to_act = j == actor
            self.infos[a] = {
                "legal": list(legal) if to_act else [],
                "text": self.game.view_text(view, j) if to_act or actor < 0 else "",
                "moves": tuple(self._seen[a]),
            }

    def observe(self, agent: str) -> dict:
        j = self._seat[agent]
        mask = np.zeros(self.game.n_actions, dtype=np.int8)
        if self._actor() == j:
            mask[self.game.legal_actions(self._state)] = 1
        return {"observation": self.game.view(self._state, j), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        actor = self._seat[agent]
        legal = self.game.legal_actions(self._state)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)) \
                or int(action) not in legal:
            raise ValueError(f"{action!r} is not a legal action of {agent} here; legal: {legal}")
        action = int(action)
        k = self.game.kernel
        obs = [int(k.observe(self._state, action, j)) for j in range(self.game.n_players)]
        k.apply(self._state, action)
        self._moves.append((actor, action))
        self._seen[agent] = []  # the actor has just read its moves, in this decision
        for a in self.agents:
            j = self._seat[a]
            self._seen[a].append((obs[j], actor, self.game.view(self._state, j)))
        self._cumulative_rewards[agent] = 0.0
        self._select()

    # --- words --------------------------------------------------------------------------

    def render(self) -> str | None:
        """The seat to act's view in the game's words (at the end: the full state, every
        card revealed, as replays show it). ``ansi`` returns it, ``human`` prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; nothing to render")
            return None
        if self._state is None:
            text = f"{self.game.title}: not started (call reset)"
        elif self._actor() < 0:
            text = f"{self.game.title}, finished:\n{self.game.state_text(self._state)}"
        else:
            j = self._actor()
            text = f"{self.game.title}, {seat_name(j)} to act:\n" + self.game.view_text(
                self.game.view(self._state, j), j)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release (the game lives in this process)."""


def pettingzoo_env(game: str | Game, n_players: int | None = None, *,
                   render_mode: str | None = None, **options: Any) -> SpyglassAEC:
    """The PettingZoo AEC environment of a Spyglass game: a registered game's name (with
    its player count and rule options) or a :class:`~spyglass.games.base.Game`."""
    return SpyglassAEC(make_game(game, n_players, **options), render_mode=render_mode)
