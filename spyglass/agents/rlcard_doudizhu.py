"""RLCard's Dou Di Zhu rule agent ``doudizhu-rule-v1`` seated as a Spyglass agent.

An outside baseline (issue 31): RLCard's ``DouDizhuRuleAgentV1`` (pip ``rlcard``, the
``outside`` extra), run unmodified, through an adapter that speaks both move languages.

* **What it is told.** RLCard's agent reads a dict (``raw_obs``): its hand, the trace of
  complete moves so far as ``(seat, cards)``, its legal moves, the landlord's seat and its
  own. The adapter builds that dict from this seat's view and from the moves the referee
  reported to :meth:`observe` (every Dou Di Zhu move is public), nothing else: it never
  holds a state, and the keys RLCard's game would add about the other hands
  (``others_hand``) are absent. So the rule agent sees what the seat sees.
* **Moves, ours to RLCard's.** RLCard writes a complete move as its cards in rank order
  (``3456789TJQKA2BR``, the same order and letters as ours): ``3334``, ``333444555666``,
  ``BR``, or ``pass``. Our move is a base move and then one kicker per action
  (:mod:`spyglass.games.doudizhu.kernel`); the adapter lists every complete move the seat
  can make by stepping the rules over a state that holds only the seat's own hand and
  the public fields of its view (other hands empty: the rules for the actor's moves
  read only its hand).
* **Moves, RLCard's to ours.** A card string can have several readings here:
  ``333444555666`` is a four-trio airplane or a three-trio airplane with three solo
  kickers, either ``333444555+666`` or ``444555666+333`` (docs/card-games.md). The
  adapter takes the reading RLCard means: RLCard's card-type table gives the string's
  type (for ``333444555666`` only ``trio_chain_4``, the four-trio airplane); among our
  readings of the string it picks the one with the same kicker-or-not and chain length,
  the lowest head on a tie. It then plays the base move and, at the following kicker
  decisions, the kickers in order.
* **Where the rule sets differ.** RLCard's agent is offered only the moves RLCard's game
  knows (its card-type table; e.g. RLCard has no airplane whose solo kickers repeat a
  rank as a reading of ``333444555666``), and reads a move we made that RLCard does not
  know (``444555666+333``) as RLCard's table reads its cards. If its answer is not one
  of our legal moves it plays a seeded uniform legal move instead, as its own rule does
  when nothing fits; such fallbacks are counted in the game record (``record_extra``).
* **No auction.** RLCard's game has no bidding (its seat 0 is the landlord) and its rule
  agent no bidding rule, so it plays Dou Di Zhu with ``bidding=false`` only (the
  default), and says so otherwise.
* **Randomness.** Its one random choice uses NumPy's global generator; the adapter seeds
  it from the game seed and the decision number and restores it afterwards, so a seeded
  game replays exactly.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.agents.base import Agent, MissingExtra
from spyglass.agents.registry import register
from spyglass.games.base import Game
from spyglass.params import Param

MISSING = "RLCard is not installed: pip install 'spyglass[outside]' (or pip install rlcard)"


def rlcard_tables() -> tuple[dict, dict]:
    """RLCard's card-type table (cards -> [[type, rank], ...]) and each card string's
    place in RLCard's own legal-move order; ImportError when RLCard is missing."""
    try:
        from rlcard.games.doudizhu.utils import CARD_TYPE, TYPE_CARD
    except ImportError as exc:  # the optional extra
        raise MissingExtra(MISSING) from exc
    order: dict[str, int] = {}
    for by_rank in TYPE_CARD.values():
        for cards_list in by_rank.values():
            for cards in cards_list:
                order.setdefault(cards, len(order))
    return CARD_TYPE[0], order


def cards_text(counts) -> str:
    """A multiset of ranks (count per rank) as RLCard writes it: ``333444``, ``BR``."""
    from spyglass.games.doudizhu import tables as T

    return "".join(T.RANK_CHARS[r] * int(counts[r]) for r in range(T.N_RANKS))


def complete_moves(view: np.ndarray, legal: list[int]) -> dict[str, list[list[int]]]:
    """Every complete move the seat of ``view`` can make now, by RLCard card string
    (``pass`` for the pass): each string's readings as our action sequences (a base move,
    then its kickers). Reads only the view: own hand and public fields."""
    from spyglass.games.doudizhu import kernel as K
    from spyglass.games.doudizhu import tables as T

    seat = int(view[K.V_SEAT])
    s = np.zeros(K.STATE_SIZE, dtype=np.int64)
    s[:K.N_PUBLIC] = view[:K.N_PUBLIC]
    s[K.HAND + T.N_RANKS * seat:K.HAND + T.N_RANKS * (seat + 1)] = \
        view[K.V_HAND:K.V_HAND + T.N_RANKS]
    s[K.CACHE_N] = 0
    out: dict[str, list[list[int]]] = {}
    buf = np.zeros(K.MAX_LEGAL + 16, dtype=np.int64)

    def walk(state: np.ndarray, seq: list[int], put: list[int]) -> None:
        if int(state[K.K_LEFT]) == 0:
            out.setdefault(cards_text(put), []).append(seq)
            return
        n = int(K.gen(state, buf))
        for a in [int(x) for x in buf[:n]]:
            nxt = state.copy()
            K.apply(nxt, a)
            more = list(put)
            for r in T.action_cards(a):
                more[r] += 1
            walk(nxt, seq + [a], more)

    for a in legal:
        if a == T.PASS:
            out["pass"] = [[a]]
            continue
        nxt = s.copy()
        K.apply(nxt, a)
        put = [0] * T.N_RANKS
        for r in T.action_cards(a):
            put[r] += 1
        walk(nxt, [a], put)
    return out


def reading(cards: str, readings: list[list[int]], rl_types: list | None) -> list[int]:
    """The reading of card string ``cards`` RLCard means (module docstring): same
    kicker-or-not and chain length as RLCard's first type for it, lowest head on a tie."""
    from spyglass.games.doudizhu import tables as T

    if len(readings) == 1 or not rl_types:
        return min(readings, key=lambda seq: (int(T.A_HEAD[seq[0]]), seq))
    kind = str(rl_types[0][0])
    kicks = kind.startswith(("trio_solo", "trio_pair", "four_two"))
    digits = kind.rsplit("_", 1)[-1]
    length = int(digits) if digits.isdigit() else None

    def fits(seq: list[int]) -> bool:
        base = seq[0]
        if (int(T.A_NK[base]) > 0) != kicks:
            return False
        return length is None or int(T.A_LEN[base]) == length

    good = [seq for seq in readings if fits(seq)] or readings
    return min(good, key=lambda seq: (int(T.A_HEAD[seq[0]]), seq))


@register("rlcard_ddz_rule")
class RLCardDouDiZhuRule(Agent):
    """RLCard's ``doudizhu-rule-v1`` through the adapter in this module's docstring."""

    plays = ("doudizhu",)

    description = ("RLCard's Dou Di Zhu rule agent doudizhu-rule-v1 (outside baseline; "
                   "needs the outside extra)")
    params = (Param("seed", int, None, "unused (the game seed seeds its one random choice)",
                    optional=True),)

    def __init__(self, **settings: Any) -> None:
        super().__init__(**settings)
        self._card_type, self._order = rlcard_tables()
        from rlcard.models.doudizhu_rule_models import DouDizhuRuleAgentV1

        self._rule = DouDizhuRuleAgentV1()

    def start(self, game: Game, seat: int, view: np.ndarray, seed: int) -> None:
        if game.settings.get("bidding"):
            raise ValueError("rlcard_ddz_rule plays doudizhu without the auction only "
                             "(RLCard's game and rule agent have no bidding): bidding=false")
        super().start(game, seat, view, seed)
        from spyglass.games.doudizhu import kernel as K
        from spyglass.games.doudizhu import tables as T

        self.K, self.T = K, T
        self.trace: list[tuple[int, str]] = []
        self._pending: dict[int, list[int]] = {}  # a move being made: seat -> ranks put
        self._plan: list[int] = []  # our own kickers still to play
        self.decisions = 0
        self.fallbacks = 0
        self.unknown_to_rlcard = 0

    def observe(self, obs: int, actor: int, view: np.ndarray) -> None:
        K, T = self.K, self.T
        a = int(obs) - 1  # every move is public: the key is 1 + action (no auction here)
        if a == T.PASS:
            self.trace.append((actor, "pass"))
            return
        put = self._pending.setdefault(actor, [0] * T.N_RANKS)
        for r in T.action_cards(a):
            put[r] += 1
        if int(view[K.K_LEFT]) == 0:  # the move is complete
            cards = cards_text(self._pending.pop(actor))
            self.trace.append((actor, cards))
            if cards not in self._card_type:
                self.unknown_to_rlcard += 1

    def act(self, view: np.ndarray, legal: list[int]) -> int:
        K = self.K
        if int(view[K.K_LEFT]) > 0:  # our own move's next kicker, chosen with its base
            a = self._plan.pop(0) if self._plan else -1
            if a not in legal:
                raise RuntimeError(f"rlcard_ddz_rule: planned kicker {a} is not legal "
                                   f"({legal}); the adapter lost track of its move")
            return a
        self.decisions += 1
        moves = complete_moves(view, legal)
        known = [m for m in moves if m == "pass" or m in self._card_type]
        known.sort(key=lambda m: (m != "pass", self._order.get(m, len(self._order))))
        raw = {"current_hand": cards_text(view[K.V_HAND:K.V_HAND + self.T.N_RANKS]),
               "trace": list(self.trace), "actions": known,
               "landlord": int(view[K.LANDLORD]), "self": self.seat}
        saved = np.random.get_state()
        np.random.seed((int(self.seed) * 1_000_003 + self.decisions) % 2**32)
        try:
            choice = self._rule.step({"raw_obs": raw})
        except (KeyError, IndexError):  # a table move RLCard cannot read (module docs)
            choice = None
        finally:
            np.random.set_state(saved)
        if choice not in moves:
            self.fallbacks += 1
            rng = np.random.default_rng((int(self.seed), self.decisions))
            choice = sorted(moves)[int(rng.integers(len(moves)))]
        seq = reading(choice, moves[choice], self._card_type.get(choice))
        self._plan = list(seq[1:])
        return seq[0]

    def record_extra(self) -> dict | None:
        return {"rlcard_decisions": self.decisions, "rlcard_fallbacks": self.fallbacks,
                "moves_unknown_to_rlcard": self.unknown_to_rlcard}
