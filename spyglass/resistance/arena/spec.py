"""Bot specifications: how to name a bot on the command line and build it in any process.

A spec is a small, picklable description, so that process pools and Ray workers can
build their own bot instances. Its text is split by the one grammar of every player
(:mod:`spyglass.naming`); what is the Bot API's own is how a class is found
(:mod:`spyglass.resistance.arena.bot_loader`: 2012 files through the compatibility layer,
every class of a file unless one is named) and that settings are Python literals passed
to the class as keyword arguments (:func:`parse_params`). Accepted forms:

* ``random`` — a registry name;
* ``random:key=value,key=value`` — a registry name with parameters;
* ``package.module.Class`` — any importable Bot subclass;
* ``path/to/file.py`` — every Bot subclass in a file (2012-framework files included),
  or ``path/to/file.py:ClassName`` for one of them.
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from spyglass.naming import split_spec
from spyglass.params import parse_assignments
from spyglass.resistance.bots.base import Bot


class BotSpecError(ValueError):
    """A bot specification that cannot be parsed or loaded."""


def _parse_value(text: str) -> Any:
    """Parse a parameter value: Python literals (numbers, True, None, 'str'), else the string."""
    low = text.lower()
    if low in ("true", "false"):
        return low == "true"
    if low in ("none", "null"):
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return text


def parse_params(text: str) -> dict[str, Any]:
    """Parse ``key=value,key=value`` (the one grammar, :func:`spyglass.params.parse_assignments`)
    into a bot's keyword arguments: names must be identifiers, values Python literals."""
    try:
        assignments = parse_assignments(text)
    except ValueError as exc:
        raise BotSpecError(f"bot parameters: {exc}") from None
    params: dict[str, Any] = {}
    for key, value in assignments.items():
        if not key.isidentifier():
            raise BotSpecError(f"bot parameter name {key!r} is not a valid name")
        params[key] = _parse_value(value)
    return params


@dataclass(frozen=True)
class BotSpec:
    """A picklable recipe for a bot: where its class comes from and its parameters."""

    source: str
    params: tuple[tuple[str, Any], ...] = ()
    label: str | None = None
    _cls: Any = field(default=None, compare=False, repr=False, hash=False)
    #: None: decided by the source (see :func:`spyglass.resistance.arena.entrants.spec_trusted`)
    trusted: bool | None = field(default=None, compare=False, repr=False, hash=False)

    @property
    def name(self) -> str:
        """Display name: the label, else the class's registry name plus parameters."""
        if self.label:
            return self.label
        base = getattr(self.bot_class(), "bot_name", None) or self.source
        if self.params:
            base += ":" + ",".join(f"{k}={v}" for k, v in self.params)
        return base

    def bot_class(self) -> type:
        """The bot class this spec builds (loaded on first use in each process)."""
        if self._cls is None:
            if self.source.startswith("python:"):  # a factory handed over in Python
                object.__setattr__(self, "_cls", type(self.make()))
                return self._cls
            from spyglass.resistance.arena.bot_loader import load_class

            object.__setattr__(self, "_cls", load_class(self.source))
        return self._cls

    def make(self) -> Bot:
        """A fresh bot instance for one game."""
        if self.source.startswith("python:"):
            bot = python_object(self.source)()
            if not isinstance(bot, Bot):
                raise BotSpecError(f"bot factory {self.name!r} returned "
                                   f"{type(bot).__name__}, not a Bot")
            return bot
        cls = self.bot_class()
        try:
            return cls(**dict(self.params))
        except TypeError as exc:
            raise BotSpecError(f"cannot build bot {self.source!r}: {exc}") from exc

    def __getstate__(self) -> dict:
        # Classes loaded from files are not importable by other processes: drop them.
        return {"source": self.source, "params": self.params, "label": self.label, "_cls": None,
                "trusted": self.trusted}

    def __setstate__(self, state: dict) -> None:
        for k, v in state.items():
            object.__setattr__(self, k, v)


_OBJECTS: dict[str, Callable[[], Bot]] = {}
_NEXT = itertools.count(1)


def object_spec(factory: Callable[[], Bot], label: str) -> BotSpec:
    """A spec for a Python factory (a class, an instance's copier), handed over in the API.

    Usable in this process and in workers forked from it (the local backend), not by Ray
    or by a later ``--resume`` in another process (which then says so).
    """
    key = f"python:{next(_NEXT)}"
    _OBJECTS[key] = factory
    return BotSpec(key, (), label, trusted=True)


def python_object(source: str) -> Callable[[], Bot]:
    """The factory behind a ``python:N`` spec (see :func:`object_spec`)."""
    try:
        return _OBJECTS[source]
    except KeyError:
        raise BotSpecError(f"bot {source!r} was a Python object of another process; "
                           "it cannot be rebuilt here") from None


def parse_spec(text: str | BotSpec) -> list[BotSpec]:
    """Parse one command-line bot argument into one or more specs (a file may hold many);
    the text is split by the one grammar (:func:`spyglass.naming.split_spec`)."""
    if isinstance(text, BotSpec):
        return [text]
    text = text.strip()
    if not text:
        raise BotSpecError("empty bot specification")
    from spyglass.resistance.arena.bot_loader import expand_source

    spec = split_spec(text)
    source = f"{spec.source}:{spec.cls}" if spec.cls else spec.source
    params = tuple(sorted(parse_params(spec.settings).items())) if spec.settings else ()
    return [BotSpec(src, params) for src in expand_source(source)]
