"""SDMCTS agents for Cheat: MGA, PMGA and FPMGA (Bitan & Kraus 2018, §3 and §5).

All three run the same search (:mod:`spyglass.search.smooth_uct` bound to Cheat in
:mod:`spyglass.games.cheat.sdmcts_entry`): when the opponent's last move was a claim,
one Smooth-UCT search over states where that claim was true and one where it was false,
then ``E[a] = P(true) Q(true, a) + P(false) Q(false, a)`` over the 18 abstract actions
(Algorithm 1); the best abstract action is played as concrete cards
(:mod:`spyglass.games.cheat.abstraction`). They differ only in ``P``:

* ``mga``: P(true) = P(false) = ½ (no model);
* ``pmga``: P(false) from a predictive model (:mod:`spyglass.agents.cheat_model`, a
  scikit-learn classifier saved with joblib; ``model=PATH``), or ½ without one;
* ``fpmga``: peeks at the true claim (``omniscient``: the referee records it) and
  predicts it right with probability ``accuracy`` (0.85, the paper's cap), trusting the
  prediction with that same confidence: P(predicted) = ``accuracy``.

Parameters as in the paper's §4.6: eta 0.9, gamma 0.1, c 0.0025, d 0.0025, discount 0.995.
``key=naive`` stores the 16 attributes per node instead of the packed 32-bit key (the
benchmark's comparison).
"""

from __future__ import annotations

import time
from typing import ClassVar

import numpy as np

from spyglass.agents.base import Agent
from spyglass.agents.registry import register
from spyglass.agents.search_support import SEED_PARAM, agent_rng
from spyglass.games.base import Game
from spyglass.params import Param

SEARCH_PARAMS = (
    Param("iterations", int, 1000, "search rounds per decision (one simulation per "
          "hypothesis each)", low=1),
    Param("seconds", float, None, "seconds per decision (replaces iterations when set)",
          low=1e-6, optional=True),
    Param("eta", float, 0.9, "Smooth-UCT eta", low=0.0, high=1.0),
    Param("gamma", float, 0.1, "Smooth-UCT gamma (lower bound of eta_k)", low=0.0, high=1.0),
    Param("c", float, 0.0025, "UCB exploration constant", low=0.0),
    Param("d", float, 0.0025, "Smooth-UCT d (eta_k decay)", low=0.0),
    Param("discount", float, 0.995, "reward discount per move", low=0.0, high=1.0),
    Param("key", str, "packed", "tree key: packed 32-bit or naive attribute row",
          choices=("packed", "naive")),
    SEED_PARAM,
)

BATCH = 64  # rounds per compiled call when searching for a time budget


def search_cheat(view: np.ndarray, seat: int, hyps: list[int], iterations: int,
                 settings: dict, rng: np.ndarray, seconds: float | None = None):
    """Run SDMCTS from ``view``; returns (root_q, root_n, root_ok, simulations)."""
    from spyglass.games.cheat import kernel as K
    from spyglass.games.cheat.sdmcts_entry import run_sdmcts

    h = np.array(hyps, dtype=np.int64)
    q = np.zeros((len(h), 18), dtype=np.float64)
    n = np.zeros((len(h), 18), dtype=np.int64)
    ok = np.zeros(len(h), dtype=np.int64)
    mode = 0 if settings.get("key", "packed") == "packed" else 1
    max_moves = int(view[K.V_MAX_ROUNDS]) + 2
    args = (settings["eta"], settings["gamma"], settings["d"], settings["c"],
            settings["discount"], K.STATE_SIZE, max_moves)
    if seconds is None:
        sims = run_sdmcts(view, seat, h, len(h), iterations, mode, *args, rng, q, n, ok)
        return q, n, ok, int(sims)
    # A time budget: independent batches, statistics merged by visit-weighted means.
    end = time.perf_counter() + seconds
    sims = 0
    while True:
        bq = np.zeros_like(q)
        bn = np.zeros_like(n)
        sims += int(run_sdmcts(view, seat, h, len(h), BATCH, mode, *args, rng, bq, bn, ok))
        tot = n + bn
        q = np.where(tot > 0, (q * n + bq * bn) / np.maximum(tot, 1), 0.0)
        n = tot
        if time.perf_counter() >= end:
            return q, n, ok, sims


class SDMCTSAgent(Agent):
    """Semi-determinized Smooth-UCT for Cheat; subclasses give P(false claim)."""

    plays = ("cheat",)

    params = SEARCH_PARAMS

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        self.rng = agent_rng(self.settings, seed)
        self.pick = np.random.default_rng(int(self.rng[0]) & ((1 << 63) - 1))
        self.last: dict = {}
        self.history: list[tuple[int, int]] = []

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        self.history.append((int(actor), int(obs)))

    def p_false(self, view: np.ndarray, state: np.ndarray | None) -> float:
        """P(the opponent's last claim was false | what this seat knows)."""
        return 0.5

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        from spyglass.games.cheat import kernel as K
        from spyglass.games.cheat.abstraction import concrete_hand, legal_hand

        state = None
        if self.omniscient:
            state = np.array(view, dtype=np.int64)
            view = self.game.view(state, self.seat)
        v = np.array(view, dtype=np.int64)
        if len(legal) == 1:
            return int(legal[0])
        opp_claimed = v[K.V_PREV_KIND] == K.K_CLAIM and v[K.V_LAST_BY] == 1 - self.seat
        if opp_claimed:
            pf = float(self.p_false(v, state))
            hyps, probs = [1, 0], [1.0 - pf, pf]
        else:
            hyps, probs = [-1], [1.0]
        s = self.settings
        q, n, ok, sims = search_cheat(v, self.seat, hyps, s["iterations"], s, self.rng,
                                      s.get("seconds"))
        w = np.array(probs) * (ok > 0)
        if w.sum() <= 0:
            w = ok.astype(float)
        w = w / w.sum()
        mask = np.zeros(18, dtype=np.int64)
        hand = v[K.V_HAND:K.V_HAND + 13].copy()
        legal_hand(hand, int(v[K.V_REF]), bool(K.CALL in legal), bool(K.TAKE in legal),
                   bool(v[K.V_FORCED]), mask)
        qn = np.where(n > 0, q, 0.5)
        expected = (w[:, None] * qn).sum(axis=0)
        visits = n.sum(axis=0)
        best = max((a for a in range(18) if mask[a]),
                   key=lambda a: (expected[a], visits[a], -a))
        action = int(concrete_hand(hand, int(v[K.V_REF]), best))
        self.last = {"abstract": best, "expected": expected.tolist(), "sims": sims,
                     "p_false": probs[-1] if opp_claimed else None}
        if action not in legal:
            raise RuntimeError(f"{self.agent_name}: abstract action {best} gave {action}, "
                               "which is not legal")
        return action


@register("mga")
class MGA(SDMCTSAgent):
    description = "SDMCTS with Smooth-UCT, P(false claim) = 1/2 (Bitan & Kraus 2018, §5)"


@register("fpmga")
class FPMGA(SDMCTSAgent):
    description = ("SDMCTS that peeks at the opponent's claim, right with probability "
                   "'accuracy' (omniscient; Bitan & Kraus 2018, §5)")
    omniscient: ClassVar[bool] = True
    params = SEARCH_PARAMS + (
        Param("accuracy", float, 0.85, "probability the peeked prediction is right",
              low=0.0, high=1.0),
    )

    def p_false(self, view: np.ndarray, state: np.ndarray | None) -> float:
        from spyglass.games.cheat import kernel as K

        false = not K.last_claim_true(state)
        acc = self.settings["accuracy"]
        right = self.pick.random() < acc
        predicted_false = false if right else not false
        return acc if predicted_false else 1.0 - acc


@register("pmga")
class PMGA(SDMCTSAgent):
    description = ("SDMCTS with a learned model of when the opponent lies "
                   "(model=PATH, joblib; Bitan & Kraus 2018, §4.7)")
    params = SEARCH_PARAMS + (
        Param("model", str, None, "predictive model file (spyglass cheat train); a "
              "pickle, so code: load only files you trust", optional=True, path=True),
    )

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        self.model = None
        if self.settings.get("model"):
            from spyglass.agents.cheat_model import load_model

            self.model = load_model(self.settings["model"])

    def p_false(self, view: np.ndarray, state: np.ndarray | None) -> float:
        if self.model is None:
            return 0.5
        from spyglass.agents.cheat_model import claim_features

        x = claim_features(view, 1 - self.seat, self.history)
        return float(self.model.predict_proba(x[None, :])[0, 1])
