"""What every game of the framework provides around its compiled kernel.

A game is a subclass of :class:`Game`, one per package ``spyglass.games.<name>``, listed
once in :mod:`spyglass.games.registry`. An instance is the game *with its options and
player count fixed* (e.g. Phantom 4,4,4, or The Resistance at 7 players with a forced
fifth proposal): the referee, the searches, the records and the terminal all take it.

The rules themselves are the compiled :class:`~spyglass.search.protocol.Kernel` (the only
copy of them); this class adds the plain-Python parts: options, the initial state from a
seed, and words for actions, views and observations. Everything here that describes
what a seat sees takes that seat's view or observation key, never the full state, so a
rendering cannot leak what the seat does not know.
"""

from __future__ import annotations

import importlib
import math
from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from spyglass.params import Param, validate
from spyglass.rng import check_seed

if TYPE_CHECKING:  # an annotation only: a game's metadata loads without numba
    from spyglass.search.protocol import Kernel

INFORMATION_KINDS = ("perfect", "imperfect", "hidden roles")
SHARED_TOP = "1 for a unique top reward, 1/k when k seats share it, else 0"


def shared_top(rewards: Sequence[float]) -> list[float]:
    """Win scores: 1 for a unique top reward, ``1/k`` for each of ``k`` seats sharing it
    (a two-player draw is ½), 0 otherwise."""
    best = max(rewards)
    top = [j for j, r in enumerate(rewards) if math.isclose(r, best, abs_tol=1e-12)]
    return [1.0 / len(top) if j in top else 0.0 for j in range(len(rewards))]


def top_or_tied(rewards: Sequence[float]) -> list[float]:
    """Win scores: 1 for every seat with the top reward, ties included, 0 otherwise."""
    best = max(rewards)
    return [1.0 if math.isclose(r, best, abs_tol=1e-12) else 0.0 for r in rewards]


class IllegalMove(ValueError):
    """The text names a move the game knows, but that move is not legal here (so a
    reader must not reinterpret the text, e.g. as a position in the list of moves)."""


#: Games with at most this many action ids let :meth:`Game.parse_action` recognise the
#: name of any of them (to tell "not legal here" from "not a move at all").
RECOGNISE_ALL_UP_TO = 4096


class Game(ABC):
    """A game with fixed options and player count (see the module docstring).

    Class attributes a game sets: ``name`` (the registry key), ``title``,
    ``min_players``/``max_players``, ``information`` (one of ``INFORMATION_KINDS``),
    ``has_roles`` (players have hidden roles, e.g. spies; tournaments balance them),
    ``options`` (its rule options, declared once as :class:`~spyglass.params.Param`),
    ``win_statistic`` (what tournaments count as a win, in words; with
    :meth:`win_scores`), ``seat_names`` (the words its texts use for seats, e.g. Hearts's
    North, East, South, West; empty: "seat N"; a page with players' names shows those).
    Search capabilities, each ``"module:name"`` inside the game's package (the binding
    generator :mod:`spyglass.search.bindings` writes the game's compiled entry points from
    them; run ``python -m spyglass.search.bindings --write`` after changing one):
    ``search_kernel`` (the compiled :class:`Kernel` tuple, default ``"kernel:KERNEL"``),
    ``simultaneous`` (predicate ``simultaneous(s) -> bool``: the actor's move is one of a
    round of simultaneous moves, so EXP3 may apply; None: every move is sequential),
    ``episode`` (the EPIC episode function ``episode(s, a) -> label or -1``, Whitehouse
    2014, §8.3.2; None: EPIC is refused), ``sdmcts_abstraction`` (the claim abstraction
    the SDMCTS search of Bitan & Kraus 2018 needs; None: no SDMCTS binding),
    ``particle_repair`` (``repair(...)`` mending a particle an observation contradicts, for
    ``mtismcts_pf``; see :data:`spyglass.search.particles.Repair`; None: ruled out instead),
    ``role_deals`` (``role_deals(state, seat) -> (states, weights)``: every assignment of
    the other seats' hidden roles ``seat`` cannot rule out, each in a copy of the full
    ``state``, with its chance under the deal; for ``mtismcts_cardcheat``, the player
    that sees all hidden information but the roles; None: that player is refused).
    The generated modules live in the game class's package (:meth:`package`).
    Its rules for players are ``rules.md`` in that package (:meth:`rules`).
    Instance attributes it sets in ``__init__`` (after calling ``super().__init__``):
    ``kernel``, ``state_size``, ``view_size``, ``n_actions`` (action ids lie in
    ``0 .. n_actions - 1``), ``max_moves`` (an upper bound on the moves of a game).
    """

    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    information: ClassVar[str]
    has_roles: ClassVar[bool] = False
    options: ClassVar[tuple[Param, ...]] = ()
    win_statistic: ClassVar[str] = SHARED_TOP
    seat_names: ClassVar[tuple[str, ...]] = ()
    search_kernel: ClassVar[str] = "kernel:KERNEL"
    simultaneous: ClassVar[str | None] = None
    episode: ClassVar[str | None] = None
    sdmcts_abstraction: ClassVar[str | None] = None
    particle_repair: ClassVar[str | None] = None
    role_deals: ClassVar[str | None] = None

    kernel: Kernel
    state_size: int
    view_size: int
    n_actions: int
    max_moves: int

    @classmethod
    def package(cls) -> str:
        """The package holding the game's modules (its kernel and generated bindings)."""
        return cls.__module__.rpartition(".")[0] or cls.__module__

    @classmethod
    def rules(cls) -> str:
        """The game's rules for players, in words: ``rules.md`` beside the game class (a
        short Markdown text that cites its sources); ``""`` if the game has none. Read from
        the game's own package, so a caller names a game, never a file."""
        from importlib import resources

        try:
            return resources.files(cls.package()).joinpath("rules.md").read_text("utf-8")
        except (FileNotFoundError, ModuleNotFoundError):
            return ""

    @classmethod
    def capability(cls, attr: str) -> Any:
        """The object a capability attribute (``"module:name"``) names, or None if unset."""
        ref = getattr(cls, attr)
        if ref is None:
            return None
        module, _, name = ref.partition(":")
        return getattr(importlib.import_module(f"{cls.package()}.{module}"), name)

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        if n_players is None:
            n_players = self.min_players
        if type(n_players) is not int or not self.min_players <= n_players <= self.max_players:
            span = (
                f"{self.min_players}"
                if self.min_players == self.max_players
                else f"{self.min_players} to {self.max_players}"
            )
            raise ValueError(f"{self.title} is played by {span} players, not {n_players!r}")
        self.n_players = n_players
        self.settings = validate(self.options, options, owner=f"game {self.name}")

    # --- what the referee, records and searches need ---------------------------------

    @abstractmethod
    def new_state(self, seed: int) -> np.ndarray:
        """The initial full state; every chance outcome (a deal, roles) drawn from ``seed``."""

    @staticmethod
    def check_seed(seed: object) -> int:
        """``seed`` as a Python int, or an error: the one rule, :func:`spyglass.rng.check_seed`."""
        return check_seed(seed)

    def view(self, state: np.ndarray, seat: int) -> np.ndarray:
        """``seat``'s view of ``state`` (a fresh array, see ``Kernel.view``)."""
        v = np.zeros(self.view_size, dtype=np.int64)
        self.kernel.view(state, seat, v)
        return v

    def legal_actions(self, state: np.ndarray) -> list[int]:
        """The legal action ids at ``state``, in increasing order."""
        k = self.kernel
        return [int(k.legal_action(state, i)) for i in range(k.n_legal(state))]

    def rewards(self, state: np.ndarray) -> tuple[float, ...]:
        """Every seat's reward in a finished game."""
        return tuple(float(self.kernel.reward(state, j)) for j in range(self.n_players))

    def win_scores(self, rewards: Sequence[float]) -> list[float]:
        """Each seat's win score in one finished game, from its rewards alone (so that
        stored records can be tallied again): tournaments report its mean as the win
        rate, described by ``win_statistic``. Default: :func:`shared_top`; a game whose
        literature counts wins otherwise overrides both (Hearts: first or equal first)."""
        return shared_top(rewards)

    def roles(self, state: np.ndarray) -> tuple[str, ...]:
        """Each seat's hidden role in a full state (e.g. ``"spy"``), for records and
        role-balanced tournaments; ``""`` for every seat in games without roles."""
        return ("",) * self.n_players

    def config(self) -> dict:
        """The game as plain data: name, players and options (for records)."""
        return {"game": self.name, "players": self.n_players, "options": dict(self.settings)}

    # --- words (terminal, transcripts, the generic web view) --------------------------

    @abstractmethod
    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        """A short name for an action id, e.g. ``"b2"``; :meth:`parse_action` reads it back.

        ``view``: the actor's view when the action is (or was) chosen. Pass it when you
        have it: in some games an id's meaning depends on the public phase (in The
        Resistance, 1 is "approve" in a vote and "fail" on a mission).
        """

    def parse_action(self, text: str, legal: list[int], view: np.ndarray | None = None) -> int:
        """The legal action a person typed (its :meth:`action_text`); an
        :class:`IllegalMove` when the text names a move that is not legal here, a plain
        ValueError when it names no move at all."""
        wanted = text.strip().lower()
        for a in legal:
            if self.action_text(a, view).lower() == wanted:
                return a
        choices = ", ".join(self.action_text(a, view) for a in legal)
        if self.n_actions <= RECOGNISE_ALL_UP_TO and wanted:
            for a in range(self.n_actions):
                try:
                    known = self.action_text(a, view).lower() == wanted
                except ValueError:  # an id that names no move in this game
                    continue
                if known:
                    raise IllegalMove(
                        f"{text.strip()!r} is not a legal move here; legal: {choices}")
        raise ValueError(f"{text!r} is not a legal move here; legal: {choices}")

    @abstractmethod
    def view_text(self, view: np.ndarray, seat: int) -> str:
        """``seat``'s view as text (a board, a hand, the mission track)."""

    @abstractmethod
    def observation_text(
        self, obs: int, seat: int, actor: int, view: np.ndarray | None = None
    ) -> str:
        """A move by ``actor`` as ``seat`` saw it (its observation key), in words.

        ``view``: ``seat``'s view *after* the move (what ``Agent.observe`` receives), for
        games whose keys need the public phase to be told apart.
        """

    def state_text(self, state: np.ndarray) -> str:
        """The full state, everything revealed (for finished games and replays)."""
        return "\n".join(
            f"seat {j}:\n{self.view_text(self.view(state, j), j)}" for j in range(self.n_players)
        )

    def __repr__(self) -> str:
        opts = ",".join(f"{k}={v}" for k, v in self.settings.items())
        return f"{type(self).__name__}(players={self.n_players}{',' if opts else ''}{opts})"
