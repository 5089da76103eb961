"""Group-sequential tests: a run that may stop early, with its looks declared up front.

A comparison that is looked at and then grown is only valid if the looks were planned and
the significance level is shared out between them before the first look. This module is
that plan: a :class:`GroupSequential` design names the cumulative sizes at which the
results will be looked at and how the two-sided level α is spent over them (Lan & DeMets
1983, spending functions):

* ``"obrien-fleming"``: α/2 spent on each side as α₁(t) = 2 − 2Φ(z_{α/4}/√t), the
  Lan–DeMets approximation of O'Brien & Fleming's (1979) boundaries: almost nothing spent
  early, close to the fixed test's 1.96 at the last look (this per-side convention is the
  one of the published tables: 4.877, 3.357, 2.680, 2.290, 2.031 for five equal looks);
* ``"pocock"``: α(t) = α·ln(1 + (e − 1)t), nearly equal boundaries at every look.

Here t = n_k / n_K is the fraction of the planned size reached at look k. The boundaries
c_k follow by numerical integration of the standardised statistic's sampling distribution
under no effect (Armitage, McPherson & Rowe 1969; Jennison & Turnbull 2000, ch. 19): Z_k =
S(t_k)/√t_k for a Brownian motion S, so the exit probability at look k given no earlier
exit is the spent increment α(t_k) − α(t_{k−1}). A run stops at the first look with
|Z_k| ≥ c_k. Its p-value is the stage-wise ordering one (Fairbanks & Madsen 1982):
the probability under no effect of stopping earlier, or at the same look with a larger
|Z|. It is below α exactly when a boundary was crossed, so it can enter Holm's
correction with a family's fixed-size tests.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property

import numpy as np

SPENDING = ("obrien-fleming", "pocock")
# Points of the Simpson grid on which the statistic's density is carried between looks:
# boundaries are then exact to about 1e-5 (tested against published tables).
_GRID = 801


def _phi(x: np.ndarray | float) -> np.ndarray | float:
    return np.exp(-0.5 * np.square(x)) / math.sqrt(2 * math.pi)


def _cdf(x: np.ndarray | float) -> np.ndarray | float:
    from scipy.special import ndtr

    return ndtr(x)


def _simpson(a: float, b: float, n: int = _GRID) -> tuple[np.ndarray, np.ndarray]:
    x = np.linspace(a, b, n)
    w = np.full(n, 2.0)
    w[1::2] = 4.0
    w[0] = w[-1] = 1.0
    return x, w * (b - a) / (3 * (n - 1))


@dataclass(frozen=True)
class SequentialResult:
    """What a group-sequential design concludes from the statistics seen so far."""

    looks_seen: int  # how many looks had data
    stopped_at: int | None  # 1-based look at which a boundary was crossed, else None
    finished: bool  # a boundary was crossed or the last look was reached
    z: float  # the statistic at the deciding (or latest) look
    boundary: float  # that look's boundary
    p: float | None  # stage-wise p-value; None while the run must go on

    @property
    def reject(self) -> bool:
        """True when a boundary was crossed (no effect rejected at the design's α)."""
        return self.stopped_at is not None


@dataclass(frozen=True)
class GroupSequential:
    """A two-sided group-sequential test with its looks declared before the run.

    ``sizes`` are the cumulative sizes (games, pairs, deals) at which the results are looked
    at, strictly increasing; the last is the most the run may reach. ``alpha`` is the
    overall two-sided level; ``spending`` one of :data:`SPENDING`.
    """

    sizes: tuple[int, ...]
    alpha: float = 0.05
    spending: str = "obrien-fleming"

    def __post_init__(self) -> None:
        sizes = tuple(int(n) for n in self.sizes)
        if not sizes or any(n <= 0 for n in sizes) or any(
                b <= a for a, b in zip(sizes, sizes[1:], strict=False)):
            raise ValueError(f"look sizes must be positive and increasing, got {self.sizes!r}")
        if not 0 < self.alpha < 1:
            raise ValueError(f"alpha must be in (0, 1), got {self.alpha!r}")
        if self.spending not in SPENDING:
            raise ValueError(f"spending must be one of {', '.join(SPENDING)}, "
                             f"got {self.spending!r}")
        object.__setattr__(self, "sizes", sizes)

    @property
    def fractions(self) -> tuple[float, ...]:
        """Information fractions t_k = n_k / n_K."""
        return tuple(n / self.sizes[-1] for n in self.sizes)

    def spent(self, t: float) -> float:
        """α spent by information fraction ``t`` (0 ≤ t ≤ 1)."""
        if t <= 0:
            return 0.0
        t = min(t, 1.0)
        if self.spending == "pocock":
            return self.alpha * math.log(1 + (math.e - 1) * t)
        from scipy.stats import norm

        return float(2 * (2 - 2 * norm.cdf(norm.isf(self.alpha / 4) / math.sqrt(t))))

    @cached_property
    def _steps(self) -> tuple[tuple[float, ...], tuple]:
        """Boundaries and, per look, the continuation density on its grid (S scale)."""
        from scipy.optimize import brentq
        from scipy.stats import norm

        bounds: list[float] = []
        grids: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        prev_t, prev_spent = 0.0, 0.0
        for t in self.fractions:
            inc = self.spent(t) - prev_spent
            if prev_t == 0.0:
                c = float(norm.isf(inc / 2))
                x, w = _simpson(-c * math.sqrt(t), c * math.sqrt(t))
                dens = _phi(x / math.sqrt(t)) / math.sqrt(t)
            else:
                u, wu, g = grids[-1]
                sd = math.sqrt(t - prev_t)
                mass = wu * g

                def exit_prob(c: float, u=u, mass=mass, sd=sd, t=t) -> float:
                    b = c * math.sqrt(t)
                    tail = _cdf((-b - u) / sd) + 1 - _cdf((b - u) / sd)
                    return float(mass @ tail)

                c = float(brentq(lambda c, inc=inc: exit_prob(c) - inc, 1e-6, 40.0, xtol=1e-10))
                x, w = _simpson(-c * math.sqrt(t), c * math.sqrt(t))
                dens = (_phi((x[:, None] - u[None, :]) / sd) / sd) @ mass
            bounds.append(c)
            grids.append((x, w, dens))
            prev_t, prev_spent = t, self.spent(t)
        return tuple(bounds), tuple(grids)

    @property
    def boundaries(self) -> tuple[float, ...]:
        """The two-sided critical values of |Z| at each look."""
        return self._steps[0]

    def _tail(self, k: int, z: float) -> float:
        """P(no exit before look k and |Z_k| ≥ z) under no effect (k 0-based)."""
        t = self.fractions[k]
        b = abs(z) * math.sqrt(t)
        if k == 0:
            return float(2 * (1 - _cdf(abs(z))))
        u, wu, g = self._steps[1][k - 1]
        sd = math.sqrt(t - self.fractions[k - 1])
        tail = _cdf((-b - u) / sd) + 1 - _cdf((b - u) / sd)
        return float((wu * g) @ tail)

    def analyse(self, z_by_look: Sequence[float]) -> SequentialResult:
        """Apply the design to the statistics at the looks run so far (in order).

        Each z is the standardised test statistic (estimate / standard error) of all the
        data up to that look (±inf when the error is 0). Data beyond the first crossing
        are not looked at.
        """
        zs = [float(z) for z in z_by_look]
        if not zs:
            raise ValueError("no look has been run")
        if len(zs) > len(self.sizes):
            raise ValueError(f"{len(zs)} looks run but the design declares {len(self.sizes)}")
        bounds = self.boundaries
        for k, z in enumerate(zs):
            if math.isnan(z):
                raise ValueError(f"look {k + 1}: the statistic is not a number")
            last = k == len(self.sizes) - 1
            if abs(z) >= bounds[k] or last:
                crossed = abs(z) >= bounds[k]
                earlier = self.spent(self.fractions[k - 1]) if k else 0.0
                p = min(1.0, earlier + self._tail(k, z))
                return SequentialResult(k + 1, k + 1 if crossed else None, True, z,
                                        bounds[k], p)
        k = len(zs) - 1
        return SequentialResult(len(zs), None, False, zs[-1], bounds[k], None)

    def describe(self) -> str:
        """One line naming the design (for tables and records)."""
        looks = ", ".join(f"{n:,}" for n in self.sizes)
        cs = ", ".join(f"{c:.3f}" for c in self.boundaries)
        return (f"group-sequential ({self.spending} spending, α = {self.alpha:g}, two-sided): "
                f"looks at {looks}; |Z| boundaries {cs}")
