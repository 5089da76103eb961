"""Find bot classes by registry name, ``module.Class`` path, or Python file.

It sits in the Resistance's arena, above both the bots and the 2012 compatibility layer it
uses for old bot files (:mod:`spyglass.resistance.compat`, which itself builds on
:mod:`spyglass.resistance.bots.base`), so that neither of those packages imports the other
in a cycle.
"""

from __future__ import annotations

import inspect
from pathlib import Path

from spyglass.naming import FILE, split_spec
from spyglass.resistance.bots.base import Bot
from spyglass.resistance.bots.registry import REGISTRY

#: Where the Bot API's modules were before they moved under ``spyglass.resistance``
#: (issue 27). A tournament given a bot class from Python stores its import path
#: (``spyglass.bots.magi.Magi``) in the manifest and the records' ``sources``; such a stored
#: tournament still resumes, and such a ``module.Class`` spec still loads.
MOVED_MODULES = {"spyglass.bots.": "spyglass.resistance.bots."}


def _import_file(path: Path):
    """Import a bot file as a module (through the 2012 compatibility layer when needed)."""
    from spyglass.resistance.compat.loader import import_bot_file

    return import_bot_file(path)


def file_bot_classes(path: str | Path) -> list[type]:
    """Every bot class defined in a Python file, honouring ``__all__``."""
    from spyglass.resistance.compat.loader import bot_classes_in_module

    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"bot file {str(path)!r} does not exist")
    module = _import_file(path)
    classes = bot_classes_in_module(module)
    if not classes:
        raise ValueError(f"bot file {str(path)!r} defines no bot class")
    return classes


def expand_source(source: str) -> list[str]:
    """One source per bot: a file without ``:Class`` expands to each of its classes."""
    text = split_spec(source)
    if text.form == FILE and not text.cls:
        return [f"{text.source}:{cls.__name__}" for cls in file_bot_classes(text.source)]
    load_class(source)  # fail early, with a clear message
    return [source]


def load_class(source: str) -> type:
    """The bot class for a registry name, ``module.Class`` or ``file.py:Class``."""
    text = split_spec(source)
    if text.form == FILE:
        file_part, cls_name = text.source, text.cls
        for cls in file_bot_classes(file_part):
            if cls.__name__ == cls_name or not cls_name:
                return _adapt(cls)
        raise ValueError(f"bot file {file_part!r} has no bot class {cls_name!r}")
    cls = REGISTRY.find(source)
    if cls is not None:
        return cls
    if "." in source:
        for old, new in MOVED_MODULES.items():
            if source.startswith(old):
                source = new + source[len(old):]
        module_name, _, cls_name = source.rpartition(".")
        from spyglass.resistance.compat.loader import import_bot_module

        try:
            module = import_bot_module(module_name)  # 2012 modules need player/game/util
        except ImportError as exc:
            raise ValueError(
                f"cannot import module {module_name!r} for bot {source!r}: {exc}"
            ) from exc
        cls = getattr(module, cls_name, None)
        if cls is None or not inspect.isclass(cls):
            raise ValueError(f"module {module_name!r} has no class {cls_name!r}")
        return _adapt(cls)
    from spyglass.agents.registry import REGISTRY as AGENTS

    if AGENTS.find(source) is not None:
        names = ", ".join(REGISTRY.available())
        raise ValueError(f"{source!r} is a game-general agent, not a 2012 Bot-API bot: it "
                         "plays on the game-general referee (`spyglass game`/`tournament` "
                         "route it there; from Python, spyglass.arena.match.play_match); "
                         f"2012 Bot-API bots: {names}")
    raise ValueError(str(REGISTRY.unknown(source)))


def _adapt(cls: type) -> type:
    """Spyglass bots are used as they are; 2012-framework bots get the adapter."""
    if issubclass(cls, Bot):
        if "bot_name" not in cls.__dict__:
            # An unregistered class would otherwise show up as its base's name ("bot").
            cls.bot_name = cls.__name__
        return cls
    from spyglass.resistance.compat.adapter import adapter_for

    return adapter_for(cls)


__all__ = ["expand_source", "file_bot_classes", "load_class"]
