"""Convert a 2012 (Python 2) bot file in memory, so that it runs with Python 2 semantics.

The user's file is never written. Conversion has two steps:

1. fissix, the maintained fork of ``lib2to3``, applies the standard 2to3 fixers: print
   statements, ``except X, e``, ``dict.has_key``, ``iteritems``, ``xrange``, ``reduce``,
   list-returning ``filter``/``map``/``zip``/``keys()`` where the result is used as a
   list, and so on. A file that already is Python 3 (a ``print(..., end="")`` does not
   parse as a Python 2 print statement) is converted with print as a function.
2. An :mod:`ast` pass rewrites what 2to3 leaves to run time (see
   :mod:`spyglass.resistance.compat.py2_runtime`): ordering comparisons (``<`` ``<=`` ``>`` ``>=``,
   chains included) call Python 2's mixed-type order, ``/`` and ``/=`` floor-divide two
   integers (unless the file imports ``division`` from ``__future__``), and
   ``x.sort(...)`` sorts a list as Python 2 did (``cmp=`` included).

What the converter cannot translate is returned as :class:`Py2Issue` (file, line,
message) for the loader to report once.

Step 1 is slow (building fissix's fixers and refactoring take about 0.4 s per file, and an
isolated bot's worker process converts its file afresh: issue 27 measured a third of the
workers' CPU in it). Its result, the converted text and fissix's notes, is kept in a
cache directory, ``$SPYGLASS_CACHE_DIR/py2`` (default ``$XDG_CACHE_HOME/spyglass/py2`` or
``~/.cache/spyglass/py2``), one file per (source text, path, package flag, converter):
the key hashes the source, this module's own code and fissix's version, so a changed
file or converter never meets an old entry. An entry that cannot be read or written is
ignored (the file is converted as before); ``SPYGLASS_CACHE_DIR=""`` turns the cache off.
Step 2 and compiling are cached the same way (:func:`compiled`: the code object,
marshalled, as ``__pycache__`` keeps a module's, keyed also by the interpreter's version).
"""

from __future__ import annotations

import ast
import functools
import hashlib
import json
import logging
import marshal
import os
import re
import sys
import tempfile
import types
from dataclasses import dataclass
from pathlib import Path

from spyglass.resistance.compat import py2_runtime

#: The name under which converted code reaches the helpers.
RUNTIME = "__spyglass_py2__"

# fix_import turns ``import sibling`` into ``from . import sibling``, which is right only
# inside a package; a top-level bot file imports its siblings as top-level modules.
_TOP_LEVEL_SKIP = ("fissix.fixes.fix_import",)


# fissix warnings about what the runtime emulates anyway (py2_runtime.py2_map pads).
_EMULATED = ("map(None, ...)",)

# Python 2 modules with no Python 3 counterpart that 2to3 knows of.
_REMOVED_MODULES = {"sets", "md5", "sha", "commands", "new", "popen2", "mimetools",
                    "rfc822", "compiler", "string_escape", "user", "mutex", "statvfs"}
# Functions of Python 2's ``string`` module that Python 3 dropped (str methods remain).
_REMOVED_STRING = {"letters", "lowercase", "uppercase", "maketrans", "atoi", "atof", "atol",
                   "join", "joinfields", "split", "splitfields", "lower", "upper", "strip",
                   "lstrip", "rstrip", "replace", "find", "rfind", "index", "rindex", "count",
                   "zfill", "capitalize", "swapcase", "expandtabs", "translate", "ljust",
                   "rjust", "center"}


@dataclass(frozen=True)
class Py2Issue:
    """Something in a 2012 file that cannot be emulated: where and what."""

    path: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


class Py2ConversionError(SyntaxError):
    """The file is neither Python 2 nor Python 3 (a real syntax error)."""


@functools.lru_cache(maxsize=4)
def _tool(in_package: bool, print_function: bool):
    from fissix.refactor import RefactoringTool, get_fixers_from_package

    logging.getLogger("RefactoringTool").setLevel(logging.ERROR)
    fixers = get_fixers_from_package("fissix.fixes")
    if not in_package:
        fixers = [f for f in fixers if f not in _TOP_LEVEL_SKIP]
    return RefactoringTool(fixers, {"print_function": print_function})


def _fissix(source: str, path: str, in_package: bool) -> tuple[str, list[Py2Issue]]:
    from fissix.pgen2.parse import ParseError
    from fissix.pgen2.tokenize import TokenError

    if not source.endswith("\n"):
        source += "\n"
    last: Exception | None = None
    for print_function in (False, True):
        tool = _tool(in_package, print_function)
        tool.fixer_log.clear()
        try:
            tree = tool.refactor_string(source, path)
        except (ParseError, TokenError, IndentationError, SyntaxError) as exc:
            last = exc
            continue
        issues = []
        for message in tool.fixer_log:
            head, _, text = message.partition(": ")
            if not head.startswith("Line ") or any(e in text for e in _EMULATED):
                continue
            issue = Py2Issue(path, int(head.split()[1]), text)
            if issue not in issues:
                issues.append(issue)
        return str(tree), issues
    line = getattr(last, "lineno", None) or _parse_error_line(last)
    raise Py2ConversionError(f"{path}: line {line}: not valid Python 2 or 3 ({last})")


@functools.lru_cache(maxsize=1)
def _converter_fingerprint() -> str:
    """This module's code and fissix's version: a cached conversion is valid only for both."""
    import fissix

    return hashlib.sha256(Path(__file__).read_bytes()
                          + str(getattr(fissix, "__version__", "?")).encode()).hexdigest()


def _cache_dir() -> Path | None:
    base = os.environ.get("SPYGLASS_CACHE_DIR")
    if base is None:
        xdg = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return Path(xdg) / "spyglass" / "py2"
    return Path(base) / "py2" if base else None


def _fissix_cached(source: str, path: str, in_package: bool) -> tuple[str, list[Py2Issue]]:
    """:func:`_fissix`, through the on-disk cache described in the module docstring."""
    folder = _cache_dir()
    if folder is None:
        return _fissix(source, path, in_package)
    key = hashlib.sha256(json.dumps([_converter_fingerprint(), path, in_package, source])
                         .encode("utf-8", "surrogatepass")).hexdigest()
    entry = folder / f"{key}.json"
    try:
        data = json.loads(entry.read_text(encoding="utf-8"))
        if data.get("key") == key and isinstance(data.get("text"), str):
            return data["text"], [Py2Issue(path, int(line), str(message))
                                  for line, message in data["issues"]]
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        pass  # no entry (or a damaged one): convert
    text, issues = _fissix(source, path, in_package)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", encoding="utf-8", dir=folder, suffix=".tmp",
                                         delete=False) as fh:
            json.dump({"key": key, "text": text,
                       "issues": [[i.line, i.message] for i in issues]}, fh)
        os.replace(fh.name, entry)  # atomic: a reader sees the whole entry or none
    except (OSError, ValueError):
        pass  # read-only or full disk: no cache, same result
    return text, issues


def _parse_error_line(exc: Exception | None) -> int | None:
    context = getattr(exc, "context", None)
    try:
        return int(context[1][0])
    except (TypeError, IndexError, ValueError):
        return None


class _Rewriter(ast.NodeTransformer):
    """Route the operations whose meaning changed through :mod:`py2_runtime`."""

    _ORDER = {ast.Lt: "lt", ast.LtE: "le", ast.Gt: "gt", ast.GtE: "ge"}
    _OTHER = {ast.Eq: "eq", ast.NotEq: "ne", ast.In: "in", ast.NotIn: "not in",
              ast.Is: "is", ast.IsNot: "is not"}

    def __init__(self, true_division: bool) -> None:
        self.true_division = true_division

    def _helper(self, name: str, node: ast.AST) -> ast.expr:
        return ast.copy_location(
            ast.Attribute(ast.Name(RUNTIME, ast.Load()), name, ast.Load()), node
        )

    def _call(self, name: str, args: list, node: ast.AST, keywords=None) -> ast.expr:
        return ast.copy_location(
            ast.Call(self._helper(name, node), args, keywords or []), node
        )

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        self.generic_visit(node)
        if not any(type(op) in self._ORDER for op in node.ops):
            return node
        if len(node.ops) == 1:
            return self._call(self._ORDER[type(node.ops[0])], [node.left, node.comparators[0]],
                              node)
        args: list[ast.expr] = [node.left]
        for op, right in zip(node.ops, node.comparators, strict=True):
            name = self._ORDER.get(type(op)) or self._OTHER[type(op)]
            thunk = ast.Lambda(
                ast.arguments([], [], None, [], [], None, []), right
            )
            args += [ast.Constant(name), ast.copy_location(thunk, right)]
        return self._call("chain", args, node)

    def visit_BinOp(self, node: ast.BinOp) -> ast.expr:
        self.generic_visit(node)
        if isinstance(node.op, ast.Div) and not self.true_division:
            return self._call("div", [node.left, node.right], node)
        return node

    def visit_AugAssign(self, node: ast.AugAssign) -> ast.stmt:
        self.generic_visit(node)
        if not isinstance(node.op, ast.Div) or self.true_division:
            return node
        target = node.target
        if isinstance(target, ast.Name):
            value = self._call("div", [ast.Name(target.id, ast.Load()), node.value], node)
            return ast.copy_location(ast.Assign([target], value), node)
        if isinstance(target, ast.Subscript):
            call = self._call("idiv_item", [target.value, target.slice, node.value], node)
        else:  # ast.Attribute
            call = self._call("idiv_attr", [target.value, ast.Constant(target.attr), node.value],
                              node)
        return ast.copy_location(ast.Expr(call), node)

    def visit_Call(self, node: ast.Call) -> ast.expr:
        self.generic_visit(node)
        func = node.func
        if isinstance(func, ast.Attribute) and func.attr == "sort":
            return self._call("sort", [func.value, *node.args], node, node.keywords)
        return node


def _unsupported(tree: ast.Module, path: str) -> list[Py2Issue]:
    """Python 2 library features that neither 2to3 nor the runtime provide."""
    issues = []
    for node in ast.walk(tree):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [a.name.split(".")[0] for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names = [node.module.split(".")[0]]
        for name in names:
            if name in _REMOVED_MODULES:
                issues.append(Py2Issue(path, node.lineno,
                                       f"module {name!r} does not exist in Python 3"))
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
                and node.value.id == "string" and node.attr in _REMOVED_STRING):
            issues.append(Py2Issue(path, node.lineno,
                                   f"string.{node.attr} does not exist in Python 3"))
    return issues


_FUTURE_DIVISION = re.compile(r"^from\s+__future__\s+import\s+[^#\n]*\bdivision\b", re.M)


def _true_division(source: str) -> bool:
    """The file asks for true division (read before fissix, which drops the import)."""
    return bool(_FUTURE_DIVISION.search(source))


def convert(source: str, path: str, in_package: bool = False) -> tuple[ast.Module, list[Py2Issue]]:
    """Convert Python 2 ``source`` from ``path``: an AST ready to compile, and its issues.

    ``in_package``: the module is part of a package (implicit relative imports become
    explicit). Raises :class:`Py2ConversionError` for a file that does not parse.
    """
    text, issues = _fissix_cached(source, path, in_package)
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:  # fissix produced something Python 3 does not accept
        raise Py2ConversionError(f"{path}: line {exc.lineno}: {exc.msg}") from exc
    issues += _unsupported(tree, path)
    issues.sort(key=lambda i: i.line)
    tree = _Rewriter(_true_division(source)).visit(tree)
    ast.fix_missing_locations(tree)
    return tree, issues


def compiled(source: str, path: str, in_package: bool = False
             ) -> tuple[types.CodeType, list[Py2Issue]]:
    """:func:`convert` and compile ``source``: its code object and issues, kept in the
    cache directory beside the converted text (``<key>.code``, the key adding this
    interpreter's version), as ``__pycache__`` keeps compiled modules. Issue 27: parsing,
    checking, rewriting and compiling a converted file cost an isolated bot's worker about
    0.15 s at every start, five workers per chunk of games."""
    folder = _cache_dir()
    key = entry = None
    if folder is not None:
        key = hashlib.sha256(json.dumps(["code", sys.version, _converter_fingerprint(), path,
                                         in_package, source])
                             .encode("utf-8", "surrogatepass")).hexdigest()
        entry = folder / f"{key}.code"
        try:
            data = marshal.loads(entry.read_bytes())
            if (type(data) is tuple and len(data) == 3 and data[0] == key
                    and type(data[1]) is types.CodeType and type(data[2]) is tuple):
                return data[1], [Py2Issue(path, int(line), str(message))
                                 for line, message in data[2]]
        except (OSError, ValueError, TypeError, EOFError):
            pass  # no entry (or a damaged one): convert
    tree, issues = convert(source, path, in_package)
    code = compile(tree, path, "exec")
    if entry is not None:
        try:
            data = marshal.dumps((key, code, tuple((i.line, i.message) for i in issues)))
            with tempfile.NamedTemporaryFile("wb", dir=folder, suffix=".tmp",
                                             delete=False) as fh:
                fh.write(data)
            os.replace(fh.name, entry)  # atomic: a reader sees the whole entry or none
        except (OSError, ValueError):
            pass  # read-only or full disk: no cache, same result
    return code, issues


def prepare_namespace(namespace: dict) -> None:
    """Put the Python 2 builtins and the helpers in a converted module's namespace."""
    namespace.update(py2_runtime.PY2_BUILTINS)
    namespace[RUNTIME] = py2_runtime


def patch_module_classes(namespace: dict, module_name: str) -> None:
    """Apply :func:`py2_runtime.patch_class` to every class the module defined."""
    for value in list(namespace.values()):
        if isinstance(value, type) and value.__module__ == module_name:
            py2_runtime.patch_class(value)


__all__ = ["Py2ConversionError", "Py2Issue", "RUNTIME", "compiled", "convert",
           "patch_module_classes",
           "prepare_namespace"]
