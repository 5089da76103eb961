"""Parameters declared once: a game's rule options and an agent's settings.

A :class:`Param` says a setting's name, type, default, allowed range or choices and help
text; :func:`validate` is the one function that checks values against the declarations
(from Python keyword arguments or from command-line ``key=value`` strings). The CLI's
listings (``spyglass games``, ``spyglass bots``) print the same declarations, so the help
and the checks cannot disagree.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class Param:
    """One declared setting.

    ``type`` is ``int``, ``float``, ``bool`` or ``str``; ``low``/``high`` bound numbers
    (inclusive); ``choices`` lists the allowed strings; ``default=None`` with
    ``optional=True`` means "not set".
    """

    name: str
    type: type
    default: Any
    help: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple[str, ...] | None = None
    optional: bool = False
    # A file on the machine that runs the agent (a model): the web app never takes a
    # path here, only a name from the directory its operator named (``serve --models``).
    path: bool = False

    def describe(self) -> str:
        """A short human-readable description: type, range or choices, default."""
        if self.choices:
            kind = "|".join(self.choices)
        elif self.low is not None or self.high is not None:
            lo = "" if self.low is None else f"{self.low:g}"
            hi = "" if self.high is None else f"{self.high:g}"
            kind = f"{self.type.__name__} {lo}..{hi}"
        else:
            kind = self.type.__name__
        return f"{self.name}={self.default!r} ({kind}) {self.help}".rstrip()

    def convert(self, value: Any, owner: str = "") -> Any:
        """``value`` checked and converted to this parameter's type, or a ValueError/TypeError."""
        where = f"{owner}: " if owner else ""
        if value is None:
            if self.optional:
                return None
            raise ValueError(f"{where}{self.name} must be set")
        if isinstance(value, str) and self.type is not str:
            value = self._parse(value, where)
        if self.type is bool:
            if type(value) is not bool:
                raise TypeError(f"{where}{self.name} must be true or false, not {value!r}")
        elif self.type is int:
            if type(value) is not int:
                raise TypeError(f"{where}{self.name} must be an integer, not {value!r}")
        elif self.type is float:
            if type(value) not in (int, float):
                raise TypeError(f"{where}{self.name} must be a number, not {value!r}")
            value = float(value)
            if not math.isfinite(value):
                raise ValueError(f"{where}{self.name} must be finite, not {value!r}")
        elif self.type is str:
            if type(value) is not str:
                raise TypeError(f"{where}{self.name} must be a string, not {value!r}")
        if self.choices is not None and value not in self.choices:
            raise ValueError(
                f"{where}{self.name} must be one of {', '.join(self.choices)}, not {value!r}"
            )
        if self.low is not None and value < self.low:
            raise ValueError(f"{where}{self.name} must be at least {self.low:g}, not {value!r}")
        if self.high is not None and value > self.high:
            raise ValueError(f"{where}{self.name} must be at most {self.high:g}, not {value!r}")
        return value

    def _parse(self, text: str, where: str) -> Any:
        t = text.strip()
        try:
            if self.type is bool:
                if t.lower() in _TRUE:
                    return True
                if t.lower() in _FALSE:
                    return False
                raise ValueError
            if self.type is int:
                return int(t)
            if self.type is float:
                return float(t)
        except ValueError:
            raise ValueError(
                f"{where}{self.name} must be a {self.type.__name__}, not {text!r}"
            ) from None
        return t


def validate(params: Iterable[Param], values: Mapping[str, Any], owner: str = "") -> dict:
    """All declared parameters with ``values`` applied and checked; unknown names are errors."""
    decl = {p.name: p for p in params}
    unknown = sorted(set(values) - set(decl))
    if unknown:
        known = ", ".join(decl) or "none"
        where = f"{owner}: " if owner else ""
        raise ValueError(f"{where}unknown parameter(s) {', '.join(unknown)}; known: {known}")
    out = {}
    for name, p in decl.items():
        out[name] = p.convert(values[name], owner) if name in values else p.default
    return out


def parse_assignments(text: str) -> dict[str, str]:
    """``"a=1,b=x"`` as ``{"a": "1", "b": "x"}`` (values stay strings for :func:`validate`).

    The one grammar of settings in a spec (``name:a=1,b=x``, see :mod:`spyglass.naming`),
    for agents and bots alike; empty parts (a trailing comma) are skipped."""
    out: dict[str, str] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        key, sep, value = part.partition("=")
        if not sep or not key.strip():
            raise ValueError(f"expected key=value, got {part!r}")
        out[key.strip()] = value.strip()
    return out


_TYPES = {"int": int, "float": float, "bool": bool, "str": str}


def signature_params(cls: type, skip: Iterable[str] = ()) -> tuple[Param, ...]:
    """:class:`Param` declarations read from the keyword-only arguments of ``cls.__init__``
    (for classes that predate ``params``, e.g. the 2012 framework's bots): the type from
    the annotation (``int``, ``float``, ``bool``, ``str``, or ``X | None`` for an optional
    one), numbers non-negative. Arguments of other types are not declared (so not
    settable through :func:`validate`)."""
    import inspect

    out = []
    for p in inspect.signature(cls.__init__).parameters.values():
        if p.kind is not p.KEYWORD_ONLY or p.name in skip:
            continue
        ann = p.annotation if isinstance(p.annotation, str) else getattr(
            p.annotation, "__name__", "")
        parts = [a.strip() for a in ann.split("|")]
        optional = "None" in parts
        kinds = [_TYPES[a] for a in parts if a in _TYPES]
        if len(kinds) != 1 or len(parts) != len(kinds) + optional:
            continue
        kind = kinds[0]
        low, high = (0, 2**31 - 1) if kind is int else (0.0, 1e9) if kind is float else (
            None, None)
        out.append(Param(p.name, kind, p.default, low=low, high=high, optional=optional))
    return tuple(out)
