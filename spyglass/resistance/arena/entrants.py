"""What a seat (or a tournament's pool entry) may be given as, checked, and whether it is trusted.

The Python API takes registry names and spec strings, :class:`BotSpec` objects, Bot
subclasses, Bot instances and factories (callables returning a Bot). Anything else is a
``TypeError`` naming the argument, not an ``AttributeError`` deep inside a game.

Trust decides isolation (:mod:`spyglass.resistance.arena.isolation`): bots of the registry and of
importable modules (``package.module.Class``: installed code), and classes, instances and
factories handed over in Python (their code already runs in the caller's process) are
trusted; bots loaded from ``.py`` files are not, and run in their own worker process
unless told otherwise (``isolate="none"``); ``isolate="all"`` isolates every bot.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from spyglass.naming import is_file_source
from spyglass.resistance.arena.spec import BotSpec, object_spec, parse_spec
from spyglass.resistance.bots.base import Bot


def spec_trusted(spec: BotSpec) -> bool:
    """Whether a spec's code ships with Spyglass (or was handed over as a Python object)."""
    if spec.trusted is not None:
        return spec.trusted
    # A registry name, an importable ``module.Class`` (code installed on this machine,
    # already importable by the user's own programs) or a Python object (``python:N``)
    # is trusted; files are what gets passed around.
    return not is_file_source(spec.source)


@dataclass
class Seat:
    """One seat's bot before the game: an instance to use, or a spec to build or isolate."""

    spec: BotSpec | None
    instance: Bot | None
    label: str
    source: str
    trusted: bool


def _class_spec(cls: type) -> BotSpec:
    module, qual = cls.__module__, cls.__qualname__
    source = f"{module}.{qual}" if "." not in qual and "<" not in qual else None
    if source is None:  # a nested or local class: reachable only through this process
        return object_spec(cls, getattr(cls, "bot_name", cls.__name__))
    spec = BotSpec(source, (), None, trusted=True)
    object.__setattr__(spec, "_cls", cls)
    return spec


_NAMED: dict[str, BotSpec] = {}


def _named_spec(text: str) -> BotSpec:
    """The spec of a seat given as a string; registry names and modules are parsed once
    per process (a spec is immutable and caches its class), files every time."""
    spec = _NAMED.get(text)
    if spec is None:
        spec = parse_spec(text)[0]
        if ".py" not in text and len(_NAMED) < 1000:
            _NAMED[text] = spec
    return spec


def _is_bot_class(x: Any) -> bool:
    return isinstance(x, type) and issubclass(x, Bot)


def pool_spec(b: Any, what: str) -> list[BotSpec]:
    """A tournament pool entry as specs (a file may hold several bots)."""
    if isinstance(b, (str, BotSpec)):
        return parse_spec(b)
    if _is_bot_class(b):
        return [_class_spec(b)]
    if isinstance(b, Bot):
        return [object_spec(lambda b=b: copy.deepcopy(b), type(b).bot_name)]
    if isinstance(b, type):
        raise TypeError(f"{what} is the class {b.__name__}, which is not a Bot subclass")
    if callable(b):
        return [object_spec(b, getattr(b, "__name__", "factory"))]
    raise TypeError(f"{what} must be a bot name or spec string, a BotSpec, a Bot subclass, "
                    f"a Bot instance or a factory, not {type(b).__name__}")


def seats(bots: Any) -> list[Seat]:
    """Check ``play_game``'s ``bots``: one entry per seat, each instance used once."""
    if isinstance(bots, (str, bytes)) or not isinstance(bots, Sequence):
        raise TypeError(f"bots must be a list with one bot per seat, not {type(bots).__name__}")
    out: list[Seat] = []
    seen: dict[int, int] = {}
    for i, b in enumerate(bots):
        what = f"bots[{i}]"
        if isinstance(b, Bot):
            if id(b) in seen:
                raise ValueError(f"{what} is the same Bot instance as bots[{seen[id(b)]}]; "
                                 "give each seat its own instance (or a class or factory)")
            seen[id(b)] = i
            label = getattr(b, "display_name", None) or type(b).bot_name
            out.append(Seat(None, b, label, type(b).bot_name, True))
            continue
        if isinstance(b, str):
            spec = _named_spec(b)
        elif isinstance(b, BotSpec):
            spec = b
        elif _is_bot_class(b):
            spec = _class_spec(b)
        elif isinstance(b, type):
            raise TypeError(f"{what} is the class {b.__name__}, which is not a Bot subclass")
        elif callable(b):
            made = b()
            if not isinstance(made, Bot):
                raise TypeError(f"{what} is a factory that returned {type(made).__name__}, "
                                "not a Bot")
            if id(made) in seen:
                raise ValueError(
                    f"{what}'s factory returned the instance of bots[{seen[id(made)]}]")
            seen[id(made)] = i
            out.append(Seat(None, made, type(made).bot_name, type(made).bot_name, True))
            continue
        else:
            raise TypeError(f"{what} must be a bot name or spec string, a BotSpec, a Bot "
                            f"subclass, a Bot instance or a factory, not {type(b).__name__}")
        out.append(Seat(spec, None, spec.name, spec.source, spec_trusted(spec)))
    return out


__all__ = ["Seat", "pool_spec", "seats", "spec_trusted"]
