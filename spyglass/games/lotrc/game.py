"""Lord of the Rings: The Confrontation as a framework game: setups, words, the kernel.

The rules are in :mod:`spyglass.games.lotrc.kernel` (Whitehouse 2014, §4.2.5-4.2.6, and
the published game where the thesis is silent; the choices are listed in
``docs/lotrc.md``). Seat 0 is Dark (Sauron, moves first), seat 1 Light (the Fellowship).

Moves are written ``Frodo>Cardolan`` (a character to a region), card choices by the
card's name (``card:3``, ``card:Elven Cloak``), decisions as ``retreat>Rhudaur``,
``stay``, ``swap`` (Sam takes Frodo's place) and ``nocards`` (Saruman).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game
from spyglass.games.lotrc import kernel as K
from spyglass.params import Param

SETUPS = ("fixed", "random", "placed")

#: The fixed setup: the thesis used "a single, hand-designed initial setup" (§4.2.6) but
#: does not print it, so this one is ours (docs/lotrc.md). Character -> region.
FIXED_SETUP = {
    # Light: four in the Shire, one in each region in front of it.
    K.FRODO: K.SHIRE, K.SAM: K.SHIRE, K.GANDALF: K.SHIRE, K.LEGOLAS: K.SHIRE,
    K.ARAGORN: 1, K.GIMLI: 4, K.BOROMIR: 2, K.PIPPIN: 5, K.MERRY: 8,
    # Dark: four in Mordor, one in each region in front of it.
    K.BALROG: K.MORDOR, K.WITCH_KING: K.MORDOR, K.SHELOB: K.MORDOR, K.SARUMAN: K.MORDOR,
    K.CAVE_TROLL: 14, K.ORCS: 11, K.WARG: 13, K.BLACK_RIDER: 10, K.NAZGUL: 7,
}

SIDE_NAMES = ("Dark", "Light")


def char_name(c: int) -> str:
    return K.DARK_NAMES[c] if c < 9 else K.LIGHT_NAMES[c - 9]


def card_name(side: int, k: int) -> str:
    return (K.DARK_CARDS if side == K.DARK else K.LIGHT_CARDS)[k]


def _random_setup(rng: np.random.Generator) -> dict[int, int]:
    """Frodo, Sam and the Balrog at home, everyone else at random (§6.3.2)."""
    out: dict[int, int] = {}
    for side, home, front, keep in ((K.LIGHT, K.SHIRE, K.LIGHT_START, (K.FRODO, K.SAM)),
                                    (K.DARK, K.MORDOR, K.DARK_START, (K.BALROG,))):
        rest = [c for c in range(9 * side, 9 * side + 9) if c not in keep]
        rest = [rest[i] for i in rng.permutation(len(rest))]
        at_home = list(keep) + rest[:4 - len(keep)]
        for c in at_home:
            out[c] = home
        for c, r in zip(rest[4 - len(keep):], front, strict=True):
            out[c] = r
    return out


class Confrontation(Game):
    """Lord of the Rings: The Confrontation (Knizia 2002; Whitehouse 2014, §4.2.5)."""

    name = "lotrc"
    title = "LOTR: Confrontation"
    min_players = 2
    max_players = 2
    information = "imperfect"
    has_roles = False  # the sides are not hidden; roles() names them for the reports
    simultaneous = "kernel:simultaneous"
    episode = "episodes:episode"
    options = (
        Param("setup", str, "fixed", "fixed (our hand-designed one; the thesis does not print "
              "its own), random (Frodo, Sam and the Balrog at home, §6.3.2) or placed (each "
              "player places its own pieces in the game's first moves, Dark first)",
              choices=SETUPS),
        Param("shire_win", int, 4, "Dark characters in the Shire that win (the thesis: 4; "
              "the published rules: 3)", low=3, high=4),
        Param("max_turns", int, 300, "turns after which the game is a draw (a bound the "
              "board game does not need; random games end far sooner)", low=20, high=2000),
    )

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = K.N_ACTIONS
        # A turn is a move plus at most four combats (four defenders in a home region), each
        # of at most five decisions: a retreat or swap, Saruman's, two cards, a retreat's
        # region.
        self.max_moves = self.settings["max_turns"] * 21 + 1 + 10  # (+ ten placements)

    def new_state(self, seed: int) -> np.ndarray:
        """The setup (fixed, or drawn from ``seed``) and the chance stream from ``seed``."""
        seed = self.check_seed(seed)
        rng = np.random.default_rng(seed)
        chance = int(rng.integers(1, 1 << 62))
        if self.settings["setup"] == "placed":
            return self.placement_state(chance)
        setup = FIXED_SETUP if self.settings["setup"] == "fixed" else _random_setup(rng)
        return self.state_from_setup(setup, chance)

    def placement_state(self, chance: int) -> np.ndarray:
        """Every character at home, Dark to fill its five front regions (one move each,
        in the order Gondor, Dagorlad, Rohan, Fangorn, Mirkwood), then Light (Arthedain,
        Cardolan, Rhudaur, Eregion, Enedwaith); the opponent sees only that a piece went
        there. Then Dark moves first."""
        s = self.state_from_setup(FIXED_SETUP, chance)
        for c in range(18):
            home = K.MORDOR if c < 9 else K.SHIRE
            s[K.LOC + c] = home
            s[K.MASK + c] = 1 << home
        s[K.PHASE], s[K.PLACED] = K.P_SETUP, 0
        return s

    def state_from_setup(self, setup: dict[int, int], chance: int) -> np.ndarray:
        """The initial state with characters placed as ``setup`` says (checked)."""
        s = np.full(K.STATE_SIZE, -1, dtype=np.int64)
        for side, home, front in ((K.LIGHT, K.SHIRE, K.LIGHT_START),
                                  (K.DARK, K.MORDOR, K.DARK_START)):
            where = [setup.get(c) for c in range(9 * side, 9 * side + 9)]
            if sorted(r for r in where if r is not None) != sorted([home] * 4 + list(front)):
                raise ValueError(f"{SIDE_NAMES[side]} must place four characters at home and "
                                 "one in each region in front of it")
        mask = {K.LIGHT: 0, K.DARK: 0}
        for c, r in setup.items():
            s[K.LOC + c] = r
            mask[c >= 9] |= 1 << r
        for c in range(18):
            s[K.MASK + c] = mask[c >= 9]
        s[K.HAND] = s[K.HAND + 1] = K.ALL_CARDS
        s[K.PHASE], s[K.ACTOR], s[K.TURN], s[K.PLIES], s[K.RESULT] = K.P_MOVE, 0, 0, 0, -1
        s[K.C_FIRST] = s[K.C_NOCARDS] = s[K.C_SEEN] = 0
        s[K.LC_OUT] = 0
        s[K.LAST] = K.LAST_MOVE
        s[K.PLACED] = 10
        s[K.SHIRE_WIN] = self.settings["shire_win"]
        s[K.MAX_TURNS] = self.settings["max_turns"]
        s[K.CHANCE] = chance & ((1 << 62) - 1) or 1
        return s

    def roles(self, state: np.ndarray) -> tuple[str, ...]:
        """Seat 0 plays Dark, seat 1 Light (public): tournaments report win rates by side."""
        return ("dark", "light")

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        a = int(action)
        if not 0 <= a < K.N_ACTIONS:
            raise ValueError(f"{action!r} is not a LOTR:C action")
        if a < K.N_MOVES:
            side = K.LIGHT if view is None else int(view[K.V_SEAT])
            return f"{char_name(9 * side + a // 16)}>{K.REGION_NAMES[a % 16]}"
        if a < K.RETREAT0:
            side = K.DARK if view is None else int(view[K.V_SEAT])
            return f"card:{card_name(side, a - K.CARD0)}"
        if a < K.STAY:
            return f"retreat>{K.REGION_NAMES[a - K.RETREAT0]}"
        return ("stay", "swap", "nocards")[a - K.STAY]

    def _board(self, view: np.ndarray, seat: int) -> list[str]:
        own = {int(view[K.V_OWN + i]): [] for i in range(9)}
        for i in range(9):
            r = int(view[K.V_OWN + i])
            if r >= 0:  # * : the opponent knows this character is here
                seen = int(view[K.V_MASK + 9 * seat + i]) == 1 << r
                own[r].append(char_name(9 * seat + i) + ("*" if seen else ""))
        opp = 1 - seat
        lines = []
        for row in range(7):
            for a in range(4):
                b = row - a
                if not 0 <= b <= 3:
                    continue
                r = 4 * a + b
                mine = ", ".join(own.get(r, [])) or "-"
                n = int(view[K.V_OCOUNT + r])
                known = [char_name(c) for c in range(9 * opp, 9 * opp + 9)
                         if int(view[K.V_MASK + c]) == 1 << r]
                theirs = f"{n} {SIDE_NAMES[opp].lower()}" + (
                    f" (known: {', '.join(known)})" if known else "") if n else ""
                lines.append(f"  {K.REGION_NAMES[r]:<16} {mine}" + (f" | {theirs}" if theirs
                                                                       else ""))
        return lines

    def view_text(self, view: np.ndarray, seat: int) -> str:
        v = view
        lines = [f"you are {SIDE_NAMES[seat]} (seat {seat}); turn {int(v[K.V_PLIES]) + 1}"]
        lines += self._board(v, seat)
        lines.append("  (* the opponent knows where that character is; known: the "
                     "opponent's characters you have seen there)")
        opp = 1 - seat
        dead = [char_name(c) for c in range(18) if int(v[K.V_MASK + c]) == 0]
        if dead:
            lines.append("defeated: " + ", ".join(dead))
        hand = int(v[K.V_HAND + seat])
        lines.append("your cards: " + ", ".join(card_name(seat, k) for k in range(9)
                                                if hand >> k & 1))
        ohand = int(v[K.V_HAND + opp])
        lines.append(f"{SIDE_NAMES[opp]}'s cards: " + ", ".join(
            card_name(opp, k) for k in range(9) if ohand >> k & 1))
        if int(v[K.V_C]) >= 0:
            att, dfd = int(v[K.V_C + 1]), int(v[K.V_C + 2])
            lines.append(f"combat in {K.REGION_NAMES[int(v[K.V_C])]}: {char_name(att)} attacks "
                         f"{char_name(dfd)}")
            if int(v[K.V_PICK + opp]) >= 0:
                lines.append(f"{SIDE_NAMES[opp]} shows {card_name(opp, int(v[K.V_PICK + opp]))}")
        if int(v[K.V_PHASE]) == K.P_SETUP and int(v[K.V_ACTOR]) == seat:
            region = K.REGION_NAMES[int(K.FRONT[int(v[K.V_PLACED])])]
            lines.append(f"place one of your characters at home in {region}")
        result = int(v[K.V_RESULT])
        if result == K.DRAW:
            lines.append("the game is over: a draw (turn limit)")
        elif result >= 0:
            lines.append("the game is over: " + ("you won" if result == seat else "you lost"))
        else:
            lines.append("your move" if int(v[K.V_ACTOR]) == seat else "the opponent's move")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        who = "you" if actor == seat else SIDE_NAMES[actor]
        parts = []
        code = obs & 0xFF
        if code:
            a = code - 1
            if a < K.N_MOVES:
                parts.append(f"you moved {char_name(9 * seat + a // 16)} to "
                             f"{K.REGION_NAMES[a % 16]}")
            elif a < K.RETREAT0:
                parts.append(f"you played {card_name(seat, a - K.CARD0)}")
            else:
                parts.append(f"you chose {self.action_text(a)}")
        elif view is not None and int(view[K.V_LAST]) == K.LAST_MOVE:
            parts.append(f"{who} moved a character from {K.REGION_NAMES[int(view[K.V_E])]} to "
                         f"{K.REGION_NAMES[int(view[K.V_E + 1])]}")
        elif view is not None and int(view[K.V_LAST]) == K.LAST_CARD:
            parts.append(f"{who} chose a card")
        elif view is not None:
            parts.append(f"{who} chose {self.action_text(int(view[K.V_LAST]))}")
        else:
            parts.append(f"{who} acted")
        if view is not None and int(view[K.V_LC]) >= 0:
            att, dfd = int(view[K.V_LC]), int(view[K.V_LC + 1])
            out = int(view[K.V_LC + 4])
            dc, lc = int(view[K.V_LC + 2]), int(view[K.V_LC + 3])
            text = f"combat: {char_name(att)} against {char_name(dfd)}"
            if dc >= 0:
                text += (f" (cards: Dark {card_name(K.DARK, dc)}, "
                         f"Light {card_name(K.LIGHT, lc)})")
            fell = [char_name(c) for c, bit in ((att, K.OUT_ATT_DEAD), (dfd, K.OUT_DEF_DEAD))
                    if out & bit]
            if fell:
                text += "; defeated: " + ", ".join(fell)
            if out & K.OUT_RETREAT:
                text += "; a character retreated"
            if out & K.OUT_SHELOB:
                text += "; Shelob returned to Gondor"
            parts.append(text)
        return "; ".join(parts)

    def state_text(self, state: np.ndarray) -> str:
        lines = []
        for r in range(16):
            here = [char_name(c) for c in range(18) if int(state[K.LOC + c]) == r]
            if here:
                lines.append(f"{K.REGION_NAMES[r]}: {', '.join(here)}")
        result = int(state[K.RESULT])
        lines.append("draw" if result == K.DRAW else f"{SIDE_NAMES[result]} won" if result >= 0
                     else f"{SIDE_NAMES[int(state[K.TURN])]} to move")
        return "\n".join(lines)
