"""Import bot files, 2012-framework files included, and find the bot classes in them.

2012 bot files say ``from player import Bot, Player``, ``from game import State`` and
``from util import Variable``. :func:`compat_modules` makes those three names resolve to
:mod:`spyglass.resistance.compat.player`, :mod:`spyglass.resistance.compat.game` and
:mod:`spyglass.resistance.compat.util` *only while a bot file or bot module is being imported*: it
puts them in ``sys.modules`` (ahead of any file of the same name on ``sys.path``, which
could not work with the adapter anyway) and afterwards restores whatever was there
before, usually nothing. So a real top-level ``player``/``game``/``util`` module of
another program is shadowed only for the length of that import, never afterwards.
Bot files bind the names at import time (``from player import Bot``), which is how
2012 bots used them; a bot that imports these modules lazily, inside a method, is not
supported.

Each file is imported once per process under a unique module name derived from its
resolved path (so two ``bots.py`` in different folders do not collide, and module-level
state that 2012 bots used for learning across games persists). A 2012-framework file
(:func:`is_2012_source`) is converted from Python 2 in memory and runs with Python 2
semantics (:mod:`spyglass.resistance.compat.py2`); the modules beside it, or in a root given in
``SPYGLASS_2012_PATH`` or an ancestor folder, are importable and converted too
(:mod:`spyglass.resistance.compat.py2_import`). While a Spyglass-native file is imported, its folder
is first on ``sys.path``. Either way siblings are imported under their plain names.
"""

from __future__ import annotations

import ast
import contextlib
import hashlib
import importlib
import importlib.util
import inspect
import re
import sys
import threading
import traceback
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from spyglass.resistance.bots.base import Bot
from spyglass.resistance.compat import game as _game
from spyglass.resistance.compat import player as _player
from spyglass.resistance.compat import util as _util
from spyglass.resistance.compat.py2_import import py2_finders, spec_for_file

#: The 2012 module names and what they resolve to during a bot import.
COMPAT_MODULES: dict[str, ModuleType] = {"player": _player, "game": _game, "util": _util}

_MISSING = object()
_lock = threading.RLock()
_depth = 0
_saved: dict[str, object] = {}


class BotFileError(ValueError):
    """A bot file or module that cannot be imported; says which and why."""


@contextlib.contextmanager
def compat_modules() -> Iterator[None]:
    """Make ``player``, ``game`` and ``util`` the 2012 compat modules for this block."""
    global _depth
    with _lock:
        if _depth == 0:
            for name, module in COMPAT_MODULES.items():
                _saved[name] = sys.modules.get(name, _MISSING)
                sys.modules[name] = module
        _depth += 1
        try:
            yield
        finally:
            _depth -= 1
            if _depth == 0:
                for name, previous in _saved.items():
                    if previous is _MISSING:
                        sys.modules.pop(name, None)
                    else:
                        sys.modules[name] = previous
                _saved.clear()


@contextlib.contextmanager
def _on_sys_path(folder: str) -> Iterator[None]:
    sys.path.insert(0, folder)
    try:
        yield
    finally:
        with contextlib.suppress(ValueError):
            sys.path.remove(folder)


def module_name_for(path: str | Path) -> str:
    """The unique module name a bot file is imported under."""
    resolved = Path(path).resolve()
    digest = hashlib.sha1(str(resolved).encode()).hexdigest()[:12]
    stem = re.sub(r"\W", "_", resolved.stem)
    return f"spyglass_botfile_{stem}_{digest}"


def is_2012_source(source: str) -> bool:
    """Whether a bot file is written for the 2012 framework (and so is converted).

    It is when it imports ``player``, ``game`` or ``util`` at its top level, or when it
    is not valid Python 3 (Python 2 syntax). Spyglass-native files run as they are.
    """
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return True
    for node in tree.body:
        if isinstance(node, ast.Import) and any(
            a.name in COMPAT_MODULES for a in node.names
        ):
            return True
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module in COMPAT_MODULES:
            return True
    return False


def import_bot_file(path: str | Path) -> ModuleType:
    """Import a bot file as a module (once per process), 2012 imports resolved.

    A 2012-framework file (:func:`is_2012_source`) is converted from Python 2 in memory
    and runs with Python 2 semantics (:mod:`spyglass.resistance.compat.py2`); modules beside it are
    importable and converted too (:mod:`spyglass.resistance.compat.py2_import`). What cannot be
    emulated is warned about once, naming file and line.

    Raises :class:`FileNotFoundError` for a missing file and :class:`BotFileError` when
    the file does not import (a syntax error, or a module it needs is missing).
    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"bot file {str(path)!r} does not exist")
    name = module_name_for(path)
    with _lock:
        if name in sys.modules:
            return sys.modules[name]
        source = path.read_bytes().decode("utf-8", errors="replace")
        legacy = is_2012_source(source)
        if legacy:
            spec = spec_for_file(name, path.resolve())
            context = py2_finders(path)
        else:
            spec = importlib.util.spec_from_file_location(name, path.resolve())
            context = _on_sys_path(str(path.resolve().parent))
        if spec is None or spec.loader is None:
            raise BotFileError(f"bot file {str(path)!r} cannot be imported as Python")
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        try:
            with compat_modules(), context:
                spec.loader.exec_module(module)
        except SyntaxError as exc:
            sys.modules.pop(name, None)
            raise BotFileError(
                f"bot file {str(path)!r} is neither Python 2 nor Python 3: "
                f"{getattr(exc, 'msg', exc)}"
                + (f" (line {exc.lineno})" if exc.lineno else "")
            ) from exc
        except Exception as exc:
            sys.modules.pop(name, None)
            where = _failing_line(exc, path) if legacy else ""
            raise BotFileError(
                f"importing bot file {str(path)!r} failed{where}: {type(exc).__name__}: {exc}"
            ) from exc
        return module


def _failing_line(exc: BaseException, path: Path) -> str:
    """`` at FILE:LINE`` for the innermost frame of the bot's own folder, if any."""
    folder = str(path.resolve().parent)
    found = ""
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename.startswith(folder):
            found = f" at {frame.filename}:{frame.lineno}"
    return found


def import_bot_module(name: str) -> ModuleType:
    """Import a bot module by dotted name, 2012 imports resolved (for ``module.Class``)."""
    with _lock, compat_modules():
        return importlib.import_module(name)


def _is_bot_class(obj: object) -> bool:
    return (
        inspect.isclass(obj)
        and issubclass(obj, (Bot, _player.Bot))
        and obj not in (Bot, _player.Bot)
    )


def bot_classes_in_module(module: ModuleType) -> list[type]:
    """The bot classes a module offers, Spyglass or 2012-framework, in source order.

    With ``__all__``, the bot classes it lists; otherwise every bot class defined in the
    module itself (imported ones are left out). The base classes never count. A
    Spyglass bot without a registry name of its own is named after its class.
    """
    exported = getattr(module, "__all__", None)
    if exported is not None:
        candidates = [getattr(module, n, None) for n in exported]
    else:
        candidates = [
            obj for obj in vars(module).values()
            if inspect.isclass(obj) and obj.__module__ == module.__name__
        ]
    classes = []
    for cls in candidates:
        if _is_bot_class(cls) and cls not in classes:
            classes.append(cls)
            if issubclass(cls, Bot) and "bot_name" not in vars(cls):
                cls.bot_name = cls.__name__
    return classes


__all__ = [
    "COMPAT_MODULES",
    "BotFileError",
    "bot_classes_in_module",
    "compat_modules",
    "import_bot_file",
    "import_bot_module",
    "is_2012_source",
]
