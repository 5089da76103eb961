"""A minimal referee for the search-agent tests (the arena's play_match does this for real):
each agent sees only its own view and observations (or the full state, if omniscient)."""

from __future__ import annotations

import numpy as np


def play(game, agents, seed: int) -> tuple[tuple[float, ...], list[int]]:
    """Play one game; return the rewards and the action history. Asserts every action is legal."""
    k = game.kernel
    s = game.new_state(seed)

    def seen_by(j):
        return s.copy() if agents[j].omniscient else game.view(s, j)

    for j, ag in enumerate(agents):
        ag.start(game, j, seen_by(j), seed * 1000 + j)
    history = []
    for _ in range(game.max_moves + 1):
        if k.is_terminal(s):
            break
        p = int(k.actor(s))
        legal = game.legal_actions(s)
        a = agents[p].act(seen_by(p), list(legal))
        assert a in legal, f"{agents[p].agent_name} played {a}, not in {legal}"
        obs = [int(k.observe(s, a, j)) for j in range(game.n_players)]
        k.apply(s, a)
        history.append(a)
        for j, ag in enumerate(agents):
            ag.observe(obs[j], p, seen_by(j))
    assert k.is_terminal(s), "the game did not end within max_moves"
    rewards = game.rewards(s)
    for ag in agents:
        ag.finish(rewards)
    return rewards, history


def first_view(game, seat: int, seed: int = 0) -> np.ndarray:
    return game.view(game.new_state(seed), seat)
