"""Spades as a framework game: options, card and bid words, the compiled kernel.

Rules and every choice: :mod:`spyglass.games.spades.kernel` (Whitehouse 2014, §4.2.4,
with OpenSpiel's ``spades`` where the thesis is silent). Cards are written rank then
suit (``Q♠`` or ``QS``); bids as ``nil`` or a number of tricks (``bid 4`` or ``4``).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game, IllegalMove
from spyglass.games.spades import kernel as K
from spyglass.params import Param
from spyglass.rng import make_rng

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SYMBOLS = "♣♦♥♠"
SEATS = ("North", "East", "South", "West")


def card_text(c: int, symbols: bool = True) -> str:
    suit, rank = divmod(int(c), 13)
    return RANKS[rank] + (SYMBOLS if symbols else SUITS)[suit]


def action_word(a: int) -> str:
    if a >= K.BID:
        b = a - K.BID
        return "nil" if b == 0 else f"bid {b}"
    return card_text(a)


def cards_text(mask: int) -> str:
    parts = []
    for suit in (3, 2, 1, 0):
        ranks = "".join(RANKS[r] for r in range(12, -1, -1) if (mask >> (suit * 13 + r)) & 1)
        parts.append(SYMBOLS[suit] + " " + (ranks or "-"))
    return "  ".join(parts)


class Spades(Game):
    """Spades: partnerships N-S and E-W bid tricks, then play them with spades trump."""

    name = "spades"
    particle_repair = "repair:repair"
    episode = "episodes:episode"
    title = "Spades"
    min_players = 4
    max_players = 4
    information = "imperfect"
    seat_names = SEATS
    has_roles = False
    options = (
        Param("target", int, 500, "play rounds until a side exceeds this (0: one round)",
              low=0, high=10_000),
        Param("round_value", bool, False,
              "end with the current round, scored by Whitehouse 2014 eq. 4.1 (search)"),
        Param("mercy", bool, True, "end the game when a side falls below -350 (OpenSpiel)"),
        Param("spades_never_break", bool, False,
              "spades are never broken (OpenSpiel 2.0.2's behaviour)"),
    )

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        st = self.settings
        self.flags = (K.F_ROUND_VALUE if st["round_value"] else 0) | (
            K.F_NEVER_BREAK if st["spades_never_break"] else 0) | (
            K.F_MERCY if st["mercy"] else 0)
        self.target = st["target"]
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = K.N_ACTIONS
        rounds = 1 if self.target == 0 or st["round_value"] else K.MAX_ROUNDS
        self.max_moves = rounds * (K.N_CARDS + 4)

    def new_state(self, seed: int) -> np.ndarray:
        return K.new_state(make_rng(self.check_seed(seed)), self.flags, self.target)

    def scores(self, state: np.ndarray) -> tuple[int, int]:
        """North-South's and East-West's scores."""
        return int(state[K.SCORE]), int(state[K.SCORE + 1])

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        if not 0 <= action < K.N_ACTIONS:
            raise ValueError(f"{action!r} is not a Spades action (0..65)")
        return action_word(action)

    def parse_action(self, text: str, legal: list[int], view: np.ndarray | None = None) -> int:
        t = text.strip().upper().replace("10", "T")
        if t.startswith("BID "):
            t = t[4:].strip()
        if t == "NIL":
            t = "0"
        if t.isdigit() and K.BID + int(t) in legal:
            return K.BID + int(t)
        if len(t) == 2 and t[0] in RANKS and (t[1] in SUITS or t[1] in SYMBOLS):
            suit = SUITS.find(t[1]) if t[1] in SUITS else SYMBOLS.find(t[1])
            c = suit * 13 + RANKS.index(t[0])
            if c in legal:
                return c
            raise IllegalMove(f"{card_text(c)} is not a legal card here; legal: "
                              + ", ".join(self.action_text(a, view) for a in legal))
        return super().parse_action(text, legal, view)

    def view_text(self, view: np.ndarray, seat: int) -> str:
        v = [int(x) for x in view]
        lines = [f"You are {SEATS[seat]} (seat {seat}), partner {SEATS[(seat + 2) % 4]}. "
                 f"Round {v[K.ROUND_NO] + 1}.", "Your hand: " + cards_text(v[K.V_HAND])]
        bids = ", ".join(f"{SEATS[p]} " + ("?" if v[K.V_BIDS + p] < 0 else
                                           ("nil" if v[K.V_BIDS + p] == 0 else
                                            str(v[K.V_BIDS + p])))
                         + f" ({v[K.V_TRICKS + p]} taken)" for p in range(4))
        lines.append("Bids: " + bids)
        if v[K.PHASE] == K.PLAYING and v[K.N_PLAYED] % 4:
            lines.append("Current trick: " + ", ".join(
                f"{SEATS[p]} {card_text(v[K.V_TRICK + p])}" for p in range(4)
                if v[K.V_TRICK + p] >= 0))
        lines.append(f"Score N-S {v[K.V_SCORE]} ({v[K.V_BAGS]} bags), E-W {v[K.V_SCORE + 1]} "
                     f"({v[K.V_BAGS + 1]} bags); spades "
                     + ("broken" if v[K.BROKEN] else "not broken"))
        if v[K.TO_MOVE] < 0:
            lines.append("The game is over.")
        elif v[K.TO_MOVE] == seat:
            lines.append("Your bid." if v[K.PHASE] == K.BIDDING else "Your card.")
        else:
            lines.append(f"{SEATS[v[K.TO_MOVE]]} to move.")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        who = "you" if actor == seat else SEATS[actor]
        if obs & K.REVEAL_DEAL:
            c = (obs >> K.CARD_SHIFT) & 63
            return f"{who} played {card_text(c)}; round over. New hand: " \
                   f"{cards_text(obs & K.ALL_CARDS)}"
        if K.OBS_CARD <= obs < K.OBS_CARD + K.N_CARDS:
            return f"{who} played {card_text(obs - K.OBS_CARD)}"
        if K.OBS_BID <= obs <= K.OBS_BID + 13:
            return f"{who}: {action_word(K.BID + obs - K.OBS_BID)}"
        raise ValueError(f"{obs!r} is not a Spades observation key")

    def state_text(self, state: np.ndarray) -> str:
        s = [int(x) for x in state]
        lines = [f"{SEATS[p]:<5} hand {cards_text(s[K.HAND + p])}  bid {s[K.BIDS + p]}  "
                 f"tricks {s[K.TRICKS + p]}" for p in range(4)]
        lines.append(f"Score N-S {s[K.SCORE]} ({s[K.BAGS]} bags), E-W {s[K.SCORE + 1]} "
                     f"({s[K.BAGS + 1]} bags)")
        return "\n".join(lines)
