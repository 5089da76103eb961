"""Keep numba's on-disk cache honest: drop an entry point when a source it inlines changed.

Numba checks only the timestamp of the file that defines a cached function, but a game's
entry points inline its kernel, the helpers the kernel imports (e.g. ``games/keys.py``) and
the search loops. :func:`flush_stale_caches` follows the real import graph instead of a
hand-written list: starting at the module that defines each entry point, it reads the
``import`` statements of every ``spyglass`` module reached (statically, with :mod:`ast`),
fingerprints all those files, and flushes the function's cache when the fingerprint kept
beside numba's cache differs. Over-approximate by design: a module imported but not
inlined only costs a recompile when it changes.
"""

from __future__ import annotations

import ast
import hashlib
from collections.abc import Iterable
from functools import cache
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]  # the directory holding the ``spyglass`` package
PACKAGE = "spyglass"


def _module_file(name: str) -> Path | None:
    """The source file of module ``name`` under :data:`ROOT`, or None (not ours, or absent)."""
    if name != PACKAGE and not name.startswith(PACKAGE + "."):
        return None
    base = ROOT.joinpath(*name.split("."))
    for path in (base.with_suffix(".py"), base / "__init__.py"):
        if path.is_file():
            return path
    return None


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@cache
def _imports(path: Path) -> tuple[Path, ...]:
    """The ``spyglass`` source files ``path`` imports (anywhere in the file)."""
    here = _module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: list[Path] = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found += [f for a in node.names if (f := _module_file(a.name))]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{anchor}.{base}" if base else anchor
            for alias in node.names:
                sub = _module_file(f"{base}.{alias.name}")
                if sub is not None:  # ``from pkg import submodule``
                    found.append(sub)
                elif (f := _module_file(base)) is not None:
                    found.append(f)
    return tuple(dict.fromkeys(found))


def dependency_files(module: str | ModuleType) -> list[Path]:
    """Every ``spyglass`` source file ``module`` reaches through its imports (itself first)."""
    name = module if isinstance(module, str) else module.__name__
    start = _module_file(name)
    if start is None:
        return []
    seen = {start: None}
    todo = [start]
    while todo:
        for dep in _imports(todo.pop()):
            if dep not in seen:
                seen[dep] = None
                todo.append(dep)
    return list(seen)


def fingerprint(modules: Iterable[str | ModuleType]) -> str:
    """A digest of the sources reachable from ``modules`` (paths relative to the package)."""
    files: dict[Path, None] = {}
    for module in modules:
        files.update(dict.fromkeys(dependency_files(module)))
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(ROOT)).encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def flush_stale_caches(functions: Iterable, modules: Iterable[ModuleType] = ()) -> None:
    """Drop each cached ``functions``' compiled code if a source it may inline has changed.

    The sources are those reachable by imports from the module defining each function, plus
    from ``modules`` (for a module outside the ``spyglass`` package, e.g. a test's game, pass
    it here: its own file is then hashed too). The one cache-flush mechanism of the project.
    """
    functions = list(functions)
    extra = list(modules)
    roots = [getattr(fn, "py_func", fn).__module__ for fn in functions]
    digest = fingerprint([*roots, *(m for m in extra if _module_file(m.__name__))])
    outside = [m for m in extra if not _module_file(m.__name__)]
    if outside:
        h = hashlib.sha256(digest.encode())
        for m in outside:
            h.update(Path(m.__file__).read_bytes())
            for mod_name in _outside_imports(Path(m.__file__)):
                h.update(fingerprint([mod_name]).encode())
        digest = h.hexdigest()
    for fn in functions:
        cache_ = getattr(fn, "_cache", None)
        if cache_ is None or not hasattr(cache_, "flush"):  # NUMBA_DISABLE_JIT=1
            return
        try:
            marker = Path(cache_.cache_path) / f"{fn.py_func.__module__}.{fn.__name__}.deps"
            if not marker.exists() or marker.read_text() != digest:
                cache_.flush()
                marker.write_text(digest)
        except OSError:  # a read-only cache directory: numba will not cache either
            pass


def _outside_imports(path: Path) -> list[str]:
    """The ``spyglass`` modules a file outside the package imports."""
    names = []
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names]
    return [n for n in names if _module_file(n)]
