"""``util`` of the 2012 framework: :class:`Variable`, a running statistic with an interval.

2012 bots keep per-player counts in these (``from util import Variable``). The interval
is the Agresti-Coull adjustment at 95% confidence: add z² = 3.84 pseudo-samples, half of
them successes, so that estimates near 0% or 100% after a few samples stay sensible.
"""

from __future__ import annotations

import math
from numbers import Real

_Z = 1.96
_Z2 = 3.84  # z² as the framework rounded it


class Variable:
    """A running mean of samples (usually 0/1 outcomes), with a confidence interval.

    ``estimate()`` is the plain mean (0.5 with no samples); ``value()`` and ``error()``
    are the Agresti-Coull centre and half-width. Variables compare by ``estimate()``
    (with each other or with plain numbers), ``v += x`` adds one sample and
    ``v += other`` merges another Variable.
    """

    # Python 2's __cmp__ ordered Variables by estimate while hashing stayed by identity;
    # 2012 bots keep Variables in dicts and sets, so keep both behaviours.
    __hash__ = object.__hash__

    def __init__(self, total: float = 0.0, samples: int = 0) -> None:
        self.total = total
        self.samples = samples
        self.minimum: float | None = None
        self.maximum: float | None = None

    def sample(self, value: float) -> None:
        """Add one observation."""
        self.total += value
        self.samples += 1
        self.minimum = value if self.minimum is None else min(self.minimum, value)
        self.maximum = value if self.maximum is None else max(self.maximum, value)

    def estimate(self) -> float:
        """The mean of the samples, or 0.5 before any."""
        return float(self.total) / self.samples if self.samples > 0 else 0.5

    def value(self) -> float:
        """Centre of the interval: (total + z²/2) / (samples + z²)."""
        return (self.total + _Z2 / 2) / (self.samples + _Z2)

    def error(self) -> float:
        """Half-width of the 95% interval: z·sqrt(value·(1 − value) / (samples + z²))."""
        v = self.value()
        return _Z * math.sqrt(v * (1.0 - v) / (self.samples + _Z2))

    def detail(self) -> str:
        """``"57.3% (e=37.07 n=3)"``: interval centre, half-width (both in %), samples."""
        return f"{self.value() * 100:4.1f}% (e={self.error() * 100:4.2f} n={int(self.samples):d})"

    def __iadd__(self, other: Variable | float) -> Variable:
        if isinstance(other, Variable):
            self.total += other.total
            self.samples += other.samples
            for bound, pick in (("minimum", min), ("maximum", max)):
                mine, theirs = getattr(self, bound), getattr(other, bound)
                known = [b for b in (mine, theirs) if b is not None]
                setattr(self, bound, pick(known) if known else None)
            return self
        if isinstance(other, Real):
            self.sample(other)
            return self
        return NotImplemented

    def __add__(self, other: Variable | float) -> Variable:
        result = Variable(self.total, self.samples)
        result.minimum, result.maximum = self.minimum, self.maximum
        result += other
        return result

    # --- comparison by estimate ---------------------------------------------------
    def _key(self, other: object) -> float | None:
        if isinstance(other, Variable):
            return other.estimate()
        if isinstance(other, Real):
            return float(other)
        return None

    def __eq__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.estimate() == key

    def __lt__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.estimate() < key

    def __le__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.estimate() <= key

    def __gt__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.estimate() > key

    def __ge__(self, other: object) -> bool:
        key = self._key(other)
        return NotImplemented if key is None else self.estimate() >= key

    def __repr__(self) -> str:
        if not self.samples:
            return "   N/A"
        pct = 100.0 * self.total / self.samples
        return "100.%" if pct == 100.0 else f"{pct:4.1f}%"


__all__ = ["Variable"]
