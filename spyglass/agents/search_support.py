"""What the search agents share: their declared parameters, the settings dataclass they
become, and finding a game's compiled search entry points.

A game's searches are bound in the generated ``<game package>/search_entry.py`` (``ENTRY``, see
:mod:`spyglass.search.sampled.entry`); a game object may also carry its entry directly
as a ``search_entry`` attribute (test games do).
"""

from __future__ import annotations

import importlib

import numpy as np

from spyglass.games.base import Game
from spyglass.params import Param
from spyglass.rng import make_rng
from spyglass.search.icarus.spec import DEPARTURES, Tuning, parse
from spyglass.search.sampled.driver import GameShape, SearchSettings
from spyglass.search.sampled.entry import SearchEntry

BUDGET_PARAMS = (
    Param("iterations", int, 10_000, "iterations per decision", low=1),
    Param("seconds", float, None, "seconds per decision (replaces iterations when set)",
          low=1e-6, optional=True),
)
BANDIT_PARAMS = (
    Param("bandit", str, "ucb1", "selection bandit", choices=("ucb1", "ucbt")),
    Param("c", float, 0.7, "UCB1 exploration constant", low=0.0),
)
EXP3_PARAM = Param("exp3", bool, False, "EXP3 at simultaneous-move nodes")
SEED_PARAM = Param("seed", int, None, "fixed seed (default: the game's seed for this seat)",
                   optional=True)


def search_settings(settings: dict, iterations: int | None = None) -> SearchSettings:
    """The :class:`SearchSettings` of validated agent ``settings`` (``iterations`` overrides)."""
    seconds = settings.get("seconds")
    its = iterations if iterations is not None else (
        None if seconds is not None else settings.get("iterations", 10_000))
    return SearchSettings(iterations=its, seconds=None if its is not None else seconds,
                          bandit=settings.get("bandit", "ucb1"), c=settings.get("c", 0.7),
                          exp3=settings.get("exp3", False))


def search_entry(game: Game) -> SearchEntry:
    """``game``'s compiled search entry points; a ValueError if it has none."""
    entry = getattr(game, "search_entry", None)
    if entry is not None:
        return entry
    module = f"{type(game).package()}.search_entry"
    try:
        return importlib.import_module(module).ENTRY
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise ValueError(f"game {game.name!r} has no search entry points ({module}); "
                         "see spyglass.search.sampled.entry") from None


def shape_of(game: Game) -> GameShape:
    return GameShape.of(game)


def agent_rng(settings: dict, seed: int) -> np.ndarray:
    """The agent's generator: its fixed ``seed`` setting if given, else the game's seed."""
    fixed = settings.get("seed")
    return make_rng(seed if fixed is None else fixed)


ENHANCE_PARAM = Param(
    "enhance", str, "",
    "ICARUS enhancements (Whitehouse 2014 ch. 8), e.g. epic+lgrf, rave>mast, nast3, or a "
    "Table 8.1 name (ERML); grammar in docs/icarus.md; empty: the baseline")


#: The named departures from Whitehouse 2014's ICARUS specifications (declared in
#: :data:`spyglass.search.icarus.spec.DEPARTURES`); each defaults to the thesis's.
DEPARTURE_PARAMS = (
    Param("amaf_capture", str, Tuning.amaf_capture,
          "AMAF-6's capture with enhance=rave/amaf: selection (the thesis's: under "
          "selection nodes only) or tree (a departure: every tree choice, the expansion "
          "node's included); docs/icarus.md", choices=tuple(DEPARTURES["amaf_capture"])),
    Param("epic_avail", str, Tuning.epic_avail,
          "EPIC-7's availability with enhance=epic: all (the thesis's: every record from "
          "the search's start) or visited (a departure: only records already visited); "
          "docs/icarus.md", choices=tuple(DEPARTURES["epic_avail"])),
)


def combination(settings: dict):
    """The parsed ``enhance`` setting with the named departures (a ValueError names what
    is wrong)."""
    chosen = {p.name: settings.get(p.name, p.default) for p in DEPARTURE_PARAMS}
    return parse(settings.get("enhance", "") or "", Tuning(**chosen))


def icarus_entry(game: Game):
    """``game``'s compiled ICARUS entry points; a ValueError if it has none."""
    entry = getattr(game, "icarus_entry", None)
    if entry is not None:
        return entry
    module = f"{type(game).package()}.icarus_entry"
    try:
        return importlib.import_module(module).ICARUS
    except ModuleNotFoundError as exc:
        if exc.name != module:
            raise
        raise ValueError(f"game {game.name!r} has no ICARUS entry points ({module}); see "
                         "spyglass.search.icarus.entry") from None
