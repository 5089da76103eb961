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


def read_only(a: np.ndarray) -> np.ndarray:
    """A read-only copy of a view, as the referee hands views to agents."""
    a = np.array(a, dtype=np.int64, copy=True)
    a.setflags(write=False)
    return a


def tell(agent: Any, moves: Any) -> None:
    """Give ``agent`` each ``(observation key, actor, view after)`` move, in order."""
    for key, actor, view in moves:
        agent.observe(int(key), int(actor), read_only(view))


def seated_agent(spec: Any, game: Any, seat: int, first_view: np.ndarray, seed: int,
                 moves: Any = ()) -> Any:
    """A fresh agent from ``spec``, started in ``seat`` as the referee starts it (first
    view, seed) and told ``moves``: what the agent would know at that point of a game."""
    agent = make_agent(spec)
    agent.start(game, seat, read_only(first_view), seed)
    tell(agent, moves)
    return agent


class AgentPolicy:
    """A Spyglass agent playing one seat of a :class:`~spyglass.envs.pettingzoo_aec.SpyglassAEC`.

    ``agent``: an agent instance, class, factory or spec string; a fresh agent is built
    for every game (the policy notices a new game by the environment's ``episode``).
    """

    def __init__(self, agent: Any) -> None:
        self.spec = agent
        self.agent = None
        self._game_id: tuple | None = None


    def __call__(self, env: Any, agent: str) -> int:
        """The action of ``agent`` (whose turn it is) in ``env``."""
        obs = env.observe(agent)
        info = env.infos[agent]
        game_id = (id(env), env.episode)
        if self._game_id != game_id or self.agent is None:
            # a new game: the agent starts from the view before any move it has not seen
            self._game_id = game_id
            if len(info["moves"]) < len(env.referee_moves()):
                raise RuntimeError("an AgentPolicy must be used from its seat's first turn")
            self.agent = seated_agent(self.spec, env.game, env.possible_agents.index(agent),
                                      env.initial_view(agent), env.agent_seed(agent))
        tell(self.agent, info["moves"])
        action = self.agent.act(read_only(obs["observation"]), list(info["legal"]))
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
