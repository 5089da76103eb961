"""OpenSpiel's C++ ``ISMCTSBot`` seated as a Spyglass Hearts agent (issue 31, outside baseline).

Needs the ``crosscheck`` extra (pip ``open_spiel``). Its configuration is its parameters:

* ``c``: the exploration constant on OpenSpiel's own return scale. OpenSpiel's Hearts
  return is ``26 - points`` (0..26, up to 62 with a shot moon and J♦), where Spyglass's
  reward is ``(26 - points) / 62``; the default 43.4 = 0.7 × 62 is Spyglass's c = 0.7 on
  OpenSpiel's scale (the issue's "fairly configured peer"; c = 0.7 on the raw return is
  about 62 times less exploration).
* ``final``: how it picks its move from the search: ``most_visited`` (default, as
  Spyglass's ISMCTS does; OpenSpiel's ``MAX_VISIT_COUNT``), ``visit_counts`` (a move drawn
  in proportion to visits, OpenSpiel's default ``NORMALIZED_VISIT_COUNT``) or
  ``max_value``.
* the budget per decision: ``iterations`` (default 1,000), or ``seconds``: *CPU* time
  of this process per decision, by calibration (OpenSpiel's own limit is wall-clock time,
  unfair on a shared machine): each decision runs ``rate × seconds`` iterations with
  ``rate`` the iterations per CPU second measured over this agent's decisions so far; the
  first decision measures it with a 100-iteration probe first (that probe is spent
  beyond the budget, once).
* ``world_samples``: OpenSpiel's ``max_world_samples`` (-1: no cap, its default).
  Rollouts are random (``RandomRolloutEvaluator``, one rollout), OpenSpiel's default.

**No hidden information reaches it.** OpenSpiel's bot is handed an OpenSpiel state,
which holds every hand. The adapter never builds it from the true state (it never has
it): it draws a deal consistent with this seat's view with Hearts's own determinization
(:func:`spyglass.games.hearts.kernel.sample`, seeded), rebuilds that deal's history in
OpenSpiel (pass direction, deal, passes, then the cards played in the order this seat
observed them), and checks that the seat's legal moves agree. Everything in that state
beyond the seat's information set is a fiction drawn from what the seat knows, and
``ISMCTSBot`` itself redraws the hidden cards at every iteration.

**Departures**, named: OpenSpiel's ``ISMCTSBot`` (2.0.2) crashes at a pass decision once
another player has passed (see :mod:`spyglass.bench.hearts_vs_openspiel`), so this agent
passes with the project's ``hearts_rules`` passing rule (the same fixed rule a tournament
can give every seat). OpenSpiel's Hearts is one deal: in a several-deal game it
optimises the current deal's points, not the placing on the totals. Its search is not
reproducible from a seed (measured in :mod:`spyglass.bench.hearts_vs_openspiel`), so a
replay of a game with this agent gives other moves.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from spyglass.agents.base import Agent, MissingExtra
from spyglass.agents.registry import register
from spyglass.games.base import Game
from spyglass.params import Param

MISSING = "OpenSpiel is not installed: pip install 'spyglass[crosscheck]' (or open_spiel)"
FINAL = {"most_visited": "MAX_VISIT_COUNT", "visit_counts": "NORMALIZED_VISIT_COUNT",
         "max_value": "MAX_VALUE"}
PROBE = 100


def _pyspiel():
    try:
        import pyspiel
    except ImportError as exc:  # the optional extra
        raise MissingExtra(MISSING) from exc
    return pyspiel


@register("openspiel_ismcts")
class OpenSpielISMCTS(Agent):
    """OpenSpiel's Hearts ``ISMCTSBot`` behind the seat's view (module docstring)."""

    plays = ("hearts",)

    description = ("OpenSpiel's Hearts ISMCTSBot (outside baseline; c on its 0..26 return "
                   "scale; needs the crosscheck extra)")
    params = (
        Param("c", float, 43.4, "exploration constant on OpenSpiel's return scale "
              "(26 - points); 43.4 = 0.7 x 62", low=0.0, high=1000.0),
        Param("final", str, "most_visited", "final move: most-visited, drawn by visit "
              "counts, or highest value", choices=tuple(FINAL)),
        Param("iterations", int, 1000, "iterations per decision (unless seconds)",
              low=1, high=10_000_000),
        # Named "seconds" as every timed agent's budget, so callers that bound it (the
        # web app's bot budget) see it; here it is CPU time, not a deadline.
        Param("seconds", float, None, "CPU seconds per decision, by calibration "
              "(replaces iterations when set)", low=0.001, high=600.0, optional=True),
        Param("world_samples", int, -1, "OpenSpiel's max_world_samples (-1: no cap)",
              low=-1, high=1_000_000),
        Param("seed", int, None, "unused (the game seed seeds it)", optional=True),
    )

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._spiel = _pyspiel()

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        super().start(game, seat, view, seed)
        from spyglass.agents.hearts_rules import HeartsRules
        from spyglass.games.hearts import kernel as K
        from spyglass.games.hearts.game import RULE_FLAGS

        self.K = K
        self._os_game = self._spiel.load_game(
            "hearts", {name: bool(game.settings[name]) for name, _f, _d in RULE_FLAGS})
        self._passer = HeartsRules()
        self._passer.start(game, seat, view, seed)
        self._deal = int(view[K.DEAL_NO])
        self._plays: list[int] = []  # this deal's cards played, in the order seen
        self._keep: list = []  # the evaluators the bots refer to
        self.decisions = 0
        self.iterations_run = 0
        self.cpu = 0.0

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        K = self.K
        self._passer.observe(obs, actor, view)
        if int(view[K.DEAL_NO]) != self._deal:  # a new deal: its history starts afresh
            self._deal = int(view[K.DEAL_NO])
            self._plays = []
            return
        obs = int(obs)
        card = obs - K.OBS_CARD
        if 0 <= card < K.N_CARDS and (int(view[K.V_PLAYED + actor]) >> card) & 1:
            self._plays.append(card)

    def os_state(self, view: np.ndarray):
        """An OpenSpiel state in this seat's information set, drawn from its view only."""
        K = self.K
        from spyglass.rng import make_rng

        seat = self.seat
        s = np.zeros(K.STATE_SIZE, dtype=np.int64)
        rng = make_rng((int(self.seed) * 1_000_003 + self.decisions) % 2**62)
        if not K.sample(np.asarray(view, dtype=np.int64), seat, rng, s):
            raise RuntimeError("openspiel_ismcts: no deal is consistent with the view")
        d = int(s[K.PASS_DIR])
        dealt = []
        for p in range(4):
            held = int(s[K.HAND + p]) | int(s[K.PLAYED + p]) | int(s[K.PASSED + p])
            if d != 0 and int(s[K.PHASE]) != K.PASSING:
                held &= ~int(s[K.PASSED + (p - d) % 4])  # received, not dealt
            dealt.append([c for c in range(K.N_CARDS) if (held >> c) & 1])
        st = self._os_game.new_initial_state()
        st.apply_action(d)
        for i in range(K.N_CARDS):
            st.apply_action(dealt[i % 4][i // 4])
        if d != 0:
            for p in range(4):
                for c in range(K.N_CARDS):
                    if (int(s[K.PASSED + p]) >> c) & 1:
                        st.apply_action(c)
        for c in self._plays:
            st.apply_action(c)
        return st

    def _budget(self) -> int:
        cpu = self.settings["seconds"]
        if cpu is None:
            return int(self.settings["iterations"])
        return max(1, round(self.iterations_run / max(self.cpu, 1e-9) * cpu))

    def _search(self, st, iterations: int) -> int:
        sp = self._spiel
        seed = (int(self.seed) * 7919 + self.decisions) % 2**31
        ev = sp.RandomRolloutEvaluator(1, seed)
        self._keep = [ev]
        bot = sp.ISMCTSBot(seed, ev, float(self.settings["c"]), iterations,
                           int(self.settings["world_samples"]),
                           getattr(sp.ISMCTSFinalPolicyType, FINAL[self.settings["final"]]),
                           False, False, -1.0)
        t0 = time.process_time()
        a = int(bot.step(st))
        self.cpu += time.process_time() - t0
        self.iterations_run += iterations
        return a

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        K = self.K
        if len(legal) == 1:
            return legal[0]
        if int(view[K.PHASE]) == K.PASSING:
            return self._passer.act(view, legal)
        self.decisions += 1
        st = self.os_state(view)
        if st.current_player() != self.seat or sorted(st.legal_actions()) != sorted(legal):
            raise RuntimeError("openspiel_ismcts: the rebuilt OpenSpiel state disagrees "
                               f"with the seat's legal moves {legal}")
        if self.settings["seconds"] is not None and self.iterations_run == 0:
            self._search(st, PROBE)
        return self._search(st, self._budget())

    def record_extra(self) -> dict | None:
        return {"openspiel_decisions": self.decisions,
                "openspiel_iterations": self.iterations_run,
                "openspiel_cpu_seconds": round(self.cpu, 4)}
