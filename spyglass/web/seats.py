"""What may sit at a web table: a person, or a bot named by a *registered* name.

Why a module of its own: a seat's bot comes from a web form, so unlike the command line
(which also loads bots from files and import paths) a web spec is data only: a registered
name plus settings, parsed by :func:`spyglass.naming.parse_named_spec` and checked against
the agent's :class:`~spyglass.params.Param` declarations (for a classic Bot-API bot, the
declarations read from its signature). Validation imports no module and opens no file.
A setting that names a file (``Param.path``: PMGA's ``model``) takes only a *name* from
the directory the operator named (``spyglass serve --models DIR``); the server resolves
it. Errors say what is wrong with the text, never whether a file exists on the server.

A spec is ``name`` or ``name:key=value,...``; the one registry
(:func:`spyglass.players.players`) says which API the name speaks: a game-general
agent (``moismcts:iterations=2000``) plays any game; for The Resistance a 2012 Bot-API bot
(``pandsbot``, ``mtismcts:iterations=500``) plays through
:class:`~spyglass.resistance.arena.bot_agent.BotAgent`. A name means one player everywhere.

A bot's thinking per decision is checked against the server's budget
(:class:`Budget`) here, at creation, not discovered in play; privileged (omniscient)
bots are refused at a table with a person.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from spyglass import players as player_registry
from spyglass.agents import registry as agent_registry
from spyglass.agents.base import Agent
from spyglass.games.base import Game
from spyglass.naming import parse_named_spec, split_named
from spyglass.params import Param, signature_params, validate

# Settings a web spec may not use whatever the bot declares: more processes per bot.
WEB_FORBIDDEN = ("workers",)
MODEL_SUFFIXES = (".joblib", ".pkl")


@dataclass(frozen=True)
class Budget:
    """The most a bot may think per decision: search iterations and seconds."""

    iterations: int = 100_000
    seconds: float = 5.0


@dataclass(frozen=True)
class BotChoice:
    """A validated bot: ``spec`` (canonical text, stored), ``label`` for records,
    ``classic`` for the Bot-API kind, ``name`` and ``settings`` to build it (a model
    setting already resolved to the operator's file), ``omniscient`` if privileged,
    ``about`` what it is in one line."""

    spec: str
    label: str
    classic: bool
    name: str = ""
    settings: dict = field(default_factory=dict)
    omniscient: bool = False
    about: str = ""  # what the bot is, in one line (the registry's help)


def _players(game: Game) -> dict[str, player_registry.Player]:
    """The registered players a table of ``game`` accepts (each player's declared games:
    2012 bots The Resistance only, a game's rule bots that game only). A player that waits
    for a person at the terminal (``interactive``) is no bot for a web seat."""
    return {k: p for k, p in player_registry.players().items()
            if (p.games is None or game.name in p.games)
            and not getattr(p.cls, "interactive", False)}


def classic_params(cls: type) -> tuple[Param, ...]:
    """The settings a classic bot accepts, as declarations (read from its signature)."""
    return signature_params(cls, skip=WEB_FORBIDDEN)


def model_names(models: Path | None) -> dict[str, Path]:
    """The model files the operator offers (``serve --models DIR``): name -> path."""
    if models is None:
        return {}
    return {p.stem: p for p in sorted(Path(models).iterdir())
            if p.is_file() and p.suffix in MODEL_SUFFIXES}


def _resolve_paths(params: tuple[Param, ...], settings: dict, name: str,
                   models: dict[str, Path]) -> dict:
    """``settings`` with every path setting's *name* replaced by the operator's file."""
    out = dict(settings)
    for p in params:
        if p.path and out.get(p.name) is not None:
            chosen = out[p.name]
            if chosen not in models:
                offered = ", ".join(models) or "none (the server was started without --models)"
                raise ValueError(f"{name}: {p.name} must be one of the server's models: "
                                 f"{offered}")
            out[p.name] = str(models[chosen])
    return out


def decision_cost(settings: dict) -> tuple[int | None, float | None]:
    """(iterations, seconds) a bot with these effective settings may spend per decision:
    ``iterations`` (or ``d`` trees x ``s`` iterations), plus a particle belief's
    opponent-model searches; ``seconds`` when the bot is timed instead."""
    seconds = settings.get("seconds")
    its = settings.get("iterations")
    if its is None and settings.get("s") is not None:
        its = int(settings["s"]) * int(settings.get("d") or 1)
    if its is not None and settings.get("particles") is not None:
        its += int(settings["particles"]) * int(settings.get("model_iterations") or 0)
    return (None if seconds is not None else its), seconds


def check_budget(settings: dict, budget: Budget, name: str) -> None:
    its, seconds = decision_cost(settings)
    if seconds is not None and seconds > budget.seconds:
        raise ValueError(f"{name}: seconds={seconds:g} is over this server's bot budget "
                         f"({budget.seconds:g} s per decision)")
    if its is not None and its > budget.iterations:
        raise ValueError(f"{name}: {its} iterations per decision is over this server's bot "
                         f"budget ({budget.iterations} per decision)")


def check_bot(spec: Any, game: Game, *, budget: Budget | None = None,
              models: dict[str, Path] | None = None, with_person: bool = False) -> BotChoice:
    """Validate a web ``spec`` for ``game`` (building one instance); a ValueError says why.

    Data only: a registered name and declared settings (see the module docstring).
    ``with_person``: the table has a person, so privileged bots are refused."""
    budget = budget or Budget()
    text = spec.strip() if isinstance(spec, str) else spec
    try:
        name, raw = parse_named_spec(text)
    except ValueError as exc:
        raise ValueError(f"bot: {exc}") from None
    choices = _players(game)
    if name not in choices:
        raise ValueError(f"no bot named {name!r} for {game.title}; choices: "
                         f"{', '.join(choices)}")
    cls: type = choices[name].cls
    is_classic = choices[name].kind == player_registry.BOT2012
    params: tuple[Param, ...] = classic_params(cls) if is_classic else cls.params
    for key in raw:
        if key in WEB_FORBIDDEN:
            raise ValueError(f"{name}: {key} cannot be set at a web table")
    settings = validate(params, raw, owner=name)
    chosen = {k: v for k, v in settings.items() if k in raw}
    omniscient = getattr(cls, "omniscient", False) is True
    if omniscient and with_person:
        raise ValueError(f"{name} is a privileged bot (it sees the hidden information): "
                         "it may play only at tables of bots, which are never rated")
    resolved = _resolve_paths(params, chosen, name, models or {})
    bot = make_agent(name, resolved, is_classic)
    # The settings the bot will really use (its defaults filled in) count for the budget.
    effective = dict(bot.bot.params) if is_classic else dict(bot.settings)
    check_budget(effective, budget, name)
    canon = name + (":" + ",".join(f"{k}={raw[k]}" for k in raw) if raw else "")
    return BotChoice(canon, canon, is_classic, name, resolved, omniscient,
                     about=choices[name].help)


def make_agent(name: str, settings: dict, classic: bool) -> Agent:
    """A fresh agent from a validated choice (in a worker process, or to validate one)."""
    if not classic:
        return agent_registry.get(name)(**settings)
    from spyglass.resistance.arena.bot_agent import BotAgent

    cls = player_registry.lookup(name).cls
    try:
        bot = cls(**settings)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"bot {name!r}: {exc}") from None
    return BotAgent(bot, name)


def stored_spec(spec: str, classic: bool) -> str:
    """A seat's stored spec as today's name: tables stored before the one registry wrote
    ``classic`` Bot-API seats under six names that now mean game-general agents
    (:data:`spyglass.resistance.bots.registry.RENAMED`); the stored ``classic`` flag, not the
    text, says which player the seat was."""
    from spyglass.resistance.bots.registry import RENAMED

    name, settings = split_named(spec)
    if classic and name.lower() in RENAMED:
        return RENAMED[name.lower()] + (":" + settings if ":" in spec else "")
    return spec


def bot_names(game: Game) -> list[str]:
    """Every bot name a table of ``game`` accepts (for the create-table form)."""
    return list(_players(game))


def bot_help(game: Game) -> dict[str, str]:
    """What each bot a table of ``game`` accepts is, in one line (the registry's help)."""
    return {k: p.help for k, p in _players(game).items()}
