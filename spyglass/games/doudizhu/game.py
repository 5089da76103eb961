"""Dou Di Zhu as a framework game: options, words for moves and hands, stake returns.

The rules, and every choice where the thesis is silent, are in
:mod:`spyglass.games.doudizhu.kernel` (Whitehouse 2014, §4.2.1, Table 4.1; OpenSpiel's
``dou_dizhu`` for the auction and the kicker details). Ranks are written
``3456789TJQKA2`` and the jokers ``B`` (black) and ``R`` (red). A base move is written
as its cards (``33``, ``34567``, ``BR`` the rocket); a base move whose kickers follow
adds what it waits for: ``333+s`` (a trio and a solo), ``333+p`` (and a pair),
``333444+ss`` (an airplane and two solos), ``333444+pp``, ``3333+ss``, ``3333+pp``. A
kicker is ``+7`` (a solo) or ``+77`` (a pair); while kickers are due the ``+`` may be
left out. ``pass``; in the auction ``bid 1`` .. ``bid 3``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game
from spyglass.games.doudizhu import kernel as K
from spyglass.games.doudizhu import tables as T
from spyglass.params import Param
from spyglass.rng import make_rng

SEATS = ("seat 0", "seat 1", "seat 2")


def action_text(a: int) -> str:
    """Words for action id ``a`` (see the module docstring)."""
    a = int(a)
    if a == T.PASS:
        return "pass"
    c = int(T.A_CAT[a])
    if c == T.BID_CAT:
        return f"bid {a - T.BID1 + 1}"
    cards = "".join(T.RANK_CHARS[r] for r in T.action_cards(a))
    if c == T.KICK_SOLO or c == T.KICK_PAIR:
        return "+" + cards
    nk = int(T.A_NK[a])
    if nk:
        return cards + "+" + ("s" if T.A_KKIND[a] == T.K_SOLO else "p") * nk
    return cards


def counts_text(counts) -> str:
    """A hand (count per rank) as ``33 5 777 B``, or ``-``."""
    return " ".join(T.RANK_CHARS[r] * int(counts[r]) for r in range(T.N_RANKS)
                    if counts[r]) or "-"


class DouDiZhu(Game):
    """Dou Di Zhu: a landlord (20 cards) against two peasants (17 each), Table 4.1 moves."""

    name = "doudizhu"
    particle_repair = "repair:repair"
    episode = "episodes:episode"
    title = "Dou Di Zhu"
    min_players = 3
    max_players = 3
    information = "imperfect"
    has_roles = False
    options = (
        Param("bidding", bool, False, "the auction (OpenSpiel's); off: seat 0 is the "
              "landlord, as in most of Whitehouse 2014's experiments"),
        Param("four_with_two", bool, True, "four of a kind with two solo or two pair kickers "
              "(Table 4.1's quadplex; OpenSpiel has no such move)"),
    )

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        st = self.settings
        self.flags = (K.F_BIDDING if st["bidding"] else 0) | (
            K.F_FOUR_WITH_TWO if st["four_with_two"] else 0)
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = T.N_ACTIONS
        # Every card-putting action plays a card (at most 54); at most two passes follow a
        # move; the auction takes at most 9 bids and passes.
        self.max_moves = K.N_CARDS * 3 + 9

    def new_state(self, seed: int) -> np.ndarray:
        """A shuffled deal from ``seed`` (and, with the auction, the face-up card)."""
        return K.new_state(make_rng(self.check_seed(seed)), self.flags)

    def landlord_won(self, state: np.ndarray) -> bool | None:
        """True/False for a finished game, None when it ended with no landlord."""
        if int(state[K.WINNER]) < 0:
            return None
        return int(state[K.WINNER]) == int(state[K.LANDLORD])

    def roles(self, state: np.ndarray) -> tuple[str, ...]:
        """``"landlord"`` or ``"peasant"`` for each seat once the landlord is known (from
        the deal without the auction, after it with); ``""`` for every seat before. Not
        hidden roles (``has_roles`` stays False): tournaments report win rates by role."""
        lord = int(state[K.LANDLORD])
        if lord < 0:
            return ("",) * self.n_players
        return tuple("landlord" if p == lord else "peasant" for p in range(self.n_players))

    def stake_returns(self, state: np.ndarray) -> tuple[int, ...]:
        """OpenSpiel's returns of a finished game: the landlord wins or pays twice the
        stake, each peasant the stake; stake = bid × 2^(bombs and rockets + spring),
        spring meaning the peasants never played or the landlord played only once. The
        bid is 1 without the auction. All 0 when nobody bid."""
        w = int(state[K.WINNER])
        if w < 0:
            return (0, 0, 0)
        lord = int(state[K.LANDLORD])
        plays = [int(state[K.PLAYS + p]) for p in range(3)]
        spring = plays[lord] == 1 or (plays[(lord + 1) % 3] == 0 and plays[(lord + 2) % 3] == 0)
        stake = max(1, int(state[K.BID])) * 2 ** (int(state[K.BOMBS]) + int(spring))
        sign = 1 if w == lord else -1
        return tuple(2 * sign * stake if p == lord else -sign * stake for p in range(3))

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        if not 0 <= action < T.N_ACTIONS:
            raise ValueError(f"{action!r} is not a Dou Di Zhu action (0..{T.N_ACTIONS - 1})")
        return action_text(action)

    def parse_action(self, text: str, legal: list[int], view: np.ndarray | None = None) -> int:
        wanted = text.strip().upper().replace(" ", "")
        names = {action_text(a).upper().replace(" ", ""): a for a in legal}
        for key in (wanted, "+" + wanted):
            if key in names:
                return names[key]
        return super().parse_action(text, legal, view)

    def view_text(self, view: np.ndarray, seat: int) -> str:
        v = [int(x) for x in view]
        lord = v[K.LANDLORD]
        bidding = v[K.PHASE] == K.BIDDING

        def who(p: int) -> str:
            role = "" if bidding or lord < 0 else (" (landlord)" if p == lord else " (peasant)")
            return ("you" if p == seat else f"seat {p}") + role

        lines = [f"You are seat {seat}"
                 + ("" if bidding or lord < 0 else
                    (", the landlord." if seat == lord else f"; seat {lord} is the landlord."))]
        lines.append("Your hand: " + counts_text(v[K.V_HAND:K.V_HAND + T.N_RANKS]))
        if bidding:
            lines.append(f"Auction: high bid {v[K.BID]}"
                         + (f" by seat {lord}" if v[K.BID] else "")
                         + f"; seat {v[K.FIRST_BIDDER]} bid first (face-up card "
                         f"{T.RANK_CHARS[v[K.FACEUP]]}).")
        elif lord >= 0:
            lines.append("Kitty: " + counts_text(v[K.V_KITTY:K.V_KITTY + T.N_RANKS]))
        for p in range(3):
            played = v[K.V_PLAYED + T.N_RANKS * p:K.V_PLAYED + T.N_RANKS * (p + 1)]
            lines.append(f"  {who(p):<18} holds {v[K.V_SIZE + p]:>2}, played "
                         + counts_text(played))
        if v[K.TO_MOVE] < 0:
            w = v[K.WINNER]
            lines.append("Over: nobody bid." if w < 0 else
                         f"Over: {who(w)} went out; "
                         + ("the landlord wins." if w == lord else "the peasants win."))
            return "\n".join(lines)
        if v[K.K_LEFT] > 0:
            lines.append(f"Kickers due for {action_text(v[K.K_ACTION])}: {v[K.K_LEFT]} more.")
        elif not bidding:
            last = v[K.LAST_ACTION]
            lines.append("To beat: " + (f"{action_text(last).split('+')[0]} "
                                        f"({T.CAT_NAMES[T.A_CAT[last]]}) by seat "
                                        f"{v[K.LAST_PLAYER]}" if last >= 0 else
                                        "nothing (lead any move)"))
        lines.append("Your move." if v[K.TO_MOVE] == seat else f"Seat {v[K.TO_MOVE]} to move.")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        a = (obs - 1) % T.N_ACTIONS
        if obs < 1:
            raise ValueError(f"{obs!r} is not a Dou Di Zhu observation key")
        who = "you" if actor == seat else f"seat {actor}"
        words = action_text(a)
        cat = int(T.A_CAT[a])
        verb = ("passed" if a == T.PASS else words if cat == T.BID_CAT else
                f"added {words}" if cat in (T.KICK_SOLO, T.KICK_PAIR) else f"played {words}")
        text = f"{who} {verb}"
        code = (obs - 1) // T.N_ACTIONS
        if code:
            code -= 1
            ranks = [code // 225, (code // 15) % 15, code % 15]
            text += "; the auction is over, kitty " + " ".join(T.RANK_CHARS[r] for r in ranks)
        return text

    def state_text(self, state: np.ndarray) -> str:
        s = [int(x) for x in state]
        lines = [f"seat {p}{' (landlord)' if p == s[K.LANDLORD] else ''}: "
                 + counts_text(s[K.HAND + 15 * p:K.HAND + 15 * p + 15])
                 + "  played " + counts_text(s[K.PLAYED + 15 * p:K.PLAYED + 15 * p + 15])
                 for p in range(3)]
        lines.append("kitty: " + counts_text(s[K.KITTY:K.KITTY + 15]))
        if s[K.TO_MOVE] < 0:
            won = self.landlord_won(state)
            lines.append("nobody bid" if won is None else
                         "the landlord won" if won else "the peasants won")
        return "\n".join(lines)
