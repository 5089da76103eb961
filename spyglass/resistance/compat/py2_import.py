"""Import 2012 (Python 2) modules through the in-memory converter, from the bot's folders.

A 2012 bot file may import modules kept beside it (``import helpers``) or beside the
framework (a ``mods/`` package at the root of the 2012 repository). While a 2012 bot
file is imported, :func:`py2_finders` makes such modules importable and converts them
like the bot file (:mod:`spyglass.resistance.compat.py2`): modules in the bot file's own folder
come first (as a script's folder does in Python), then the roots named in the
environment variable ``SPYGLASS_2012_PATH`` (folders separated by ``os.pathsep``), then
the bot file's ancestor folders, nearest first, for names nothing else provides (so a
``mods/`` package at the root of the 2012 repository is found from any sub-folder
without shadowing installed modules). Nothing is written to those folders (no
``__pycache__``).
"""

from __future__ import annotations

import contextlib
import importlib.abc
import importlib.util
import os
import sys
import traceback
import warnings
from collections.abc import Iterator, Sequence
from pathlib import Path
from types import ModuleType

from spyglass.resistance.compat import py2

#: Environment variable: extra import roots for 2012 bot files.
PATH_VARIABLE = "SPYGLASS_2012_PATH"
#: How many ancestor folders of a bot file are searched (for a ``mods/`` at the root).
ANCESTORS = 4


class Py2CompatWarning(UserWarning):
    """Something in a 2012 file that Spyglass cannot run with Python 2 semantics."""


_REPORTED: set[str] = set()


def report(issues: Sequence[py2.Py2Issue]) -> None:
    """Warn once per process about each file's issues, naming file and line."""
    if not issues:
        return
    path = issues[0].path
    if path in _REPORTED:
        return
    _REPORTED.add(path)
    lines = "\n".join(f"  {issue}" for issue in issues)
    # Attributed to the bot file itself, so that the warning shows the user's own line.
    warnings.warn_explicit(
        Py2CompatWarning(
            f"{path}: {len(issues)} Python 2 construct(s) cannot be emulated and may fail "
            f"when reached:\n{lines}"
        ),
        Py2CompatWarning, path, issues[0].line,
    )


_FAILURES: set[tuple[str, int, str]] = set()
# Exceptions that Python 2 code typically meets in Python 3 when a difference is not
# emulated (a missing builtin, an iterator used as a list, an unorderable comparison).
_PY3_SUSPECTS = (TypeError, AttributeError, NameError, ImportError)


def report_failure(cls: type, exc: BaseException) -> None:
    """Warn once per process and source line that a 2012 bot's code raised ``exc``.

    The referee still ends the game with the error; the warning names the bot file and
    line once, instead of leaving one error per game to read.
    """
    source = getattr(sys.modules.get(cls.__module__), "__file__", None)
    if not source:
        return
    frames = [f for f in traceback.extract_tb(exc.__traceback__)
              if Path(f.filename).parent == Path(source).parent]
    if not frames:
        return
    where = frames[-1]
    key = (where.filename, where.lineno or 0, type(exc).__name__)
    if key in _FAILURES:
        return
    _FAILURES.add(key)
    hint = (" (possibly Python 2 behaviour that Spyglass does not emulate)"
            if isinstance(exc, _PY3_SUSPECTS) else "")
    warnings.warn_explicit(
        Py2CompatWarning(
            f"{where.filename}:{where.lineno}: {cls.__name__} raised "
            f"{type(exc).__name__}: {exc}{hint}; the games where this happens end with "
            "this error (reported once)"
        ),
        Py2CompatWarning, where.filename, where.lineno or 0,
    )


class Py2Loader(importlib.abc.Loader):
    """Loads one Python 2 source file: converted in memory, run with Python 2 builtins."""

    def __init__(self, path: str, in_package: bool) -> None:
        self.path = path
        self.in_package = in_package
        self.issues: list[py2.Py2Issue] = []

    def create_module(self, spec):  # noqa: D102 - default module creation
        return None

    def exec_module(self, module: ModuleType) -> None:
        source = Path(self.path).read_bytes().decode("utf-8", errors="replace")
        code, self.issues = py2.compiled(source, self.path, self.in_package)
        report(self.issues)
        namespace = module.__dict__
        py2.prepare_namespace(namespace)
        namespace["__spyglass_py2_issues__"] = tuple(self.issues)
        exec(code, namespace)
        py2.patch_module_classes(namespace, module.__name__)

    def get_filename(self, fullname: str) -> str:  # for tracebacks and inspect
        return self.path

    def get_source(self, fullname: str) -> str:
        return Path(self.path).read_text(encoding="utf-8", errors="replace")


def spec_for_file(name: str, path: Path, in_package: bool = False):
    """An import spec that loads ``path`` (a 2012 file) converted."""
    package = path.name == "__init__.py"
    return importlib.util.spec_from_file_location(
        name, str(path), loader=Py2Loader(str(path), in_package or package),
        submodule_search_locations=[str(path.parent)] if package else None,
    )


class Py2Finder(importlib.abc.MetaPathFinder):
    """Finds top-level modules in ``roots`` and the submodules of packages it loaded."""

    def __init__(self, roots: Sequence[Path]) -> None:
        self.roots = [Path(r) for r in roots]

    def find_spec(self, fullname: str, path=None, target=None):
        if path is None:
            if "." in fullname:
                return None
            folders = self.roots
        else:
            parent = sys.modules.get(fullname.rpartition(".")[0])
            spec = getattr(parent, "__spec__", None)
            if not isinstance(getattr(spec, "loader", None), Py2Loader):
                return None
            folders = [Path(p) for p in path]
        leaf = fullname.rpartition(".")[2]
        for folder in folders:
            for candidate in (folder / leaf / "__init__.py", folder / f"{leaf}.py"):
                if candidate.is_file():
                    return spec_for_file(fullname, candidate, in_package=path is not None)
        return None


def _env_roots() -> list[Path]:
    return [Path(p) for p in os.environ.get(PATH_VARIABLE, "").split(os.pathsep) if p]


@contextlib.contextmanager
def py2_finders(bot_file: Path) -> Iterator[None]:
    """Make the 2012 bot file's neighbours importable (converted) for this block."""
    folder = bot_file.resolve().parent
    front = Py2Finder([folder, *_env_roots()])
    back = Py2Finder(list(folder.parents)[:ANCESTORS])
    sys.meta_path.insert(0, front)
    sys.meta_path.append(back)
    try:
        yield
    finally:
        for finder in (front, back):
            with contextlib.suppress(ValueError):
                sys.meta_path.remove(finder)


__all__ = ["PATH_VARIABLE", "Py2CompatWarning", "Py2Finder", "Py2Loader", "py2_finders",
           "report", "report_failure", "spec_for_file"]
