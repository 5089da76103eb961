"""Simulated human Cheat players: a parameterised population (a modelling choice).

Bitan & Kraus 2018 ship no human data, so the model of when people lie is trained, and
the §5 experiment is played, against simulated subjects. Each is a rule-based player
whose parameters are drawn per subject (:func:`population`), calibrated to what the
paper reports of people (§5): about 40-45 % of claims false, Take-a-Card on about
20-24 % of moves, Call-Cheat on about 0.105 of turns (its rollout table, §4.5).

How a subject plays (``cheatsim``), from its own view only:

* **Call-Cheat** after the opponent's claim when the claim is impossible (it holds too
  many of the rank); otherwise with a probability that grows with the *evidence*: its
  own cards of the claimed rank, the pile's size, the claimant's record of lies caught,
  a repeated claim, the claimant's hand running low (``suspicion`` scales it, ``call``
  is the base rate).
* **Claims** truthfully (every card it holds of the claimed rank, in the direction where
  it holds more) when it can, except that with probability ``bluff`` it lies anyway to
  shed cards; when it cannot claim truthfully it takes a card with probability ``take``
  (if the deck has cards) and otherwise lies, putting down 1 or 2 cards of the ranks
  farthest from the claimed one (more when its hand is big: ``greed``).
* **Learning** (``learn`` > 0): after each game it moves its ``bluff`` and ``take``
  rates towards what would have paid: caught often -> lie less and take more; rarely
  caught -> lie more. The agent object keeps its parameters across games, so a subject
  playing 3-5 matches (the experiment) adapts as the paper's subjects did.

Each game's lies, calls and takes are kept in ``record_extra`` for the logs.
"""

from __future__ import annotations

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.agents.search_support import SEED_PARAM
from spyglass.games.base import Game
from spyglass.params import Param

SUBJECT_PARAMS = (
    Param("bluff", float, 0.2, "chance to lie although a true claim is possible",
          low=0.0, high=1.0),
    Param("take", float, 0.45, "chance to take a card when no true claim is possible",
          low=0.0, high=1.0),
    Param("call", float, 0.04, "base chance to call cheat on a claim", low=0.0, high=1.0),
    Param("suspicion", float, 0.5, "how strongly evidence raises the call chance",
          low=0.0, high=3.0),
    Param("greed", float, 0.3, "chance a lie places 2 cards (3 with a big hand)",
          low=0.0, high=1.0),
    Param("learn", float, 0.0, "learning rate across games", low=0.0, high=1.0),
    SEED_PARAM,
)


@register("cheatsim")
class SimulatedSubject(Agent):
    """One simulated human Cheat player (see the module docstring)."""

    plays = ("cheat",)

    description = "simulated human Cheat player (a parameterised population member)"
    params = SUBJECT_PARAMS

    def __init__(self, **settings) -> None:
        super().__init__(**settings)
        self.bluff = self.settings["bluff"]
        self.take = self.settings["take"]
        self.games = 0

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        fixed = self.settings.get("seed")
        self.rng = np.random.default_rng([seed if fixed is None else fixed, self.games])
        self.stats = {"claims": 0, "lies": 0, "takes": 0, "calls": 0, "moves": 0}
        self.caught_before = 0

    def _call_chance(self, v: np.ndarray) -> float:
        from spyglass.games.cheat import kernel as K

        ref = int(v[K.V_REF])
        k = int(v[K.V_LAST_K])
        mine = int(v[K.V_HAND + ref]) + int(v[K.V_PILE + ref])
        mine += 1 if int(v[K.V_STARTER]) == ref else 0
        if mine + k > 4 or v[K.V_FORCED]:
            return 1.0
        o = 1 - self.seat
        pile = int(v[K.V_PILE:K.V_PILE + 13].sum()) + int(v[K.V_OPP_PILE])
        evidence = (0.5 * mine + 0.08 * pile + 0.15 * min(int(v[K.V_CAUGHT_N + o]), 5)
                    + 0.4 * int(v[K.V_REPEAT]) + 0.2 * (k >= 3)
                    + (0.4 if int(v[K.V_OPP_HAND]) <= 2 else 0.0)
                    + (0.3 if (int(v[K.V_CAUGHT + o]) >> ref) & 1 else 0.0))
        return min(1.0, self.settings["call"] + self.settings["suspicion"] * evidence * 0.1)

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        from spyglass.games.cheat import kernel as K
        from spyglass.games.cheat.game import claim_id

        v = view
        rng = self.rng
        self.stats["moves"] += 1
        if K.CALL in legal and rng.random() < self._call_chance(v):
            self.stats["calls"] += 1
            return K.CALL
        hand = v[K.V_HAND:K.V_HAND + 13]
        ref = int(v[K.V_REF])
        up, down = (ref + 1) % 13, (ref + 12) % 13
        n_up, n_down = int(hand[up]), int(hand[down])
        n_hand = int(hand.sum())
        true_ok = n_up + n_down > 0
        lie = (not true_ok) or (n_hand > 1 and rng.random() < self.bluff)
        if not true_ok and K.TAKE in legal and rng.random() < self.take:
            self.stats["takes"] += 1
            return K.TAKE
        if not lie:
            d = 0 if (n_up, rng.random()) > (n_down, 0.5) else 1
            rank = up if d == 0 else down
            self.stats["claims"] += 1
            return claim_id(d, [rank] * min(4, int(hand[rank])))
        d = int(rng.integers(2))
        rank = up if d == 0 else down
        k = 1 + int(rng.random() < self.settings["greed"]) + int(n_hand > 12
                                                                   and rng.random() < 0.3)
        others = [r for dist in range(6, 0, -1)
                  for r in sorted({(rank + dist) % 13, (rank - dist) % 13})
                  for _ in range(int(hand[r]))]
        cards = others[:k] if others else [rank] * min(k, int(hand[rank]))
        if not others:  # only cards of the claimed rank: a true claim after all
            a = claim_id(d, cards)
        else:
            a = claim_id(d, cards)
            self.stats["lies"] += 1
        self.stats["claims"] += 1
        if a not in legal:  # cannot happen for a legal view; fall back safely
            return int(legal[-1])
        return a

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        from spyglass.games.cheat import kernel as K

        self.caught_now = int(view[K.V_CAUGHT_N + self.seat])

    def finish(self, rewards: tuple[float, ...]) -> None:
        self.games += 1
        rate = self.settings["learn"]
        if rate <= 0 or self.stats["lies"] == 0:
            return
        caught = getattr(self, "caught_now", 0) / self.stats["lies"]
        # Caught on more than a third of lies: lie less, take more; else the reverse.
        step = rate * (caught - 1 / 3)
        self.bluff = float(np.clip(self.bluff - step, 0.0, 0.6))
        self.take = float(np.clip(self.take + step, 0.05, 0.9))

    def record_extra(self) -> dict | None:
        return dict(self.stats, bluff=self.bluff, take=self.take)


def population(n: int, seed: int) -> list[dict]:
    """Settings of ``n`` varied simulated subjects (half of them learn across games)."""
    gen = np.random.default_rng(seed)
    out = []
    for i in range(n):
        out.append({
            "bluff": float(np.clip(gen.normal(0.24, 0.08), 0.02, 0.5)),
            "take": float(np.clip(gen.normal(0.6, 0.12), 0.1, 0.9)),
            "call": float(np.clip(gen.normal(0.03, 0.015), 0.0, 0.1)),
            "suspicion": float(np.clip(gen.normal(0.5, 0.2), 0.05, 1.5)),
            "greed": float(np.clip(gen.normal(0.3, 0.15), 0.0, 0.8)),
            "learn": float(gen.uniform(0.1, 0.4)) if i % 2 else 0.0,
        })
    return out


def subject_spec(settings: dict) -> str:
    """An agent spec string (``cheatsim:bluff=...``) for these settings."""
    return "cheatsim:" + ",".join(f"{k}={v:.4g}" for k, v in settings.items())
