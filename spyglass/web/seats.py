"""What may sit at a web table: a person, or a bot named by a *registered* name.

Why a module of its own: a seat's bot comes from a web form, so unlike the command line
(which also loads bots from files and import paths) only registered names are accepted
-- a form must never be a way to import arbitrary code on the server. A spec is
``name`` or ``name:key=value,...``; a generic agent (``moismcts:iterations=2000``)
plays any game; for The Resistance a classic Bot-API bot (``pandsbot``,
``mtismcts:iterations=500``) plays through :class:`~spyglass.resistance.bot_agent.BotAgent`.
Where a name is both, the generic agent wins; ``classic:NAME`` picks the Bot-API one.
"""

from __future__ import annotations

from dataclasses import dataclass

from spyglass.agents import registry as agent_registry
from spyglass.agents.base import Agent
from spyglass.arena.agent_spec import parse_agent
from spyglass.games.base import Game
from spyglass.resistance.spec import parse_params

CLASSIC = "classic:"


@dataclass(frozen=True)
class BotChoice:
    """A validated bot spec: ``label`` for records, ``classic`` for the Bot-API kind."""

    spec: str
    label: str
    classic: bool


def _classic_bots() -> dict[str, type]:
    from spyglass.bots import registry as bot_registry

    return {k.lower(): v for k, v in bot_registry.available().items()}


def check_bot(spec: str, game: Game) -> BotChoice:
    """Validate ``spec`` for ``game`` (building one instance); a ValueError says why."""
    if not isinstance(spec, str) or not spec.strip():
        raise ValueError("a bot seat needs a bot name, e.g. 'random' or 'moismcts:iterations=500'")
    text = spec.strip()
    forced = text.lower().startswith(CLASSIC)
    if forced:
        text = text[len(CLASSIC):]
    name, _, params = text.partition(":")
    name = name.strip().lower()
    generic = agent_registry.available()
    if name in generic and not forced:
        make_agent(text, False)
        return BotChoice(text, text, False)
    if game.name == "resistance":
        classic = _classic_bots()
        if name in classic:
            make_agent(text, True)
            return BotChoice(text, f"{CLASSIC}{text}" if name in generic else text, True)
    choices = sorted(generic) + (sorted(_classic_bots()) if game.name == "resistance" else [])
    raise ValueError(f"no bot named {name!r} for {game.title}; choices: {', '.join(choices)}")


def make_agent(spec: str, classic: bool) -> Agent:
    """A fresh agent for a validated spec (in a worker process, or to validate one)."""
    if not classic:
        return parse_agent(spec).make()
    from spyglass.resistance.bot_agent import BotAgent

    name, _, params = spec.partition(":")
    cls = _classic_bots()[name.strip().lower()]
    try:
        bot = cls(**(parse_params(params) if params else {}))
    except TypeError as exc:
        raise ValueError(f"bot {name!r}: {exc}") from None
    return BotAgent(bot, name.strip().lower())


def bot_names(game: Game) -> list[str]:
    """Every bot name a table of ``game`` accepts (for the create-table form)."""
    names = sorted(agent_registry.available())
    if game.name == "resistance":
        names += [n for n in sorted(_classic_bots()) if n not in names]
        names += [CLASSIC + n for n in sorted(_classic_bots()) if n in agent_registry.available()]
    return names
