"""Spyglass in other ecosystems: PettingZoo environments and OpenSpiel games.

* :func:`pettingzoo_env`: any registered game as a PettingZoo AEC environment
  (:mod:`spyglass.envs.pettingzoo_aec`; needs the ``envs`` extra), with
  :class:`AgentPolicy` to seat Spyglass's agents in it.
* :func:`register_openspiel`: every registered game as the OpenSpiel game
  ``spyglass_<name>`` (:mod:`spyglass.envs.openspiel_games`; needs OpenSpiel, the
  ``crosscheck`` extra), and :func:`agent_policy`: a Spyglass agent's policy for OpenSpiel's
  tools (exploitability).
* :func:`openspiel_game`: any OpenSpiel game as a Spyglass game, played by the referee and
  searched by the ISMCTS agents on a plain-Python path
  (:mod:`spyglass.envs.openspiel_adapter`; needs OpenSpiel).

The third-party packages are imported on first use, so ``import spyglass.envs`` works
without them and says which extra to install when one is missing.
"""

from __future__ import annotations

from typing import Any

__all__ = ["AgentPolicy", "SpyglassAEC", "agent_policy", "openspiel_game", "pettingzoo_env",
           "play_game", "register_openspiel"]

_LAZY = {
    "pettingzoo_env": ("spyglass.envs.pettingzoo_aec", "envs"),
    "SpyglassAEC": ("spyglass.envs.pettingzoo_aec", "envs"),
    "AgentPolicy": ("spyglass.envs.policy", "envs"),
    "play_game": ("spyglass.envs.policy", "envs"),
    "register_openspiel": ("spyglass.envs.openspiel_games", "crosscheck"),
    "agent_policy": ("spyglass.envs.openspiel_policy", "crosscheck"),
    "openspiel_game": ("spyglass.envs.openspiel_adapter", "crosscheck"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module 'spyglass.envs' has no attribute {name!r}")
    module, extra = _LAZY[name]
    import importlib

    try:
        mod = importlib.import_module(module)
    except ModuleNotFoundError as exc:
        if exc.name and not exc.name.startswith("spyglass"):
            raise ModuleNotFoundError(
                f"spyglass.envs.{name} needs {exc.name!r}: pip install 'spyglass[{extra}]'",
                name=exc.name) from exc
        raise
    return getattr(mod, name)
