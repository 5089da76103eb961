"""Replaying a stored tournament through the PettingZoo environment, game by game.

A tournament of any game other than The Resistance keeps, for every game, its seed, its
deal, the agents' specs in seat order, the moves and the rewards (``games.jsonl``). Playing
each game again through :class:`~spyglass.envs.pettingzoo_aec.SpyglassAEC` with the same
agents as :class:`~spyglass.envs.policy.AgentPolicy` must give the same moves and rewards:
then the environment is the referee's game, and any win rate measured through it is the
tournament's (same seeds, same outcomes; not merely "within noise").
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from spyglass.envs.pettingzoo_aec import SpyglassAEC
from spyglass.envs.policy import AgentPolicy, play_game
from spyglass.envs.sources import make_game


@dataclass(frozen=True)
class Replayed:
    """One tournament game and the same game through the environment."""

    agents: tuple[str, ...]
    recorded: tuple[float, ...]
    through_env: tuple[float, ...]
    same_moves: bool


def replay_tournament(out: str | Path, limit: int | None = None) -> list[Replayed]:
    """Every game of the tournament stored in ``out`` (or its first ``limit``) played again
    through the environment."""
    lines = Path(out, "games.jsonl").read_text(encoding="utf-8").splitlines()
    results = []
    for line in lines[:limit]:
        rec = json.loads(line)
        game = make_game(rec["game"], rec["players"], **rec["options"])
        env = SpyglassAEC(game)
        names = env.possible_agents
        policies = {a: AgentPolicy(spec) for a, spec in zip(names, rec["agents"], strict=True)}
        rewards = play_game(env, policies, seed=rec["seed"], deal=rec["deal"])
        results.append(Replayed(
            tuple(rec["agents"]), tuple(rec["rewards"]), tuple(rewards[a] for a in names),
            [list(m) for m in env.referee_moves()] == rec["actions"]))
    return results


def win_rates(games: list[Replayed], which: str) -> dict[str, float]:
    """Each agent's mean reward over its seats, from the ``recorded`` or ``through_env``
    rewards (two-player games with 0/1 rewards: its win rate)."""
    total: dict[str, list[float]] = {}
    for g in games:
        for agent, r in zip(g.agents, getattr(g, which), strict=True):
            total.setdefault(agent, []).append(r)
    return {a: sum(v) / len(v) for a, v in sorted(total.items())}
