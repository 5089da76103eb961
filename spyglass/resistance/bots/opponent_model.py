"""Cross-game opponent statistics kept in ``Bot.memory``, keyed by opponent name.

The 2012 learners (Statistician, Magi, ScepticBot, Clymily, KreuterBot; Taylor 2014, §4.1)
count, per opponent and per role, how often that opponent did something when it had
the chance. The arena keeps ``self.memory`` per identity across the games of a
tournament chunk and empties it under the burst model (Taylor 2014, §4.4.2), so a model
must work from nothing: every frequency is smoothed towards the pooled frequency of all
opponents met so far, which is itself smoothed towards a hand-set default (what a
human expert assumes of an unknown player). A new name therefore starts at the pool.

Layout: ``memory[key][name]["spy" | "res"][behaviour] = [times_done, chances]``, with
the pool under :data:`POOL`. Only plain lists and dicts, so it pickles and serialises.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

POOL = "__all_opponents__"
_NOTHING: Mapping = {}  # (read only) what an unknown name or role holds
_NEVER = (0.0, 0.0)  # the counts of a behaviour never seen


class BehaviourStats:
    """Per-opponent, per-role frequencies of named behaviours with layered smoothing.

    ``defaults`` maps each behaviour to its assumed (spy, resistance) frequency.
    ``strength`` is how many observations of one opponent it takes to outweigh the pool,
    ``pool_strength`` how many pooled observations outweigh the default.
    """

    def __init__(
        self,
        memory: dict,
        defaults: Mapping[str, tuple[float, float]],
        key: str = "behaviour_stats",
        strength: float = 6.0,
        pool_strength: float = 10.0,
        clip: float = 0.03,
    ) -> None:
        self.store: dict = memory.setdefault(key, {})
        self.defaults = dict(defaults)
        self.strength = strength
        self.pool_strength = pool_strength
        self.clip = clip

    def _counts(self, name: str, spy: bool, behaviour: str) -> tuple[float, float]:
        role = self.store.get(name, _NOTHING).get("spy" if spy else "res", _NOTHING)
        done, chances = role.get(behaviour, _NEVER)
        return float(done), float(chances)

    def rate(self, name: str, spy: bool, behaviour: str) -> float:
        """Smoothed frequency with which ``name`` in that role shows ``behaviour``."""
        return self._smoothed(name, spy, behaviour, self._pooled(spy, behaviour))

    def _pooled(self, spy: bool, behaviour: str) -> float:
        """The pool's frequency, smoothed towards the default."""
        default = self.defaults[behaviour][0 if spy else 1]
        pd, pc = self._counts(POOL, spy, behaviour)
        return (pd + self.pool_strength * default) / (pc + self.pool_strength)

    def _smoothed(self, name: str, spy: bool, behaviour: str, pooled: float) -> float:
        """``name``'s frequency, smoothed towards ``pooled`` and clipped."""
        d, c = self._counts(name, spy, behaviour)
        r = (d + self.strength * pooled) / (c + self.strength)
        return min(max(r, self.clip), 1.0 - self.clip)

    def rates(self, names: Sequence[str], behaviour: str) -> tuple[np.ndarray, np.ndarray]:
        """(as-spy, as-resistance) frequencies of ``behaviour`` for each seat's name.

        The pool's part is the same for every name, so it is worked out once per role."""
        pooled_spy, pooled_res = self._pooled(True, behaviour), self._pooled(False, behaviour)
        spy = np.array([self._smoothed(nm, True, behaviour, pooled_spy) for nm in names])
        res = np.array([self._smoothed(nm, False, behaviour, pooled_res) for nm in names])
        return spy, res

    def record(
        self, name: str, spy: bool, behaviour: str, done: float, chances: float = 1.0
    ) -> None:
        """Add an observation of ``name`` (its role now known) to its model and the pool."""
        if behaviour not in self.defaults:
            raise KeyError(f"unknown behaviour {behaviour!r}")
        role = "spy" if spy else "res"
        done, chances = float(done), float(chances)
        for who in (name, POOL):
            cell = self.store.setdefault(who, {}).setdefault(role, {})
            counts = cell.setdefault(behaviour, [0.0, 0.0])
            counts[0] += done
            counts[1] += chances

    def chances(self, name: str, spy: bool, behaviour: str) -> float:
        """How many observations of ``behaviour`` the model holds for ``name`` in that role."""
        return self._counts(name, spy, behaviour)[1]

    def known(self, name: str) -> bool:
        """Whether anything has been recorded about ``name``."""
        return name in self.store


__all__ = ["POOL", "BehaviourStats"]
