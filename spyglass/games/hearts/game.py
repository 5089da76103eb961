"""Hearts as a framework game: options, card words and the compiled kernel.

The rules are in :mod:`spyglass.games.hearts.kernel` (Whitehouse 2014, §4.2.3, with
OpenSpiel's ``hearts`` defaults where the thesis is silent; its docstring lists every
choice). Cards are written rank then suit, ``Q♠`` or ``QS`` (``10``/``T`` for ten);
either form is accepted at the terminal, in any case.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game, IllegalMove, top_or_tied
from spyglass.games.hearts import kernel as K
from spyglass.params import Param
from spyglass.rng import make_rng

RANKS = "23456789TJQKA"
SUITS = "CDHS"
SUIT_SYMBOLS = "♣♦♥♠"
DIRECTIONS = ("none", "left", "across", "right")  # OpenSpiel's PassDir order
SEATS = ("North", "East", "South", "West")

#: OpenSpiel's boolean parameters: (our option, kernel flag, default).
RULE_FLAGS = (
    ("pass_cards", K.F_PASS_CARDS, True),
    ("no_pts_on_first_trick", K.F_NO_PTS_FIRST, True),
    ("can_lead_any_club", K.F_LEAD_ANY_CLUB, False),
    ("jd_bonus", K.F_JD_BONUS, False),
    ("avoid_all_tricks_bonus", K.F_AVOID_BONUS, False),
    ("must_break_hearts", K.F_MUST_BREAK, True),
    ("qs_breaks_hearts", K.F_QS_BREAKS, True),
    ("can_lead_hearts_instead_of_qs", K.F_LEAD_H_NOT_QS, False),
)


def card_text(c: int, symbols: bool = True) -> str:
    """``Q♠`` (or ``QS``) for card id ``c``."""
    rank, suit = divmod(int(c), 4)
    return RANKS[rank] + (SUIT_SYMBOLS if symbols else SUITS)[suit]


def parse_card(text: str) -> int:
    """The card id of ``Q♠``, ``qs``, ``10h``, ``TH``; a ValueError otherwise."""
    t = text.strip().upper().replace("10", "T")
    if len(t) == 2:
        r = RANKS.find(t[0])
        s = SUITS.find(t[1]) if t[1] in SUITS else SUIT_SYMBOLS.find(t[1])
        if r >= 0 and s >= 0:
            return r * 4 + s
    raise ValueError(f"{text!r} is not a card (e.g. QS, Q♠, 10H, 2c)")


def cards_text(mask: int, symbols: bool = True) -> str:
    """The cards of a mask by suit (spades first), highest first."""
    parts = []
    for suit in (3, 2, 1, 0):
        ranks = "".join(RANKS[r] for r in range(12, -1, -1) if (mask >> (r * 4 + suit)) & 1)
        parts.append((SUIT_SYMBOLS if symbols else SUITS)[suit] + " " + (ranks or "-"))
    return "  ".join(parts)


class Hearts(Game):
    """Hearts: 4 players, pass 3, follow suit, avoid hearts and Q♠ (or shoot the moon)."""

    name = "hearts"
    particle_repair = "repair:repair"
    simultaneous = "kernel:simultaneous"
    episode = "episodes:episode"
    title = "Hearts"
    min_players = 4
    max_players = 4
    information = "imperfect"
    seat_names = SEATS
    has_roles = False
    win_statistic = ("first or equal first: 1 for each seat with the fewest points, ties "
                     "included (Whitehouse 2014, §8.3)")
    options = (
        Param("target", int, 50, "play deals until a total reaches this (0: one deal)",
              low=0, high=1000),
        Param("pass_direction", str, "rotate", "left, right, across, none by deal, or fixed",
              choices=("rotate", "left", "across", "right", "none")),
        Param("reward", str, "placing", "placing (1, 1/2, 1/2, 0) or points (one deal)",
              choices=("placing", "points")),
    ) + tuple(Param(name, bool, default, f"OpenSpiel hearts option {name}")
              for name, _flag, default in RULE_FLAGS)

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        st = self.settings
        flags = 0
        for name, flag, _default in RULE_FLAGS:
            if st[name]:
                flags |= flag
        if st["reward"] == "points":
            if st["target"] != 0:
                raise ValueError("game hearts: reward=points needs target=0 (one deal)")
            flags |= K.F_POINTS_REWARD
        self.flags = flags
        self.target = st["target"]
        pd = st["pass_direction"]
        self.fixed_dir = -1 if pd == "rotate" else DIRECTIONS.index(pd)
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = K.N_CARDS
        # Without bonuses every deal adds 26 (or 78) to the sum of the totals, which
        # stays below 4 * target until the game ends; with them, MAX_DEALS ends it.
        if self.target == 0:
            deals = 1
        elif flags & (K.F_JD_BONUS | K.F_AVOID_BONUS):
            deals = K.MAX_DEALS
        else:
            deals = min(K.MAX_DEALS, 4 * (self.target - 1) // 26 + 1)
        self.max_moves = deals * (K.N_CARDS + 4 * K.PASS_N)

    def new_state(self, seed: int) -> np.ndarray:
        """The first deal, drawn from ``seed``."""
        seed = self.check_seed(seed)
        return K.new_state(make_rng(seed), self.flags, self.target, self.fixed_dir)

    def win_scores(self, rewards) -> list[float]:
        """First or equal first, from the rewards: under both rewards (placing, points)
        the seats with the top reward are exactly those with the fewest points (tied
        first places share ¾, ⅔ or ½, every other seat gets at most ½ or the points
        reward is monotone), so it needs no state; the tests check it against
        :meth:`first_or_equal_first`."""
        return top_or_tied(rewards)

    def first_or_equal_first(self, state: np.ndarray) -> tuple[bool, ...]:
        """The thesis's win statistic per seat: fewest points, ties included."""
        return tuple(bool(K.first_or_equal_first(state, j)) for j in range(4))

    def scores(self, state: np.ndarray) -> tuple[int, ...]:
        return tuple(int(state[K.SCORE + j]) for j in range(4))

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        if not 0 <= action < K.N_CARDS:
            raise ValueError(f"{action!r} is not a card id (0..51)")
        return card_text(action)

    def parse_action(self, text: str, legal: list[int], view: np.ndarray | None = None) -> int:
        try:
            c = parse_card(text)
        except ValueError:
            return super().parse_action(text, legal, view)
        if c in legal:
            return c
        choices = ", ".join(card_text(a) for a in legal)
        raise IllegalMove(f"{card_text(c)} is not a legal card here; legal: {choices}")

    def view_text(self, view: np.ndarray, seat: int) -> str:
        v = [int(x) for x in view]
        lines = [f"You are {SEATS[seat]} (seat {seat}). Deal {v[K.DEAL_NO] + 1}, passing "
                 f"{DIRECTIONS[v[K.PASS_DIR]]}"
                 + (f", game to {v[K.TARGET]}" if v[K.TARGET] else ", one deal") + "."]
        lines.append("Your hand: " + cards_text(v[K.V_HAND]))
        if v[K.V_PASSED]:
            lines.append("You passed: " + cards_text(v[K.V_PASSED]))
        if v[K.V_RECEIVED]:
            lines.append("You received: " + cards_text(v[K.V_RECEIVED]))
        if v[K.PHASE] != K.PASSING and v[K.N_PLAYED] % 4:
            trick = [f"{SEATS[p]} {card_text(v[K.V_TRICK + p])}" for p in range(4)
                     if v[K.V_TRICK + p] >= 0]
            lines.append("Current trick: " + ", ".join(trick))
        forbid = v[K.FORBID]
        groups = ("♣", "♦", "♥", "♠", "Q♠")
        for p in range(4):
            played = v[K.V_PLAYED + p]
            void = [groups[g] for g in range(5) if (forbid >> (5 * p + g)) & 1]
            lines.append(
                f"  {SEATS[p]:<5} points {v[K.V_POINTS + p]:>3}  total {v[K.V_SCORE + p]:>3}  "
                f"tricks {v[K.V_TRICKS + p]:>2}  played {bin(played).count('1'):>2}"
                + (f"  has no {' '.join(void)}" if void else ""))
        lines.append("hearts broken" if v[K.BROKEN] else "hearts not broken")
        if v[K.TO_MOVE] < 0:
            lines.append("The game is over.")
        elif v[K.TO_MOVE] == seat:
            lines.append("Your turn to " + ("pass a card." if v[K.PHASE] == K.PASSING
                                            else "play."))
        else:
            lines.append(f"{SEATS[v[K.TO_MOVE]]} to move.")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        who = "you" if actor == seat else SEATS[actor]
        if obs & K.REVEAL_PASS:
            c = (obs >> K.CARD_SHIFT) & 63
            got = obs & K.ALL_CARDS
            head = f"{who} passed {card_text(c)}" if c < 52 else f"{who} passed a card"
            return f"{head}; you received {cards_text(got)}; " \
                   f"{SEATS[(obs >> K.LEAD_SHIFT) & 3]} leads"
        if obs & K.REVEAL_DEAL:
            c = (obs >> K.CARD_SHIFT) & 63
            return f"{who} played {card_text(c)}; the deal is over. New hand: " \
                   f"{cards_text(obs & K.ALL_CARDS)}"
        if obs == K.OBS_HIDDEN_PASS:
            return f"{who} passed a card (unseen)"
        if K.OBS_CARD <= obs < K.OBS_CARD + K.N_CARDS:
            c = obs - K.OBS_CARD
            passing = view is not None and actor == seat and (int(view[K.V_PASSED]) >> c) & 1
            return f"{who} {'passed' if passing else 'played'} {card_text(c)}"
        raise ValueError(f"{obs!r} is not a Hearts observation key")

    def state_text(self, state: np.ndarray) -> str:
        s = [int(x) for x in state]
        lines = [f"Deal {s[K.DEAL_NO] + (0 if s[K.TO_MOVE] < 0 else 1)}, passing "
                 f"{DIRECTIONS[s[K.PASS_DIR]]}"]
        for p in range(4):
            lines.append(f"{SEATS[p]:<5} hand {cards_text(s[K.HAND + p])}  played "
                         f"{cards_text(s[K.PLAYED + p])}  points {s[K.POINTS + p]}  "
                         f"total {s[K.SCORE + p]}")
        if s[K.TO_MOVE] < 0:
            lines.append("Game over. Totals: " + ", ".join(
                f"{SEATS[p]} {s[K.SCORE + p]}" for p in range(4)))
        return "\n".join(lines)
