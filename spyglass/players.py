"""Every player by name, one registry for the whole program (command line, ``spyglass bots``,
the web app, the Python API): :func:`lookup` gives a :class:`Player` whose ``kind`` says
which API it speaks, and callers route by that kind, never by the spec's text.

* ``agent``: a game-general :class:`~spyglass.agents.base.Agent`, registered in
  :mod:`spyglass.agents.registry`; it plays any game it supports.
* ``bot2012``: a Resistance bot of the 2012 Bot API
  (:class:`spyglass.resistance.bots.base.Bot`, registered in
  :mod:`spyglass.resistance.bots.registry`); it plays The Resistance only.

A name means one player: a name registered in both kinds is an error. This table sits
above both registries (the agents' and the bots' packages do not import each other, and
The Resistance's referee side, which uses the agents, does not import this module), so the
layers stay free of cycles.
"""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spyglass.agents import registry as agents
from spyglass.agents.base import Agent
from spyglass.naming import NAME, split_spec
from spyglass.resistance.bots import registry as bots
from spyglass.resistance.bots.base import Bot

AGENT = "agent"
BOT2012 = "bot2012"
KINDS = (AGENT, BOT2012)


@dataclass(frozen=True)
class Player:
    """One registered player: its ``name``, the API it speaks (``kind``: ``agent`` or
    ``bot2012``) and its class."""

    name: str
    kind: str
    cls: type

    @property
    def games(self) -> tuple[str, ...] | None:
        """The games it plays (None: any game)."""
        return ("resistance",) if self.kind == BOT2012 else getattr(self.cls, "plays", None)

    @property
    def help(self) -> str:
        """What it is, in one line: an agent's ``description`` or the class docstring's
        first line (empty if it has none of its own); privileged agents say so."""
        lines = (inspect.getdoc(self.cls) or "").strip().splitlines()
        text = getattr(self.cls, "description", "") or (lines[0] if lines else "")
        if self.kind == AGENT and getattr(self.cls, "omniscient", False):
            text = f"{text} [privileged: sees the full state]"
        return text


def players() -> dict[str, Player]:
    """Every registered player of both kinds, name -> :class:`Player`, in name order.
    A name registered in both kinds is refused here (one name, one player)."""
    out = {k: Player(k, AGENT, cls) for k, cls in agents.available().items()}
    for key, cls in bots.available().items():
        if key in out:
            raise ValueError(f"{key!r} is registered both as an agent and as a 2012 "
                             "Bot-API bot; one name, one player")
        out[key] = Player(key, BOT2012, cls)
    return dict(sorted(out.items()))


def lookup(name: str) -> Player | None:
    """The registered player ``name`` (case-insensitive), or None."""
    key = name.strip().lower() if isinstance(name, str) else name
    cls = agents.REGISTRY.find(key)
    if cls is not None:
        return Player(key, AGENT, cls)
    return players().get(key)


def kind_of(spec: Any) -> str | None:
    """The API a spec's player speaks: ``agent`` or ``bot2012`` for a registered name (with
    or without settings) or a Python class/instance of either API; None when the spec does
    not say by itself (a file, an import path: its contents decide where it is loaded)."""
    if isinstance(spec, str):
        text = split_spec(spec)
        player = lookup(text.key) if text.form == NAME else None
        return None if player is None else player.kind
    if isinstance(spec, Agent) or (isinstance(spec, type) and issubclass(spec, Agent)):
        return AGENT
    if isinstance(spec, Bot) or (isinstance(spec, type) and issubclass(spec, Bot)):
        return BOT2012
    return None


def lineup_kind(specs: Sequence[Any], default: str = BOT2012) -> str:
    """The one API a lineup speaks (its players' kinds; ``default`` when none says).
    A ValueError when it mixes game-general agents with 2012 Bot-API bots."""
    kinds = {k for k in (kind_of(s) for s in specs) if k is not None}
    if len(kinds) > 1:
        agent_specs = [str(s) for s in specs if kind_of(s) == AGENT]
        bot_specs = [str(s) for s in specs if kind_of(s) == BOT2012]
        raise ValueError(f"this lineup mixes game-general agents ({', '.join(agent_specs)}) "
                         f"with 2012 Bot-API bots ({', '.join(bot_specs)}): a tournament or "
                         "game plays one kind (see `spyglass bots`)")
    return kinds.pop() if kinds else default
