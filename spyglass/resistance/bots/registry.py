"""The 2012 Bot-API bots by name (``@register("name")``): one of the two kinds of player.

Every built-in bot registers itself here; the registry's code is the one
:class:`spyglass.naming.Registry`, shared with the agents' (the one table of both kinds is
:mod:`spyglass.players`).
"""

from __future__ import annotations

import pkgutil

from spyglass.naming import Registry
from spyglass.resistance.bots.base import Bot

# Six bots were renamed when the one registry gave every name one player (issue 27): their
# old names now mean the game-general agents. Stored records that say a seat was a 2012
# Bot-API bot (the web app's ``classic`` seats) are rebuilt under the new name.
RENAMED: dict[str, str] = {"random": "randombot", "moismcts": "moismcts_enum",
                           "soismcts": "soismcts_enum", "soismcts_pom": "soismcts_pom_enum",
                           "pimc": "pimc_enum", "cheatinguct": "cheatinguct_ensemble"}


def _modules() -> list[str]:
    """Every module of ``spyglass.resistance.bots`` (each bot's ``@register`` runs there)."""
    import spyglass.resistance.bots as pkg

    return [info.name for info in pkgutil.walk_packages(pkg.__path__, pkg.__name__ + ".")]


#: The bots by name.
REGISTRY = Registry(Bot, "bot", "bot_name", _modules)
register = REGISTRY.register
available = REGISTRY.available
get = REGISTRY.get
