"""How a player is named: the one spec grammar and the one registry class of both kinds.

Both kinds of player (game-general agents, :mod:`spyglass.agents.registry`; The
Resistance's 2012 Bot-API bots, :mod:`spyglass.resistance.bots.registry`) are named the
same way, so the text of a spec is split here, once, and each API keeps only what truly
differs (how it loads a class from a module or a file, how it reads a setting's value):

* ``name`` or ``name:key=value,...``: a registered name (:data:`NAME`);
* ``package.module.Class[:key=value,...]``: an importable class (:data:`MODULE`);
* ``path/to/file.py``, ``file.py:Class``, ``file.py:key=value`` or
  ``file.py:Class:key=value``: classes of a Python file (:data:`FILE`).

The settings are ``key=value`` pairs (:func:`spyglass.params.parse_assignments`). A web
spec is data only: :func:`parse_named_spec` accepts the ``NAME`` form alone.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from spyglass.params import parse_assignments

NAME, MODULE, FILE = "name", "module", "file"


def is_file_source(text: str) -> bool:
    """Whether a player's spec names a Python file (``path/to/file.py`` or
    ``file.py:Class...``) rather than a registered name or an importable module (whose
    dotted path may contain ``.py``, as in ``pkg.python_bots.Bot``)."""
    return text.split(":", 1)[0].endswith(".py") or ".py:" in text


@dataclass(frozen=True)
class SpecText:
    """A spec's text split by the one grammar (see the module docstring).

    ``source``: the name, ``module.Class`` or file path as written (stripped);
    ``cls``: a file's class (empty: not named); ``settings``: the text after the source
    (``key=value,...``, as written, for labels; :attr:`values` parses it)."""

    form: str
    source: str
    cls: str = ""
    settings: str = ""

    @property
    def key(self) -> str:
        """The registry key of a name (lower case)."""
        return self.source.lower()

    @property
    def values(self) -> dict[str, str]:
        """The settings as ``{key: value}`` strings (a ValueError for a bad pair)."""
        return parse_assignments(self.settings)


def split_spec(text: str) -> SpecText:
    """Split a spec's text (see the module docstring); nothing is imported or opened."""
    text = text.strip()
    if is_file_source(text):
        head = text.partition(":")[0]
        if head.endswith(".py"):
            path, rest = head, text[len(head) + 1:]
        else:  # a ':' inside the path: the file ends at the first '.py:'
            path, _, rest = text.partition(".py:")
            path += ".py"
        cls, _, tail = rest.partition(":")
        if "=" in cls:  # ``file.py:key=value``: no class named
            return SpecText(FILE, path, "", rest)
        return SpecText(FILE, path, cls.strip(), tail)
    name, settings = split_named(text)
    return SpecText(MODULE if "." in name else NAME, name, "", settings)


def split_named(text: str) -> tuple[str, str]:
    """``name[:settings]`` as ``(name, settings)``: the name form of the grammar."""
    name, _, settings = text.strip().partition(":")
    return name.strip(), settings


_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
MAX_SPEC = 300


def parse_named_spec(text: Any) -> tuple[str, dict[str, str]]:
    """A data-only spec ``name`` or ``name:key=value,...`` as ``(name, {key: value})``.

    Why a parser of its own: a spec from an untrusted source (the web form) must never
    be a file or module path. The name is a bare registry name (letters, digits, ``_``,
    lower-cased); nothing is imported or opened -- the caller looks the name up in a
    registry and checks the values against its :class:`~spyglass.params.Param`
    declarations (:func:`~spyglass.params.validate`), the same declarations the command
    line uses. ValueError says why a text is refused.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("give a name, e.g. 'random' or 'moismcts:iterations=500'")
    if len(text) > MAX_SPEC:
        raise ValueError(f"a spec is at most {MAX_SPEC} characters")
    name, assignments = split_named(text)
    name = name.lower()
    if not name or not set(name) <= _NAME_CHARS:
        raise ValueError(f"{name[:40]!r} is not a registered name (letters, digits and _ "
                         "only: no paths or modules)")
    values = parse_assignments(assignments)
    for key in values:
        if not key.isidentifier():
            raise ValueError(f"{name}: {key[:40]!r} is not a parameter name")
    return name, values


class UnknownName(KeyError, ValueError):
    """No player of a registry has this name (a ValueError, and a KeyError as the bots'
    ``get`` raised before the registries were one class)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


class Registry:
    """Players of one API by name (case-insensitive): ``register`` is a class decorator
    that sets the class's ``attr`` (``agent_name``, ``bot_name``) to its name; the
    built-in players register when ``modules()`` are first imported (on first lookup,
    so that importing a registry costs nothing)."""

    def __init__(self, base: type, noun: str, attr: str,
                 modules: Callable[[], Iterable[str]]) -> None:
        self.base, self.noun, self.attr, self._modules = base, noun, attr, modules
        self._classes: dict[str, type] = {}
        self._loaded = False

    def register(self, name: str) -> Callable[[type], type]:
        """Class decorator: register a subclass of the API's base class as ``name``."""
        key = name.strip().lower()

        def deco(cls: type) -> type:
            if not (isinstance(cls, type) and issubclass(cls, self.base)):
                raise TypeError(f"{cls!r} is not a {self.base.__name__} subclass")
            if key in self._classes and self._classes[key] is not cls:
                raise ValueError(f"a {self.noun} named {key!r} is already registered")
            setattr(cls, self.attr, key)
            self._classes[key] = cls
            return cls

        return deco

    def _load(self) -> None:
        if not self._loaded:
            self._loaded = True
            for module in self._modules():
                importlib.import_module(module)

    def available(self) -> dict[str, type]:
        """Every registered player, name -> class, in name order."""
        self._load()
        return dict(sorted(self._classes.items()))

    def find(self, name: str) -> type | None:
        """The class registered as ``name`` (any case, spaces around ignored), or None."""
        self._load()
        return self._classes.get(name.strip().lower()) if isinstance(name, str) else None

    def unknown(self, name: Any) -> UnknownName:
        """The error for a name not registered here (it lists the names that are)."""
        self._load()
        names = ", ".join(sorted(self._classes)) or "none registered"
        return UnknownName(f"no {self.noun} named {name!r}; {self.noun}s: {names}")

    def get(self, name: str) -> type:
        """The class registered as ``name``; :class:`UnknownName` lists the choices."""
        cls = self.find(name)
        if cls is None:
            raise self.unknown(name)
        return cls

    def forget(self, name: str) -> None:
        """Drop a registration (tests that register a player of their own)."""
        self._classes.pop(name.strip().lower(), None)
