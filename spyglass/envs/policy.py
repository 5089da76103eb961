"""Spyglass agents as policies inside a PettingZoo environment of a Spyglass game.

``AgentPolicy("moismcts:iterations=200")`` is called as ``policy(env, agent)`` at each of
its seat's turns and answers an action id. It gives its Spyglass agent exactly what the
referee would (``start`` with the seat's first view and the referee's seed, then every move
as the seat observed it, from ``infos[agent]["moves"]``), so a learner can train against
MO-ISMCTS, and a game played here is the game ``spyglass tournament`` plays from the same
seeds.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.envs.sources import make_agent


def _read_only(a: np.ndarray) -> np.ndarray:
    a = np.array(a, dtype=np.int64, copy=True)
    a.setflags(write=False)
    return a


class AgentPolicy:
    """A Spyglass agent playing one seat of a :class:`~spyglass.envs.pettingzoo_aec.SpyglassAEC`.

    ``agent``: an agent instance, class, factory or spec string; a fresh agent is built
    for every game (the policy notices a new game by the environment's seed and move count).
    """

    def __init__(self, agent: Any) -> None:
        self.spec = agent
        self.agent = None
        self._game_id: tuple | None = None

    def _start(self, env: Any, agent: str, view: np.ndarray) -> None:
        seat = env.possible_agents.index(agent)
        self.agent = make_agent(self.spec)
        self.agent.start(env.game, seat, _read_only(view), env.agent_seed(agent))

    def __call__(self, env: Any, agent: str) -> int:
        """The action of ``agent`` (whose turn it is) in ``env``."""
        obs = env.observe(agent)
        info = env.infos[agent]
        game_id = (id(env), env.seed)
        if self._game_id != game_id or self.agent is None:
            # a new game: the agent starts from the view before any move it has not seen
            self._game_id = game_id
            if env.moves and len(info["moves"]) < len(env.moves):
                raise RuntimeError("an AgentPolicy must be used from its seat's first turn")
            self._start(env, agent, env.initial_view(agent))
        for key, actor, view in info["moves"]:
            self.agent.observe(int(key), int(actor), _read_only(view))
        action = self.agent.act(_read_only(obs["observation"]), list(info["legal"]))
        return int(action)


def play_game(env: Any, policies: dict[str, Any], seed: int | None = None,
              deal: int | None = None) -> dict[str, float]:
    """Play one game of ``env`` to the end, the PettingZoo way (``agent_iter``/``last``/
    ``step``), each seat's action from ``policies[agent](env, agent)``; the rewards.

    ``seed``/``deal`` as in ``env.reset``: the same pair as a tournament game gives that
    game's moves when the policies are the same Spyglass agents.
    """
    env.reset(seed=seed, options=None if deal is None else {"deal": deal})
    total = {a: 0.0 for a in env.possible_agents}
    for agent in env.agent_iter():
        _, reward, terminated, truncated, _ = env.last(observe=False)
        total[agent] += reward
        env.step(None if terminated or truncated else policies[agent](env, agent))
    return total
