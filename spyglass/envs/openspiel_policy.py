"""A Spyglass agent's policy as an OpenSpiel policy, for OpenSpiel's tools (exploitability).

At each information state of a ``spyglass_<name>`` game the agent is started and told the
seat's moves exactly as the referee would (first view, then every observation), then asked
to act; ``samples`` runs with different seeds give its action frequencies, the policy's
probabilities there. A deterministic agent (or ``samples=1``) gives a pure policy.
"""

from __future__ import annotations

from typing import Any

from open_spiel.python import policy as os_policy

from spyglass.envs.policy import read_only, seated_agent
from spyglass.envs.sources import derive_seed


def agent_action(state: Any, agent: Any, seed: int) -> int:
    """What ``agent`` (a spec or instance) plays at ``state`` of a ``spyglass_*`` game, as
    the referee would have it play there with agent seed ``seed``."""
    player = state.current_player()
    first, *moves = state.seen[player]
    a = seated_agent(agent, state.spy, player, first, seed, moves)
    view = state.spy.view(state.state, player)
    return int(a.act(read_only(view), state.legal_actions()))


def agent_policy(game: Any, agent: Any, samples: int = 1, seed: int = 0
                 ) -> os_policy.TabularPolicy:
    """The tabular OpenSpiel policy of ``agent`` on ``game`` (a loaded ``spyglass_*``
    game): at every information state, the frequencies of its actions over ``samples``
    seeds ``derive_seed(seed, i)``."""
    if samples < 1:
        raise ValueError(f"samples must be at least 1, not {samples}")
    table = os_policy.TabularPolicy(game)
    seeds = [derive_seed(seed, i) for i in range(samples)]
    for index, state in enumerate(table.states):
        probs = table.action_probability_array[index]
        probs[:] = 0.0
        for s in seeds:
            probs[agent_action(state, agent, s)] += 1.0 / samples
    return table
