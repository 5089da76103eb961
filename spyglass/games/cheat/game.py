"""Cheat (Bitan & Kraus 2018, §4) as a framework game: options, deal and words.

The rules are in :mod:`spyglass.games.cheat.kernel`. The paper leaves some rules open;
the choices made here (each a documented default, the reasonable ones options):

* **A round is one move** (a claim, a Take-a-Card or a Call-Cheat). The game ends after
  ``max_rounds`` (100) moves and the player with fewer cards wins; **equal counts are a
  draw** (½ each). Cards on the pile count for nobody.
* **After a Call-Cheat** the reference rank stays the last claimed one (the next claim is
  one above or below it). **Calling is the caller's move** and who moves next is the
  option ``after_call``: ``claimant`` (default: the call replaces the caller's turn, so
  play alternates), ``caller`` (the call costs no turn: the caller then moves),
  ``taker`` (whoever took the pile) or ``other`` (whoever did not).
* **The first claim** is relative to the deck's top card after the deal, which is turned
  up and stays out of play (both players know it).
* **Empty deck**: Take-a-Card is no longer legal (a player with cards can always claim).
* **Emptying the hand**: the claim must be checked, so the opponent's only move is
  Call-Cheat; a true claim wins, a false one takes the pile back and play goes on.
* **First player**: drawn from the seed with the deal (the paper: chosen randomly).

Suits never matter, so a card is its rank and a claim names the ranks it places.
Actions, as typed at the terminal: ``call`` (Call-Cheat), ``take`` (Take-a-Card), and
``up 7 7`` / ``down K 2 5`` (a claim one rank up or down from the reference, placing
those cards face down; the words before the cards give the direction).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game, IllegalMove
from spyglass.games.cheat import kernel as K
from spyglass.params import Param

DIRECTIONS = ("up", "down")
_RANK_OF = {name.lower(): r for r, name in enumerate(K.RANK_NAMES)}
_RANK_OF.update({"1": 0, "11": 10, "12": 11, "13": 12, "ace": 0, "jack": 10, "queen": 11,
                 "king": 12, "t": 9})


def claim_id(direction: int, ranks: list[int]) -> int:
    """The action id of a claim placing ``ranks`` (1-4 of them) in ``direction``."""
    ranks = sorted(int(r) for r in ranks)
    if not 1 <= len(ranks) <= K.MAX_CLAIM or direction not in (0, 1):
        raise ValueError(f"a claim places 1 to {K.MAX_CLAIM} cards, up or down")
    if any(not 0 <= r < K.N_RANKS for r in ranks):
        raise ValueError(f"ranks lie in 0..{K.N_RANKS - 1}")
    code = sum(r * 13 ** (3 - i) for i, r in enumerate(ranks))
    return K.CLAIM0 + (direction * 4 + len(ranks) - 1) * K.BLOCK + code


def claim_parts(action: int) -> tuple[int, list[int]]:
    """``(direction, ranks)`` of a claim id (the inverse of :func:`claim_id`)."""
    if not K.CLAIM0 <= action < K.N_ACTIONS:
        raise ValueError(f"{action!r} is not a Cheat claim id")
    b, code = divmod(action - K.CLAIM0, K.BLOCK)
    k = b % 4 + 1
    return b // 4, [(code // 13 ** (3 - i)) % 13 for i in range(k)]


class Cheat(Game):
    """Cheat for two (Bitan & Kraus 2018, §4): false claims, Take-a-Card, Call-Cheat."""

    name = "cheat"
    particle_repair = "repair:repair"
    sdmcts_abstraction = "abstraction:ABSTRACTION"
    title = "Cheat"
    min_players = 2
    max_players = 2
    information = "imperfect"
    has_roles = False
    options = (
        Param("hand_size", int, 8, "cards dealt to each player", low=1, high=20),
        Param("max_rounds", int, 100, "moves before the game ends on card counts",
              low=1, high=1000),
        Param("after_call", str, "claimant", "who moves after a Call-Cheat",
              choices=K.AFTER_CALL_RULES),
    )

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        self.hand_size = self.settings["hand_size"]
        self.max_rounds = self.settings["max_rounds"]
        self.after_call = K.AFTER_CALL_RULES.index(self.settings["after_call"])
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = K.N_ACTIONS
        self.max_moves = self.max_rounds + 1

    def new_state(self, seed: int) -> np.ndarray:
        """Shuffle, deal ``hand_size`` cards each, turn the starter, draw who starts."""
        seed = self.check_seed(seed)
        gen = np.random.default_rng(seed)
        deck = gen.permutation(np.repeat(np.arange(K.N_RANKS, dtype=np.int64), 4))
        first = int(gen.integers(2))
        return K.new_state(deck.astype(np.int64), self.hand_size, first, self.max_rounds,
                           self.after_call)

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        action = int(action)
        if action == K.CALL:
            return "call"
        if action == K.TAKE:
            return "take"
        d, ranks = claim_parts(action)
        return f"{DIRECTIONS[d]} " + " ".join(K.RANK_NAMES[r] for r in ranks)

    def parse_action(self, text: str, legal: list[int], view: np.ndarray | None = None) -> int:
        words = text.strip().lower().replace(",", " ").split()
        choices = ", ".join(self.action_text(a, view) for a in legal[:12])
        more = " ..." if len(legal) > 12 else ""
        if not words:
            raise ValueError(f"type call, take, or up/down and the cards; e.g. {choices}{more}")
        if words[0] in ("call", "cheat", "call-cheat") and len(words) == 1:
            a = K.CALL
        elif words[0] in ("take", "draw", "take-a-card") and len(words) == 1:
            a = K.TAKE
        elif words[0] in ("up", "higher", "down", "lower") and len(words) > 1:
            d = 0 if words[0] in ("up", "higher") else 1
            try:
                ranks = [_RANK_OF[w] for w in words[1:]]
            except KeyError as e:
                raise ValueError(f"{e.args[0]!r} is not a rank (A 2 ... 10 J Q K)") from None
            a = claim_id(d, ranks)
        else:
            raise ValueError(f"{text.strip()!r}: type call, take, or up/down and the cards "
                             f"(e.g. 'up 7 7'); legal here: {choices}{more}")
        if a not in legal:
            raise IllegalMove(f"{text.strip()!r} is not legal here; e.g. {choices}{more}")
        return a

    def _cards(self, counts) -> str:
        out = [K.RANK_NAMES[r] for r in range(K.N_RANKS) for _ in range(int(counts[r]))]
        return " ".join(out) if out else "-"

    def view_text(self, view: np.ndarray, seat: int) -> str:
        v = view
        ref = int(v[K.V_REF])
        up, down = K.RANK_NAMES[(ref + 1) % 13], K.RANK_NAMES[(ref + 12) % 13]
        lines = [
            f"your hand ({int(v[K.V_HAND:K.V_HAND + 13].sum())}): "
            f"{self._cards(v[K.V_HAND:K.V_HAND + 13])}",
            f"opponent: {int(v[K.V_OPP_HAND])} cards; known to hold at least: "
            f"{self._cards(v[K.V_KNOWN:K.V_KNOWN + 13])}",
            f"pile: {int(v[K.V_PILE:K.V_PILE + 13].sum()) + int(v[K.V_OPP_PILE])} cards "
            f"(yours: {self._cards(v[K.V_PILE:K.V_PILE + 13])}; "
            f"{int(v[K.V_OPP_PILE])} of the opponent's, unseen)",
            f"deck: {int(v[K.V_DECK_N])} cards; starter card {K.RANK_NAMES[int(v[K.V_STARTER])]}",
            f"last claimed rank {K.RANK_NAMES[ref]}: claim 'up' = {up}, 'down' = {down}",
            f"round {int(v[K.V_ROUND])} of {int(v[K.V_MAX_ROUNDS])}",
        ]
        result, to_move = int(v[K.V_RESULT]), int(v[K.V_TO_MOVE])
        if result == K.DRAW:
            lines.append("the game is over: a draw")
        elif result >= 0:
            lines.append("the game is over: " + ("you won" if result == seat else "you lost"))
        elif to_move == seat:
            if v[K.V_FORCED]:
                lines.append("the opponent played its last cards: you must call")
            else:
                lines.append("your move: call | take | up/down CARDS (e.g. 'up 7 7')")
        else:
            lines.append("the opponent's move")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        who = "you" if actor == seat else "the opponent"
        if obs & K.OBS_CALL:
            truth = (obs >> 52) & 1
            pile = [(obs >> (3 * r)) & 7 for r in range(13)]
            verdict = "the claim was true" if truth else "the claim was false"
            return f"{who} called cheat: pile {self._cards(pile)}; {verdict}"
        if obs >= K.OBS_TAKE_OPP:
            return f"{who} took a card"
        if obs >= K.OBS_TAKE_OWN:
            return f"{who} took a card: {K.RANK_NAMES[obs - K.OBS_TAKE_OWN]}"
        if obs >= K.OBS_CLAIM_OPP:
            b = obs - K.OBS_CLAIM_OPP
            return f"{who} claimed {b % 4 + 1} card(s), one rank {DIRECTIONS[b // 4]}"
        if obs >= K.OBS_CLAIM_OWN:
            return f"{who} claimed: {self.action_text(obs - K.OBS_CLAIM_OWN)}"
        raise ValueError(f"{obs!r} is not a Cheat observation key")

    def state_text(self, state: np.ndarray) -> str:
        s = state
        lines = [f"seat {p} hand: {self._cards(s[K.HAND + 13 * p:K.HAND + 13 * p + 13])}"
                 for p in range(2)]
        lines.append("pile: " + self._cards(s[K.PBY:K.PBY + 13] + s[K.PBY + 13:K.PBY + 26]))
        lines.append(f"deck: {int(s[K.DECK_N])} cards; round {int(s[K.ROUND])}")
        r = int(s[K.RESULT])
        lines.append("draw" if r == K.DRAW else f"seat {r} won" if r >= 0
                     else f"seat {int(s[K.TO_MOVE])} to move")
        return "\n".join(lines)
