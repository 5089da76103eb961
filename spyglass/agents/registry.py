"""Every player by name, one registry for the whole program (command line, ``spyglass bots``,
the web app, the Python API): :func:`lookup` gives a :class:`Player` whose ``kind`` says
which API it speaks, and callers route by that kind, never by the spec's text.

* ``agent``: a game-general :class:`~spyglass.agents.base.Agent` (``@register("name")``
  here); it plays any game it supports.
* ``bot2012``: a Resistance bot of the 2012 Bot API (:class:`spyglass.bots.base.Bot`,
  registered by ``spyglass.bots.registry.register``, a layer below this one); it plays
  The Resistance only.

A name means one player: registering a name twice, in either kind, is an error. The
built-in modules are imported on first use (so importing the registry costs nothing); a
user's own agent or bot registers itself when its module is imported.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from spyglass.agents.base import Agent

AGENT = "agent"
BOT2012 = "bot2012"
KINDS = (AGENT, BOT2012)

_BUILTIN = ("spyglass.agents.random_agent", "spyglass.agents.ismcts", "spyglass.agents.uct",
            "spyglass.agents.hearts_rules", "spyglass.agents.minidoudizhu_rules",
            "spyglass.agents.doudizhu_rules",
            "spyglass.agents.spades_rules",
            "spyglass.agents.sdmcts", "spyglass.agents.cheat_population",
            "spyglass.agents.mt_ismcts",
            # Outside baselines (their packages are optional extras, imported on use).
            "spyglass.agents.rlcard_doudizhu", "spyglass.agents.openspiel_hearts")
_AGENTS: dict[str, type[Agent]] = {}
_loaded = False


def register(name: str) -> Callable[[type[Agent]], type[Agent]]:
    """Class decorator: register an :class:`Agent` subclass as ``name`` (sets ``agent_name``)."""
    key = name.strip().lower()

    def deco(cls: type[Agent]) -> type[Agent]:
        if not (isinstance(cls, type) and issubclass(cls, Agent)):
            raise TypeError(f"{cls!r} is not an Agent subclass")
        if key in _AGENTS and _AGENTS[key] is not cls:
            raise ValueError(f"an agent named {key!r} is already registered")
        if _bots_table().get(key) is not None:
            raise ValueError(f"{key!r} is already a 2012 Bot-API bot's name; one name, "
                             "one player")
        cls.agent_name = key
        _AGENTS[key] = cls
        return cls

    return deco


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        for module in _BUILTIN:
            importlib.import_module(module)


def available() -> dict[str, type[Agent]]:
    """Every registered agent, name -> class, in name order."""
    _load()
    return dict(sorted(_AGENTS.items()))


def get(name: str) -> type[Agent]:
    """The agent class registered as ``name``; a ValueError lists the choices."""
    _load()
    key = name.strip().lower() if isinstance(name, str) else name
    if key not in _AGENTS:
        raise ValueError(f"no agent named {name!r}; agents: {', '.join(sorted(_AGENTS))}")
    return _AGENTS[key]


def make(name: str, **settings) -> Agent:
    """A new agent ``name`` with ``settings`` (validated by the agent)."""
    return get(name)(**settings)


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


def _bots_table() -> dict[str, type]:
    """The 2012 Bot API's own table (filled by its ``register``), by lower-case name."""
    from spyglass.bots.registry import _REGISTRY

    return _REGISTRY


def players() -> dict[str, Player]:
    """Every registered player of both kinds, name -> :class:`Player`, in name order.
    A name registered in both kinds is refused here (one name, one player)."""
    from spyglass.bots.registry import _load_all

    _load()
    _load_all()
    out = {k: Player(k, AGENT, cls) for k, cls in _AGENTS.items()}
    for key, cls in _bots_table().items():
        if key in out:
            raise ValueError(f"{key!r} is registered both as an agent and as a 2012 "
                             "Bot-API bot; one name, one player")
        out[key] = Player(key, BOT2012, cls)
    return dict(sorted(out.items()))


def lookup(name: str) -> Player | None:
    """The registered player ``name`` (case-insensitive), or None."""
    key = name.strip().lower() if isinstance(name, str) else name
    if _AGENTS.get(key) is not None:
        return Player(key, AGENT, _AGENTS[key])
    return players().get(key)


def spec_name(text: str) -> str:
    """The name part of a text spec (before its first ``:``)."""
    return text.strip().partition(":")[0].strip().lower()


def kind_of(spec: Any) -> str | None:
    """The API a spec's player speaks: ``agent`` or ``bot2012`` for a registered name (with
    or without settings) or a Python class/instance of either API; None when the spec does
    not say by itself (a file, an import path: its contents decide where it is loaded)."""
    from spyglass.bots.base import Bot

    if isinstance(spec, str):
        player = lookup(spec_name(spec))
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
        agents = [str(s) for s in specs if kind_of(s) == AGENT]
        bots = [str(s) for s in specs if kind_of(s) == BOT2012]
        raise ValueError(f"this lineup mixes game-general agents ({', '.join(agents)}) with "
                         f"2012 Bot-API bots ({', '.join(bots)}): a tournament or game plays "
                         "one kind (see `spyglass bots`)")
    return kinds.pop() if kinds else default
