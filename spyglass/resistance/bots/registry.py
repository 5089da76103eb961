"""The bot registry: every built-in bot registers itself here under a short name."""

from __future__ import annotations

import importlib
import pkgutil

from spyglass.resistance.bots.base import Bot

_REGISTRY: dict[str, type[Bot]] = {}
# Six bots were renamed when the one registry gave every name one player (issue 27): their
# old names now mean the game-general agents. Stored records that say a seat was a 2012
# Bot-API bot (the web app's ``classic`` seats) are rebuilt under the new name.
RENAMED: dict[str, str] = {"random": "randombot", "moismcts": "moismcts_enum",
                           "soismcts": "soismcts_enum", "soismcts_pom": "soismcts_pom_enum",
                           "pimc": "pimc_enum", "cheatinguct": "cheatinguct_ensemble"}
_LOADED = False


def register(name: str):
    """Class decorator: register a :class:`Bot` subclass under ``name`` (case-insensitive)."""

    def deco(cls: type[Bot]) -> type[Bot]:
        key = name.lower()
        if key in _REGISTRY and _REGISTRY[key] is not cls:
            raise ValueError(f"bot name {name!r} is registered twice")
        cls.bot_name = name
        _REGISTRY[key] = cls
        return cls

    return deco


def _load_all() -> None:
    """Import every module of ``spyglass.resistance.bots`` so that their ``@register`` runs."""
    global _LOADED
    if _LOADED:
        return
    import spyglass.resistance.bots as pkg

    for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + "."):
        importlib.import_module(info.name)
    _LOADED = True


def available() -> dict[str, type[Bot]]:
    """All registered bots by name, sorted."""
    _load_all()
    return {cls.bot_name: cls for _, cls in sorted(_REGISTRY.items())}


def get(name: str) -> type[Bot]:
    """The bot class registered as ``name``; a clear error lists the choices otherwise."""
    _load_all()
    try:
        return _REGISTRY[name.lower()]
    except KeyError:
        names = ", ".join(sorted(cls.bot_name for cls in _REGISTRY.values()))
        raise KeyError(f"no bot named {name!r}; available bots: {names}") from None
