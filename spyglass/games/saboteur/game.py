"""Saboteur (one round) as a framework game: the deal, words and the compiled kernel.

The rules are in :mod:`spyglass.games.saboteur.kernel` (Whitehouse 2014, §4.2.13; the
published card game, Moyersoen 2004). One round is a game: the thesis's experiments
(§7.5.5) count the winning team of a round, so gold nuggets and the three-round match
are not modelled.

Words. Cells are named like a chess board's, column letter then row number, row 1 at the
top: the start is ``b4`` and the goals are ``j2``, ``j4``, ``j6``. A tunnel card is named
by its openings *as placed* (``N``, ``E``, ``S``, ``W``), a dead end with a leading
``x``: ``NE c4`` puts a curve joining north and east on c4, ``SW c4`` the same card
turned 180°, ``xNS c4`` the dead end with north and south stubs. Other moves:
``break pick 2`` (seat 2's pick), ``repair lantern 0``, ``repair pick 1 with pick/cart``
(a double repair), ``rockfall c4``, ``map j2``, ``discard NE`` / ``discard map`` (a pass).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from spyglass.games.base import Game, IllegalMove, top_or_tied
from spyglass.games.saboteur import kernel as K

EDGE_LETTERS = "NESW"
ROLE_NAMES = ("gold-digger", "saboteur")
GOAL_NAMES = ("gold", "stone (N-E curve)", "stone (N-W curve)")
ACTION_CARD_NAMES = ("break-pick", "break-lantern", "break-cart", "repair-pick",
                     "repair-lantern", "repair-cart", "repair-pick/lantern",
                     "repair-pick/cart", "repair-lantern/cart", "rockfall", "map")
DOUBLE_NAMES = ("pick/lantern", "pick/cart", "lantern/cart")


def edges_text(edges: int) -> str:
    """``NE`` for the openings north and east."""
    return "".join(ch for d, ch in enumerate(EDGE_LETTERS) if (edges >> d) & 1)


def placed_edges(t: int, rot: int) -> int:
    e = int(K.TUNNEL_EDGES[t])
    return ((e << 2) | (e >> 2)) & 15 if rot else e


def tunnel_text(t: int, rot: int = 0) -> str:
    """A tunnel card by its openings as placed (``x`` first for a dead end)."""
    return ("x" if t >= K.N_PASSAGE else "") + edges_text(placed_edges(t, rot))


def card_text(t: int) -> str:
    """A card type's name in a hand or a discard."""
    return tunnel_text(t) if t < K.N_TUNNEL else ACTION_CARD_NAMES[t - K.N_TUNNEL]


def cell_text(c: int) -> str:
    r, k = divmod(int(c), K.COLS)
    return f"{chr(ord('a') + k)}{r + 1}"


def goal_text(g: int) -> str:
    return cell_text(int(K.GOAL_CELLS[g]))


class Saboteur(Game):
    """Saboteur: gold-diggers dig a tunnel to the gold; hidden saboteurs stop them."""

    name = "saboteur"
    title = "Saboteur"
    min_players = K.MIN_PLAYERS
    max_players = K.MAX_PLAYERS
    information = "hidden roles"
    has_roles = True
    particle_repair = "repair:repair"
    role_deals = "roles:role_deals"
    win_statistic = ("1 for each member of the winning team (gold-diggers or saboteurs) "
                     "of the round, as Whitehouse 2014 (§7.5.5) counted wins")

    def __init__(self, n_players: int | None = None, **options: Any) -> None:
        super().__init__(n_players, **options)
        self.kernel = K.KERNEL
        self.state_size = K.STATE_SIZE
        self.view_size = K.VIEW_SIZE
        self.n_actions = K.N_ACTIONS
        self.max_moves = K.MAX_MOVES
        self.n_saboteur_cards = int(K.SABOTEURS[self.n_players])
        self.n_digger_cards = int(K.DIGGERS[self.n_players])
        self.hand_size = int(K.HAND_SIZES[self.n_players])
        self._names: set[str] | None = None

    def new_state(self, seed: int) -> np.ndarray:
        """Deal the role cards (one spare, unseen), the goal cards and the 67 cards."""
        seed = self.check_seed(seed)
        gen = np.random.default_rng(seed)
        role_deck = np.array([1] * self.n_saboteur_cards + [0] * self.n_digger_cards,
                             dtype=np.int64)
        roles = gen.permutation(role_deck)[: self.n_players]
        goals = gen.permutation(np.arange(3, dtype=np.int64))
        deck = gen.permutation(np.repeat(np.arange(K.N_TYPES, dtype=np.int64), K.COUNTS))
        return K.new_state(self.n_players, roles.astype(np.int64), goals.astype(np.int64),
                           deck.astype(np.int64))

    def legal_actions(self, state: np.ndarray) -> list[int]:
        out = np.empty(K.N_ACTIONS, dtype=np.int64)
        n = int(K.legal_actions(state, out))
        return [int(a) for a in out[:n]]

    def win_scores(self, rewards) -> list[float]:
        """A team game: every member of the winning team (reward 1) wins. A round without
        saboteurs where the gold stays buried has no winner."""
        if max(rewards) <= 0:
            return [0.0] * len(rewards)
        return top_or_tied(rewards)

    def roles(self, state: np.ndarray) -> tuple[str, ...]:
        return tuple(ROLE_NAMES[int(state[K.ROLE + j])] for j in range(self.n_players))

    def saboteurs(self, state: np.ndarray) -> tuple[int, ...]:
        """The saboteur seats of a full state."""
        return tuple(j for j in range(self.n_players) if state[K.ROLE + j])

    # --- words ------------------------------------------------------------------------

    def action_text(self, action: int, view: np.ndarray | None = None) -> str:
        a = int(action)
        if 0 <= a < K.PLACE_N:
            tr, c = divmod(a, K.CELLS)
            t, rot = divmod(tr, 2)
            if rot and placed_edges(t, 1) == placed_edges(t, 0):
                raise ValueError(f"{a} is not a move: that card looks the same turned")
            return f"{tunnel_text(t, rot)} {cell_text(c)}"
        seats = self.n_players
        if K.BREAK <= a < K.REPAIR2:
            kind, rest = ("break", a - K.BREAK) if a < K.REPAIR else ("repair", a - K.REPAIR)
            tool, q = divmod(rest, K.MAX_PLAYERS)
            if q >= seats:
                raise ValueError(f"{a} names seat {q} of a {seats}-player game")
            return f"{kind} {K.TOOL_NAMES[tool]} {q}"
        if K.REPAIR2 <= a < K.ROCKFALL:
            kw, q = divmod(a - K.REPAIR2, K.MAX_PLAYERS)
            if q >= seats:
                raise ValueError(f"{a} names seat {q} of a {seats}-player game")
            k, w = divmod(kw, 2)
            tool = int(K.DOUBLE_TOOLS[k, w])
            return f"repair {K.TOOL_NAMES[tool]} {q} with {DOUBLE_NAMES[k]}"
        if K.ROCKFALL <= a < K.MAP:
            return f"rockfall {cell_text(a - K.ROCKFALL)}"
        if K.MAP <= a < K.DISCARD:
            return f"map {goal_text(a - K.MAP)}"
        if K.DISCARD <= a < K.N_ACTIONS:
            return f"discard {card_text(a - K.DISCARD)}"
        if a == K.HIDDEN_DISCARD:
            return "discard (face down)"
        raise ValueError(f"{action!r} is not a Saboteur action id")

    def parse_action(self, text: str, legal: list[int], view: np.ndarray | None = None) -> int:
        wanted = " ".join(text.strip().split())
        # Openings may be typed in any order and case ("en c4" is "NE c4").
        words = wanted.split(" ")
        if len(words) == 2 and words[0].strip("xX").upper() and set(
                words[0].lstrip("xX").upper()) <= set(EDGE_LETTERS):
            head = words[0]
            dead = head[0] in "xX"
            letters = set(head.lstrip("xX").upper())
            words[0] = ("x" if dead else "") + "".join(ch for ch in EDGE_LETTERS
                                                       if ch in letters)
            wanted = " ".join(words)
        key = wanted.lower()
        for a in legal:
            if self.action_text(a, view).lower() == key:
                return a
        choices = ", ".join(self.action_text(a, view) for a in legal)
        if key in self._every_move():
            raise IllegalMove(f"{text.strip()!r} is not a legal move here; legal: {choices}")
        raise ValueError(f"{text!r} is not a legal move here; legal: {choices}")

    def _every_move(self) -> set[str]:
        """The lower-case names of every move of this player count (made once)."""
        if self._names is None:
            names = set()
            for a in range(self.n_actions):
                try:
                    names.add(self.action_text(a).lower())
                except ValueError:  # an id that names no move at this player count
                    continue
            self._names = names
        return self._names

    def _board_lines(self, cells, goal_rev, goal_known, reach=None) -> list[str]:
        """The grid, three text rows and three columns per cell."""
        lines = ["    " + "".join(f" {chr(ord('a') + k)} " for k in range(K.COLS))]
        for r in range(K.ROWS):
            rows = ["    ", f"{r + 1:>3} ", "    "]
            for k in range(K.COLS):
                c = r * K.COLS + k
                v = int(cells[c])
                edges, mid = 0, "."
                if v == K.START:
                    edges, mid = 15, "S"
                elif v >= K.GOAL0:
                    g = v - K.GOAL0
                    known = int(goal_known[g])
                    if int(goal_rev[g]) == 0:
                        mid = "?" if known < 0 else ("g" if known == K.GOLD else "s")
                    else:
                        card = known if known >= 0 else K.STONE_NE
                        edges = int(K.GOAL_EDGES[card])
                        if int(goal_rev[g]) == 2:
                            edges = ((edges << 2) | (edges >> 2)) & 15
                        mid = "G" if card == K.GOLD else "o"
                elif v > K.EMPTY:
                    t, rot = divmod(v - 1, 2)
                    edges = placed_edges(t, rot)
                    mid = "x" if t >= K.N_PASSAGE else "+"
                    if reach is not None and t < K.N_PASSAGE and not reach[c]:
                        mid = "*"
                rows[0] += " | " if edges & 1 else "   "
                rows[1] += ("-" if edges & 8 else " ") + mid + ("-" if edges & 2 else " ")
                rows[2] += " | " if edges & 4 else "   "
            lines += rows
        return lines

    def view_text(self, view: np.ndarray, seat: int) -> str:
        v = view
        n = int(v[K.V_NP])
        lines = self._board_lines(v[K.V_CELL:K.V_CELL + K.CELLS],
                                  v[K.V_GOAL_REV:K.V_GOAL_REV + 3],
                                  v[K.V_GOAL_KNOWN:K.V_GOAL_KNOWN + 3],
                                  v[K.V_REACH:K.V_REACH + K.CELLS])
        lines.append("S start, ? face-down goal (g/s: you saw gold/stone), G gold, o stone, "
                     "+ passage, * passage cut off from the start, x dead end")
        lines.append(f"you are seat {seat}, a {ROLE_NAMES[int(v[K.V_ROLE])]}")
        hand = [card_text(t) for t in range(K.N_TYPES) for _ in range(int(v[K.V_HAND + t]))]
        lines.append(f"your hand: {' '.join(hand) if hand else '-'}")
        disc = [card_text(t) for t in range(K.N_TYPES) for _ in range(int(v[K.V_DISC + t]))]
        if disc:
            lines.append(f"you discarded face down: {' '.join(disc)}")
        for q in range(n):
            broken = [K.TOOL_NAMES[k] for k in range(3) if (int(v[K.V_BROKEN + q]) >> k) & 1]
            peeks = [goal_text(g) for g in range(3) if (int(v[K.V_PEEKED + q]) >> g) & 1]
            lines.append(f"  seat {q}: {int(v[K.V_HAND_N + q])} cards"
                         + (f", broken {'/'.join(broken)}" if broken else "")
                         + (f", looked at {' '.join(peeks)}" if peeks else "")
                         + (f", {int(v[K.V_DISC_N + q])} discarded" if v[K.V_DISC_N + q] else ""))
        lines.append(f"stock: {int(v[K.V_STOCK_N])} cards")
        result, to_move = int(v[K.V_RESULT]), int(v[K.V_TO_MOVE])
        if to_move < 0:
            lines.append("the round is over: "
                         + ("the gold-diggers found the gold" if result == K.DIGGERS_WIN
                            else "the gold stayed buried"))
        else:
            lines.append("your move" if to_move == seat else f"seat {to_move} to move")
        return "\n".join(lines)

    def observation_text(self, obs: int, seat: int, actor: int,
                         view: np.ndarray | None = None) -> str:
        obs = int(obs)
        if obs < 1:
            raise ValueError(f"{obs!r} is not a Saboteur observation key")
        rest, shown = divmod(obs - 1, K.OBS_SPAN)
        reveal, rest = rest % 64, rest // 64
        peek, drawn = rest % 4, rest // 4
        who = "you" if actor == seat else f"seat {actor}"
        move = self.action_text(shown)
        text = (f"{who} discarded a card face down" if shown == K.HIDDEN_DISCARD
                else f"{who} discarded {move[len('discard '):]}" if move.startswith("discard ")
                else f"{who} played {move}")
        if peek != K.NO_PEEK:
            text += f" (it is {GOAL_NAMES[peek]})"
        if reveal != K.NO_REVEAL:
            for g in range(3):
                digit = (reveal >> (2 * g)) & 3
                if digit != 3:
                    text += f"; goal {goal_text(g)} turned up: {GOAL_NAMES[digit]}"
        if drawn != K.NO_DRAW and actor == seat:
            text += f"; you drew {card_text(drawn)}"
        return text

    def state_text(self, state: np.ndarray) -> str:
        s = state
        known = [int(s[K.GOAL_CARD + g]) for g in range(3)]
        lines = self._board_lines(s[K.CELL:K.CELL + K.CELLS], s[K.GOAL_REV:K.GOAL_REV + 3],
                                  known, s[K.REACH:K.REACH + K.CELLS])
        lines.append("goals: " + ", ".join(f"{goal_text(g)} {GOAL_NAMES[known[g]]}"
                                           for g in range(3)))
        for q in range(self.n_players):
            hand = [card_text(t) for t in range(K.N_TYPES)
                    for _ in range(int(s[K.HAND + q * K.N_TYPES + t]))]
            broken = [K.TOOL_NAMES[k] for k in range(3) if (int(s[K.BROKEN + q]) >> k) & 1]
            lines.append(f"seat {q} ({ROLE_NAMES[int(s[K.ROLE + q])]}): {' '.join(hand) or '-'}"
                         + (f"; broken {'/'.join(broken)}" if broken else ""))
        lines.append(f"stock: {int(s[K.STOCK_N])} cards")
        r = int(s[K.RESULT])
        lines.append("gold-diggers won" if r == K.DIGGERS_WIN else "saboteurs won"
                     if r == K.SABOTEURS_WIN else f"seat {int(s[K.TO_MOVE])} to move")
        return "\n".join(lines)
